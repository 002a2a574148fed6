"""Learn to play: every lesson's positions are legal saved states, every lesson plays through
at the terminal (the correct path, and a wrong move explained) in English and French, the
rulebooks' worked examples keep their numbers, and every text exists in the four languages."""

from __future__ import annotations

import io
import json
import textwrap
from typing import Any

import pytest
from rich.console import Console

from subtable.bots.base import make_bot, observe
from subtable.core.events import Event
from subtable.core.registry import make_game
from subtable.core.rng import Rng
from subtable.i18n import LANGUAGES, catalog, translator
from subtable.learn import Lesson, LessonRun, find_lesson, lesson_games, lessons
from subtable.learn.run import text_of
from subtable.ui.lessons import LessonScreen
from subtable.words import game_ui

ALL = [(game, lesson.id) for game in lesson_games() for lesson in lessons(game)]


def _ids(case: tuple[str, str]) -> str:
    return case[1]


# -- positions ----------------------------------------------------------------------------------
@pytest.mark.parametrize("case", ALL, ids=_ids)
def test_every_scene_is_a_legal_saved_state_where_the_learner_decides(
    case: tuple[str, str],
) -> None:
    game_name, lesson_id = case
    for scene in find_lesson(game_name, lesson_id).scenes:
        game = make_game(game_name, **scene.options)
        data = scene.position(game)
        state = game.state_from_json(data)  # every field checked by the engine
        assert json.loads(json.dumps(state.to_json())) == json.loads(json.dumps(data))
        assert not state.is_terminal() and state.current_seat() == scene.seat
        if scene.steps:
            legal = {a.notation() for a in state.legal_actions()}
            assert legal & set(scene.steps[0].accept), f"{scene.id}: nothing to accept"


def test_a_position_the_engine_refuses_stays_refused() -> None:
    scene = find_lesson("red-november", "rn-first-turns").scene("water")
    game = make_game("red-november", **scene.options)
    data = dict(scene.position(game))
    data["fire"] = list(data["fire"])
    data["fire"][5] = True  # room 5 is at high water: it cannot burn too
    with pytest.raises(ValueError, match="burns and holds water"):
        game.state_from_json(data)


# -- the terminal front end -------------------------------------------------------------------
class Learner:
    """Answers the lesson's prompts: first a wrong move in each scene (its explanation is
    recorded), then the moves that make the point; in a game played out, the expert's."""

    def __init__(self, screen: LessonScreen) -> None:
        self.screen = screen
        self.explained: list[tuple[str, str]] = []
        #: what each teaching scene said had happened, and why
        self.done: list[str] = []
        self.tried: set[tuple[int, int]] = set()

    def __call__(self, prompt: str) -> str:
        run = self.screen.lesson_run
        assert run is not None
        if run.scene_done or run.state.is_terminal():
            done = run.scene.steps[-1].done if run.scene.steps else None
            if done is not None:
                self.done.append(run.text(done))
            return ""  # "Press Enter for the next scene"
        p = run.prompt()
        if not run.scene.steps:
            seat = run.scene.seat
            bot = make_bot("heuristic", run.state.game, seat, Rng(3))
            return str(bot.choose(observe(run.state, seat)).notation())
        key = (run.index, run.step)
        if key not in self.tried:
            self.tried.add(key)
            accept = set(run.scene.steps[run.step].accept)
            wrong = [m for m in p.legal if m not in accept]
            if wrong:
                outcome = run.try_move(wrong[0])  # not played: the screen asks again below
                assert not outcome.accepted and outcome.kind == "wrong", outcome
                assert outcome.message
                self.explained.append((wrong[0], outcome.message))
                return wrong[0]
        return p.expected[0]


def _play(game: str, lesson: Lesson, lang: str) -> tuple[str, Learner, LessonScreen]:
    buf = io.StringIO()
    console = Console(file=buf, width=80, height=24, color_system=None, highlight=False)
    screen = LessonScreen(game, translator(lang), console)
    learner = Learner(screen)
    screen._input = learner
    assert screen.run(lesson) == 0
    return buf.getvalue(), learner, screen


def _squash(text: str) -> str:
    return " ".join(text.split())


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("case", ALL, ids=_ids)
def test_every_lesson_plays_through_at_the_terminal(case: tuple[str, str], lang: str) -> None:
    game_name, lesson_id = case
    lesson = find_lesson(game_name, lesson_id)
    out, learner, screen = _play(game_name, lesson, lang)
    tr = translator(lang)
    flat = _squash(out)
    run = screen.lesson_run
    assert run is not None and run.finished
    teaching = [s for s in lesson.scenes if s.steps]
    # a wrong move was explained in every teaching step that has one, and printed
    assert len(learner.explained) >= len(teaching)
    for _move, message in learner.explained:
        assert _squash(message) in flat
    for scene in teaching:
        assert _squash(text_of(scene.title, tr)) in flat
    assert len(learner.done) >= len(teaching) - 1  # the last scene's needs no Enter
    for text in learner.done:
        assert text and _squash(text) in flat
    ending = tr("learn.end.won", result="").strip() or "!"
    lost = tr("learn.end.lost", result="").strip()
    assert _squash(ending) in flat or _squash(lost) in flat
    assert _squash(tr("learn.ui.lesson_done", title=text_of(lesson.title, tr))) in flat
    # the bots at the lesson's table are named in the learner's language
    assert _squash(tr("ui.who.bot", bot=tr("ui.bot.kind.heuristic"))) in flat
    if lang != "en":
        assert "heuristic" not in flat


def test_an_illegal_move_is_refused_with_the_engines_reason() -> None:
    tr = translator("en")
    run = LessonRun(find_lesson("red-november", "rn-first-turns"), tr)
    run.index = 1
    run.restart()  # the hatches scene: the hatch 1-3 is blocked
    before = run.state.digest()
    outcome = run.try_move("move 1")
    assert outcome.kind == "illegal" and not outcome.accepted
    action = run.state.game.parse_action("move 1")
    reason = game_ui("red-november").why(run.state.explain_illegal(action), action, tr)
    assert reason in outcome.message and "blocked" in reason
    assert run.state.digest() == before
    assert run.try_move("move 4").kind == "wrong"  # legal, but away from the Engine Room
    assert run.try_move("fly").kind == "unknown"
    outcome = run.try_move("1")  # option 1 is "move 2"
    assert outcome.accepted
    json.dumps([outcome.to_json(), run.prompt().to_json()])  # what a web page receives


def _path(game: str, lesson_id: str, scene_id: str) -> tuple[LessonRun, list[Event]]:
    """Play a scene's correct path; the events it caused, as the learner saw them."""
    run = LessonRun(find_lesson(game, lesson_id), translator("en"))
    run.index = [s.id for s in run.lesson.scenes].index(scene_id)
    run.restart()
    events: list[Event] = []
    state = run.state
    seat = run.scene.seat
    while not run.scene_done:
        move = run.prompt().expected[0]
        action = state.game.parse_action(move)
        twin = state.clone()
        events += [e.for_seat(seat) for e in twin.apply(action)]
        assert run.try_move(move).accepted
    return run, events


def _keys(events: list[Event], key: str) -> list[dict[str, Any]]:
    return [e.params for e in events if e.key == key]


def test_geoffs_turn_runs_from_40_to_19_with_seven_events_and_two_items() -> None:
    run, events = _path("red-november", "rn-surviving", "geoff")
    assert _keys(events, "intoxication_changed")[0] == {"gnome": 0, "level": 3, "before": 2}
    assert _keys(events, "water_reflowed") == [{"rooms": [5, 7]}]
    fix = _keys(events, "fix_attempted")[0]
    assert fix["target"] == 10 and fix["success"]
    assert _keys(events, "faint_check")[0]["number"] == 2
    assert _keys(events, "gnome_fainted")[0]["minutes"] == 10
    assert [e["space"] for e in _keys(events, "event_drawn")] == [39, 36, 33, 30, 27, 24, 21]
    drawn = [e for e in _keys(events, "items_drawn") if e["source"] == "time_track"]
    assert len(drawn) == 2
    assert run.view().keeper[0] == 19


def test_howards_crowbar_needs_seven_and_costs_six_spaces() -> None:
    _run, events = _path("red-november", "rn-fixing", "howard")
    fix = _keys(events, "fix_attempted")[0]
    assert (fix["minutes"], fix["bonus"], fix["penalty"], fix["target"]) == (4, 3, 2, 7)
    assert fix["success"] and _keys(events, "hatch_unblocked")
    assert _keys(events, "turn_ended")[0]["space"] == 34  # 40 − (4 + 2)


def test_the_toolbox_and_the_engine_manual_add_up_to_seven() -> None:
    _run, events = _path("red-november", "rn-fixing", "items")
    fix = _keys(events, "fix_attempted")[0]
    assert fix["bonus"] == 7 and fix["target"] == 10
    assert _keys(events, "track_reset")[0] == {"track": "pressure", "level": 5, "before": 7}


def test_bethany_brings_the_heat_track_back_from_8_to_5() -> None:
    _run, events = _path("red-november", "rn-fixing", "bethany")
    assert _keys(events, "track_reset")[0] == {"track": "heat", "level": 5, "before": 8}
    assert _keys(events, "track_advanced")[0] == {"track": "heat", "level": 6, "before": 5}


def test_oxygen_pumps_down_on_45_puts_the_token_on_35() -> None:
    _run, events = _path("red-november", "rn-fixing", "tokens")
    drawn = _keys(events, "event_drawn")[0]
    assert (drawn["card"], drawn["space"]) == ("oxygen_pumps_down", 45)
    assert _keys(events, "destruction_placed") == [{"token": "asphyxiated", "space": 35}]


def test_the_submarine_toll_is_one_card_per_bathyscaphe_above() -> None:
    _run, events = _path("submarine", "sub-first-dives", "toll")
    given = _keys(events, "card_given")
    assert len(given) == 2 and {g["to"] for g in given} == {1}
    assert _keys(events, "treasure_collected")[0]["toll"] == 2


def test_the_twelfth_treasure_ends_the_game() -> None:
    run, events = _path("submarine", "sub-ending", "end")
    assert _keys(events, "game_over")[0]["reason"] == "twelve_treasures"
    outcome = run.state.outcome()
    assert outcome is not None and outcome.winners == (0,)


# -- texts --------------------------------------------------------------------------------------
@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_lesson_text_exists_in_every_language(lang: str) -> None:
    entries = {m.id for m in catalog(lang) if m.id}
    for game in lesson_games():
        for lesson in lessons(game):
            missing = sorted(lesson.msg_ids() - entries)
            assert not missing, f"{lang} {lesson.id}: {missing}"


@pytest.mark.parametrize("game", lesson_games())
def test_a_scene_fits_an_80_by_24_terminal(game: str) -> None:
    """At 80×24, in English: every line fits the width; a Red November scene, from its rule
    to its prompt, fits the height; a Submarine scene's text and task fit under the board
    (its compact board, the table's own, is itself about 24 lines in mid-game)."""
    for lesson in lessons(game):
        run = LessonRun(lesson, translator("en"))
        while True:
            buf = io.StringIO()
            console = Console(file=buf, width=80, height=24, color_system=None)
            screen = LessonScreen(game, translator("en"), console)
            screen._show(run, intro=True)
            lines = buf.getvalue().rstrip("\n").split("\n")
            assert max(len(line) for line in lines) <= 80
            p = run.prompt()
            under = [p.intro, p.task]
            text_lines = sum(len(textwrap.wrap(t, 79)) for t in under)
            height = len(lines) if game == "red-november" else text_lines
            assert height + 1 <= 24, f"{lesson.id} {run.scene.id}: {height + 1} lines"
            if not run.next_scene():
                break


def test_the_learn_command() -> None:
    from typer.testing import CliRunner

    from subtable.cli import app

    runner = CliRunner()
    result = runner.invoke(app, ["learn", "submarine", "--lesson", "nope", "--lang", "en"])
    assert result.exit_code == 2 and "sub-first-dives" in result.output
    result = runner.invoke(
        app, ["learn", "red-november", "--lang", "it"], input="1\nquit\n", catch_exceptions=False
    )
    assert result.exit_code == 0
    assert "Il turno e il Tracciato del Tempo" in result.output

"""The terminal table in process: seats, undo, the prompt's commands, narration, rendering."""

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from subtable.bots.base import bot_names
from subtable.core.errors import SubtableError
from subtable.core.game import State
from subtable.core.record import GameRecord, replay
from subtable.core.registry import make_game
from subtable.core.rng import Rng
from subtable.i18n import LANGUAGES, translator
from subtable.ui.games import game_ui
from subtable.ui.table import GameTable
from subtable.words.game_options import GameRequest, GameRequestError, build_game
from subtable.words.seats import BEST_BOTS, SeatError, best_bot, build_seats, can_play, parse_seats
from subtable.words.undo import CHANCE, HIDDEN, OTHER_SEAT, START, UndoLedger

GAMES = [
    ("red-november", {"players": 3}),
    ("red-november", {"players": 4, "crazed_gnomes": True, "less_deadly_dying": True}),
    ("red-november", {"players": 2, "greater_challenge": 2, "heroic_sacrifice": True}),
    ("submarine", {"players": 3}),
    ("submarine", {"players": 5}),
]


# -- seats --------------------------------------------------------------------------------
def test_default_seats_put_a_person_first_and_the_best_bot_elsewhere() -> None:
    game = make_game("red-november", players=3)
    assert parse_seats(None, game) == ["human", best_bot(game), best_bot(game)]
    expected = next(n for n in BEST_BOTS if n in bot_names() and can_play(n, game))
    assert best_bot(game) == expected


def test_seats_map_players_to_gnomes() -> None:
    two = make_game("red-november", players=2)
    seats = build_seats(two, ["human", "random"], seed=1)
    assert [(s.seat, s.player, s.human) for s in seats] == [
        (0, 0, True),
        (1, 0, True),
        (2, 1, False),
        (3, 1, False),
    ]
    solo = make_game("red-november", players=1, gnomes=5)
    assert all(s.player == 0 and s.human for s in build_seats(solo, ["human"], seed=1))


@pytest.mark.parametrize(
    "text, code", [("human,random", "seat_count"), ("human,genius,random", "unknown_seat")]
)
def test_bad_seats_are_refused_with_a_code(text: str, code: str) -> None:
    with pytest.raises(SeatError) as err:
        parse_seats(text, make_game("red-november", players=3))
    assert err.value.code == code


# -- undo ---------------------------------------------------------------------------------
def _states(name: str, seeds: range, **options: Any) -> Iterator[State[Any]]:
    """Positions of random games (the state object is reused: clone what you keep)."""
    for seed in seeds:
        state = make_game(name, **options).new_state(seed)
        rng = Rng(seed)
        while not state.is_terminal():
            yield state
            state.apply_unchecked(rng.choice(state.legal_action_ids()))


def _find(name: str, pick: Any, **options: Any) -> tuple[State[Any], Any]:
    for state in _states(name, range(40), **options):
        action = pick(state)
        if action is not None:
            return state.clone(), action
    raise AssertionError("no position found")


def _apply(ledger: UndoLedger, state: State[Any], action: Any, *, human: bool = True) -> None:
    seat = state.current_seat()
    assert seat is not None
    before = ledger.before(state)
    events = state.apply(action, seat=seat)
    ledger.after(
        before, state, events, seat=seat, action=action.notation(), undoable=human, log_size=0
    )


def _ledger(name: str) -> UndoLedger:
    return UndoLedger(game_ui(name).hidden_counts)


def _first(state: State[Any], prefix: str) -> Any:
    return next((a for a in state.legal_actions() if a.notation().startswith(prefix)), None)


def test_undo_restores_a_plain_move_exactly() -> None:
    state, move = _find("red-november", lambda s: _first(s, "move "), players=3)
    digest, seat = state.digest(), state.current_seat()
    ledger = _ledger("red-november")
    assert not ledger.can_undo(seat) and ledger.why_not(seat) == START
    _apply(ledger, state, move)
    assert ledger.can_undo(seat)
    assert ledger.undo(seat).state.digest() == digest


def test_a_die_roll_is_a_barrier() -> None:
    state, fix = _find(
        "red-november", lambda s: _first(s, "extinguish ") or _first(s, "fix-"), players=3
    )
    ledger = _ledger("red-november")
    _apply(ledger, state, fix)
    seat = state.current_seat()
    if seat is not None:
        assert not ledger.can_undo(seat)
    assert ledger.barrier == CHANCE


def test_drawing_a_hidden_card_is_a_barrier() -> None:
    def stores_draw(s: State[Any]) -> Any:
        seat = s.current_seat()
        if seat is None or s.view(seat)["gnomes"][seat]["room"] != 8:
            return None
        return _first(s, "draw ")

    state, draw = _find("red-november", stores_draw, players=3)
    ledger = _ledger("red-november")
    _apply(ledger, state, draw)
    assert ledger.barrier in (HIDDEN, CHANCE)  # a reshuffle would move the generator too


def test_another_seat_acting_is_a_barrier() -> None:
    state, move = _find("red-november", lambda s: _first(s, "move "), players=3)
    ledger = _ledger("red-november")
    seat = state.current_seat()
    _apply(ledger, state, move)
    _apply(ledger, state, _first(state, "open ") or state.legal_actions()[0], human=False)
    assert not ledger.can_undo(seat) and ledger.barrier in (OTHER_SEAT, CHANCE, HIDDEN)


def test_undo_never_pops_another_seats_decision() -> None:
    state, place = _find("submarine", lambda s: _first(s, "place "), players=3)
    ledger = _ledger("submarine")
    first = state.current_seat()
    _apply(ledger, state, place)
    second = state.current_seat()
    assert second != first
    assert ledger.can_undo(first) and not ledger.can_undo(second)
    assert ledger.why_not(second) == START  # it has decided nothing yet: it is told so
    ledger.after(
        ledger.before(state), state, [], seat=second, action="x", undoable=True, log_size=0
    )
    assert ledger.why_not(first) == OTHER_SEAT


# -- the table, driven in process ------------------------------------------------------------
def _table(
    lines: list[str], tmp_path: Path, lang: str = "en", seats: list[str] | None = None
) -> tuple[GameTable, io.StringIO, int]:
    state = make_game("red-november", players=3).new_state(11)
    out = io.StringIO()
    console = Console(file=out, width=160, color_system=None, highlight=False)
    script = iter(lines)

    def answer(prompt: str) -> str:
        out.write(prompt)
        line = next(script)
        out.write(line + "\n")
        return line

    table = GameTable(
        state,
        seats or ["human", "random", "random"],
        translator(lang),
        console,
        fast=True,
        input_fn=answer,
    )
    code = table.run(intro=list(state.opening_events))
    return table, out, code


def test_commands_at_the_prompt(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    probe = make_game("red-november", players=3).new_state(11)
    table, out, code = _table(
        [
            "help",
            "why kill-kraken 1",
            "kill-kraken 1",
            "zzz",
            "99",
            "m",
            "1",
            "log 3",
            "undo",
            "undo",
            f"save {save}",
            "quit",
        ],
        tmp_path,
    )
    text = out.getvalue()
    assert code == 0
    assert "Commands:" in text and "Rules for now:" in text
    assert "kill-kraken 1 is not possible now: Kill Kraken can only be taken in Sea." in text
    assert "is neither a command nor an action" in text
    assert "There is no option 99" in text
    assert "could mean:" in text or "(you): m" in text
    assert "The last 3 lines of the log:" in text
    assert "Undone: " in text and "Nothing to undo" in text
    assert f"Game saved to {save}" in text and "You leave the table." in text
    record = GameRecord.load(save)
    assert record.meta["seats"] == ["human", "random", "random"] and record.meta["lang"] == "en"
    assert replay(record).digest() == table.state.digest() == record.digest
    assert probe.seed == record.seed


def test_end_of_input_leaves_cleanly(tmp_path: Path) -> None:
    state = make_game("submarine", players=2).new_state(3)
    out = io.StringIO()

    def eof(prompt: str) -> str:
        raise EOFError

    table = GameTable(
        state,
        ["human", "random"],
        translator("pt"),
        Console(file=out, width=120, color_system=None),
        fast=True,
        input_fn=eof,
    )
    assert table.run() == 0
    assert "Você deixa a mesa." in out.getvalue()


def test_all_bot_table_plays_to_a_result() -> None:
    state = make_game("submarine", players=3).new_state(5)
    out = io.StringIO()
    table = GameTable(
        state,
        ["random"] * 3,
        translator("it"),
        Console(file=out, width=120, color_system=None),
        fast=True,
    )
    assert table.run() == 0
    assert state.is_terminal() and "Risultato: Vince:" in out.getvalue()


# -- every language, every game: nothing untranslated, nothing crashes ------------------------
def _sample_games() -> Iterator[tuple[str, State[Any], list[Any]]]:
    """(name, state, events) along random games, with the events of each step."""
    for name, options in GAMES:
        for seed in range(2):
            state = make_game(name, **options).new_state(seed)
            rng = Rng(seed + 99)
            yield name, state, list(state.opening_events)
            while not state.is_terminal():
                events = state.apply(rng.choice(state.legal_actions()))
                yield name, state, events


def _clean(text: str) -> None:
    assert "{" not in text and "}" not in text, text
    for prefix in ("ui.", "rn.", "sub.", "game.", "unit."):
        assert f" {prefix}" not in f" {text}", text


@pytest.mark.slow
def test_every_event_action_reason_and_board_reads_in_every_language() -> None:
    trs = [translator(lang) for lang in LANGUAGES]
    uis = {name: game_ui(name) for name in ("red-november", "submarine")}
    rng = Rng(7)
    consoles = {
        lang: Console(file=io.StringIO(), width=140, color_system=None) for lang in LANGUAGES
    }
    for step, (name, state, events) in enumerate(_sample_games()):
        ui = uis[name]
        seat = state.current_seat()
        for tr in trs:
            for event in events:
                for reader in (None, *event.owners):
                    line = ui.narrate(event.for_seat(reader), tr)
                    assert line and "Event:" not in line
                    _clean(line)
            if seat is None or step % 7:
                continue
            view = state.observe(seat)
            if step % 49 == 0:  # drawing is the slow part: a sample of positions is enough
                consoles[tr.lang].print(ui.render(view, tr, {seat: tr("ui.who.you")}))
            for line in ui.reminder(view, tr):
                _clean(line)
            legal = state.legal_actions()
            for action in legal:
                _clean(ui.action_label(action, tr))
            space = state.game.action_space
            legal_ids = {a.id for a in legal}
            for _ in range(15):
                action = space[rng.below(len(space))]
                if action.id in legal_ids:
                    continue
                reason = ui.why(state.explain_illegal(action), action, tr)
                assert "(" + state.explain_illegal(action).code + ")" not in reason, reason
                _clean(reason)
        if state.is_terminal():
            for tr in trs:
                _clean(ui.result(state.view(None)["outcome"], tr))
    for console in consoles.values():
        text = console.file.getvalue()  # type: ignore[attr-defined]
        _clean(text)


def test_option_errors_are_translated() -> None:
    fr = translator("fr")
    refused = GameRequest("red-november", 2, {"gnomes": 3})
    with pytest.raises(GameRequestError) as caught:
        build_game(refused, fr)
    assert caught.value.code == "bad_options"
    assert caught.value.message == fr("rn.err.two_players_gnomes")
    assert build_game(GameRequest("red-november", 3, {"gnomes": 3}), fr).options["gnomes"] == 3
    with pytest.raises(SubtableError):
        make_game("red-november", players=2, gnomes=3)


def test_a_saved_record_is_plain_json(tmp_path: Path) -> None:
    _, _, _ = _table([f"save {tmp_path / 'r.json'}", "quit"], tmp_path, lang="it")
    data = json.loads((tmp_path / "r.json").read_text(encoding="utf-8"))
    assert data["game"] == "red-november" and data["meta"]["lang"] == "it"


def test_hot_seat_hands_the_keyboard_over() -> None:
    state = make_game("submarine", players=2).new_state(3)
    out = io.StringIO()
    answers = iter(["", "1", "", "1", "", "quit"])

    def answer(prompt: str) -> str:
        out.write(prompt + "\n")
        return next(answers)

    table = GameTable(
        state,
        ["human", "human"],
        translator("en"),
        Console(file=out, width=120, color_system=None),
        fast=True,
        input_fn=answer,
    )
    assert table.run() == 0
    text = out.getvalue()
    assert "Pass the keyboard to player" in text
    assert "(player 1): place 1" in text or "(player 2): place 1" in text


def test_a_failing_bot_does_not_stop_the_game() -> None:
    class Broken:
        name = "broken"

        def choose(self, obs: Any) -> Any:
            raise RuntimeError("bug")

    state = make_game("submarine", players=2).new_state(3)
    out = io.StringIO()
    table = GameTable(
        state,
        ["random", "random"],
        translator("en"),
        Console(file=out, width=120, color_system=None),
        fast=True,
    )
    table.seats[0].bot = Broken()
    assert table.run() == 0
    assert "failed to choose (RuntimeError)" in out.getvalue()
    assert state.is_terminal()


def test_table_search_bots_count_iterations_and_use_a_clock_only_when_told() -> None:
    from subtable.core.registry import make_game
    from subtable.words.seats import build_seats, parse_seats

    game = make_game("submarine", players=3)
    controllers = parse_seats("human,ismcts,ismcts:ms=500", game)
    seats = build_seats(game, controllers, 1)
    default, timed = seats[1].bot, seats[2].bot
    assert default is not None and timed is not None
    assert default.ms is None and default.budget > 0  # type: ignore[attr-defined]
    assert timed.ms == 500  # type: ignore[attr-defined]


# -- messages that count and that tell ambiguity ------------------------------------------
@pytest.mark.parametrize("lang", LANGUAGES)
def test_card_counts_in_why_messages_use_plural_forms(lang: str) -> None:
    from subtable.core.errors import IllegalActionError

    game = make_game("red-november", players=3)
    ui = game_ui(game)
    tr = translator(lang)
    action = next(iter(game.action_space))
    texts = {}
    for code, key in (("not_enough_cards", "left"), ("too_many", "most")):
        for n in (1, 2):
            error = IllegalActionError("x", code=code, params={key: n})
            texts[code, n] = ui.why(error, action, tr)
        assert texts[code, 1] != texts[code, 2].replace("2", "1"), texts
    if lang == "en":
        assert texts["not_enough_cards", 1] == "only 1 card is left to draw."
        assert texts["too_many", 1] == "at most 1 card can be drawn here."


def test_help_on_an_ambiguous_name_lists_the_cards(tmp_path: Path) -> None:
    _, out, _ = _table(["help manual", "help pump", "help zzz", "quit"], tmp_path)
    text = out.getvalue()
    assert "could be several cards: Engine Manual, Pump Manual and Reactor Manual" in text
    assert "Pump Manual:" in text  # a word of the name is enough when it is unique
    assert "No card is named “zzz”" in text


@pytest.mark.slow
def test_the_shared_screen_shows_a_bots_private_moves_only_in_their_public_form() -> None:
    state = make_game("submarine", players=3).new_state(11)
    out = io.StringIO()
    answers = iter(["1"] * 120)

    def answer(_prompt: str) -> str:
        try:
            return next(answers)
        except StopIteration:
            raise EOFError from None

    table = GameTable(
        state,
        ["human", "random", "random"],
        translator("en"),
        Console(file=out, width=160, color_system=None),
        fast=True,
        input_fn=answer,
    )
    assert table.run() == 0
    lines = [line.strip() for line in table.log if "(bot random): swap" in line]
    assert lines, "no bot swapped in this game"
    colours = ("red", "yellow", "green", "blue", "purple")
    for line in lines:
        assert line.split(": ", 1)[1].startswith("swap —"), line
        assert not any(c in line for c in colours), line
    mine = [line for line in table.log if "(you): swap " in line]
    assert all(any(c in line for c in colours) for line in mine)


def test_bots_are_named_in_the_players_language() -> None:
    state = make_game("red-november", players=3).new_state(11)
    console = Console(file=io.StringIO(), width=160, color_system=None)
    # a kind in the reader's words; a level's spec (ismcts is normal's) by its level
    for lang, words in (("fr", "bot heuristique"), ("it", "bot euristico"), ("en", "bot normal")):
        table = GameTable(
            state.clone(), ["human", "heuristic", "ismcts"], translator(lang), console
        )
        assert words in (table.who(1), table.who(2)), (table.who(1), table.who(2))

"""Playing a lesson, for any front end: the prompt of each scene, moves tried, what happened.

A :class:`LessonRun` holds the lesson's current position. :meth:`LessonRun.prompt` says what
the learner sees (the scene's text, the learner's own view, the legal moves);
:meth:`LessonRun.try_move` takes a move as typed (notation, a unique beginning of one, or
an option's number) and answers with an :class:`Outcome`: a move that makes the point is
played (bots then play the other seats until the learner decides again) and its events
narrated; a legal move that misses it is explained, and not played; an illegal one is
refused with the engine's reason (``GameUI.why``). Feedback reads the learner's view and
the move alone, never what the view hides.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import Any

from subtable.bots.base import Bot, make_bot, observe
from subtable.core.actions import Action
from subtable.core.errors import AmbiguousActionError, InvalidActionError
from subtable.core.game import State
from subtable.core.rng import Rng
from subtable.core.view import SeatView
from subtable.i18n import Translator
from subtable.learn.lesson import Lesson, Msg, Scene, Step
from subtable.words import action_as_seen, game_ui, result_words

_BOT_SALT = 0x1EA2_0000_5EED


@dataclass(frozen=True, slots=True)
class Played:
    """One move played during a lesson, as the learner may know it."""

    seat: int
    notation: str
    label: str
    #: what it caused, narrated for the learner
    lines: tuple[str, ...]
    #: the learner played it
    learner: bool

    def to_json(self) -> dict[str, Any]:
        """JSON-ready data."""
        return asdict(self)


@dataclass(frozen=True, slots=True)
class Outcome:
    """The answer to a move tried."""

    #: the move was played
    accepted: bool
    #: ``step`` (played, the scene goes on), ``done`` (played, the scene is over),
    #: ``wrong`` (legal but beside the point: not played), ``illegal``, ``unknown``,
    #: ``ambiguous`` (nothing played), ``over`` (the scene was already over)
    kind: str
    message: str
    played: tuple[Played, ...] = ()
    scene_done: bool = False

    def to_json(self) -> dict[str, Any]:
        """JSON-ready data (what a web page renders)."""
        return asdict(self)


@dataclass(frozen=True, slots=True)
class Prompt:
    """What the learner sees now."""

    lesson: str
    scene_id: str
    title: str
    #: the scene's number (1-based) and how many the lesson has
    number: int
    scenes: int
    intro: str
    task: str
    seat: int
    #: the learner's view
    view: SeatView
    #: the legal moves' notations
    legal: tuple[str, ...]
    #: the moves that make the point and are legal now (none in a game played out)
    expected: tuple[str, ...]
    #: the rule book's sections the scene explains
    rules: tuple[str, ...]
    done: bool

    def to_json(self) -> dict[str, Any]:
        """JSON-ready data (what a web page renders): the view in its JSON form."""
        data = {f.name: getattr(self, f.name) for f in fields(self)}
        data["view"] = self.view.to_json()
        return data


def text_of(msg: Msg, tr: Translator, view: SeatView | None = None) -> str:
    """A lesson's text in ``tr``'s language, its parameters read from ``view``."""
    # lessons hold their ids as data: msgids.learn_ids() enumerates them for the checks
    translate = tr
    return translate(msg.id, **msg.values(view))


class LessonRun:
    """One learner going through one lesson, scene by scene, in ``tr``'s language."""

    def __init__(self, lesson: Lesson, tr: Translator, *, seed: int = 0) -> None:
        if not lesson.scenes:
            raise ValueError(f"lesson {lesson.id} has no scene")
        self.lesson = lesson
        self.tr = tr
        self.seed = seed
        self.index = 0
        self.ui = game_ui(lesson.game)
        self._start()

    # -- where we are ------------------------------------------------------------------
    @property
    def scene(self) -> Scene:
        """The current scene."""
        return self.lesson.scenes[self.index]

    @property
    def state(self) -> State[Any]:
        """The current position (for the front end's drawing: show only :meth:`view`)."""
        return self._state

    @property
    def finished(self) -> bool:
        """Whether the last scene is over."""
        return self.scene_done and self.index == len(self.lesson.scenes) - 1

    def view(self) -> SeatView:
        """The learner's view of the position."""
        return self._state.observe(self.scene.seat)

    def _start(self) -> None:
        scene = self.scene
        self._state = scene.state(self.lesson.game)
        self.ui = game_ui(self._state.game)
        self.step = 0
        self.scene_done = False
        game = self._state.game
        rng = Rng(self.seed ^ _BOT_SALT ^ self.index)
        self._bots: dict[int, Bot] = {
            s: make_bot(scene.bot, game, s, Rng(rng.next64()))
            for s in range(game.num_seats)
            if s != scene.seat
        }
        #: what the bots played before the learner's first decision
        self.opening = self._play_bots()

    def next_scene(self) -> bool:
        """Go on to the next scene; ``False`` (staying put) after the last one."""
        if self.index + 1 >= len(self.lesson.scenes):
            return False
        self.index += 1
        self._start()
        return True

    def restart(self) -> None:
        """Set the current scene up again."""
        self._start()

    def skip(self) -> None:
        """Leave the current scene as it stands (it counts as over)."""
        self.scene_done = True

    # -- text ------------------------------------------------------------------------------
    def text(self, msg: Msg) -> str:
        """A message of the lesson, its parameters read from the learner's view."""
        return text_of(msg, self.tr, self._state.observe(self.scene.seat))

    def _task(self) -> str:
        scene = self.scene
        if scene.plays_to_the_end:
            return self.text(scene.goal) if scene.goal is not None else ""
        return self.text(scene.steps[min(self.step, len(scene.steps) - 1)].task)

    def prompt(self) -> Prompt:
        """What the learner sees now."""
        scene = self.scene
        legal = self._state.legal_actions() if not self._state.is_terminal() else []
        expected: tuple[str, ...] = ()
        if not scene.plays_to_the_end and not self.scene_done:
            notations = {a.notation() for a in legal}
            expected = tuple(m for m in scene.steps[self.step].accept if m in notations)
        return Prompt(
            lesson=self.text(self.lesson.title),
            scene_id=scene.id,
            title=self.text(scene.title),
            number=self.index + 1,
            scenes=len(self.lesson.scenes),
            intro=self.text(scene.intro),
            task=self._task(),
            seat=scene.seat,
            view=self.view(),
            legal=tuple(a.notation() for a in legal),
            expected=expected,
            rules=scene.rules,
            done=self.scene_done,
        )

    # -- moves -----------------------------------------------------------------------------
    def try_move(self, text: str | int) -> Outcome:
        """Try a move: notation (or a unique beginning), or the number of a legal option
        (1-based, as :meth:`prompt` lists them)."""
        tr = self.tr
        if self.scene_done or self._state.is_terminal():
            return Outcome(False, "over", tr("learn.over"), scene_done=True)
        legal = self._state.legal_actions()
        resolved = self._resolve(text, legal)
        if isinstance(resolved, Outcome):
            return resolved
        action = resolved
        if action.id not in {a.id for a in legal}:
            return Outcome(False, "illegal", self._illegal(action))
        scene = self.scene
        if scene.plays_to_the_end:
            return self._play(action, None)
        step = scene.steps[self.step]
        notation = action.notation()
        if notation in step.accept:
            return self._play(action, step)
        for wrong in step.wrong:
            if notation in wrong.moves:
                return Outcome(False, "wrong", self.text(wrong.msg))
        if step.other is not None:
            return Outcome(False, "wrong", self.text(step.other))
        return Outcome(False, "wrong", tr("learn.other", task=self._task()))

    def _resolve(self, text: str | int, legal: list[Action]) -> Action | Outcome:
        tr = self.tr
        raw = str(text).strip()
        if raw.isascii() and raw.isdigit():  # not "²" or "①": int() refuses those
            n = int(raw)
            if not 1 <= n <= len(legal):
                return Outcome(False, "unknown", tr("ui.err.bad_number", n=n, max=len(legal)))
            return legal[n - 1]
        try:
            action: Action = self._state.game.action_space.resolve(raw, legal)
        except AmbiguousActionError as exc:
            matches = ", ".join(exc.params.get("matches", [])[:8])
            return Outcome(False, "ambiguous", tr("ui.err.ambiguous", text=raw, matches=matches))
        except InvalidActionError:
            return Outcome(False, "unknown", tr("ui.err.unknown_input", text=raw))
        return action

    def _illegal(self, action: Action) -> str:
        """The engine's reason, in words (as the table's ``why`` gives it)."""
        error = self._state.explain_illegal(action)
        try:
            reason = self.ui.why(error, action, self.tr)
        except (KeyError, TypeError, ValueError, IndexError):
            reason = self.tr("ui.why.unknown_code", code=error.code, message=error.message)
        return self.tr("learn.illegal", action=action.notation(), reason=reason)

    def _play(self, action: Action, step: Step | None) -> Outcome:
        played = [self._apply(self.scene.seat, action)]
        if step is not None:
            self.step += 1
            if self.step >= len(self.scene.steps):
                self.scene_done = True
        if not self.scene_done:
            played += self._play_bots()
        if self.scene.plays_to_the_end and self._state.is_terminal():
            self.scene_done = True
            return Outcome(True, "done", self._result(), tuple(played), True)
        message = self.text(step.done) if step is not None and step.done is not None else ""
        kind = "done" if self.scene_done else "step"
        return Outcome(True, kind, message, tuple(played), self.scene_done)

    def _play_bots(self) -> tuple[Played, ...]:
        """Bots play the other seats until the learner decides or the game is over."""
        out = []
        state = self._state
        while not state.is_terminal():
            seat = state.current_seat()
            assert seat is not None
            if seat == self.scene.seat:
                break
            action = self._bots[seat].choose(observe(state, seat))
            out.append(self._apply(seat, action))
        return tuple(out)

    def _apply(self, seat: int, action: Action) -> Played:
        learner = self.scene.seat
        events = self._state.apply(action, seat=seat)
        notation, label = action_as_seen(
            self._state.game, self.ui, action, seat, events, [learner], self.tr
        )
        lines = []
        for event in events:
            line = self.ui.narrate(event.for_seat(learner), self.tr)
            if line:
                lines.append(line)
        return Played(seat, notation, label, tuple(lines), seat == learner)

    def _result(self) -> str:
        outcome = self._state.outcome()
        assert outcome is not None  # a scene's result is asked once the game is over
        result = result_words(self.ui, outcome, self.tr)
        won = self.scene.seat in outcome.winners
        if won:
            return self.tr("learn.end.won", result=result)
        return self.tr("learn.end.lost", result=result)

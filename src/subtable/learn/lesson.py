"""What a lesson is: scenes built from saved positions, each teaching one part of the rules.

A :class:`Scene` holds a position in the engine's saved form — the data
:meth:`Game.state_from_json <subtable.core.game.Game.state_from_json>` reads and checks field
by field — built by playing real actions and/or by editing that *data* (never the engine's
objects); the seat the learner plays; the text to show; and its :class:`Step` s: for each,
the moves that make the point, what to say about other moves, and what happened and why.
A scene without steps is a game played to its end from its position, bots in the other
seats. Every text is a message id (``learn.*``) with parameters read from the learner's own
view after the step.

Each game's lessons live in their own module (``learn/<game>.py``); :mod:`subtable.learn`
finds them. :class:`~subtable.learn.run.LessonRun` plays a lesson for a front end.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from subtable.core.game import Game, State
from subtable.core.registry import make_game
from subtable.core.view import SeatView

#: parameters of a text, from the learner's view (typed: the game's own view) after the step
ParamsOf = Callable[[SeatView], Mapping[str, Any]]


@dataclass(frozen=True, slots=True)
class Msg:
    """A text: a message id and, optionally, its parameters read from the learner's view."""

    id: str
    params: ParamsOf | None = None

    def values(self, view: SeatView | None) -> dict[str, Any]:
        """The parameters at ``view`` (none without a view)."""
        if self.params is None or view is None:
            return {}
        return dict(self.params(view))


@dataclass(frozen=True, slots=True)
class Wrong:
    """Legal moves that miss the point, and the friendly word that says why."""

    moves: tuple[str, ...]
    msg: Msg


@dataclass(frozen=True, slots=True)
class Step:
    """One decision of a scene."""

    #: the moves that make the point (canonical notations)
    accept: tuple[str, ...]
    #: what to try now
    task: Msg
    #: what happened and why, once it is played (``None``: the task of the next step says it)
    done: Msg | None = None
    #: legal moves that miss the point, each with its explanation
    wrong: tuple[Wrong, ...] = ()
    #: any other legal move (``None``: a general word, with the task again)
    other: Msg | None = None


@dataclass(frozen=True, slots=True)
class Scene:
    """One position and what to learn from it."""

    #: stable id (``water``), unique within its lesson
    id: str
    title: Msg
    intro: Msg
    #: the game's options
    options: Mapping[str, Any]
    #: the position: the saved form's data, built for the game the options make
    position: Callable[[Game[Any]], Mapping[str, Any]]
    #: the learner's seat
    seat: int = 0
    #: the decisions of the scene; none: the learner plays the game to its end
    steps: tuple[Step, ...] = ()
    #: what to try in a game played to its end
    goal: Msg | None = None
    #: the rule book's sections this scene explains (``help rules KEY``)
    rules: tuple[str, ...] = ()
    #: the bot that holds the other seats
    bot: str = "heuristic"

    @property
    def plays_to_the_end(self) -> bool:
        """Whether the learner plays the game out (no steps)."""
        return not self.steps

    def state(self, game_name: str) -> State[Any]:
        """The scene's position, loaded through the engine's saved form (checked)."""
        game = make_game(game_name, **self.options)
        return game.state_from_json(self.position(game))

    def msgs(self) -> Iterator[Msg]:
        """Every text of the scene."""
        yield self.title
        yield self.intro
        if self.goal is not None:
            yield self.goal
        for step in self.steps:
            yield step.task
            if step.done is not None:
                yield step.done
            if step.other is not None:
                yield step.other
            for wrong in step.wrong:
                yield wrong.msg


@dataclass(frozen=True, slots=True)
class Lesson:
    """A few scenes on one part of a game, ending with a short game."""

    #: stable id (``rn-first-turn``), unique across the game's lessons
    id: str
    game: str
    title: Msg
    summary: Msg
    scenes: tuple[Scene, ...] = field(default_factory=tuple)

    def msg_ids(self) -> set[str]:
        """Every message id the lesson's texts use."""
        ids = {self.title.id, self.summary.id}
        for scene in self.scenes:
            ids |= {m.id for m in scene.msgs()}
        return ids

    def scene(self, scene_id: str) -> Scene:
        """The scene called ``scene_id`` (``KeyError`` if none)."""
        for scene in self.scenes:
            if scene.id == scene_id:
                return scene
        raise KeyError(scene_id)


def edited(state: State[Any], **changes: Any) -> dict[str, Any]:
    """``state``'s saved form with some fields replaced (what a scene's position returns;
    the engine checks the whole when it loads it)."""
    data = state.to_json()
    unknown = set(changes) - set(data)
    if unknown:
        raise KeyError(f"the saved form has no field {', '.join(sorted(unknown))}")
    data.update(changes)
    return data

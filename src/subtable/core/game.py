"""Game and State: the rules apart from a position (the OpenSpiel split).

A :class:`Game` holds the rules, the validated options, the component data and
metadata. A :class:`State` is one position of one game: whose decision it is,
the legal actions, a checked :meth:`State.apply` and an unchecked fast path,
``clone()``, a per-seat :meth:`State.view`, JSON serialisation and a digest.

Seats are the engine's players (the pieces a game seats: crew members, captains).
Who controls a seat — a person, a bot, one person holding several seats — is a
layer above: :meth:`Game.seat_owners` only gives the default assignment.
"""

from __future__ import annotations

import enum
import hashlib
import json
from abc import ABC, abstractmethod
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, TypeVar

from subtable.core.actions import Action, ActionSpace
from subtable.core.errors import IllegalActionError, OptionError
from subtable.core.events import Event
from subtable.core.options import OptionSpec as OptionSpec
from subtable.core.options import OptionValue, settle
from subtable.core.options import parse_option_args as parse_option_args
from subtable.core.rng import Rng
from subtable.core.view import SeatView, Vocabulary

A = TypeVar("A", bound=Action)

#: why an action is illegal: a reason code (the game's vocabulary), a plain message, and the
#: parameters the reason's words take (each reason its own)
WhyIllegal = tuple[str, str, dict[str, Any]]

#: the reason codes :meth:`State.apply` itself gives (each game declares its own in
#: :attr:`Game.vocabulary`)
APPLY_REASONS = frozenset({"foreign_action", "game_over", "not_your_turn"})


class Utility(enum.Enum):
    """How the seats' returns relate."""

    COOPERATIVE = "cooperative"  # the team wins or loses together (with exceptions a game names)
    ZERO_SUM = "zero_sum"
    GENERAL_SUM = "general_sum"


@dataclass(frozen=True, slots=True)
class GameInfo:
    """Metadata that bots, the lab and the RL adapters branch on."""

    name: str
    title: str
    ruleset: str
    min_players: int
    max_players: int
    min_seats: int
    max_seats: int
    utility: Utility
    hidden_information: bool
    chance: str = "seeded"  # chance comes from the generator carried in the state
    max_game_length: int = 10_000
    #: cooperative games: the outcome reason that means the team won
    win_reason: str | None = None
    #: every reason a game can end for (``Outcome.reason``)
    end_reasons: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a finished game ended."""

    #: Why it ended, e.g. ``"rescued"``, ``"disaster_heat"``, ``"twelve_treasures"``.
    reason: str
    #: The seats that won (empty when nobody did).
    winners: tuple[int, ...]
    details: dict[str, Any] = field(default_factory=dict)


class Game(ABC, Generic[A]):
    """The rules of one game with fixed options."""

    info: ClassVar[GameInfo]
    option_specs: ClassVar[Mapping[str, OptionSpec[Any]]]
    #: every event key, illegal-move reason, end reason and phase the engine uses
    vocabulary: ClassVar[Vocabulary]
    action_space: ActionSpace[A]

    def __init__(self, **options: OptionValue | None) -> None:
        unknown = set(options) - set(self.option_specs)
        if unknown:
            known = ", ".join(sorted(self.option_specs))
            raise OptionError(
                f"unknown option(s) {', '.join(sorted(unknown))} (known: {known})",
                params={"options": sorted(unknown)},
            )
        values: dict[str, OptionValue | None] = {
            name: spec.default for name, spec in self.option_specs.items()
        }
        for name, value in options.items():
            if value is not None:
                values[name] = self.option_specs[name].check(value)
        self.options: dict[str, OptionValue] = self._validate(settle(self.option_specs, values))

    def _validate(self, options: dict[str, OptionValue]) -> dict[str, OptionValue]:
        """Check the constraints between options that their declarations do not say."""
        return options

    @property
    @abstractmethod
    def num_seats(self) -> int:
        """How many seats this game has."""

    @property
    @abstractmethod
    def num_players(self) -> int:
        """How many people (or bots) share the seats."""

    @property
    def ruleset(self) -> str:
        """The rules these options play by, as records name them: ``info.ruleset``, unless
        an option whose rules changed gives its own version (a record of a game played
        without it then still replays)."""
        return self.info.ruleset

    def seat_owners(self) -> tuple[int, ...]:
        """The default player index of each seat (one person may hold several)."""
        return tuple(range(self.num_seats))

    @abstractmethod
    def new_state(self, seed: int) -> State[A]:
        """Set up a new game, drawing every random choice from ``seed``."""

    @abstractmethod
    def state_from_json(self, data: Mapping[str, Any]) -> State[A]:
        """Rebuild a state from :meth:`State.to_json` (raises ``ValueError``)."""

    @abstractmethod
    def view_from_json(self, data: Mapping[str, Any]) -> SeatView:
        """The typed view whose JSON form (:meth:`SeatView.to_json`) is ``data``: what a
        front end reads of a view that came over the wire (raises ``ValueError``).

        Its JSON form equals ``data``; what the wire does not carry (the engine's
        bookkeeping) is left at rest, so it is read, never determinized from."""

    def parse_action(self, text: str) -> A:
        """Parse canonical notation."""
        return self.action_space.parse(text)

    def public_form(self, action: A) -> str | None:
        """What a seat that may not see ``action``'s private part sees of it, or ``None``.

        A game with private moves (a card swapped from a hidden hand) names the public
        form of each (``"swap"``); ``None``, the default, is a move everyone sees whole.
        """
        return None

    def action_for_seat(
        self, action: A, actor: int | None, events: Sequence[Event], seat: int | None
    ) -> str:
        """``action``'s notation as ``seat`` may know it (``None``: a spectator).

        ``actor`` played it and ``events`` are what it caused. The actor sees its own
        move whole, and so does every seat that sees every secret it caused (the
        seat that received a hidden card); any other seat sees only :meth:`public_form`.
        """
        public = self.public_form(action)
        if public is None or (seat is not None and seat == actor):
            return action.notation()
        secrets = [e for e in events if e.secret]
        if seat is not None and secrets and all(seat in e.owners for e in secrets):
            return action.notation()
        return public

    def determinize(self, view: SeatView, rng: Rng, stratum: int | None = None) -> State[A]:
        """A whole state drawn at random among those that show ``view`` to its seat.

        What the seat cannot see — deck orders, other seats' hidden cards, the
        generator — is dealt from ``rng``; everything in the view is kept. Search
        bots plan in such sampled worlds instead of reading the true state.
        ``stratum`` (``0 <= stratum < strata(view)``) fixes the one hidden thing
        :meth:`strata` counts the values of, drawing the rest at random. Games with
        hidden information override this.
        """
        raise NotImplementedError(f"{self.info.title} cannot sample states from a view")

    def strata(self, view: SeatView) -> int:
        """How many equally likely values the hidden thing that matters most next
        (Red November: the event deck's top card) can take in :meth:`determinize`'s
        worlds, ``0`` where the game names none. A search that samples many worlds
        can take each value in turn (stratified sampling: the same marginal, less
        noise in its means)."""
        return 0

    @property
    def can_determinize(self) -> bool:
        """Whether this game implements :meth:`determinize`."""
        return type(self).determinize is not Game.determinize

    def __repr__(self) -> str:
        opts = ", ".join(f"{k}={v!r}" for k, v in self.options.items())
        return f"{type(self).__name__}({opts})"


class State(ABC, Generic[A]):
    """One position of one game. Mutable; :meth:`clone` for a copy."""

    game: Game[A]
    seed: int
    history: list[int]
    #: the events of the setup (and of anything resolved before the first decision)
    opening_events: list[Event]

    # -- decisions ---------------------------------------------------------------
    @abstractmethod
    def current_seat(self) -> int | None:
        """The seat that must decide now (any seat, not only the active one).

        ``None`` once the game is over.
        """

    @abstractmethod
    def legal_action_ids(self) -> list[int]:
        """The legal actions' ids, sorted ascending, without duplicates."""

    def legal_actions(self) -> list[A]:
        """The legal actions, in id order."""
        space = self.game.action_space
        return [space[i] for i in self.legal_action_ids()]

    def legal_action_mask(self) -> list[int]:
        """A 0/1 list over the whole action space (for RL)."""
        mask = [0] * len(self.game.action_space)
        for i in self.legal_action_ids():
            mask[i] = 1
        return mask

    def is_legal(self, action: A | int) -> bool:
        """Whether ``action`` may be applied now."""
        action_id = action if isinstance(action, int) else action.id
        return not self.is_terminal() and action_id in self.legal_action_ids()

    # -- applying ----------------------------------------------------------------
    def apply(self, action: A | int | str, *, seat: int | None = None) -> list[Event]:
        """Apply a legal action and return the events it caused.

        Accepts an action, its id or its canonical notation. Raises
        :class:`~subtable.core.errors.InvalidActionError` for something that is
        not an action and :class:`~subtable.core.errors.IllegalActionError`
        (with a reason code and message) for one the rules forbid now; in both
        cases the state is left exactly as it was. With ``seat``, the action is
        also refused unless that seat is the one to decide.
        """
        space = self.game.action_space
        if isinstance(action, str):
            resolved = space.parse(action)
        elif isinstance(action, int):
            resolved = space.from_id(action)
        else:
            resolved = space.from_id(action.id)
            if resolved != action:
                raise IllegalActionError(
                    f"{action!r} is not an action of {self.game.info.title}", code="foreign_action"
                )
        if self.is_terminal():
            raise IllegalActionError("the game is over", code="game_over")
        current = self.current_seat()
        if seat is not None and current is not None and seat != current:
            raise IllegalActionError(
                f"it is not seat {seat + 1}'s decision (seat {current + 1} decides now)",
                code="not_your_turn",
                params={"seat": seat, "current": current},
            )
        if resolved.id not in self.legal_action_ids():
            raise self.explain_illegal(resolved)
        return self.apply_unchecked(resolved.id)

    @abstractmethod
    def apply_unchecked(self, action_id: int) -> list[Event]:
        """Apply an action known to be legal (the lean path for search).

        .. warning:: Legality is not checked: the caller must take the id from
           :meth:`legal_action_ids`.
        """

    def explain_illegal(self, action: A) -> IllegalActionError:
        """Why ``action`` is not legal now, as an error ready to raise."""
        code, message, params = self.why_illegal(action)
        return IllegalActionError(message, code=code, params=params)

    @abstractmethod
    def why_illegal(self, action: A) -> WhyIllegal:
        """Why ``action`` is not legal now: a reason code, a plain message, parameters."""

    # -- end ---------------------------------------------------------------------
    @abstractmethod
    def is_terminal(self) -> bool:
        """Whether the game is over."""

    @abstractmethod
    def outcome(self) -> Outcome | None:
        """How the game ended, or ``None`` while it goes on."""

    def returns(self) -> list[float]:
        """Each seat's return: 1 for a win, 0 otherwise (shared wins count for each)."""
        outcome = self.outcome()
        seats = range(self.game.num_seats)
        if outcome is None:
            return [0.0 for _ in seats]
        won = set(outcome.winners)
        return [1.0 if s in won else 0.0 for s in seats]

    # -- copies, views, serialisation ---------------------------------------------
    @abstractmethod
    def clone(self) -> State[A]:
        """An independent copy (generator included)."""

    @abstractmethod
    def observe(self, seat: int | None) -> SeatView:
        """What ``seat`` may see (``None``: a spectator), typed.

        With :meth:`view` (its JSON form), the only way state leaves the engine
        for a player: never the seed, the generator, a deck's order or another
        seat's hidden cards.
        """

    def view(self, seat: int | None) -> dict[str, Any]:
        """:meth:`observe` as JSON-ready data."""
        return self.observe(seat).to_json()

    @abstractmethod
    def chance_fingerprint(self) -> Hashable:
        """An opaque value that changes exactly when chance moved (a die, a shuffle).

        Equal before and after an action when the generator carried in the state
        was not used. Undo compares fingerprints; the value reveals nothing
        (it is a digest of the generator's position, not the position).
        """

    @abstractmethod
    def to_json(self) -> dict[str, Any]:
        """The whole state (secrets and generator included) as JSON-ready data."""

    def digest(self) -> str:
        """A SHA-256 of the canonical JSON of the whole state."""
        text = json.dumps(self.to_json(), sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(text.encode()).hexdigest()

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        assert isinstance(other, State)
        return self.to_json() == other.to_json()

    __hash__ = None  # type: ignore[assignment]

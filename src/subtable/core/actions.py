"""Actions: typed, immutable, with a text notation and a dense integer id.

A game enumerates every distinct action once, in an :class:`ActionSpace`.
Ids are the positions in that enumeration — stable for a ruleset, dense, and
so usable directly as indices of RL action masks. The notation is the
canonical text form (like chess SAN): ``parse(a.notation()) is a``.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Generic, Protocol, TypeVar

from subtable.core.errors import AmbiguousActionError, InvalidActionError


class Action(Protocol):
    """What every game's action type provides."""

    @property
    def id(self) -> int:
        """The dense integer id of this action."""
        ...

    def notation(self) -> str:
        """The canonical, round-trippable text form."""
        ...


A = TypeVar("A", bound=Action)


class ActionSpace(Generic[A]):
    """Every distinct action of a game, indexed by id and by notation."""

    def __init__(self, actions: Sequence[A]) -> None:
        self._actions: tuple[A, ...] = tuple(actions)
        for i, action in enumerate(self._actions):
            if action.id != i:
                raise ValueError(f"action {action!r} has id {action.id}, expected {i}")
        self._by_text: dict[str, A] = {}
        for action in self._actions:
            text = action.notation()
            if text in self._by_text:
                raise ValueError(f"two actions share the notation {text!r}")
            self._by_text[text] = action

    def __len__(self) -> int:
        return len(self._actions)

    def __iter__(self) -> Iterator[A]:
        return iter(self._actions)

    def __getitem__(self, action_id: int) -> A:
        return self._actions[action_id]

    def from_id(self, action_id: int) -> A:
        """Return the action with this id, or raise :class:`InvalidActionError`."""
        if not isinstance(action_id, int) or not 0 <= action_id < len(self._actions):
            raise InvalidActionError(
                f"there is no action with id {action_id!r} (ids run 0..{len(self._actions) - 1})",
                params={"id": action_id},
            )
        return self._actions[action_id]

    def parse(self, text: str) -> A:
        """Return the action written ``text`` in canonical notation."""
        key = " ".join(text.strip().lower().split())
        try:
            return self._by_text[key]
        except KeyError:
            raise InvalidActionError(
                f"{text.strip()!r} is not an action of this game", params={"text": text}
            ) from None

    def resolve(self, text: str, legal: Sequence[A]) -> A:
        """Match ``text`` against the legal actions: exact notation or a unique prefix.

        Used by user interfaces. Raises :class:`InvalidActionError` when nothing
        matches and :class:`AmbiguousActionError` when several legal actions do.
        """
        key = " ".join(text.strip().lower().split())
        if not key:
            raise InvalidActionError("no action given", params={"text": text})
        if key in self._by_text:
            return self._by_text[key]
        matches = [a for a in legal if a.notation().startswith(key)]
        if len(matches) == 1:
            return matches[0]
        if matches:
            shown = ", ".join(a.notation() for a in matches[:6])
            raise AmbiguousActionError(
                f"{text.strip()!r} could mean {shown}{'…' if len(matches) > 6 else ''}",
                params={"text": text, "matches": [a.notation() for a in matches]},
            )
        raise InvalidActionError(
            f"{text.strip()!r} is not an action of this game", params={"text": text}
        )

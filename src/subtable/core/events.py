"""Structured events: what happened, as data, never as sentences.

Every applied action yields a list of :class:`Event`. An event is a ``key``
(a stable identifier such as ``"fire_started"``) and typed parameters, so logs,
user interfaces and translations are built from the same record. Some events
carry a secret (an item drawn into a hidden hand, a card drawn from a private
pile): they name the seats allowed to see it and the parameters to hide from
everybody else.
"""

from __future__ import annotations

from typing import Any, NamedTuple


class Event(NamedTuple):
    """One thing that happened in a game (immutable; a tuple, cheap on hot paths)."""

    key: str
    params: dict[str, Any]
    #: The seats that may see the ``secret`` parameters.
    owners: tuple[int, ...] = ()
    #: Names of parameters hidden from every seat except ``owners``.
    secret: tuple[str, ...] = ()

    def for_seat(self, seat: int | None) -> Event:
        """Return the event as ``seat`` may see it (``None`` is a spectator)."""
        if not self.secret or seat in self.owners:
            return self
        params = {k: v for k, v in self.params.items() if k not in self.secret}
        return Event(self.key, params, self.owners, ())

    def to_json(self) -> dict[str, Any]:
        """Return a JSON-ready dict."""
        data: dict[str, Any] = {"key": self.key, "params": dict(self.params)}
        if self.owners:
            data["owners"] = list(self.owners)
        if self.secret:
            data["secret"] = list(self.secret)
        return data

    def __str__(self) -> str:
        args = ", ".join(f"{k}={v!r}" for k, v in self.params.items())
        return f"{self.key}({args})"

"""The engine's exceptions: a small hierarchy under :class:`ValueError`.

Every rejection carries a machine-readable ``code`` (stable, used as a
translation key by the user interfaces) and a plain-language English
``message``. Nothing is ever changed by a call that raises one of these.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


class SubtableError(ValueError):
    """Base class of every error the engine raises on bad input."""

    code: str = "error"

    def __init__(
        self, message: str, *, code: str | None = None, params: Mapping[str, Any] | None = None
    ) -> None:
        super().__init__(message)
        self.message = message
        if code is not None:
            self.code = code
        self.params: dict[str, Any] = dict(params or {})


class InvalidActionError(SubtableError):
    """The text or id does not name any action of this game."""

    code = "invalid_action"


class AmbiguousActionError(InvalidActionError):
    """A prefix matches several legal actions."""

    code = "ambiguous_action"


class IllegalActionError(SubtableError):
    """The action exists but the rules forbid it in this state."""

    code = "illegal"


class OptionError(SubtableError):
    """A game option or player count is out of range."""

    code = "bad_option"


class RecordError(SubtableError):
    """A game record is malformed, inconsistent or has been tampered with."""

    code = "bad_record"

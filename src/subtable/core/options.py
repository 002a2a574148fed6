"""A game's options as its registration declares them.

Each option is an :class:`OptionSpec`: its name, type, allowed values, default, the
catalogue ids of the words that name and explain it (in every language), whether it has
a flag of its own (``--NAME`` on the command line, a field of its own in the HTTP API)
and, when its allowed values depend on another option, how (:class:`Follows`: a crew
that grows with the player count). The command line, the web's form and API, the lobby
and the lab read these declarations; no layer above a game names one of its options.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeAlias, cast

from typing_extensions import TypeVar

from subtable.core.errors import OptionError

#: the value of one option: options are scalars
OptionValue: TypeAlias = int | float | bool | str
#: a game's options by name
Options: TypeAlias = Mapping[str, OptionValue]
#: the type of one option's values (a mapping of mixed options holds ``OptionSpec[Any]``)
V = TypeVar("V", bound=OptionValue, default=Any)


@dataclass(frozen=True, slots=True)
class Rule:
    """The values an option may take while the option it follows has one of ``when``."""

    #: the values of the followed option this rule is for
    when: tuple[OptionValue, ...]
    #: the values allowed (``None``: the followed option's own value)
    allowed: tuple[OptionValue, ...] | None
    #: the value when none is given (``None``: the followed option's own value)
    default: OptionValue | None
    #: catalogue id of why another value is refused (fields: the two options' names)
    words: str
    #: the same in English, for the engine's error (same fields)
    text: str

    def values(self, on: OptionValue) -> tuple[OptionValue, ...]:
        """The values allowed while the followed option is ``on``."""
        return (on,) if self.allowed is None else self.allowed

    def value(self, on: OptionValue) -> OptionValue:
        """The value taken when none is given while the followed option is ``on``."""
        return on if self.default is None else self.default


@dataclass(frozen=True, slots=True)
class Follows:
    """How an option's allowed values follow another option's value."""

    #: the option followed
    on: str
    rules: tuple[Rule, ...]

    def rule(self, on: OptionValue) -> Rule | None:
        """The rule for the followed option's value ``on``, if any."""
        return next((r for r in self.rules if on in r.when), None)


@dataclass(frozen=True, slots=True)
class OptionSpec(Generic[V]):
    """One option of a game: its type, default, allowed values and words."""

    name: str
    type: type[V]
    #: a ``V``, or ``None`` for an option that follows another (read by front ends
    #: that know which option they hold, hence not narrowed here)
    default: Any
    help: str
    choices: tuple[V, ...] | None = None
    #: catalogue id of the option's name (``None``: the name itself)
    label: str | None = None
    #: catalogue id of what the option does
    describe: str | None = None
    #: given by a flag of its own (``--NAME``, a field of the API's body), not ``-o NAME=``
    flag: bool = False
    #: how its allowed values follow another option (its default is then ``None``)
    follows: Follows | None = None

    def parse(self, raw: str | None) -> V:
        """Convert a command-line value (``None`` for a bare flag)."""
        if self.type is bool:
            if raw is None:
                return self.type(True)
            low = raw.strip().lower()
            if low in ("1", "true", "yes", "on"):
                return self.type(True)
            if low in ("0", "false", "no", "off"):
                return self.type(False)
            raise OptionError(
                f"option {self.name} takes true/false, not {raw!r}",
                params={"option": self.name, "value": raw},
            )
        if raw is None:
            raise OptionError(
                f"option {self.name} needs a value ({self.help})", params={"option": self.name}
            )
        try:
            return self.type(raw)
        except ValueError:
            raise OptionError(
                f"option {self.name} takes a {self.type.__name__}, not {raw!r}",
                params={"option": self.name, "value": raw},
            ) from None

    def check(self, value: object) -> V:
        """Validate a value (already of the right type) and return it."""
        if self.type is bool and not isinstance(value, bool):
            raise OptionError(
                f"option {self.name} must be true or false, not {value!r}",
                params={"option": self.name, "value": value},
            )
        if self.type is int and (isinstance(value, bool) or not isinstance(value, int)):
            raise OptionError(
                f"option {self.name} must be a whole number, not {value!r}",
                params={"option": self.name, "value": value},
            )
        if self.choices is not None and value not in self.choices:
            allowed = ", ".join(str(c) for c in self.choices)
            raise OptionError(
                f"option {self.name} must be one of {allowed}, not {value!r}",
                params={"option": self.name, "value": value},
            )
        return cast("V", value)


def declare(*specs: OptionSpec[Any]) -> dict[str, OptionSpec[Any]]:
    """A game's options by name (a ``Follows`` must name a declared option)."""
    out = {spec.name: spec for spec in specs}
    for spec in specs:
        if spec.follows is not None and spec.follows.on not in out:
            raise ValueError(f"option {spec.name} follows an undeclared option {spec.follows.on}")
    return out


def parse_option_args(
    specs: Mapping[str, OptionSpec[Any]], args: Sequence[str]
) -> dict[str, OptionValue]:
    """Turn ``["name=value", "flag"]`` command-line pieces into an options dict."""
    out: dict[str, OptionValue] = {}
    for arg in args:
        name, sep, raw = arg.partition("=")
        name = name.strip().replace("-", "_")
        if name not in specs:
            known = ", ".join(sorted(specs))
            raise OptionError(f"unknown option {name!r} (known: {known})", params={"option": name})
        out[name] = specs[name].parse(raw if sep else None)
    return out


def settle(
    specs: Mapping[str, OptionSpec[Any]], values: Mapping[str, OptionValue | None]
) -> dict[str, OptionValue]:
    """``values`` (every option present) with each following option checked against the
    option it follows, and filled from it when not given.

    Raises :class:`OptionError` whose ``params`` carry ``words`` (the catalogue id of
    why) and the two options' values, for the front ends to say it in their language.
    """
    out: dict[str, OptionValue | None] = dict(values)
    for spec in specs.values():
        follows = spec.follows
        if follows is None:
            continue
        on = out[follows.on]
        if on is None:
            continue
        rule = follows.rule(on)
        if rule is None:
            continue
        value = out.get(spec.name)
        if value is None:
            out[spec.name] = rule.value(on)
        elif value not in rule.values(on):
            fields = {follows.on: on, spec.name: value}
            raise OptionError(
                rule.text.format(**fields),
                code="option_follows",
                params={"option": spec.name, "words": rule.words, "fields": fields},
            )
    return {name: value for name, value in out.items() if value is not None}

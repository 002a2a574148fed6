"""The lab's words: end reasons, sweep keys and numbers in the reader's language.

The lab keeps codes (``crew_lost``) in its data — JSON, CSV, records — and
names them only where people read: the summary tables, the report, ``replay``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import cache
from typing import TYPE_CHECKING, Any

from babel import Locale
from babel.numbers import format_decimal, format_percent

from subtable.core.registry import GamePlugin, registration
from subtable.i18n import Translator
from subtable.words.game_options import flag_specs, option_label

if TYPE_CHECKING:
    from subtable.sim.compare import Comparison, PairedStat


def end_reason(game: str, reason: str, tr: Translator) -> str:
    """How a game ended, in words (a reason code → the sentence that tells it): its
    UI's words (the ``ui`` part of its registration), the code for a game without one."""
    plugin = registration(game)
    if not plugin.has("ui"):
        return reason
    text: str = _words(plugin).end_reason(reason, tr)
    return text[:1].upper() + text[1:]


def game_title(game: str, tr: Translator) -> str:
    """The game's name in ``tr``'s language (its UI's words; else its engine's title)."""
    plugin = registration(game)
    if not plugin.has("ui"):
        return plugin.game_class().info.title
    title: str = _words(plugin).title(tr)
    return title


@cache
def _words(plugin: GamePlugin) -> Any:
    """The game's UI with its packaged components: where its words are."""
    return plugin.load("ui")(None)


def sweep_key(key: str, tr: Translator) -> str:
    """A swept setting's name for an axis: an option with a flag of its own in its game's
    words, the others as typed."""
    if key == "players":
        return tr("lab.key.players")
    if key == "bot":
        return tr("lab.key.bot")
    if key == "budget":
        return tr("lab.key.budget")
    spec = flag_specs().get(key)
    return key if spec is None else option_label(spec, tr)


def point_label(point: Mapping[str, object], tr: Translator) -> str:
    """``players=5 greater_challenge=1``, or "all games" without a sweep (a comparison's
    two runs: "baseline" and "variant")."""
    if list(point) == ["compare"]:
        return (
            tr("lab.compare.baseline")
            if point["compare"] == "baseline"
            else tr("lab.compare.variant")
        )
    return " ".join(f"{k}={v}" for k, v in point.items()) or tr("lab.all_games")


def percent(value: float, tr: Translator) -> str:
    """``12.5%`` / ``12,5 %``: the language's percent pattern, with one decimal."""
    pattern = Locale.parse(tr.lang).percent_formats[None].pattern
    return format_percent(value, re.sub(r"0(?=[^0#]*$)", "0.0", pattern, count=1), locale=tr.lang)


def number(value: float, tr: Translator, digits: int = 1) -> str:
    """``1,234.5`` / ``1 234,5``."""
    pattern = "#,##0" + ("." + "0" * digits if digits else "")
    return format_decimal(value, pattern, locale=tr.lang)


def rate_ci(rate: float, lo: float, hi: float, tr: Translator) -> str:
    """``12.5% (95% CI 8.0%–18.1%)``."""
    return tr("lab.rate_ci", rate=percent(rate, tr), lo=percent(lo, tr), hi=percent(hi, tr))


def points(value: float, tr: Translator, *, signed: bool = True) -> str:
    """A difference of rates in percentage points: ``+3.2 pts`` / ``−1,5 pts``."""
    text = number(abs(value) * 100, tr)
    sign = "" if not signed else "+" if value > 0 else "−" if value < 0 else "±"
    return tr("lab.compare.pp", value=sign + text)


def figure_name(game: str, what: str, tr: Translator) -> str:
    """A compared figure's name: ``win``, ``seat.2``, ``reason.sunk``."""
    if what == "win":
        return tr("lab.compare.fig.win")
    kind, _, rest = what.partition(".")
    if kind == "seat":
        return tr("lab.seat_wins", n=int(rest))
    return tr("lab.compare.fig.reason", reason=end_reason(game, rest, tr))


def compare_head(comparison: Comparison, tr: Translator) -> list[str]:
    """The column headings of a paired comparison's table (terminal and report alike)."""
    paired = comparison["paired"]
    return [
        tr("lab.compare.col.figure"),
        tr("lab.compare.baseline"),
        tr("lab.compare.variant"),
        tr("lab.compare.col.diff_paired") if paired else tr("lab.compare.col.diff"),
        tr("lab.compare.col.independent"),
        tr("lab.compare.col.p_mcnemar") if paired else tr("lab.compare.col.p_z"),
        tr(
            "lab.compare.col.games_needed",
            precision=points(comparison["precision"], tr, signed=False),
        ),
    ]


def compare_cells(game: str, st: PairedStat, tr: Translator) -> list[str]:
    """One figure's row of a paired comparison: rates, difference with both intervals,
    the test's p-value and the games a precision needs."""
    p = (
        tr("lab.compare.p_below", value=number(0.001, tr, 3))
        if st.p_value < 0.001
        else tr("lab.compare.p", value=number(st.p_value, tr, 3))
    )
    return [
        figure_name(game, st.what, tr),
        percent(st.base_rate, tr),
        percent(st.variant_rate, tr),
        tr(
            "lab.compare.diff_ci",
            diff=points(st.diff, tr),
            lo=points(st.ci95[0], tr),
            hi=points(st.ci95[1], tr),
        ),
        tr(
            "lab.compare.ci",
            lo=points(st.unpaired_ci95[0], tr),
            hi=points(st.unpaired_ci95[1], tr),
        ),
        p,
        tr(
            "lab.compare.games_needed",
            paired=number(st.games_needed, tr, 0),
            independent=number(st.games_needed_unpaired, tr, 0),
        ),
    ]

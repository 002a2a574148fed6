"""The option list both tables draw (``subtable play`` and ``subtable join``)."""

from __future__ import annotations

import io

from rich.console import Console

from subtable.i18n import translator
from subtable.ui.options import FULL, SHORT, TERSE, Option, columns, fit


def _text(level: int, options: list[Option], lang: str = "en") -> str:
    out = io.StringIO()
    Console(file=out, width=200).print(columns(options, translator(lang), level=level))
    return out.getvalue()


FIXES = [
    Option(f"unblock 8-9 {m}", f"Unblock ({m} min)", f"{m}0% to succeed", m / 10) for m in (1, 2, 3)
]
WARNED = Option("use crowbar", "Use the Crowbar", "⚠ gives nothing now")


def test_the_short_list_keeps_the_odds_and_the_warnings() -> None:
    full = _text(FULL, [*FIXES, WARNED])
    assert "Unblock (1 min) · 10% to succeed" in full and "⚠ gives nothing now" in full
    short = _text(SHORT, [*FIXES, WARNED])
    assert "1–3. unblock 8-9 1–3 · 10–30%" in short
    assert "4. use crowbar · ⚠ gives nothing now" in short
    terse = _text(TERSE, [*FIXES, WARNED])
    assert "4. use crowbar · ⚠" in terse and "gives nothing" not in terse
    assert "10–30 %" in _text(SHORT, FIXES, "fr")  # French spaces its per cent sign


def test_the_first_layout_that_fits_wins() -> None:
    tr = translator("en")

    def board(compact: bool) -> str:
        return "small" if compact else "\n".join(["big"] * 15)

    wide = Console(width=120, height=40)
    assert fit(wide, board, FIXES, tr)[0] != "small"
    short = Console(width=120, height=12)
    assert fit(short, board, FIXES, tr)[0] == "small"  # the board first gives way
    narrow = Console(width=80, height=40)
    assert fit(narrow, board, [], tr) == ["small"]  # narrow: always the compact board

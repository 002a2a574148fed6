"""Every message id the terminal table may ask for.

Two sources, both read from code rather than listed by hand:

* the literal ids of ``tr(…)`` calls in the table's own code
  (:func:`subtable.i18n.extract.extract_paths`);
* the members of each f-string family (``rn.item.{}``), enumerated from the
  components, the engines' option specs and phase names, and the engines'
  *source*: the ``_emit("…")`` event keys, the reason codes ``why_illegal`` returns,
  the causes of death and the end reasons. A new event or reason in an engine
  is therefore a missing translation, and a failing test, until it is named.
"""

from __future__ import annotations

import ast
import inspect
from pathlib import Path
from types import ModuleType

from subtable.i18n.extract import Extraction, extract_paths

UI_ROOT = Path(__file__).resolve().parent
PLAY = UI_ROOT.parent / "commands" / "play.py"
I18N = UI_ROOT.parent / "i18n"


def code_extraction() -> Extraction:
    """The ids, families and violations of the table's code."""
    return extract_paths([UI_ROOT, PLAY, I18N])


# -- reading the engines' source -------------------------------------------------------
def _tree(module: ModuleType) -> ast.AST:
    return ast.parse(inspect.getsource(module))


def _name(node: ast.Call) -> str:
    if isinstance(node.func, ast.Attribute):
        return node.func.attr
    if isinstance(node.func, ast.Name):
        return node.func.id
    return ""


def _constant_args(module: ModuleType, func: str, index: int) -> set[str]:
    """String literals passed as argument ``index`` of every call to ``func``."""
    out = set()
    for node in ast.walk(_tree(module)):
        if isinstance(node, ast.Call) and _name(node) == func and len(node.args) > index:
            arg = node.args[index]
            if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                out.add(arg.value)
    return out


def _keyword_constants(module: ModuleType, func: str, keyword: str) -> set[str]:
    out = set()
    for node in ast.walk(_tree(module)):
        if isinstance(node, ast.Call) and _name(node) == func:
            for kw in node.keywords:
                if kw.arg == keyword and isinstance(kw.value, ast.Constant):
                    out.add(str(kw.value.value))
    return out


def event_keys(module: ModuleType) -> set[str]:
    """The keys of every event a state module emits."""
    return (_constant_args(module, "_emit", 0) | _constant_args(module, "_emit_secret", 0)
            | _constant_args(module, "Event", 0))


def reason_codes(module: ModuleType) -> set[str]:
    """The codes ``why_illegal``/``_why*`` return (``return "code", message, params``)."""
    out = set()
    for node in ast.walk(_tree(module)):
        if isinstance(node, ast.FunctionDef) and node.name.startswith(("_why", "why_illegal")):
            for ret in ast.walk(node):
                if (isinstance(ret, ast.Return) and isinstance(ret.value, ast.Tuple)
                        and ret.value.elts and isinstance(ret.value.elts[0], ast.Constant)):
                    out.add(str(ret.value.elts[0].value))
    return out


def core_codes() -> set[str]:
    """The codes :meth:`State.apply` raises itself."""
    from subtable.core import game

    return _keyword_constants(game, "IllegalActionError", "code")


# -- the families ----------------------------------------------------------------------
def red_november_ids() -> set[str]:
    """Every id of Red November's families."""
    from subtable.games.red_november import state
    from subtable.games.red_november.actions import Kind
    from subtable.games.red_november.components import FIX_KINDS, default_components
    from subtable.games.red_november.game import RedNovember
    from subtable.ui.games.red_november import (
        _NARRATORS,
        CHOICES,
        GNOME_COLUMNS,
        WHY_VARIANTS,
    )

    c = default_components()
    phases = state.PHASE_NAMES
    ids = {f"rn.room.{slug}" for slug in c.room_names.values() if slug}
    ids |= {f"rn.item.{item.kind}" for item in c.items}
    ids |= {f"rn.card.{card.kind}" for card in c.events}
    ids |= {f"rn.token.{t}" for t in c.tokens} | {f"rn.track.{t}" for t in c.tracks}
    ids |= {f"rn.fix.{f}" for f in FIX_KINDS}
    ids |= {f"rn.act.{k.name.lower()}" for k in Kind if k != Kind.DRAW}
    ids |= {f"rn.why.{code}" for code in reason_codes(state) - set(WHY_VARIANTS)}
    ids |= {f"rn.waiting.{p}" for p in phases}
    ids |= {f"rn.pending.{p}" for p in phases if p not in ("event_choice", "over")}
    ids |= {f"rn.help.{p}" for p in phases if p not in ("movement", "event_choice", "over")}
    ids |= {f"rn.pending.choice.{ch}" for ch in CHOICES}
    ids |= {f"rn.help.choice.{ch}" for ch in CHOICES}
    ids |= {f"rn.event.{key}" for key in event_keys(state) - set(_NARRATORS)}
    ids |= {f"rn.source.{s}" for s in _keyword_constants(state, "_emit_secret", "source")}
    ids |= {f"rn.cause.{cause}" for cause in _constant_args(state, "_kill", 1)}
    reasons = (_constant_args(state, "_finish", 0) | set(c.tracks) | set(c.tokens)
               | set(RedNovember.info.end_reasons))
    ids |= {f"rn.reason.{r}" for r in reasons}
    ids |= {f"rn.board.col.{col}" for col in GNOME_COLUMNS}
    ids |= {f"rn.option.{name}" for name in RedNovember.option_specs
            if name not in ("players", "gnomes", "greater_challenge")}
    return ids


def submarine_ids() -> set[str]:
    """Every id of Submarine's families."""
    from subtable.games.submarine import state
    from subtable.games.submarine.actions import Kind
    from subtable.games.submarine.components import default_components
    from subtable.games.submarine.game import Submarine
    from subtable.ui.games.submarine import _NARRATORS, PLAYER_COLUMNS, WHY_VARIANTS

    c = default_components()
    phases = state.PHASE_NAMES
    ids = {f"sub.treasure.{t}" for t in (*c.types, c.joker)}
    ids |= {f"sub.colour.{col}" for col in c.colours}
    ids |= {f"sub.colour.abbr.{col}" for col in c.colours}
    ids |= {f"sub.act.{k.name.lower()}" for k in Kind if k != Kind.COLLECT}
    codes = reason_codes(state)
    ids |= {f"sub.why.{code}" for code in codes - set(WHY_VARIANTS)}
    ids |= {f"sub.why.{code}.{kind}" for code, kinds in WHY_VARIANTS.items() for kind in kinds}
    ids |= {f"sub.waiting.{p}" for p in phases}
    ids |= {f"sub.pending.{p}" for p in phases if p != "over"}
    ids |= {f"sub.help.{p}" for p in phases if p != "over"}
    ids |= {f"sub.event.{key}" for key in event_keys(state) - set(_NARRATORS)}
    ids |= {f"sub.source.{s}" for s in ("pile", "hand")}
    ids |= {f"sub.stored.{s}" for s in ("board", "jokers")}
    ids |= {f"sub.board.col.{col}" for col in PLAYER_COLUMNS}
    reasons = _constant_args(state, "_finish", 0) | set(Submarine.info.end_reasons)
    ids |= {f"sub.reason.{r}" for r in reasons}
    return ids


def table_ids() -> set[str]:
    """The game-independent families of the table."""
    from subtable.core.registry import game_names
    from subtable.ui.table import COMMANDS
    from subtable.ui.undo import CHANCE, HIDDEN, OTHER_SEAT, START

    ids = {f"game.{name}" for name in game_names()}
    ids |= {f"ui.help.{c}" for c in ("number", "action", *COMMANDS)}
    ids |= {f"ui.undo.barrier.{b}" for b in (START, CHANCE, HIDDEN, OTHER_SEAT)}
    ids |= {f"ui.why.{code}" for code in core_codes() if code != "not_your_turn"}
    return ids


def all_msgids() -> set[str]:
    """Every id the table may ask for."""
    return code_extraction().ids | table_ids() | red_november_ids() | submarine_ids()

"""Every message id the terminal table may ask for.

Two sources, neither listed by hand:

* the literal ids of ``tr(…)`` calls in the table's own code
  (:func:`subtable.i18n.extract.extract_paths`);
* the members of each f-string family (``rn.item.{}``), enumerated from the
  components, the engines' option specs and each game's declared
  :attr:`~subtable.core.game.Game.vocabulary`: event keys, the reason codes of
  illegal moves, causes of death, end reasons, phases. A new event or reason
  in an engine must be declared (the engines' own tests check that), and is
  then a missing translation, and a failing test, until it is named.
"""

from __future__ import annotations

from pathlib import Path

from subtable.i18n.extract import Extraction, extract_paths

UI_ROOT = Path(__file__).resolve().parent
PLAY = UI_ROOT.parent / "commands" / "play.py"
I18N = UI_ROOT.parent / "i18n"
WEB = UI_ROOT.parent / "web"
#: the lab's readable outputs: the summary tables, the report, ``replay``
LAB = [UI_ROOT.parent / "sim", UI_ROOT.parent / "commands" / "simulate.py"]
REPLAY = UI_ROOT.parent / "commands" / "replay.py"
#: the lessons' engine and their terminal command
LEARN = [UI_ROOT.parent / "learn", UI_ROOT.parent / "commands" / "learn.py"]


def code_extraction() -> Extraction:
    """The ids, families and violations of the table's code."""
    return extract_paths([UI_ROOT, PLAY, I18N, WEB, *LAB, REPLAY, *LEARN])


# -- the families ----------------------------------------------------------------------
def red_november_ids() -> set[str]:
    """Every id of Red November's families."""
    from subtable.bots.red_november.advice import REASONS
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
    words = RedNovember.vocabulary
    phases = words.phases
    ids = {f"rn.room.{slug}" for slug in c.room_names.values() if slug}
    ids |= {f"rn.item.{item.kind}" for item in c.items}
    ids |= {f"rn.card.{card.kind}" for card in c.events}
    ids |= {f"rn.item_text.{item.kind}" for item in c.items}
    ids |= {f"rn.event_text.{card.kind}" for card in c.events}
    ids |= {f"rn.token.{t}" for t in c.tokens} | {f"rn.track.{t}" for t in c.tracks}
    ids |= {f"rn.fix.{f}" for f in FIX_KINDS}
    ids |= {f"rn.act.{k.name.lower()}" for k in Kind if k != Kind.DRAW}
    crazed = RedNovember(players=4, crazed_gnomes=True)
    ids |= {f"rn.act.public.{crazed.public_form(a)}" for a in crazed.action_space} - {
        "rn.act.public.None"
    }
    ids |= {f"rn.why.{code}" for code in words.illegal_reasons - set(WHY_VARIANTS)}
    ids |= {f"rn.waiting.{p}" for p in phases}
    ids |= {f"rn.pending.{p}" for p in phases if p not in ("event_choice", "over")}
    ids |= {f"rn.help.{p}" for p in phases if p not in ("movement", "event_choice", "over")}
    ids |= {f"rn.pending.choice.{ch}" for ch in CHOICES}
    ids |= {f"rn.help.choice.{ch}" for ch in CHOICES}
    ids |= {f"rn.event.{key}" for key in words.event_keys - set(_NARRATORS)}
    ids |= {f"rn.source.{s}" for s in words.extra["draw_sources"]}
    ids |= {f"rn.cause.{cause}" for cause in words.extra["death_causes"]}
    reasons = set(c.tracks) | set(c.tokens) | set(words.end_reasons)
    ids |= {f"rn.reason.{r}" for r in reasons}
    ids |= {f"rn.board.col.{col}" for col in GNOME_COLUMNS}
    ids |= {
        f"rn.option.{name}"
        for name in RedNovember.option_specs
        if name not in ("players", "gnomes", "greater_challenge")
    }
    ids |= {f"advice.rn.{key}" for key in REASONS}
    return ids


def submarine_ids() -> set[str]:
    """Every id of Submarine's families."""
    from subtable.bots.submarine.advice import REASONS
    from subtable.games.submarine.actions import Kind
    from subtable.games.submarine.components import default_components
    from subtable.games.submarine.game import Submarine
    from subtable.ui.games.submarine import _NARRATORS, PLAYER_COLUMNS, WHY_VARIANTS

    c = default_components()
    words = Submarine.vocabulary
    phases = words.phases
    ids = {f"sub.treasure.{t}" for t in (*c.types, c.joker)}
    ids |= {f"sub.colour.{col}" for col in c.colours}
    ids |= {f"sub.colour.abbr.{col}" for col in c.colours}
    ids |= {f"sub.colour.card.{col}" for col in c.colours}
    ids |= {f"sub.board.card.{col}" for col in c.colours}
    ids |= {f"sub.act.{k.name.lower()}" for k in Kind if k != Kind.COLLECT}
    game = Submarine(players=3)
    ids |= {f"sub.act.public.{game.public_form(a)}" for a in game.action_space} - {
        "sub.act.public.None"
    }
    ids |= {f"sub.why.{code}" for code in words.illegal_reasons - set(WHY_VARIANTS)}
    ids |= {f"sub.why.{code}.{kind}" for code, kinds in WHY_VARIANTS.items() for kind in kinds}
    ids |= {f"sub.waiting.{p}" for p in phases}
    ids |= {f"sub.pending.{p}" for p in phases if p != "over"}
    ids |= {f"sub.help.{p}" for p in phases if p != "over"}
    ids |= {f"sub.event.{key}" for key in words.event_keys - set(_NARRATORS)}
    ids |= {f"sub.source.{s}" for s in ("pile", "hand")}
    ids |= {f"sub.stored.{s}" for s in ("board", "jokers")}
    ids |= {f"sub.board.col.{col}" for col in PLAYER_COLUMNS}
    ids |= {f"sub.reason.{r}" for r in words.end_reasons}
    ids |= {f"sub.end.{r}" for r in words.end_reasons}
    ids |= {f"advice.sub.{key}" for key in REASONS}
    return ids


def table_ids() -> set[str]:
    """The game-independent families of the table."""
    from subtable.core.game import APPLY_REASONS
    from subtable.core.registry import game_names
    from subtable.ui.lessons import COMMANDS as LESSON_COMMANDS
    from subtable.ui.table import COMMANDS
    from subtable.ui.undo import CHANCE, HIDDEN, OTHER_SEAT, OVER, START

    ids = {f"game.{name}" for name in game_names()}
    ids |= {f"ui.help.{c}" for c in ("number", "action", *COMMANDS)}
    ids |= {f"learn.ui.help.{c}" for c in ("number", "action", *LESSON_COMMANDS)}
    ids |= {f"ui.undo.barrier.{b}" for b in (START, CHANCE, HIDDEN, OTHER_SEAT, OVER)}
    ids |= {f"ui.why.{code}" for code in APPLY_REASONS if code != "not_your_turn"}
    return ids


def learn_ids() -> set[str]:
    """Every id the lessons' texts use (they hold them as data)."""
    from subtable.learn import lesson_games, lessons

    return {i for game in lesson_games() for lesson in lessons(game) for i in lesson.msg_ids()}


def all_msgids() -> set[str]:
    """Every id the table may ask for."""
    return code_extraction().ids | table_ids() | red_november_ids() | submarine_ids() | learn_ids()

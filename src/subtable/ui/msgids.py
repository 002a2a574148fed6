"""Every message id the terminal table may ask for.

Two sources, neither listed by hand:

* the literal ids of ``tr(…)`` calls in the table's own code
  (:func:`subtable.i18n.extract.extract_paths`);
* the members of each f-string family (``rn.item.{}``), enumerated by each game's
  UI (:meth:`GameUI.msgids <subtable.ui.games.GameUI.msgids>`) from the
  components, the engine's option specs and its declared
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
#: what the commands share: the error printer
COMMON = UI_ROOT.parent / "commands" / "common.py"
I18N = UI_ROOT.parent / "i18n"
#: the words every front end shares (narration, reasons, seats, undo)
WORDS = UI_ROOT.parent / "words"
WEB = UI_ROOT.parent / "web"
#: the lab's readable outputs: the summary tables, the report, ``replay``
LAB = [UI_ROOT.parent / "sim", UI_ROOT.parent / "commands" / "simulate.py"]
REPLAY = UI_ROOT.parent / "commands" / "replay.py"
#: the lessons' engine and their terminal command
LEARN = [UI_ROOT.parent / "learn", UI_ROOT.parent / "commands" / "learn.py"]


def code_extraction() -> Extraction:
    """The ids, families and violations of the table's code."""
    return extract_paths([UI_ROOT, WORDS, PLAY, COMMON, I18N, WEB, *LAB, REPLAY, *LEARN])


# -- the families ----------------------------------------------------------------------
def game_ids() -> set[str]:
    """Every id of each registered game's families (its ``GameUI.msgids``)."""
    from subtable.core.registry import registrations

    ids: set[str] = set()
    for plugin in registrations():
        if plugin.has("ui"):
            ids |= plugin.load("ui")(None).msgids()
    return ids


def table_ids() -> set[str]:
    """The game-independent families of the table."""
    from subtable.bots.levels import level_rates
    from subtable.core.game import APPLY_REASONS
    from subtable.core.registry import game_names
    from subtable.ui.answers import JOIN_COMMANDS
    from subtable.ui.lessons import COMMANDS as LESSON_COMMANDS
    from subtable.ui.table import COMMANDS
    from subtable.words.undo import CHANCE, HIDDEN, OTHER_SEAT, OVER, START

    ids = {f"ui.help.{c}" for c in ("number", "action", *COMMANDS, *JOIN_COMMANDS)}
    ids |= {f"learn.ui.help.{c}" for c in ("number", "action", *LESSON_COMMANDS)}
    ids |= {f"ui.undo.barrier.{b}" for b in (START, CHANCE, HIDDEN, OTHER_SEAT, OVER)}
    ids |= {f"ui.why.{code}" for code in APPLY_REASONS if code != "not_your_turn"}
    ids |= {f"ui.levels.measured.{game}" for game in game_names() if level_rates(game)}
    return ids


def learn_ids() -> set[str]:
    """Every id the lessons' texts use (they hold them as data)."""
    from subtable.learn import lesson_games, lessons

    return {i for game in lesson_games() for lesson in lessons(game) for i in lesson.msg_ids()}


def all_msgids() -> set[str]:
    """Every id the table may ask for."""
    from subtable.words.game_options import declared_ids

    return code_extraction().ids | table_ids() | game_ids() | learn_ids() | declared_ids()

"""The terminal table tells the truth: card texts and odds, refused commands, undo and quit
messages, and keys typed ahead of the prompt."""

from __future__ import annotations

import io
import os
import sys
from pathlib import Path

import pexpect
import pytest
from rich.console import Console

from subtable.core.record import GameRecord
from subtable.core.registry import make_game
from subtable.i18n import LANGUAGES, translator
from subtable.ui.games import game_ui
from subtable.ui.table import GameTable


def _run(
    lines: list[str],
    *,
    game: str = "red-november",
    players: int = 3,
    seed: int = 11,
    seats: list[str] | None = None,
    lang: str = "en",
) -> tuple[GameTable, str]:
    out = io.StringIO()
    script = iter(lines)

    def answer(prompt: str) -> str:
        out.write(prompt)
        line = next(script)
        out.write(line + "\n")
        return line

    table = GameTable(
        make_game(game, players=players).new_state(seed),
        seats or ["human", *["random"] * (players - 1)],
        translator(lang),
        Console(file=out, width=160, height=60, color_system=None, highlight=False),
        fast=True,
        input_fn=answer,
    )
    table.run(intro=None)
    return table, out.getvalue()


# -- 5: card texts and odds ---------------------------------------------------------------
def test_help_on_an_item_or_an_event_prints_its_card_text() -> None:
    _, text = _run(["help crowbar", "help Fire Extinguisher", "help leak", "help zzz", "quit"])
    assert "Crowbar: The active gnome gains a +3 bonus to an Unblock Hatch action" in text
    assert "Fire Extinguisher: The active gnome may enter rooms that are on fire" in text
    assert "Leak: Roll the die for a room" in text
    assert "No card is named “zzz”" in text


def test_card_texts_are_found_by_their_name_in_each_language() -> None:
    ui = game_ui("red-november")
    for lang, word in zip(
        LANGUAGES, ("crowbar", "pied de biche", "palanchino", "pé de cabra"), strict=True
    ):
        text = ui.card_text(word, translator(lang))
        assert text is not None and "+3" in text, (lang, word)


def test_fix_it_options_show_the_exact_chance_and_useless_items_warn() -> None:
    game = make_game("red-november", players=3)
    state = game.new_state(11)
    ui = game_ui(game)
    tr = translator("en")
    data = state.observe(state.current_seat()).to_json()
    space = game.action_space
    data["this_turn"]["bonus"]["engine"] = 3  # a Toolbox already used this turn
    view = game.view_from_json(data)
    fix = space.parse("fix-engine 4")
    assert ui.action_hint(fix, view, tr) == "70% to succeed (roll ≤ 7, items +3)"
    assert ui.odds(fix, view) == 0.7  # what the short option list shows (``· 70%``)
    assert ui.odds(space.parse("use crowbar"), view) is None
    crowbar = space.parse("use crowbar")
    assert data["blocked"] == []
    hint = ui.action_hint(crowbar, view, tr)
    assert hint is not None and hint.startswith("⚠") and "Unblock Hatch" in hint
    data["blocked"] = [[4, 5]]
    view = game.view_from_json(data)
    assert ui.action_hint(crowbar, view, tr) == "+3 to Unblock Hatch this turn"
    assert ui.action_hint(space.parse("no-action"), view, tr) is None


def test_the_options_on_screen_carry_the_hints() -> None:
    _, text = _run(["quit"], seed=5, players=4, seats=["human", "random", "random", "random"])
    assert "% to succeed (roll ≤" in text or "this turn" in text


# -- 8: messages that tell the truth ------------------------------------------------------
def test_undo_before_any_decision_says_so() -> None:
    # seat 1 is a bot: it plays (and draws) before the person decides anything
    _, text = _run(["undo", "quit"], seats=["random", "human", "random"])
    assert "you have not decided anything yet" in text
    assert "a hidden card was revealed" not in text


@pytest.mark.parametrize("arg", ["0", "abc", "-3"])
def test_log_refuses_what_is_not_a_number_of_lines(arg: str) -> None:
    _, text = _run([f"log {arg}", "quit"])
    assert f"log takes a number of lines, 1 or more (not “{arg}”)" in text


def test_quit_with_an_argument_is_not_quit() -> None:
    _, text = _run(["quit now", "undo it", "quit"])
    assert "quit takes no argument (not “now”)" in text
    assert "undo takes no argument" in text
    assert text.count("You leave the table.") == 1


def test_loading_then_quitting_claims_no_unsaved_moves(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    _run(["1", f"save {save}", "quit"])
    from subtable.core.record import replay

    record = GameRecord.load(save)
    state = replay(record)
    out = io.StringIO()
    answers = iter(["quit"])
    table = GameTable(
        state,
        ["human", "random", "random"],
        translator("en"),
        Console(file=out, width=160, color_system=None),
        fast=True,
        input_fn=lambda prompt: next(answers),
    )
    table.run(loaded=save)
    assert "You leave the table." in out.getvalue()
    assert "not saved" not in out.getvalue()


def test_unnamed_rooms_show_their_number_on_the_board() -> None:
    game = make_game("red-november", players=3)
    state = game.new_state(11)
    out = Console(width=160, record=True, color_system=None)
    out.print(game_ui(game).render(state.observe(0), translator("en"), {}))
    assert "room 3" in out.export_text()


# -- 3: type-ahead --------------------------------------------------------------------------
SEATS = ("--seats", "random,human,random")


def test_keys_typed_while_the_bots_play_are_dropped() -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("LC_")}
    env.update({"LANG": "en_US.UTF-8", "TERM": "dumb", "NO_COLOR": "1"})
    child = pexpect.spawn(
        sys.executable,
        ["-m", "subtable", "play", "submarine", "--players", "3", "--seed", "1", *SEATS],
        env=env,
        encoding="utf-8",
        dimensions=(60, 150),
        timeout=30,
    )
    child.send("1\r")  # typed while the table starts and the bot plays
    child.expect(r"Player 2 > ")
    assert "(you):" not in child.before
    index = child.expect([r"\(you\):", pexpect.TIMEOUT], timeout=2)
    assert index == 1, "a key typed before the prompt played a move"
    child.sendline("quit")
    child.expect(pexpect.EOF)
    child.close()

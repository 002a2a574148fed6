"""`subtable play` in a real pseudo-terminal: a person at the prompt, and unattended bot tables."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pexpect
import pytest

pytestmark = pytest.mark.slow  # most tests here take over two seconds

PROMPT = {
    "en": r"Gnome \d+ > ",
    "fr": r"Gnome \d+ > ",
    "it": r"Gnomo \d+ > ",
    "pt": r"Gnomo \d+ > ",
}
SEATS = ["--seats", "human,random,random"]


def _env(lang: str | None = "en") -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("LC_")}
    env.update({"TERM": "dumb", "NO_COLOR": "1", "COLUMNS": "150", "LINES": "60"})
    if lang is None:
        env.pop("LANG", None)
    else:
        env["LANG"] = lang
    return env


def _spawn(*args: str, lang: str | None = "en_US.UTF-8") -> pexpect.spawn:
    return pexpect.spawn(
        sys.executable,
        ["-m", "subtable", "play", *args],
        env=_env(lang),
        encoding="utf-8",
        dimensions=(60, 150),
        timeout=30,
    )


def _options(text: str) -> dict[str, int]:
    """The numbered options on screen: notation -> number."""
    return {
        m.group(2).strip(): int(m.group(1))
        for m in re.finditer(r"^\s*(\d+)\. (\S+(?: \S+)*?)\s{2,}", text, re.M)
    }


def _quit(child: pexpect.spawn) -> int:
    child.sendline("quit")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus is not None
    return child.exitstatus


def test_a_person_plays_explains_undoes_saves_and_resumes(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    child = _spawn("red-november", "--players", "3", *SEATS, "--seed", "11", "--fast")
    child.expect(PROMPT["en"])
    screen = child.before
    assert "Red November" in screen and "Time Track" in screen and "Your options" in screen
    options = _options(screen)
    move = next(n for n in options if n.startswith("move "))

    child.sendline("help")
    child.expect("Commands:")
    child.expect("Rules for now:")
    child.expect("Movement: open a hatch")
    child.expect(PROMPT["en"])

    child.sendline("why kill-kraken 3")
    child.expect("kill-kraken 3 is not possible now: Kill Kraken can only be taken in Sea")
    child.expect(PROMPT["en"])

    child.sendline("abandon")  # an illegal action gets its reason, and the prompt again
    child.expect("abandon is not possible now: you must be in the sea, outside the sub")
    child.expect(PROMPT["en"])

    child.sendline("fly away")
    child.expect("is neither a command nor an action of this game")
    child.expect(PROMPT["en"])

    child.sendline(move)
    child.expect(re.escape(f"(you): {move} — Open the hatch"))
    child.expect(PROMPT["en"])

    child.sendline("log")
    child.expect("The last")
    child.expect(PROMPT["en"])

    child.sendline("undo")
    child.expect(re.escape(f"Undone: {move}."))
    child.expect(PROMPT["en"])
    child.sendline("undo")
    child.expect("Nothing to undo")
    child.expect(PROMPT["en"])

    child.sendline(str(options[move]))  # by number this time
    child.expect(re.escape(f"(you): {move}"))
    child.expect(PROMPT["en"])
    child.sendline(f"save {save}")
    child.expect("Game saved to")
    child.expect(PROMPT["en"])
    assert _quit(child) == 0
    assert save.exists()

    again = _spawn("--load", str(save), "--fast")
    again.expect(r"Loaded .*: \d+ decisions replayed")
    again.expect(PROMPT["en"])
    assert "you are Gnome 1" in again.before
    assert _quit(again) == 0


@pytest.mark.parametrize(
    "lang, env_lang, words",
    [
        (None, "fr_FR.UTF-8", ("Vos possibilités", "Commandes", "Règles du moment")),
        ("it", None, ("Le tue possibilità", "Comandi", "Regole del momento")),
        ("pt", "fr_FR.UTF-8", ("Suas opções", "Comandos", "Regras do momento")),
        ("en", "it_IT.UTF-8", ("Your options", "Commands", "Rules for now")),
    ],
)
def test_the_prompt_speaks_the_players_language(
    lang: str | None, env_lang: str | None, words: tuple[str, ...]
) -> None:
    args = ["red-november", "--players", "3", *SEATS, "--seed", "11", "--fast"]
    if lang:
        args += ["--lang", lang]
    child = _spawn(*args, lang=env_lang)
    shown = lang or "fr"
    child.expect(PROMPT[shown])
    assert words[0] in child.before
    child.sendline("help")
    child.expect(words[1])
    child.expect(words[2])
    child.expect(PROMPT[shown])
    child.sendline("zzz")
    child.expect("zzz")
    child.expect(PROMPT[shown])
    assert _quit(child) == 0


def test_submarine_at_the_prompt() -> None:
    child = _spawn(
        "submarine", "--players", "2", "--seats", "human,random", "--seed", "4", "--fast"
    )
    child.expect(r"Player 1 > ")
    assert "Your player board" in child.before
    child.sendline("why boat 2")
    child.expect("boat 2 is not possible now: every bathyscaphe must first be placed")
    child.expect(r"Player 1 > ")
    child.sendline("place 3")
    child.expect(re.escape("Player 1 (you): place 3"))
    child.expect(r"Player 1 > ")
    child.sendline("undo")
    child.expect("Nothing to undo: another seat has decided")
    assert _quit(child) == 0


def _run(*args: str, lang: str = "en_US.UTF-8") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "subtable", "play", *args],
        env=_env(lang),
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.mark.parametrize(
    "args, result",
    [
        (
            ("red-november", "--players", "3", "--seats", "random,random,random"),
            r"Result: (Rescued!|The Red November is lost)",
        ),
        (
            ("red-november", "--players", "3", "--seats", "heuristic,heuristic,heuristic"),
            r"Result: (Rescued!|The Red November is lost)",
        ),
        (
            (
                "red-november",
                "--players",
                "2",
                "--seats",
                "random,random",
                "--option",
                "crazed_gnomes",
            ),
            r"Result: ",
        ),
        (
            ("submarine", "--players", "3", "--seats", "heuristic,heuristic,heuristic"),
            r"Result: Winner: Player",
        ),
        (
            ("submarine", "--players", "4", "--seats", "random,random,random,random"),
            r"Result: Winner: Player",
        ),
    ],
)
def test_unattended_bot_tables_finish_with_a_result(args: tuple[str, ...], result: str) -> None:
    proc = _run(*args, "--fast", "--seed", "7")
    assert proc.returncode == 0, proc.stderr
    assert re.search(result, proc.stdout), proc.stdout[-2000:]
    assert "Traceback" not in proc.stdout + proc.stderr


def test_bots_chosen_by_level_come_with_the_levels_measured_win_rates() -> None:
    from subtable.bots.levels import level_rates

    rate = round(level_rates("submarine")["strong"] * 100)
    args = ("submarine", "--players", "3", "--fast", "--seed", "7")
    leveled = _run(*args, "--seats", "easy,easy,easy")
    assert leveled.returncode == 0, leveled.stderr
    assert f"(measured): easy 0%, normal 70% and strong {rate}%." in " ".join(
        leveled.stdout.split()
    )
    named = _run(*args, "--seats", "heuristic,heuristic,heuristic")
    assert named.returncode == 0 and "(measured)" not in named.stdout


@pytest.mark.parametrize(
    "args, message",
    [
        (("chess",), "Unknown game “chess”"),
        (("red-november", "--players", "2", "--gnomes", "3"), "--gnomes must be 4"),
        (("red-november", "--players", "9"), "Option players cannot be 9"),
        (("red-november", "-o", "colour=red"), "Unknown option “colour”"),
        (("red-november", "--players", "3", "--seats", "human,bot"), "--seats lists 2 players"),
        (("red-november", "--seats", "human,genius,bot,bot"), "Unknown seat “genius”"),
        (("submarine", "--gnomes", "4"), "Submarine has no gnomes"),
        (("red-november", "--lang", "de"), "Unknown language “de”"),
        (("--load", "/nonexistent/game.json"), "Cannot load /nonexistent/game.json"),
        ((), "Name a game to play"),
    ],
)
def test_bad_arguments_get_a_clear_message_and_exit_2(args: tuple[str, ...], message: str) -> None:
    proc = _run(*args)
    assert proc.returncode == 2
    assert message in proc.stderr and "Traceback" not in proc.stderr


def test_errors_speak_the_language_too() -> None:
    proc = _run("chess", lang="pt_BR.UTF-8")
    assert proc.returncode == 2 and "Jogo desconhecido “chess”" in proc.stderr


def test_the_seed_is_told_only_when_the_game_is_over() -> None:
    """A random seed rebuilds every deck: the table names it after the result, never before."""
    proc = _run("red-november", "--players", "3", "--seats", "random,random,random", "--fast")
    assert proc.returncode == 0, proc.stderr
    found = re.search(r"Seed (\d+) \(play the same game again with --seed \1\)", proc.stdout)
    assert found, proc.stdout[-1500:]
    assert found.start() > proc.stdout.index("Result: ")
    assert proc.stdout.count("Seed ") == 1 and "--seed" not in proc.stdout[: found.start()]


def test_the_same_seed_gives_the_same_game_with_table_bots() -> None:
    """Table bots decide by an iteration budget, not a clock: two runs print the same log."""
    args = ("red-november", "--players", "3", "--seats", "bot,bot,bot", "--seed", "5", "--fast")
    runs = [
        subprocess.Popen(
            [sys.executable, "-m", "subtable", "play", *args],
            env=_env(),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(2)
    ]
    outputs = [run.communicate(timeout=600) for run in runs]
    assert all(run.returncode == 0 for run in runs), outputs[0][1][-2000:]
    assert "Result: " in outputs[0][0]
    assert outputs[0][0] == outputs[1][0]

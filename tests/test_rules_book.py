"""The rules at hand: each game's rule book in four languages, and ``help rules`` at the table."""

from __future__ import annotations

import io
import re
from collections.abc import Iterator
from typing import Any

import pytest
from rich.console import Console

from subtable.core.errors import OptionError
from subtable.core.registry import make_game
from subtable.core.variants import read_variant
from subtable.games.red_november.components import default_components as rn_components
from subtable.games.submarine.components import default_components as sub_components
from subtable.i18n import LANGUAGES, translator
from subtable.ui.table import GameTable
from subtable.words.rules import RuleEntry, RuleSection, find_sections, rule_book

GAMES = ("red-november", "submarine")
#: what an untranslated message id looks like (``rules.rn.turn.title``)
_MSGID = re.compile(r"\b(?:rules|rn|sub|ui|game)\.[a-z_]+(?:\.[a-z_0-9]+)+\b")
#: sections the issue asks for, by game
REQUIRED = {
    "red-november": {
        "goal", "setup", "disasters", "turn", "movement", "fixit", "actions",
        "items", "fainting", "dying", "events", "optional",
    },
    "submarine": {
        "goal", "setup", "turn", "boat", "bathyscaphes", "collect", "tolls",
        "swaps", "jokers", "end",
    },
}  # fmt: skip


def _texts(book: list[RuleSection]) -> Iterator[str]:
    for section in book:
        yield section.title
        for entry in section.entries:
            if entry.title is not None:
                yield entry.title
            yield entry.text


def _entry(book: list[RuleSection], key: str, title: str) -> RuleEntry:
    section = next(s for s in book if s.key == key)
    return next(e for e in section.entries if e.title == title)


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("game", GAMES)
def test_every_section_is_written_out_in_every_language(game: str, lang: str) -> None:
    book = rule_book(game, translator(lang))
    assert REQUIRED[game] <= {s.key for s in book}
    assert len({s.key for s in book}) == len(book)
    for section in book:
        assert section.title.strip() and section.entries, (lang, section.key)
        assert all(entry.text.strip() for entry in section.entries), (lang, section.key)
    for text in _texts(book):
        assert not _MSGID.search(text), (lang, text)
        assert "{" not in text and "}" not in text, (lang, text)
        assert "<" not in text and "[" not in text, (lang, text)  # plain text, no markup


@pytest.mark.parametrize("lang", LANGUAGES[1:])
@pytest.mark.parametrize("game", GAMES)
def test_no_paragraph_falls_back_to_english(game: str, lang: str) -> None:
    english, other = rule_book(game, translator("en")), rule_book(game, translator(lang))
    assert [s.key for s in english] == [s.key for s in other]
    for mine, theirs in zip(english, other, strict=True):
        assert len(mine.entries) == len(theirs.entries)
        for a, b in zip(mine.entries, theirs.entries, strict=True):
            assert a.text != b.text, (lang, mine.key, a.text)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_card_of_the_components_is_in_the_book_with_its_text(lang: str) -> None:
    tr = translator(lang)
    c = rn_components()
    book = rule_book("red-november", tr)
    for item in c.items:
        entry = _entry(book, "items", tr(f"rn.item.{item.kind}"))
        assert tr(f"rn.item_text.{item.kind}") in entry.text
        assert str(item.copies) in entry.text
    kinds = dict.fromkeys(card.kind for card in c.events)
    assert len(next(s for s in book if s.key == "events").entries) == len(kinds) + 1
    for kind in kinds:
        entry = _entry(book, "events", tr(f"rn.card.{kind}"))
        assert tr(f"rn.event_text.{kind}") in entry.text
        faints = [str(card.faint or "–") for card in c.events if card.kind == kind]
        assert ", ".join(faints) in entry.text


def test_red_november_numbers_come_from_the_components() -> None:
    tr = translator("en")
    sets = ["disaster_tracks.length=12", "actions.low_water_penalty=3", "events.fire=10"]
    variant = make_game("red-november", read_variant("red-november", None, sets), players=3)
    plain, changed = (
        rule_book("red-november", tr),
        rule_book(
            "red-november",
            tr,
            components=variant.components,  # type: ignore[attr-defined]
        ),
    )
    before, after = "\n".join(_texts(plain)), "\n".join(_texts(changed))
    assert "space 10)" in before and "space 12)" in after and "space 12)" not in before
    assert "+2 at low water" in before and "+3 at low water" in after
    fire = _entry(changed, "events", tr("rn.card.fire")).text
    assert "10\u00a0cards" in fire and "8\u00a0cards" in _entry(plain, "events", "Fire").text


def test_submarine_numbers_come_from_the_components() -> None:
    tr = translator("en")
    sets = ["cards.hand_size=4", "players.3.bathyscaphes=4"]
    variant = make_game("submarine", read_variant("submarine", None, sets), players=3)
    plain = rule_book("submarine", tr)
    changed = rule_book("submarine", tr, components=variant.components)  # type: ignore[attr-defined]
    assert "draws 3 of them" in "\n".join(_texts(plain))
    assert "draws 4 of them" in "\n".join(_texts(changed))
    three = tr.plural("rules.sub.setup.players", "rules.sub.setup.players.plural", 3)
    assert _entry(plain, "setup", three).text.startswith("5 bathyscaphes")
    assert _entry(changed, "setup", three).text.startswith("4 bathyscaphes")
    c = sub_components()
    aim = next(s for s in plain if s.key == "goal").entries[0].text
    assert f"{len(c.types)} types, in {len(c.colours)} colours" in aim


def test_sections_are_found_by_key_or_title() -> None:
    book = rule_book("submarine", translator("fr"))
    assert [s.key for s in find_sections(book, "tolls")] == ["tolls"]
    assert [s.key for s in find_sections(book, "le peage")] == ["tolls"]  # accents optional
    assert [s.key for s in find_sections(book, "JOKER")] == ["jokers"]
    assert find_sections(book, "zzz") == [] and find_sections(book, " ") == []


def test_an_unknown_game_has_no_book() -> None:
    with pytest.raises(OptionError, match="unknown game"):
        rule_book("chess", translator("en"))


# -- at the terminal ---------------------------------------------------------------------------
def _answers(game: str, lang: str, lines: list[str], width: int, **options: Any) -> str:
    """The table's output for ``lines`` typed at the prompt, each answer marked ``@@``."""
    state = make_game(game, **options).new_state(11)
    out = io.StringIO()
    script = iter([*lines, "quit"])

    def answer(_prompt: str) -> str:
        line = next(script)
        out.write(f"@@ {line}\n")
        return line

    console = Console(file=out, width=width, color_system=None, highlight=False)
    seats = ["human"] + ["random"] * (state.game.num_players - 1)
    GameTable(state, seats, translator(lang), console, fast=True, input_fn=answer).run()
    return out.getvalue()


def _after(text: str, command: str) -> str:
    """What the table printed in answer to ``command`` (up to the next answer)."""
    start = text.index(f"@@ {command}\n") + len(command) + 4
    end = text.find("@@ ", start)
    return text[start : end if end >= 0 else len(text)]


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("game", GAMES)
def test_help_rules_prints_the_book_within_80_columns(game: str, lang: str) -> None:
    tr = translator(lang)
    commands = ["help rules", "help rules events", "help rules zzz"]
    text = _answers(game, lang, commands, 80, players=3)
    book = rule_book(game, tr)
    printed = _after(text, "help rules")
    lines = printed.splitlines()
    assert len(lines) > 40 and max(len(line) for line in lines) <= 80
    for section in book:
        assert section.title in lines
    flat = " ".join(printed.split())
    assert book[-1].entries[-1].text.split()[-1] in flat
    if game == "red-november":
        events = _after(text, "help rules events").splitlines()
        assert events[0] == tr("rules.rn.events.title") and len(events) > 20
        assert max(len(line) for line in events) <= 80
    missing = _after(text, "help rules zzz")
    assert "zzz" in missing and book[0].key in missing and max(map(len, missing.splitlines())) <= 80


def test_help_lists_the_rule_book_and_keeps_help_on_a_card() -> None:
    text = _answers("red-november", "en", ["help", "help crowbar", "help 1"], 160, players=3)
    listing = _after(text, "help")
    assert "help rules [SECTION]" in listing and "goal, setup, disasters" in listing
    assert "Crowbar: The active gnome gains a +3 bonus" in _after(text, "help crowbar")
    assert "—" in _after(text, "help 1")


def test_help_rules_follows_a_variants_components() -> None:
    overrides = read_variant("red-november", None, ["disaster_tracks.length=12"])
    state = make_game("red-november", overrides, players=3).new_state(3)
    out = io.StringIO()
    script = iter(["help rules disasters", "quit"])
    table = GameTable(
        state,
        ["human", "random", "random"],
        translator("en"),
        Console(file=out, width=100, color_system=None),
        fast=True,
        input_fn=lambda _prompt: next(script),
    )
    table.run()
    assert "space 12" in out.getvalue() and "space 10," not in out.getvalue()

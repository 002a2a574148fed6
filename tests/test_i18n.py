"""The four catalogues: complete, consistent, loadable, and in the rulebooks' own words."""

from __future__ import annotations

import re
import string
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog

from subtable.i18n import (
    DOMAIN,
    LANGUAGES,
    catalog,
    catalog_files,
    detect_language,
    normalize,
    translator,
)
from subtable.ui.msgids import all_msgids, code_extraction

ROOT = Path(__file__).resolve().parent.parent
GLOSSARY = ROOT / "docs" / "glossary.md"


def _catalog(lang: str) -> Catalog:
    return catalog(lang)


def _entries(lang: str) -> dict[str, tuple[str, ...]]:
    """msgid -> its translation(s); a plural entry is listed under both of its ids."""
    out: dict[str, tuple[str, ...]] = {}
    for message in _catalog(lang):
        if not message.id:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        for msgid in ids:
            out[msgid] = tuple(strings)
    return out


def _fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


@pytest.mark.slow
def test_the_code_names_every_message_id_literally_or_by_family() -> None:
    extraction = code_extraction()
    assert extraction.violations == [], "tr() called with a computed id: use a literal or f-string"
    ids = all_msgids()
    for family in extraction.families:
        pattern = re.compile("^" + re.escape(family).replace(r"\{\}", ".+") + "$")
        assert any(pattern.match(i) for i in ids), f"nothing enumerates the family {family!r}"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_message_is_translated(lang: str) -> None:
    entries = _entries(lang)
    missing = sorted(all_msgids() - set(entries))
    assert not missing, f"{lang}: missing {missing}"
    empty = sorted(k for k, v in entries.items() if not all(s.strip() for s in v))
    assert not empty, f"{lang}: empty {empty}"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_stale_messages(lang: str) -> None:
    stale = sorted(set(_entries(lang)) - all_msgids())
    assert not stale, f"{lang}: no code asks for {stale}"


@pytest.mark.parametrize("lang", LANGUAGES[1:])
def test_placeholders_match_english(lang: str) -> None:
    english, other = _entries("en"), _entries(lang)
    for msgid, texts in other.items():
        want = set().union(*(_fields(t) for t in english[msgid]))
        got = set().union(*(_fields(t) for t in texts))
        assert got == want, f"{lang} {msgid}: {sorted(got)} != {sorted(want)}"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_catalogue_headers(lang: str) -> None:
    catalog = _catalog(lang)
    assert str(catalog.locale) == lang
    assert catalog.num_plurals == 2


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_catalogue_file_states_its_plural_rule(lang: str) -> None:
    """Each file says how many plural forms it has, the same as ``subtable.po``.

    A file without the header is read with the plural count of Babel's CLDR data, which
    changes between releases (Babel 2.19 gives French, Italian and Portuguese three forms),
    and its two-form entries would then be padded with an empty third.
    """
    rules = {
        f.name: re.findall(r'^"Plural-Forms: (.*)\\n"$', f.read_text(encoding="utf-8"), re.M)
        for f in catalog_files(lang)
    }
    assert rules[f"{DOMAIN}.po"] and len(rules[f"{DOMAIN}.po"]) == 1
    assert {name: r for name, r in rules.items() if r != rules[f"{DOMAIN}.po"]} == {}


def test_plurals_follow_each_language() -> None:
    fr, en = translator("fr"), translator("en")
    assert "0 carte de recherche" in fr.plural(
        "sub.event.cards_drawn", "sub.event.cards_drawn.plural", 0, seat="J"
    )
    assert "0 search cards" in en.plural(
        "sub.event.cards_drawn", "sub.event.cards_drawn.plural", 0, seat="P"
    )


@pytest.mark.parametrize(
    "env, lang",
    [
        ({"LANG": "fr_FR.UTF-8"}, "fr"),
        ({"LANG": "pt_BR.UTF-8"}, "pt"),
        ({"LC_ALL": "C.UTF-8", "LANG": "it_IT.UTF-8"}, "it"),
        ({"LC_MESSAGES": "pt_PT", "LANG": "fr_FR"}, "pt"),
        ({"LANG": "de_DE.UTF-8"}, "en"),
        ({}, "en"),
    ],
)
def test_language_from_the_environment(env: dict[str, str], lang: str) -> None:
    assert detect_language(env) == lang


def test_language_tags() -> None:
    assert normalize("FR") == "fr" and normalize("pt-BR") == "pt" and normalize("xx") is None


@pytest.mark.parametrize(
    "msgid, words",
    [
        ("rn.item.aqualung", ("Aqualung", "Scaphandre", "Autorespiratore", "Escafandro")),
        ("rn.item.grog", ("Grog", "Bouteille d'alcool", "Grog", "Rum")),
        ("rn.fix.pump", ("Pump Water", "Écoper", "Pompa Acqua", "Bombear Água")),
        ("rn.token.crushed", ("Crushed!", "Écrasement", "Schiacciati!", "Esmagado!")),
        (
            "rn.option.crazed_gnomes",
            ("Crazed Gnomes", "La confiance règne", "Gnomi Impazziti", "Gnomos Malucos"),
        ),
    ],
)
def test_rulebook_terms(msgid: str, words: tuple[str, ...]) -> None:
    for lang, word in zip(LANGUAGES, words, strict=True):
        assert translator(lang)(msgid) == word


GLOSSARY_FAMILIES = (
    "rn.room.",
    "rn.item.",
    "rn.card.",
    "rn.token.",
    "rn.track.",
    "rn.fix.",
    "rn.option.",
    "sub.treasure.",
    "sub.colour.",
)


def test_the_glossary_lists_every_game_term() -> None:
    text = GLOSSARY.read_text(encoding="utf-8")
    for lang in LANGUAGES:
        for msgid, texts in _entries(lang).items():
            if not msgid.startswith(GLOSSARY_FAMILIES) or "abbr" in msgid or ".card." in msgid:
                continue
            if msgid in ("rn.room.named", "rn.room.number", "rn.item.count"):
                continue
            term = re.sub(r" \(\{level\}\)$", "", texts[0])
            assert term in text, f"docs/glossary.md lacks {lang} {term!r} ({msgid})"


RULES = ROOT.parent / "shared" / "rules"
BOOKS = {
    "003": "003_b765f80bd948deb4.txt",
    "000": "000_f35ccde8b570f1d4.txt",
    "001": "001_572ed50606810f16.txt",
    "004": "004_86073f4650d10ecf.txt",
    "002": "002_f905c3d9fa964643.txt",
}


def _norm(text: str) -> str:
    return " ".join(text.replace("\u00a0", " ").replace("*", "").split()).casefold()


@pytest.mark.skipif(not RULES.is_dir(), reason="the rulebooks (shared/rules) are not here")
def test_every_glossary_quotation_is_in_its_rulebook() -> None:
    books = {k: _norm((RULES / v).read_text(encoding="utf-8")) for k, v in BOOKS.items()}
    quotes = re.findall(r"\b(\d{3}): `([^`]+)`", GLOSSARY.read_text(encoding="utf-8"))
    assert len(quotes) > 150
    for book, quote in quotes:
        assert _norm(quote) in books[book], f"{book}: {quote!r} is not in the book"


# -- grammar --------------------------------------------------------------------------------
#: a count placeholder followed by a plural English noun needs the catalogue's plural forms
_COUNTED = re.compile(r"\{(n|count|limit)\} (?!min\b)[a-z]+s\b")


def test_counted_nouns_use_plural_forms() -> None:
    singular_only = [
        msgid
        for msgid, texts in _entries("en").items()
        if len(texts) == 1 and _COUNTED.search(texts[0])
    ]
    assert not singular_only, f"use tr.plural for {singular_only}"


@pytest.mark.parametrize("lang", ["fr", "it", "pt"])
def test_card_colours_agree_with_card(lang: str) -> None:
    from subtable.core.registry import make_game
    from subtable.words import game_ui

    tr = translator(lang)
    game = make_game("submarine", players=3)
    ui = game_ui(game)
    noun = {"fr": "carte", "it": "carta", "pt": "carta"}[lang]
    masculine = {
        tr(f"sub.colour.{c}")
        for c in game.components.colours  # type: ignore[attr-defined]
    } - {tr(f"sub.colour.card.{c}") for c in game.components.colours}  # type: ignore[attr-defined]
    for action in game.action_space:
        label = ui.action_label(action, tr)
        for word in masculine:
            assert f"{noun} {word} " not in label + " ", f"{lang}: {label!r}"


def test_one_word_per_term_in_portuguese() -> None:
    rulebook = "zona de itens comprados"  # the red area's name in the Portuguese rulebook
    mixed = [
        msgid
        for msgid, texts in _entries("pt").items()
        if any(re.search(r"\bitens?\b", t.replace(rulebook, ""), re.I) for t in texts)
    ]
    assert not mixed, f"pt says objeto(s), as the rulebook does: {mixed}"


_SECOND_PERSON = re.compile(r"\b(your|you|votre|vos|vous|tuo|tua|tuoi|seu|sua|você)\b", re.I)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_action_labels_read_for_bots_too(lang: str) -> None:
    """A label is also the log's account of a bot's move: never "your boat"."""
    second = [
        msgid
        for msgid, texts in _entries(lang).items()
        if msgid.startswith(("sub.act.", "rn.act."))
        and any(_SECOND_PERSON.search(t) for t in texts)
    ]
    assert not second, f"{lang}: {second}"


def test_italian_writes_ed_before_an_e() -> None:
    """Not "Ferma Lancio Missili e Elimina Kraken" (a Grog's hint lists every fix-it)."""
    it = translator("it")
    assert it.join(["Ferma Lancio Missili", "Elimina Kraken"]).endswith("Missili ed Elimina Kraken")
    assert it.join(["Spegni Incendio", "Pompa Acqua"]) == "Spegni Incendio e Pompa Acqua"
    assert translator("pt").join(["Apagar o Fogo", "Esmagado!"]).endswith(" e Esmagado!")
    slips = [
        msgid
        for msgid, texts in _entries("it").items()
        if any(re.search(r"\be [EeÈèÉé]|possibile Elimina", t) for t in texts)
    ]
    assert not slips, f"it: {slips}"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_faint_check_is_a_sentence_whatever_the_card(lang: str) -> None:
    from subtable.core.events import Event
    from subtable.words import game_ui

    ui, tr = game_ui("red-november"), translator(lang)

    def line(number: int, level: int, fainted: bool) -> str:
        params = {"gnome": 0, "number": number, "level": level, "fainted": fainted, "card": "fire"}
        text = ui.narrate(Event("faint_check", params), tr)
        assert text is not None
        return text

    dash, standing, fainted = line(0, 2, False), line(4, 2, False), line(2, 3, True)
    assert len({dash, standing, fainted}) == 3
    assert "–" not in dash and "2" not in dash.replace(tr("rn.gnome", n=1), "")
    assert "4" in standing and "2" in standing and "2" in fainted and "3" in fainted
    for text in (dash, standing, fainted):
        assert " – " not in text and " — " not in text and text[-1] in ".!"
    if lang == "en":
        assert dash == "Faint Check for Gnome 1: the card shows a dash, so he does not faint."

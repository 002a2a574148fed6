"""The documentation: its examples run, the README stays a newcomer's page, and no
development history leaks into the sources or the docs."""

from __future__ import annotations

import csv
import doctest
import importlib
import importlib.util
import re
from pathlib import Path

import pytest

from subtable.bots.levels import level_rates

ROOT = Path(__file__).resolve().parent.parent
#: every module of the package whose docstrings hold examples
MODULES = sorted(
    ".".join(p.relative_to(ROOT / "src").with_suffix("").parts)
    for p in (ROOT / "src" / "subtable").rglob("*.py")
    if ">>>" in p.read_text(encoding="utf-8")
)
README = ROOT / "README.md"
DOC_PAGES = sorted(p for p in (ROOT / "docs").rglob("*.md") if ">>>" in p.read_text())
#: a snippet of a file by line range, as the site includes one
SNIPPET = re.compile(r'^--8<-- "([^":]+):(\d+):(\d+)"$', re.M)
#: what only a lab notebook says: a step of the work, a ticket, a developer's machine
HISTORY = re.compile(r"\bstop [0-9]+|\bissue [0-9]+|/work/|plan\.md", re.I)


def _doctest(path: Path) -> doctest.TestResults:
    return doctest.testfile(
        str(path), module_relative=False, optionflags=doctest.ELLIPSIS, verbose=False
    )


def test_readme_examples() -> None:
    result = _doctest(README)
    assert result.attempted > 0 and result.failed == 0


@pytest.mark.parametrize("page", DOC_PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_doc_page_examples(page: Path) -> None:
    result = _doctest(page)
    assert result.attempted > 0 and result.failed == 0


def test_the_engine_pages_have_examples() -> None:
    names = {p.relative_to(ROOT / "docs").as_posix() for p in DOC_PAGES}
    assert {"engine/index.md", "engine/new-game.md", "lab/simulate.md"} <= names


@pytest.mark.parametrize("name", MODULES)
def test_module_doctests(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name))
    assert result.failed == 0


def test_the_engines_examples_are_found() -> None:
    assert {"subtable.games.red_november.game", "subtable.games.submarine.game"} <= set(MODULES)


def test_the_readme_starts_with_the_two_commands_and_stays_short() -> None:
    lines = README.read_text(encoding="utf-8").splitlines()
    assert len(lines) <= 150
    assert lines[2].strip() == "pip install . && subtable serve --open"
    assert lines[3].strip() == "pip install '.[test]' && python -m pytest"


def test_the_readme_holds_no_lab_notebook() -> None:
    text = README.read_text(encoding="utf-8")
    assert not re.search(r"\bp [=<] ?[0-9.]", text), "a p-value"
    assert not re.search(r"\b[0-9a-f]{7}\b(?![0-9a-f])", text.replace("sha", "")), "a commit"
    assert not re.search(r"seeds? [0-9]+(, [0-9]+)+", text), "a list of seeds"
    assert not HISTORY.search(text)


def test_the_readme_links_resolve() -> None:
    text = README.read_text(encoding="utf-8")
    for target in re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", text):
        if not target.startswith("http"):
            assert (ROOT / target).exists(), target


def test_no_history_in_sources_or_docs() -> None:
    found = []
    for top in ("src", "docs"):
        for path in (ROOT / top).rglob("*"):
            if path.suffix in {".py", ".md", ".js", ".css", ".html", ".toml", ".po"}:
                text = path.read_text(encoding="utf-8")
                found += [f"{path.relative_to(ROOT)}: {m[0]}" for m in HISTORY.finditer(text)]
    assert found == []


@pytest.mark.parametrize(
    "page", sorted((ROOT / "docs").rglob("*.md")), ids=lambda p: str(p.relative_to(ROOT))
)
def test_line_snippets_cover_whole_definitions(page: Path) -> None:
    """A snippet by line range starts at a definition and ends at the end of one, so that a
    change to the file it shows cannot cut a class in half unnoticed."""
    for name, first, last in SNIPPET.findall(page.read_text(encoding="utf-8")):
        lines = (ROOT / name).read_text(encoding="utf-8").splitlines()
        start, end = int(first) - 1, int(last)
        assert lines[start] and not lines[start][0].isspace(), (name, first)
        assert end == len(lines) or not lines[end].strip(), (name, last)


def test_the_site_drops_sphinx_roles_before_code() -> None:
    spec = importlib.util.spec_from_file_location("docs_hooks", ROOT / "scripts" / "docs_hooks.py")
    assert spec is not None and spec.loader is not None
    hooks = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(hooks)
    html = "<p>See :meth:<code>State.apply</code> and a:b:<code>c</code>.</p>"
    assert (
        hooks.on_page_content(html) == "<p>See <code>State.apply</code> and a:b:<code>c</code>.</p>"
    )


def test_the_readme_shows_the_levels_people_see() -> None:
    """The README's strength table and the win rates shown beside each level agree."""
    rows = {
        row[0]: row
        for row in (
            [cell.strip() for cell in line.strip("|").split("|")]
            for line in README.read_text(encoding="utf-8").splitlines()
            if line.startswith("| easy")
            or line.startswith("| normal")
            or line.startswith("| strong")
        )
    }
    for column, game in ((2, "red-november"), (3, "submarine")):
        for level, rate in level_rates(game).items():
            assert rows[level][column] == f"{rate:.1%}", (game, level)


def test_the_held_out_runs_add_up() -> None:
    """Each paired run's difference in wins is the difference of the deals only one side won."""
    path = ROOT / "docs" / "strength" / "held-out-runs.csv"
    with path.open(encoding="utf-8") as f:
        runs = list(csv.DictReader(f))
    assert runs
    for run in runs:
        wins = int(run["bot_wins"]) - int(run["heuristic_wins"])
        assert wins == int(run["only_bot"]) - int(run["only_heuristic"]), run
        assert max(int(run["bot_wins"]), int(run["heuristic_wins"])) <= int(run["deals"])

"""The house's shape: one game, one place; no import circle anywhere.

* Every game is a plug-in (:mod:`subtable.core.registry`): outside a game's own homes no
  module names it — neither its modules (imported, even lazily) nor its name, spelling or
  title in code (a string, an identifier). Prose (docstrings, comments) may mention a game
  as an example. The registration's table (``BUILTIN``) is the one allowed place.
* No import circle between the modules of ``subtable``: every import counts, top level,
  inside functions and under ``TYPE_CHECKING``, but for one documented case: inside one
  game's engine package (``games/<game>/``) the modules may name each other for annotations
  only (``TYPE_CHECKING``): the Game builds its State and View, which annotate the Game
  they read (the OpenSpiel split); no such import ever runs.
* The packages stand in layers (:data:`LAYERS`) and no import runs up them.
* Markup is built one way: ElementTree (``web/boards/svg.py``) or a Jinja2 template, never
  an f-string; no module of the web layer runs over 500 lines, no function of it over 80,
  and at most five functions in the whole package.
"""

from __future__ import annotations

import ast
import functools
import re
from dataclasses import dataclass
from pathlib import Path

import pytest

from module_graph import arrows_up, find_cycle, module_name, package_of
from subtable.core.registry import BUILTIN

SRC = Path(__file__).resolve().parent.parent / "src"
PACKAGE = SRC / "subtable"
#: the built-in games' module spellings (``red_november``) and names (``red-november``)
SLUGS = tuple(name.replace("-", "_") for name in BUILTIN)


def _homes(slug: str) -> tuple[str, ...]:
    """Where a game's own code lives (module-name patterns): its engine, bots, words
    (``words/<game>*.py``), terminal board and web board, the lab's figures
    (``sim/metrics_<game>.py``) and the game's lessons (``learn/<game>.py``)."""
    return (
        rf"subtable\.games\.{slug}(\..*)?",
        rf"subtable\.bots\.{slug}(\..*)?",
        rf"subtable\.ui\.games\.{slug}\w*",
        rf"subtable\.words\.{slug}\w*",
        rf"subtable\.web\.boards\.{slug}\w*",
        rf"subtable\.rl\.encode_{slug}",
        rf"subtable\.sim\.metrics_{slug}",
        rf"subtable\.learn\.{slug}",
    )


#: the one module outside the games' homes that may name them: the registration's table
REGISTRATION = "subtable.core.registry"


MODULES: dict[str, Path] = {module_name(p, SRC): p for p in sorted(PACKAGE.rglob("*.py"))}


def _home_of(module: str) -> str | None:
    """The game whose home ``module`` is, or ``None``."""
    for slug in SLUGS:
        if any(re.fullmatch(p, module) for p in _homes(slug)):
            return slug
    return None


# -- the import graph --------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Import:
    target: str
    line: int
    annotation_only: bool  # under ``if TYPE_CHECKING:``


@functools.cache
def _imports(module: str) -> tuple[Import, ...]:
    """Every ``subtable`` module ``module`` imports (``from a import b`` counts ``a.b`` when it
    is a module, else ``a``), wherever the statement stands; read once per process (the cycle
    test and each module's own test ask for the same modules)."""
    path = MODULES[module]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    checking: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            checking.update(id(n) for stmt in node.body for n in ast.walk(stmt))
    out: list[Import] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            subs = [f"{target}.{alias.name}" for alias in node.names]
            names = [s for s in subs if s in MODULES]
            if len(names) < len(subs):
                names.append(target)
        else:
            continue
        for name in names:
            while name and name not in MODULES:
                name = name.rpartition(".")[0]
            if name and name != module:
                out.append(Import(name, node.lineno, id(node) in checking))
    return tuple(out)


def _counts(module: str, imp: Import) -> bool:
    """Whether an import is an arrow of the graph (see the module docstring)."""
    if not imp.annotation_only:
        return True
    engine = re.fullmatch(r"subtable\.games\.(\w+)\..*", module)
    return not (engine and imp.target.startswith(f"subtable.games.{engine.group(1)}."))


def import_graph() -> dict[str, set[str]]:
    """Module -> the modules it imports (the arrows that count)."""
    return {m: {i.target for i in _imports(m) if _counts(m, i)} for m in MODULES}


def test_no_import_cycle_in_subtable() -> None:
    assert find_cycle(import_graph()) is None


def test_the_cycle_finder_finds_one() -> None:
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) is None


def test_the_walk_sees_annotations_and_lazy_imports() -> None:
    imports = {(i.target, i.annotation_only) for i in _imports("subtable.web.boards")}
    assert ("subtable.core.registry", False) in imports
    lazy = {i.target for i in _imports("subtable.commands.simulate")}
    assert "subtable.sim.lab" in lazy  # imported inside the command's function
    annotated = _imports("subtable.games.red_november.state")
    assert any(i.target.endswith(".game") and i.annotation_only for i in annotated)


def test_core_imports_nothing_above_it() -> None:
    """The core asks the registration for a game's parts; it never imports one."""
    for module in MODULES:
        if module.startswith("subtable.core"):
            above = sorted(
                i.target
                for i in _imports(module)
                if not i.target.startswith(("subtable.core", "subtable.i18n"))
                and i.target != "subtable"
            )
            assert not above, f"{module} imports {above}"


# -- no module outside a game's homes names it ----------------------------------------
def _spellings(slug: str) -> re.Pattern[str]:
    """``red_november``, ``red-november``, ``rednovember``, ``Red November`` (any case)."""
    words = slug.split("_")
    return re.compile("[-_ ]?".join(re.escape(w) for w in words), re.IGNORECASE)


def _docstrings(tree: ast.AST) -> set[int]:
    """The ids of the docstring constants of ``tree``."""
    out: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                out.add(id(body[0].value))
    return out


def _catalogue_prefixes() -> set[str]:
    """The first parts of the built-in games' own message ids (``rn``, ``sub``): a game's
    texts are its own too."""
    from subtable.words import game_ui

    return {i.split(".")[0] + "." for name in BUILTIN for i in game_ui(name).msgids()}


PREFIXES = tuple(sorted(_catalogue_prefixes()))


def _named(tree: ast.AST, slugs: list[str]) -> list[str]:
    """The strings (docstrings aside) and identifiers of ``tree`` that spell a game, and the
    strings that begin with a game's message ids (``rn.track.``)."""
    docs = _docstrings(tree)
    found: list[str] = []
    for node in ast.walk(tree):
        text = node.value if isinstance(node, ast.Constant) else None
        if isinstance(text, str) and id(node) not in docs and text.startswith(PREFIXES):
            found.append(f"line {node.lineno}: {text!r} is a game's message")
        words: list[str] = []
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs:
            words.append(node.value)
        elif isinstance(node, ast.Name):
            words.append(node.id)
        elif isinstance(node, ast.Attribute):
            words.append(node.attr)
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            words.append(node.name)
        elif isinstance(node, ast.arg) or (isinstance(node, ast.keyword) and node.arg):
            words.append(node.arg)
        elif isinstance(node, ast.alias):
            words.append(node.asname or "")
        for word in words:
            for slug in slugs:
                if _spellings(slug).search(word):
                    found.append(f"line {getattr(node, 'lineno', '?')}: {word!r} names {slug}")
    return found


def namings(module: str) -> list[str]:
    """Where ``module`` names a game: outside every game's homes, an import of one of a
    game's modules, a string (not a docstring) or an identifier holding one of its
    spellings; in one game's homes, an import of another game's modules (a game's own words
    are its own: Red November's board draws a submarine)."""
    home = _home_of(module)
    found: list[str] = []
    for imp in _imports(module):
        owner = _home_of(imp.target)
        if owner is not None and owner != home:
            found.append(f"line {imp.line}: imports {imp.target}")
    if home is None:
        found += _named(ast.parse(MODULES[module].read_text(encoding="utf-8")), list(SLUGS))
    return found


def test_the_games_have_homes() -> None:
    for slug in SLUGS:
        homes = [m for m in MODULES if _home_of(m) == slug]
        assert f"subtable.games.{slug}.plugin" in homes
        assert f"subtable.ui.games.{slug}" in homes
        assert f"subtable.words.{slug}" in homes
        assert f"subtable.rl.encode_{slug}" in homes
        assert f"subtable.learn.{slug}" in homes


@pytest.mark.parametrize("module", sorted(m for m in MODULES if m != REGISTRATION))
def test_no_module_outside_a_game_names_it(module: str) -> None:
    found = namings(module)
    assert not found, f"{module} names a game:\n" + "\n".join(found)


def test_the_registration_names_only_where_each_game_is_declared() -> None:
    tree = ast.parse(MODULES[REGISTRATION].read_text(encoding="utf-8"))
    strings = [
        n.value
        for n in ast.walk(tree)
        if isinstance(n, ast.Constant)
        and isinstance(n.value, str)
        and id(n) not in _docstrings(tree)
    ]
    naming = {s for s in strings for slug in SLUGS if _spellings(slug).search(s)}
    assert naming == set(BUILTIN) | set(BUILTIN.values())


def test_the_guard_catches_a_naming() -> None:
    source = 'import x\nif name == "red-november":\n    RedNovemberUI = x.SubmarineUI\n'
    assert len(_named(ast.parse(source), list(SLUGS))) == 3
    assert not _named(ast.parse('"""About Red November."""\n# Submarine\n'), list(SLUGS))
    assert len(_named(ast.parse('tr(f"rn.track.{name}")'), list(SLUGS))) == 1


# -- no module outside a game's homes names one of its options ------------------------
def _own_options() -> dict[str, set[str]]:
    """Each built-in game's own option names: those not every built-in game declares
    (``players`` is everyone's)."""
    from subtable.core.registry import registration

    names = {game: set(registration(game).option_specs()) for game in BUILTIN}
    shared = set.intersection(*names.values())
    return {game: own - shared for game, own in names.items()}


OWN_OPTIONS = _own_options()


def _option_pattern(names: set[str]) -> re.Pattern[str]:
    """An option's name, singular or plural, in any case (``gnomes``, ``Gnome``)."""
    stems = sorted(re.escape(n.removesuffix("s")) for n in names)
    return re.compile("|".join(stems), re.IGNORECASE)


def option_namings(module: str) -> list[str]:
    """The strings (docstrings aside) and identifiers of ``module`` that name an option of
    a game whose home it is not."""
    home = _home_of(module)
    others = set().union(*(own for g, own in OWN_OPTIONS.items() if g.replace("-", "_") != home))
    if not others:
        return []
    tree = ast.parse(MODULES[module].read_text(encoding="utf-8"))
    return _option_words(tree, _option_pattern(others))


def _option_words(tree: ast.AST, pattern: re.Pattern[str]) -> list[str]:
    """The strings (docstrings aside) and identifiers of ``tree`` that ``pattern`` finds."""
    docs = _docstrings(tree)
    found: list[str] = []
    for node in ast.walk(tree):
        word: str | None = None
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs:
            word = node.value
        elif isinstance(node, ast.Name):
            word = node.id
        elif isinstance(node, ast.Attribute):
            word = node.attr
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            word = node.name
        elif isinstance(node, ast.arg) or (isinstance(node, ast.keyword) and node.arg):
            word = node.arg
        if word and pattern.search(word):
            found.append(f"line {getattr(node, 'lineno', '?')}: {word!r}")
    return found


def test_the_games_declare_options_of_their_own() -> None:
    assert any(own for own in OWN_OPTIONS.values())


def test_the_option_guard_catches_a_naming() -> None:
    pattern = _option_pattern({"gnomes", "greater_challenge"})
    source = 'if key == "gnomes":\n    n = spec.gnome_count\nf(greater_challenge=1)\n'
    assert len(_option_words(ast.parse(source), pattern)) == 3
    prose = '"""How many gnomes."""\n# the gnomes\nplayers = 2\n'
    assert not _option_words(ast.parse(prose), pattern)


@pytest.mark.parametrize("module", sorted(MODULES))
def test_no_module_outside_a_game_names_its_options(module: str) -> None:
    """A game's options are read from its declaration (``subtable.core.options``): the
    command line, the web and the lab never name one."""
    found = option_namings(module)
    assert not found, f"{module} names another game's option:\n" + "\n".join(found)


# -- the layers: no import runs back up ----------------------------------------------------
#: the packages of ``subtable``, bottom-up: ``markup`` is the one builder of HTML and SVG,
#: ``words`` a game's words apart from any front end; the lab (``sim``) draws the turning
#: chart that the web shows
LAYERS: tuple[frozenset[str], ...] = (
    frozenset({"subtable", "core", "i18n", "markup"}),
    frozenset({"games"}),
    frozenset({"bots"}),
    frozenset({"words"}),
    frozenset({"learn"}),
    frozenset({"ui"}),
    frozenset({"sim"}),
    frozenset({"web"}),
    frozenset({"rl"}),
    frozenset({"commands"}),
    frozenset({"cli", "__main__"}),
)


def test_no_import_runs_up_the_layers() -> None:
    found = arrows_up(import_graph(), LAYERS)
    assert not found, "imports up the layers:\n" + "\n".join(f"{a} -> {b}" for a, b in found)


def test_the_layer_guard_catches_an_arrow_up() -> None:
    graph = {"s.low.a": {"s.high.b", "s.low.c"}, "s.high.b": {"s.low.a"}, "s.new": {"s.low.a"}}
    layers = (frozenset({"low"}), frozenset({"high"}))
    assert arrows_up(graph, layers) == [("s.low.a", "s.high.b"), ("s.new", "s.low.a")]


# -- markup one way; the web's functions short ---------------------------------------------
#: the start of an element, a comment or a doctype (``<div``, ``</p>``, ``<!--``)
_MARKUP = re.compile(r"\s*<[A-Za-z!/]")


def markup_fstrings(tree: ast.AST) -> list[str]:
    """The f-strings of ``tree`` whose literal parts start an element or close one."""
    found: list[str] = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.JoinedStr):
            continue
        for part in node.values:
            text = part.value if isinstance(part, ast.Constant) else None
            if isinstance(text, str) and (_MARKUP.match(text) or "</" in text):
                found.append(f"line {node.lineno}: {ast.unparse(node)[:60]}")
                break
    return found


def test_the_markup_guard_catches_an_fstring() -> None:
    source = 'a = f"<p>{x}"\nb = f"{x}</p>"\nc = f"<{metavar}>"\nd = f"{n:<{w}}"\ne = "<p>"\n'
    assert [line[:6] for line in markup_fstrings(ast.parse(source))] == ["line 1", "line 2"]


@pytest.mark.parametrize("module", sorted(MODULES))
def test_no_fstring_builds_markup(module: str) -> None:
    found = markup_fstrings(ast.parse(MODULES[module].read_text(encoding="utf-8")))
    assert not found, f"{module} builds markup in an f-string:\n" + "\n".join(found)


MAX_WEB_FUNCTION = 80


def long_functions(tree: ast.AST, limit: int) -> list[str]:
    """The functions of ``tree`` (methods and nested ones too) over ``limit`` lines."""
    return [
        f"{node.name} ({node.end_lineno - node.lineno + 1} lines)"
        for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        and node.end_lineno is not None
        and node.end_lineno - node.lineno + 1 > limit
    ]


def test_the_length_guard_catches_a_long_function() -> None:
    body = "".join(f"    x{i} = {i}\n" for i in range(80))
    tree = ast.parse(f"def long():\n{body}\ndef short():\n    pass\n")
    assert long_functions(tree, MAX_WEB_FUNCTION) == ["long (81 lines)"]


@pytest.mark.parametrize("module", sorted(m for m in MODULES if package_of(m) == "web"))
def test_no_web_function_is_long(module: str) -> None:
    found = long_functions(ast.parse(MODULES[module].read_text(encoding="utf-8")), MAX_WEB_FUNCTION)
    assert not found, f"{module}: functions over {MAX_WEB_FUNCTION} lines: {found}"


#: how many functions of the whole package may run over :data:`MAX_WEB_FUNCTION` lines
MAX_LONG_FUNCTIONS = 5


def test_few_functions_are_long() -> None:
    found = [
        f"{module}: {function}"
        for module, path in MODULES.items()
        for function in long_functions(
            ast.parse(path.read_text(encoding="utf-8")), MAX_WEB_FUNCTION
        )
    ]
    assert len(found) <= MAX_LONG_FUNCTIONS, (
        f"{len(found)} functions over {MAX_WEB_FUNCTION} lines (at most {MAX_LONG_FUNCTIONS}):\n"
        + "\n".join(found)
    )


# -- a game's pieces are the game's words ----------------------------------------------------
#: Red November's pieces, named nowhere but in its homes: generic code speaks of seats and
#: players, and a game's own word for them comes from the game
PIECES = re.compile(r"\bgnomes?\b", re.IGNORECASE)


def test_the_pieces_guard_catches_a_gnome() -> None:
    assert PIECES.search("a team of 3-8 Gnomes") and PIECES.search("(``gnome``)")
    assert not PIECES.search("crazed_gnomes") and not PIECES.search("gnomesque")


@pytest.mark.parametrize("module", sorted(m for m in MODULES if _home_of(m) is None))
def test_generic_code_does_not_name_a_games_pieces(module: str) -> None:
    lines = MODULES[module].read_text(encoding="utf-8").splitlines()
    found = [f"line {i}: {line.strip()}" for i, line in enumerate(lines, 1) if PIECES.search(line)]
    assert not found, f"{module} names Red November's gnomes:\n" + "\n".join(found)


MAX_WEB_MODULE = 500


def too_long(text: str, limit: int) -> str | None:
    """``N lines`` when ``text`` runs over ``limit`` lines, else ``None``."""
    count = len(text.splitlines())
    return f"{count} lines" if count > limit else None


def test_the_length_guard_catches_a_long_module() -> None:
    assert too_long("x = 1\n" * 501, MAX_WEB_MODULE) == "501 lines"
    assert too_long("x = 1\n" * 500, MAX_WEB_MODULE) is None


@pytest.mark.parametrize("module", sorted(m for m in MODULES if package_of(m) == "web"))
def test_no_web_module_is_long(module: str) -> None:
    found = too_long(MODULES[module].read_text(encoding="utf-8"), MAX_WEB_MODULE)
    assert found is None, f"{module}: {found}, over {MAX_WEB_MODULE}: split it by concern"


# -- words apart from the terminal --------------------------------------------------------
def external_imports(tree: ast.AST) -> set[str]:
    """The first parts of the names ``tree`` imports (``rich`` for ``rich.text``)."""
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            found.add(node.module.split(".")[0])
    return found


def test_the_rich_guard_catches_an_import() -> None:
    source = "import rich.text\nfrom rich.console import Group\nfrom . import x\n"
    assert external_imports(ast.parse(source)) == {"rich"}


@pytest.mark.parametrize("module", sorted(m for m in MODULES if package_of(m) == "words"))
def test_the_words_never_draw(module: str) -> None:
    """A game's words serve every front end: none of them imports Rich, the terminal's."""
    tree = ast.parse(MODULES[module].read_text(encoding="utf-8"))
    assert "rich" not in external_imports(tree), f"{module} imports rich"

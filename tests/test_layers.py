"""The import rules of ``src/unokit`` (``docs/engine.md``, "The architecture"):

- the engine, ``unokit.core``, imports nothing else of unokit (and no third-party package);
- no import circle anywhere, imports inside functions included (an import made only for the
  type checker, under ``if TYPE_CHECKING:``, is no import at run time and is left out);
- the bots reach the engine only, never a layer above them (terminal, server, RL environments,
  commands), and import nothing by a name in a string (``importlib.import_module``): a layer
  that provides a bot registers it (``unokit.bots.registry.PREFIX_GROUP``);
- the server never reaches the terminal (``unokit.tui``, nor the ``textual`` package it runs
  on): the words both show are in ``unokit.text``;
- the package ships no test code (no ``conftest.py``).

The graph is read from the source with ``ast``, so the test fails on the import itself, before
anything runs.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src"
PACKAGE = SRC / "unokit"


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES: dict[str, Path] = {_module_name(p): p for p in PACKAGE.rglob("*.py")}


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _imports(name: str, path: Path) -> set[str]:
    """The modules that module ``name`` imports at run time (unokit's, and the top-level names
    of others)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()

    def visit(node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and _is_type_checking(child):
                for sub in child.orelse:
                    visit(sub)
                continue
            if isinstance(child, ast.Import):
                found.update(alias.name for alias in child.names)
            elif isinstance(child, ast.ImportFrom):
                base = child.module or ""
                if child.level:
                    anchor = package.split(".")
                    anchor = anchor[:len(anchor) - child.level + 1]
                    base = ".".join([*anchor, base] if base else anchor)
                found.add(base)
                for alias in child.names:  # ``from . import editions`` imports a module
                    if f"{base}.{alias.name}" in MODULES:
                        found.add(f"{base}.{alias.name}")
            visit(child)

    visit(ast.parse(path.read_text(encoding="utf-8")))
    return found


GRAPH: dict[str, set[str]] = {
    name: {m for m in _imports(name, path) if m in MODULES and m != name} for name, path in MODULES.items()
}
"""unokit's own imports, module by module (a package's ``__init__`` counts as the package)."""


def test_the_engine_imports_nothing_else_of_unokit_and_no_other_package() -> None:
    stdlib = sys.stdlib_module_names
    for name, path in MODULES.items():
        if not name.startswith("unokit.core"):
            continue
        for imported in _imports(name, path):
            top = imported.split(".")[0]
            if top == "unokit":
                assert imported.startswith("unokit.core"), f"{name} imports {imported}"
            else:
                assert top in stdlib or top == "__future__", f"{name} imports {imported}"


def test_there_is_no_import_circle() -> None:
    """Tarjan's strongly connected components: each must be a single module."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    circles: list[list[str]] = []

    def connect(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(GRAPH[v]):
            if w not in index:
                connect(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                circles.append(sorted(component))

    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))
    for v in sorted(GRAPH):
        if v not in index:
            connect(v)
    assert not circles, f"import circles: {circles}"


def test_the_graph_is_read_right() -> None:
    """The reader sees imports inside functions and skips those for the type checker."""
    assert "unokit.core.game" in GRAPH["unokit.core.table"]
    assert "unokit.core.game" not in GRAPH["unokit.core.legality"]  # under TYPE_CHECKING
    assert "unokit.tui.app" in GRAPH["unokit.commands.play"]  # inside a function


ABOVE_THE_BOTS = ("unokit.tui", "unokit.server", "unokit.envs", "unokit.commands", "unokit.cli",
                  "unokit.arena", "unokit.tournament", "unokit.narrate")


def test_the_bots_reach_no_layer_above_them() -> None:
    for name, imported in GRAPH.items():
        if name.startswith("unokit.bots"):
            above = sorted(m for m in imported if m.startswith(ABOVE_THE_BOTS))
            assert not above, f"{name} imports {above}"


def _reached(start: str) -> set[str]:
    """Every unokit module that ``start`` imports, directly or not."""
    seen: set[str] = set()
    todo = [start]
    while todo:
        for m in GRAPH[todo.pop()]:
            if m not in seen:
                seen.add(m)
                todo.append(m)
    return seen


def test_the_server_reaches_no_terminal_module() -> None:
    """The server takes its words (catalogues, rules help) from ``unokit.text``, never from the
    terminal's package: it runs where Textual is not installed."""
    for name in MODULES:
        if name.startswith("unokit.server"):
            terminal = sorted(m for m in _reached(name) if m.startswith("unokit.tui"))
            assert not terminal, f"{name} reaches {terminal}"
            direct = _imports(name, MODULES[name])
            assert "textual" not in direct and "rich" not in direct, name
    assert "unokit.text.help" in GRAPH["unokit.server.catalogs"]


def test_the_bots_import_nothing_by_name() -> None:
    for name, path in MODULES.items():
        if name.startswith("unokit.bots"):
            text = path.read_text(encoding="utf-8")
            assert "import_module" not in text and "__import__" not in text, name


def test_the_package_ships_no_test_code() -> None:
    assert not list(PACKAGE.rglob("conftest.py"))
    assert not list(PACKAGE.rglob("test_*.py"))

"""The size rule of ``src/unokit``: no class over 600 lines and no function over 60 lines
(tables of data aside: a function that is one literal, or a module-level table, is not code).
A god object or a function that does everything is the first thing a change trips over."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "unokit"
MAX_CLASS = 600
MAX_FUNCTION = 60


def _sizes() -> list[tuple[int, str, str]]:
    """``(lines, kind, where)`` of every class and function in the package."""
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
                assert node.end_lineno is not None
                kind = "class" if isinstance(node, ast.ClassDef) else "function"
                where = f"{path.relative_to(PACKAGE)}:{node.lineno} {node.name}"
                found.append((node.end_lineno - node.lineno + 1, kind, where))
    return found


def _is_table(where: str) -> bool:
    """A function whose body is one ``return`` of a literal (a table of data)."""
    file, _, rest = where.partition(":")
    line = int(rest.split()[0])
    tree = ast.parse((PACKAGE / file).read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef) and node.lineno == line:
            body = [n for n in node.body
                    if not (isinstance(n, ast.Expr) and isinstance(n.value, ast.Constant))]
            return len(body) == 1 and isinstance(body[0], ast.Return) and isinstance(
                body[0].value, ast.Dict | ast.List | ast.Tuple)
    return False


def test_no_class_over_600_lines() -> None:
    big = [(n, w) for n, kind, w in _sizes() if kind == "class" and n > MAX_CLASS]
    assert not big, f"classes over {MAX_CLASS} lines: {big}"


def test_no_function_over_60_lines() -> None:
    big = [(n, w) for n, kind, w in _sizes() if kind == "function" and n > MAX_FUNCTION and not _is_table(w)]
    assert not big, f"functions over {MAX_FUNCTION} lines: {big}"


def test_the_sizes_are_read_right() -> None:
    sizes = {w.split()[-1]: n for n, _, w in _sizes()}
    assert sizes["Game"] > 100 and 0 < sizes["observe"] < MAX_FUNCTION

"""The documentation: docs/rules.md covers every rule id of the rule book, the README and the
performance page stay short, and no doc, help text or message speaks of how the project was
developed instead of what the software does."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[1]
RULE_BOOK = ROOT.parent / "shared" / "RULES.md"
RULE_ID = re.compile(r"\*\*([A-Z][0-9]+)\b")
"""A rule of the rule book is defined in bold: ``- **S1 Dealer.** ...``."""
DEV_TALK = re.compile(r"\bstop \d+\b|the issue's|issue's author", re.IGNORECASE)


def _lines(path: Path) -> int:
    return len(path.read_text(encoding="utf-8").splitlines())


def test_every_rule_id_of_the_rule_book_is_in_docs_rules() -> None:
    if not RULE_BOOK.is_file():
        pytest.skip(f"the rule book is not beside the clone ({RULE_BOOK})")
    ids = sorted(set(RULE_ID.findall(RULE_BOOK.read_text(encoding="utf-8"))))
    assert len(ids) >= 20, f"found only {ids} in {RULE_BOOK}: has its format changed?"
    text = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    missing = [i for i in ids if not re.search(rf"\b{i}\b", text)]
    assert not missing, f"docs/rules.md does not mention {missing}"


def test_readme_is_under_200_lines() -> None:
    assert _lines(ROOT / "README.md") < 200


def test_performance_page_is_under_250_lines() -> None:
    assert _lines(ROOT / "docs" / "performance.md") < 250


def _texts() -> list[Path]:
    files = [ROOT / "README.md", ROOT / "benchmarks" / "README.md"]
    files += sorted(f for f in (ROOT / "docs").rglob("*") if f.is_file() and f.suffix != ".png")
    src = ROOT / "src" / "unokit"
    for pattern in ("*.py", "*.md", "*.po"):
        files += sorted(src.rglob(pattern))
    return [f for f in files if "__pycache__" not in f.parts]


def test_no_text_speaks_of_the_development_process() -> None:
    found = []
    for path in _texts():
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if DEV_TALK.search(line):
                found.append(f"{path.relative_to(ROOT)}:{n}: {line.strip()}")
    assert not found, "\n".join(found)


INDEX_INSTALL = re.compile(r"pip install '?unokit\[")
"""``pip install 'unokit[rl]'``: unokit is not on the package index, so this fails."""


def test_install_commands_work_from_a_clone() -> None:
    """The README, the docs, the examples, every ImportError and every skipped test's reason say
    ``pip install '.[rl]'`` (from a clone), never ``'unokit[rl]'`` from the package index."""
    files = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")),
             *sorted((ROOT / "examples").glob("*.py")),
             *sorted((ROOT / "src" / "unokit").rglob("*.py")),
             *(p for p in sorted((ROOT / "tests").glob("*.py")) if p.name != "test_docs.py")]
    found = [f"{path.relative_to(ROOT)}:{n}" for path in files
             for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
             if INDEX_INSTALL.search(line)]
    assert not found, found
    assert "pip install '.[rl]'" in (ROOT / "docs" / "rl.md").read_text(encoding="utf-8")


def test_the_readme_lists_every_extra() -> None:
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    block = pyproject.split("[project.optional-dependencies]", 1)[1].split("\n[", 1)[0]
    extras = re.findall(r"^([a-z][a-z0-9_-]*) = \[", block, re.MULTILINE)
    assert "train" in extras and "rl" in extras
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    missing = [e for e in extras if f"`{e}`" not in readme]
    assert not missing, f"the README does not list the extras {missing}"

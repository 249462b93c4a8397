"""The browser client's files, read without a browser (docs/web.md): every message it shows is
in every catalogue, and the files keep to the page's rules (no build step, no network, no
inline script, text never read as HTML).

The client marks its messages as the Python code does — ``_("…")``, ``ngettext("…", "…", n)``
and ``pgettext("context", "…")`` — and Babel's JavaScript extractor reads them here.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from conftest import placeholder_errors
from unokit.text.i18n import LANGUAGES, LOCALE_DIR

babel = pytest.importorskip("babel")
from babel.messages.extract import extract_from_file  # noqa: E402
from babel.messages.pofile import read_po  # noqa: E402

STATIC = Path(__file__).resolve().parent.parent / "src" / "unokit" / "server" / "static"
SCRIPTS = sorted(STATIC.glob("*.js"))
KEYWORDS = {"_": None, "ngettext": (1, 2), "pgettext": ((1, "c"), 2)}
TRANSLATED = [lang for lang in LANGUAGES if lang != "en"]


def client_messages() -> set[tuple[str | None, str | tuple[str, ...]]]:
    found: set[tuple[str | None, str | tuple[str, ...]]] = set()
    for path in SCRIPTS:
        for _line, message, _comments, context in extract_from_file("javascript", str(path),
                                                                    keywords=KEYWORDS):
            found.add((context, message))
    return found


def test_the_client_is_there() -> None:
    names = {p.name for p in STATIC.iterdir()}
    assert {"index.html", "app.js", "style.css", "room.js", "lobby.js", "cards.js", "i18n.js"} <= names
    messages = client_messages()
    assert len(messages) > 150
    assert (None, "Take a seat") in messages


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_client_message_is_translated(lang: str) -> None:
    with (LOCALE_DIR / lang / "LC_MESSAGES" / "unokit.po").open("rb") as f:
        catalog = read_po(f, locale=lang)
    missing, wrong = placeholder_errors(lang, catalog, client_messages())
    assert not wrong, wrong
    assert not missing, f"{lang}: the web client's messages missing from the catalogue: {missing}"


def test_no_message_is_built_inside_a_template_literal() -> None:
    """Babel does not read inside `${…}`: a message there would never reach the catalogues."""
    for path in SCRIPTS:
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            for literal in re.findall(r"`[^`]*`", line):
                marked = re.search(r"\b(_|ngettext|pgettext)\(", literal)
                assert not marked, f"{path.name}:{n}: {line.strip()}"


class _Page(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.scripts: list[dict[str, str | None]] = []
        self.inline: list[str] = []
        self.handlers: list[str] = []
        self._in_script = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if tag == "script":
            self.scripts.append(a)
            self._in_script = True
        if tag == "style" or "style" in a:
            self.inline.append(tag)
        self.handlers += [k for k in a if k.startswith("on")]

    def handle_endtag(self, tag: str) -> None:
        if tag == "script":
            self._in_script = False

    def handle_data(self, data: str) -> None:
        if self._in_script and data.strip():
            self.inline.append(data.strip()[:40])


def test_the_page_has_no_inline_script_or_style() -> None:
    page = _Page()
    page.feed((STATIC / "index.html").read_text(encoding="utf-8"))
    assert page.scripts == [{"type": "module", "src": "/static/app.js"}]
    assert page.inline == [] and page.handlers == []


def test_the_scripts_read_no_text_as_html_and_load_nothing_from_elsewhere() -> None:
    imports: set[str] = set()
    for path in [*SCRIPTS, STATIC / "style.css", STATIC / "index.html"]:
        text = path.read_text(encoding="utf-8")
        code = re.sub(r"//[^\n]*", "", text) if path.suffix == ".js" else text
        for bad in ("innerHTML", "outerHTML =", "insertAdjacentHTML", "document.write", "eval(",
                    "new Function", "setAttribute(\"on", "http://", "https://", "@import", "cdn"):
            assert bad not in code, f"{path.name} uses {bad}"
        imports.update(re.findall(r"""from\s+"\./([\w.]+)\"""", text))
    for name in imports:
        assert (STATIC / name).is_file(), f"an import of a missing module: {name}"

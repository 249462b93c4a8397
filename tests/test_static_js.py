"""The browser client's scripts, read without a browser: they take the game's facts from the
server (edition titles, bot names and ratings, special cards' names, the rules' numbers come
from ``GET /api/config`` and the view) instead of holding copies, and they keep to the sizes of
``tests/test_sizes.py``: no class or module file over 600 lines, no function over 60.

A small scanner reads each script into tokens (strings, template literals, regular expressions
and comments each one token, so that braces inside them do not count)."""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from test_server_support import app_client
from unokit.core.scoring import BLOCKED_AFTER

STATIC = Path(__file__).resolve().parent.parent / "src" / "unokit" / "server" / "static"
CHECKED = tuple(sorted(STATIC.glob("*.js")))
MAX_FILE_LINES = 600
MAX_CLASS_LINES = 600
MAX_FUNCTION_LINES = 60
EVERYDAY_NUMBERS = frozenset({*range(11), 1000})
"""Numbers the client uses for its own arithmetic (indices, digits, milliseconds in a second),
which no check can tell from a rule's number of the same value."""

# ---------------------------------------------------------------------- the scanner

PUNCTUATION = re.compile(r"=>|\.\.\.|\?\?=?|\?\.|[=!]==?|\*\*=?|<<=?|>>>?=?|&&=?|\|\|=?|\+\+|--"
                         r"|[-+*/%&|^<>=!]=?|[{}()\[\];,.:?~]")
IDENT = re.compile(r"[A-Za-z_$][\w$]*")
NUMBER = re.compile(r"(?:0[xXbBoO][\da-fA-F_]+|(?:\d[\d_]*\.?[\d_]*|\.\d[\d_]*)(?:[eE][-+]?\d+)?)n?")
REGEX_AFTER_WORDS = frozenset({"return", "typeof", "case", "in", "of", "new", "delete", "void", "throw",
                               "else"})


@dataclass(frozen=True)
class Token:
    kind: str  # "ident", "number", "string", "template", "regex", "punct"
    text: str
    line: int


def _skip_string(src: str, i: int) -> int:
    quote = src[i]
    i += 1
    while src[i] != quote:
        i += 2 if src[i] == "\\" else 1
    return i + 1


def _skip_template(src: str, i: int) -> tuple[int, list[str]]:
    """The end of the template literal at ``i``, and its text outside ``${…}``."""
    i += 1
    chunks, start = [], i
    while src[i] != "`":
        if src[i] == "\\":
            i += 2
        elif src.startswith("${", i):
            chunks.append(src[start:i])
            i = _skip_code(src, i + 2)
            start = i
        else:
            i += 1
    chunks.append(src[start:i])
    return i + 1, chunks


def _skip_code(src: str, i: int) -> int:
    """The index after the ``}`` that closes the code starting at ``i`` (inside ``${…}``)."""
    depth = 0
    for tok_end, tok in _scan(src, i):
        if tok.kind == "punct" and tok.text == "{":
            depth += 1
        elif tok.kind == "punct" and tok.text == "}":
            if depth == 0:
                return tok_end
            depth -= 1
    raise ValueError("an unclosed ${ in a template literal")


def _skip_regex(src: str, i: int) -> int:
    i += 1
    in_class = False
    while in_class or src[i] != "/":
        if src[i] == "\\":
            i += 1
        elif src[i] == "[":
            in_class = True
        elif src[i] == "]":
            in_class = False
        i += 1
    i += 1
    while i < len(src) and src[i].isalpha():
        i += 1
    return i


def _regex_may_start(previous: Token | None) -> bool:
    if previous is None:
        return True
    if previous.kind == "ident":
        return previous.text in REGEX_AFTER_WORDS
    if previous.kind == "punct":
        return previous.text not in (")", "]", "}")
    return False


def _scan(src: str, i: int = 0) -> Any:
    """Yield ``(end, token)`` from ``i`` on; comments and white space give no token."""
    previous: Token | None = None
    while i < len(src):
        ch = src[i]
        line = src.count("\n", 0, i) + 1
        if ch.isspace():
            i += 1
            continue
        if src.startswith("//", i):
            end = src.find("\n", i)
            i = len(src) if end < 0 else end
            continue
        if src.startswith("/*", i):
            i = src.index("*/", i) + 2
            continue
        if ch in "'\"":
            end = _skip_string(src, i)
            tok = Token("string", src[i + 1:end - 1], line)
        elif ch == "`":
            end, chunks = _skip_template(src, i)
            tok = Token("template", "\x00".join(chunks), line)
        elif ch == "/" and _regex_may_start(previous):
            end = _skip_regex(src, i)
            tok = Token("regex", src[i:end], line)
        elif (m := IDENT.match(src, i)) is not None:
            end, tok = m.end(), Token("ident", m.group(), line)
        elif (m := NUMBER.match(src, i)) is not None and m.group():
            end, tok = m.end(), Token("number", m.group(), line)
        elif (m := PUNCTUATION.match(src, i)) is not None:
            end, tok = m.end(), Token("punct", m.group(), line)
        else:
            raise ValueError(f"line {line}: cannot read {src[i:i + 20]!r}")
        yield end, tok
        previous = tok
        i = end


def tokens(src: str) -> list[Token]:
    """The tokens of a script."""
    return [tok for _end, tok in _scan(src)]


# ---------------------------------------------------------------------- sizes

CONTROL_WORDS = frozenset({"if", "for", "while", "switch", "catch", "with"})


def _closing(toks: list[Token], open_at: int) -> int:
    """The index of the token that closes the bracket at ``open_at``."""
    pairs = {"{": "}", "(": ")", "[": "]"}
    stack = []
    for j in range(open_at, len(toks)):
        t = toks[j]
        if t.kind != "punct":
            continue
        if t.text in pairs:
            stack.append(pairs[t.text])
        elif stack and t.text == stack[-1]:
            stack.pop()
            if not stack:
                return j
    raise ValueError(f"line {toks[open_at].line}: an unclosed {toks[open_at].text}")


def _opening(toks: list[Token], close_at: int) -> int:
    """The index of the ``(`` that the ``)`` at ``close_at`` closes."""
    depth = 0
    for j in range(close_at, -1, -1):
        t = toks[j]
        if t.kind == "punct" and t.text == ")":
            depth += 1
        elif t.kind == "punct" and t.text == "(":
            depth -= 1
            if depth == 0:
                return j
    raise ValueError(f"line {toks[close_at].line}: an unopened )")


def blocks(src: str) -> list[tuple[str, str, int, int]]:
    """Every class and function of a script: ``(kind, name, first line, last line)``; a
    function is a ``function``, a method or an arrow function with a body in braces."""
    toks = tokens(src)
    found = []
    for i, t in enumerate(toks):
        if t.kind == "ident" and t.text == "class" and not _is_key(toks, i):
            name = toks[i + 1].text if toks[i + 1].kind == "ident" else "(class)"
            body = next(j for j in range(i, len(toks)) if toks[j].kind == "punct" and toks[j].text == "{")
            found.append(("class", name, t.line, toks[_closing(toks, body)].line))
        if t.kind != "punct" or t.text != "{" or i == 0:
            continue
        before = toks[i - 1]
        if before.kind == "punct" and before.text == "=>":
            found.append(("function", "(arrow)", before.line, toks[_closing(toks, i)].line))
        elif before.kind == "punct" and before.text == ")":
            opened = _opening(toks, i - 1)
            head = toks[opened - 1] if opened else None
            if head is None or (head.kind == "ident" and head.text in CONTROL_WORDS):
                continue
            name = head.text if head.kind == "ident" else "(function)"
            found.append(("function", name, head.line, toks[_closing(toks, i)].line))
    return found


def test_the_scanner_reads_what_scripts_hold() -> None:
    src = (
        "// a { in a comment\n"
        "const re = /[}{]\\//g; const s = \"}\"; const t = `a ${ {b: 1}.b } }`;\n"
        "class A {\n"
        "  m(x) {\n"
        "    if (x) { return x / 2; }\n"
        "  }\n"
        "}\n"
        "const f = (y) => {\n"
        "  return y;\n"
        "};\n"
        "function g() { return '{'; }\n"
    )
    assert [t.kind for t in tokens(src)][:6] == ["ident", "ident", "punct", "regex", "punct", "ident"]
    assert blocks(src) == [("class", "A", 3, 7), ("function", "m", 4, 6), ("function", "(arrow)", 8, 10),
                           ("function", "g", 11, 11)]
    strings = [t.text for t in tokens(src) if t.kind in ("string", "template")]
    assert strings == ["}", "a \x00 }", "{"]


@pytest.mark.parametrize("path", CHECKED, ids=lambda p: p.name)
def test_no_script_class_or_function_is_too_long(path: Path) -> None:
    src = path.read_text(encoding="utf-8")
    lines = src.count("\n") + (not src.endswith("\n"))
    assert lines <= MAX_FILE_LINES, f"{path.name}: {lines} lines"
    limits = {"class": MAX_CLASS_LINES, "function": MAX_FUNCTION_LINES}
    long = [f"{path.name}:{first}: {kind} {name}, {last - first + 1} lines"
            for kind, name, first, last in blocks(src) if last - first + 1 > limits[kind]]
    assert not long, long


# ---------------------------------------------------------------------- facts from the server


@functools.cache
def server_facts() -> tuple[dict[str, str], dict[int, str]]:
    """What only the server may say, from its own configuration: the texts (edition titles,
    bot names and their names as choices, special cards' names, the languages' names, the
    options' and their values' names) and the rules' numbers (the levels' ratings, the limits
    of names, chat and timers, the turns that block a round, the options' defaults and bounds),
    each with what it is."""
    with app_client() as client:
        config = client.get("/api/config").json()
    texts: dict[str, str] = {}
    for e in config["editions"]:
        texts[e["title"]] = f"the title of {e['name']}"
        if e["special_name"]:
            texts[e["special_name"]] = f"the special card of {e['name']}"
    for b in config["bot_choices"]:
        texts[b["name"]] = "a bot's name"
        if b["label"]:
            texts[b["label"]] = f"the name of the bot {b['name']}"
    for name in config["bots"]:
        texts[name] = "a bot's name"
    for code, language in config["language_names"].items():
        texts[language] = f"the name of the language {code}"
    for name, option in config["options"].items():
        texts[option["label"]] = f"the name of the option {name}"
        for value, label in (option.get("choice_labels") or {}).items():
            texts[label] = f"the name of {name}: {value}"
    numbers: dict[int, str] = {}
    for b in config["bot_choices"]:
        if b["elo"] is not None:
            numbers[int(b["elo"])] = f"the rating of {b['name']}"
    for key in ("name_chars", "chat_chars", "chat_history", "bot_delay_max", "between_rounds_max",
                "turn_timeout_min", "turn_timeout_max", "message_bytes"):
        numbers[int(config["limits"][key])] = f"limits.{key}"
    numbers[config["max_players"]] = "max_players"
    for name, option in config["options"].items():
        for key in ("default", "min", "max"):
            value = option.get(key)
            if isinstance(value, int) and not isinstance(value, bool):
                numbers[value] = f"options.{name}.{key}"
    numbers[BLOCKED_AFTER] = "the turns that block a round"
    return texts, {n: what for n, what in numbers.items() if n not in EVERYDAY_NUMBERS}


def _is_tag_name(toks: list[Token], i: int) -> bool:
    """Whether the string at ``i`` names an element: ``h("strong", …)``, ``createElement("…")``."""
    return (i >= 2 and toks[i - 1].text == "(" and toks[i - 2].kind == "ident"
            and toks[i - 2].text in ("h", "createElement"))


def _is_key(toks: list[Token], i: int) -> bool:
    """Whether the name at ``i`` is an object literal's key: ``{random: 1000}``."""
    return (0 < i < len(toks) - 1 and toks[i + 1].text == ":" and toks[i - 1].text in ("{", ","))


def written_facts(src: str, texts: dict[str, str], numbers: dict[int, str]) -> list[str]:
    """The server's facts written in a script: a text as a whole string (or an object's key),
    a rule's number as a number."""
    toks = tokens(src)
    found = []
    for i, t in enumerate(toks):
        if t.kind in ("string", "template") and not _is_tag_name(toks, i):
            for chunk in t.text.split("\x00"):
                if chunk in texts:
                    found.append(f"line {t.line}: {chunk!r} ({texts[chunk]})")
        elif t.kind == "ident" and t.text in texts and _is_key(toks, i):
            found.append(f"line {t.line}: {t.text} ({texts[t.text]})")
        elif t.kind == "number" and re.fullmatch(r"\d+", t.text) and int(t.text) in numbers:
            found.append(f"line {t.line}: {t.text} ({numbers[int(t.text)]})")
    return found


def test_the_facts_check_finds_them() -> None:
    texts, numbers = server_facts()
    assert {"UNO Cars 2", "Agent P", "heuristic", "Easy bot"} <= set(texts)
    assert 1646 in numbers and 24 in numbers and BLOCKED_AFTER in numbers
    assert {500, 15, 100_000} <= set(numbers) and {"Target score", "Ελληνικά", "Forbidden"} <= set(texts)
    src = ('const T = { classic: "UNO", cars2: `UNO Cars 2` };\nconst E = { random: 1000, easy: 1646 };\n'
           'h("strong", {}, "Strong"); const n = s.length > 24;\n')
    assert written_facts(src, texts, numbers) == [
        "line 1: 'UNO' (the title of classic)", "line 1: 'UNO Cars 2' (the title of cars2)",
        "line 2: random (a bot's name)", "line 2: easy (a bot's name)", "line 2: 1646 (the rating of easy)",
        "line 3: 24 (limits.name_chars)"]


NUMBERS_OF_THEIR_OWN: dict[str, frozenset[int]] = {"net.js": frozenset({500})}
"""Numbers a script uses for its own sake that a fact shares: net.js's HTTP status 500 and its
first wait of 500 ms before it connects again (the default target is 500 too)."""


@pytest.mark.parametrize("path", CHECKED, ids=lambda p: p.name)
def test_no_script_holds_a_copy_of_the_servers_facts(path: Path) -> None:
    texts, numbers = server_facts()
    own = NUMBERS_OF_THEIR_OWN.get(path.name, frozenset())
    numbers = {n: what for n, what in numbers.items() if n not in own}
    found = written_facts(path.read_text(encoding="utf-8"), texts, numbers)
    assert not found, f"{path.name} writes what GET /api/config or the view gives: {found}"


def test_every_script_is_checked() -> None:
    assert len(CHECKED) >= 10 and any(p.name == "teller.js" for p in CHECKED)

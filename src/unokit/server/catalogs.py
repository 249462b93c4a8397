"""The message catalogues and the rules help as JSON, for the browser client.

The client words the game with the catalogues the terminal game reads
(``unokit/text/locale/<lang>/LC_MESSAGES/unokit.mo``, through Python's :mod:`gettext`), so that
both say the same things. :func:`catalog_json` gives one language's catalogue in the shape
that ``docs/protocol.md`` documents (``GET /api/i18n/{lang}``), with the plural rule as an
expression tree the client evaluates without ``eval``:

>>> plural_tree("nplurals=2; plural=(n > 1);")
['>', 'n', 1]
>>> plural_tree("nplurals=3; plural=n==1 ? 0 : n%10>=2 && n%10<=4 ? 1 : 2;")[0]
'?:'
>>> evaluate(plural_tree("nplurals=3; plural=n==1 ? 0 : n%10>=2 && n%10<=4 ? 1 : 2;"), 3)
1
>>> data = catalog_json("fr")
>>> data["messages"]["Player {n}"], data["plural"]
('Joueur {n}', ['>', 'n', 1])
>>> data["messages"]["colour\\x04red"]
'rouge'
"""

from __future__ import annotations

import gettext
import re
from functools import lru_cache
from typing import Any, Final, TypeAlias

from ..bots.levels import LEVEL_ELO, LEVELS
from ..bots.registry import BOTS, bot_names
from ..core.editions import check_edition
from ..core.errors import UnoError
from ..text.help import help_path
from ..text.i18n import BOT_LABELS, DOMAIN, LANGUAGES, LOCALE_DIR

Tree: TypeAlias = "int | str | list[Any]"
"""A plural expression: ``"n"``, an integer, or ``[op, arg, ...]``."""

ENGLISH_PLURAL: Final = "nplurals=2; plural=(n != 1);"

_TOKEN = re.compile(r"\s*(?:(\d+)|(n)|(\|\||&&|==|!=|<=|>=|[-+*/%<>!?:()]))")
_BINARY: Final[tuple[tuple[str, ...], ...]] = (
    ("||",), ("&&",), ("==", "!="), ("<", ">", "<=", ">="), ("+", "-"), ("*", "/", "%"),
)


class _Parser:
    """A recursive-descent parser of gettext's C plural expressions."""

    def __init__(self, text: str) -> None:
        self.tokens: list[int | str] = []
        pos = 0
        text = text.strip()
        while pos < len(text):
            m = _TOKEN.match(text, pos)
            if m is None or m.end() == pos:
                raise UnoError(f"bad plural expression {text!r} at {pos}")
            number, var, op = m.groups()
            self.tokens.append(int(number) if number is not None else (var or op))
            pos = m.end()
            while pos < len(text) and text[pos].isspace():
                pos += 1
        self.i = 0

    def peek(self) -> int | str | None:
        return self.tokens[self.i] if self.i < len(self.tokens) else None

    def take(self, want: str | None = None) -> int | str:
        tok = self.peek()
        if tok is None or (want is not None and tok != want):
            raise UnoError(f"bad plural expression: expected {want or 'more'}, found {tok!r}")
        self.i += 1
        return tok

    def parse(self) -> Tree:
        tree = self.ternary()
        if self.peek() is not None:
            raise UnoError(f"bad plural expression: {self.peek()!r} left over")
        return tree

    def ternary(self) -> Tree:
        cond = self.binary(0)
        if self.peek() == "?":
            self.take("?")
            yes = self.ternary()
            self.take(":")
            no = self.ternary()
            return ["?:", cond, yes, no]
        return cond

    def binary(self, level: int) -> Tree:
        if level == len(_BINARY):
            return self.unary()
        left = self.binary(level + 1)
        while isinstance(self.peek(), str) and self.peek() in _BINARY[level]:
            op = str(self.take())
            left = [op, left, self.binary(level + 1)]
        return left

    def unary(self) -> Tree:
        if self.peek() == "!":
            self.take("!")
            return ["!", self.unary()]
        tok = self.take()
        if tok == "(":
            inner = self.ternary()
            self.take(")")
            return inner
        if isinstance(tok, int) or tok == "n":
            return tok
        raise UnoError(f"bad plural expression: unexpected {tok!r}")


def plural_tree(header: str) -> Tree:
    """The ``plural=`` expression of a ``Plural-Forms`` header, as a JSON tree."""
    m = re.search(r"plural\s*=\s*(.*?);?\s*$", header)
    if m is None:
        raise UnoError(f"no plural= in {header!r}")
    return _Parser(m.group(1)).parse()


def nplurals(header: str) -> int:
    """The ``nplurals=`` of a ``Plural-Forms`` header."""
    m = re.search(r"nplurals\s*=\s*(\d+)", header)
    if m is None:
        raise UnoError(f"no nplurals= in {header!r}")
    return int(m.group(1))


def evaluate(tree: Tree, n: int) -> int:
    """The value of a plural tree for ``n`` (what the client computes; for the tests)."""
    if isinstance(tree, int):
        return tree
    if tree == "n":
        return n
    assert isinstance(tree, list)
    op, args = tree[0], [evaluate(a, n) for a in tree[1:]] if tree[0] != "?:" else []
    if op == "?:":
        return evaluate(tree[2], n) if evaluate(tree[1], n) else evaluate(tree[3], n)
    if op == "!":
        return int(not args[0])
    a, b = args
    table: dict[str, int] = {
        "||": int(bool(a) or bool(b)), "&&": int(bool(a) and bool(b)), "==": int(a == b),
        "!=": int(a != b), "<": int(a < b), ">": int(a > b), "<=": int(a <= b), ">=": int(a >= b),
        "+": a + b, "-": a - b, "*": a * b,
    }
    if op in table:
        return table[op]
    if op in ("/", "%"):
        if b == 0:
            raise ZeroDivisionError("plural expression divides by zero")
        return a // b if op == "/" else a % b
    raise UnoError(f"unknown operator {op!r}")


@lru_cache(maxsize=len(LANGUAGES))
def catalog_json(lang: str) -> dict[str, Any]:
    """The catalogue of ``lang`` (one of :data:`unokit.text.i18n.LANGUAGES`) as ``docs/protocol.md``
    documents it: ``{"lang", "plural_forms", "nplurals", "plural", "messages", "plurals"}``.
    Raises :class:`~unokit.core.errors.UnoError` for an unknown language."""
    if lang not in LANGUAGES:
        raise UnoError(f"unknown language {lang!r} (choose from {', '.join(LANGUAGES)})")
    messages: dict[str, str] = {}
    plurals: dict[str, list[str]] = {}
    header = ENGLISH_PLURAL
    if lang != "en":
        translation = gettext.translation(DOMAIN, localedir=str(LOCALE_DIR), languages=[lang])
        if not isinstance(translation, gettext.GNUTranslations):
            raise UnoError(f"the {lang!r} catalogue is not a gettext catalogue")
        header = translation.info().get("plural-forms", ENGLISH_PLURAL)
        forms: dict[str, dict[int, str]] = {}
        catalog: dict[Any, str] = translation._catalog  # type: ignore[attr-defined]
        for key, value in catalog.items():
            if isinstance(key, tuple):
                msgid, index = key
                forms.setdefault(str(msgid), {})[int(index)] = value
            elif key:  # "" is the header
                messages[str(key)] = value
        count = nplurals(header)
        for msgid, by_index in forms.items():
            plurals[msgid] = [by_index.get(i, "") for i in range(max(count, len(by_index)))]
    return {
        "lang": lang,
        "plural_forms": header,
        "nplurals": nplurals(header),
        "plural": plural_tree(header),
        "messages": dict(sorted(messages.items())),
        "plurals": dict(sorted(plurals.items())),
    }


def rules_json(lang: str, edition: str) -> dict[str, str]:
    """The rules help of ``edition`` in ``lang`` (``GET /api/rules/{lang}/{edition}``): the
    edition's page, the shared rules, and both as the terminal shows them. Raises
    :class:`~unokit.core.errors.UnoError` for an unknown language or edition."""
    if lang not in LANGUAGES:
        raise UnoError(f"unknown language {lang!r} (choose from {', '.join(LANGUAGES)})")
    check_edition(edition)
    own = help_path(edition, lang).read_text(encoding="utf-8")
    shared = help_path(edition, lang, "rules").read_text(encoding="utf-8")
    return {
        "lang": lang,
        "edition": edition,
        "edition_markdown": own,
        "rules_markdown": shared,
        "markdown": own.rstrip() + "\n\n" + shared,
    }


def bot_choices() -> list[dict[str, Any]]:
    """The bots a seat may be given, in the order the browser offers them: the difficulty
    levels (:data:`~unokit.bots.levels.LEVELS`), easiest first, then the other bots of
    :func:`~unokit.bots.registry.bot_names` in the registry's order. Each is ``{"name", "label",
    "elo"}``: ``label`` is the message id of its name as a choice (``Easy bot``, null for a bot
    without one), ``elo`` its rating (:data:`~unokit.bots.levels.LEVEL_ELO`, null where none).

    >>> [b["name"] for b in bot_choices()]
    ['easy', 'normal', 'hard', 'random', 'heuristic', 'strong']
    >>> bot_choices()[0]
    {'name': 'easy', 'label': 'Easy bot', 'elo': 1646}
    """
    offered = set(bot_names())
    order = [*LEVELS, *(name for name in BOTS if name not in LEVELS)]
    return [{"name": name, "label": BOT_LABELS.get(name), "elo": LEVEL_ELO.get(name)}
            for name in order if name in offered]


__all__ = ["bot_choices", "catalog_json", "evaluate", "nplurals", "plural_tree", "rules_json"]

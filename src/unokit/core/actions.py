"""Actions: a fixed space of small ints, with the text notation of ``docs/rules.md``.

Every action a seat can take is one int in ``range(N_ACTIONS)``; the seat is given
separately. The layout (stable, also used as the RL action space):

====================  =============================================
ints                  action
====================  =============================================
0 … 51                play a coloured card (the int is the card)
52 … 67               play a wild face naming a colour: ``52 + 4 * (wild - 52) + colour``
68 … 135              the same plays with an UNO call (``!``): play + 68
136 … 140             ``draw``, ``pass``, ``uno``, ``challenge``, ``accept``
141 … 144             ``color C`` (a wild turned up first, S3)
145 … 154             ``catch N`` (P2)
155 … 164             ``swap N`` (``seven_zero``)
165 … 174             ``penalize N`` (P4: a host's penalty, never a seat's action)
====================  =============================================

>>> a = parse_action("W+4=B")
>>> action_str(a), ACTION_CARD[a], ACTION_COLOR[a]
('W+4=B', 53, 3)
>>> action_str(parse_action("R7!"))
'R7!'
>>> action_str(play_action(parse_card("G5"), uno=True))
'G5!'
"""

from __future__ import annotations

from typing import Final, TypeAlias

from .cards import CARD_COLOR, CARD_TEXT, COLOR_LETTERS, N_CARDS, WILD, parse_card
from .errors import NotationError

Action: TypeAlias = int
"""An action, ``0 … N_ACTIONS - 1``. See the module docstring."""

MIN_SEATS: Final = 2
MAX_SEATS: Final = 10
"""A match has ``MIN_SEATS`` to ``MAX_SEATS`` players."""

N_PLAYS: Final = 68
UNO_OFFSET: Final = 68
DRAW: Final = 136
PASS: Final = 137
UNO: Final = 138
CHALLENGE: Final = 139
ACCEPT: Final = 140
COLOR_BASE: Final = 141
CATCH_BASE: Final = 145
SWAP_BASE: Final = 155
PENALIZE_BASE: Final = 165
N_ACTIONS: Final = 175

# Action kinds.
K_PLAY: Final = 0
K_DRAW: Final = 1
K_PASS: Final = 2
K_UNO: Final = 3
K_CHALLENGE: Final = 4
K_ACCEPT: Final = 5
K_COLOR: Final = 6
K_CATCH: Final = 7
K_SWAP: Final = 8
K_PENALIZE: Final = 9


def _build() -> tuple[
    tuple[int, ...], tuple[int, ...], tuple[int, ...], tuple[int, ...], tuple[bool, ...], tuple[str, ...]
]:
    kinds: list[int] = []
    cards: list[int] = []
    colors: list[int] = []
    args: list[int] = []
    unos: list[bool] = []
    texts: list[str] = []
    for uno in (False, True):
        for a in range(N_PLAYS):
            if a < WILD:
                c, col, text = a, CARD_COLOR[a], CARD_TEXT[a]
            else:
                c = WILD + (a - WILD) // 4
                col = (a - WILD) % 4
                text = f"{CARD_TEXT[c]}={COLOR_LETTERS[col]}"
            kinds.append(K_PLAY)
            cards.append(c)
            colors.append(col)
            args.append(-1)
            unos.append(uno)
            texts.append(text + ("!" if uno else ""))
    for kind, text in ((K_DRAW, "draw"), (K_PASS, "pass"), (K_UNO, "uno"),
                       (K_CHALLENGE, "challenge"), (K_ACCEPT, "accept")):
        kinds.append(kind)
        cards.append(-1)
        colors.append(-1)
        args.append(-1)
        unos.append(False)
        texts.append(text)
    for col in range(4):
        kinds.append(K_COLOR)
        cards.append(-1)
        colors.append(col)
        args.append(col)
        unos.append(False)
        texts.append(f"color {COLOR_LETTERS[col]}")
    for kind, word in ((K_CATCH, "catch"), (K_SWAP, "swap"), (K_PENALIZE, "penalize")):
        for seat in range(MAX_SEATS):
            kinds.append(kind)
            cards.append(-1)
            colors.append(-1)
            args.append(seat)
            unos.append(False)
            texts.append(f"{word} {seat}")
    assert len(texts) == N_ACTIONS
    return tuple(kinds), tuple(cards), tuple(colors), tuple(args), tuple(unos), tuple(texts)


# Per-action lookup tables: kind (``K_*``), card played (-1 if none), colour named or
# played (-1 if none), seat argument of catch/swap/penalize (-1 if none), UNO call flag,
# notation. Final, one name each: compiled by mypyc, a Final table is a C static that every
# compiled module reads directly, while any other module-level name is looked up in the
# module's dict at every use (13% of a compiled engine step, 17% of the strong bot's search).
_TABLES: Final = _build()
ACTION_KIND: Final = _TABLES[0]
"""Per action: its kind (``K_*``)."""
ACTION_CARD: Final = _TABLES[1]
"""Per action: the card played (-1 if none)."""
ACTION_COLOR: Final = _TABLES[2]
"""Per action: the colour named or played (-1 if none)."""
ACTION_ARG: Final = _TABLES[3]
"""Per action: the seat argument of catch, swap and penalize, the colour of a colour choice
(-1 if none)."""
ACTION_UNO: Final = _TABLES[4]
"""Per action: whether it carries an UNO call."""
ACTION_TEXT: Final = _TABLES[5]
"""Per action: its notation."""

_ACTION_BY_TEXT: Final[dict[str, Action]] = {t: a for a, t in enumerate(ACTION_TEXT)}


def play_action(c: int, color: int = -1, uno: bool = False) -> Action:
    """The action that plays card ``c`` (naming ``color`` for a wild), with or without an UNO call."""
    if not 0 <= c < N_CARDS:
        raise ValueError(f"no card {c}")
    if c >= WILD:
        if not 0 <= color < 4:
            raise ValueError("a wild card needs a colour")
        a = WILD + 4 * (c - WILD) + color
    else:
        a = c
    return a + UNO_OFFSET if uno else a


def catch_action(seat: int) -> Action:
    """``catch N``."""
    return CATCH_BASE + seat


def swap_action(seat: int) -> Action:
    """``swap N``."""
    return SWAP_BASE + seat


def color_action(color: int) -> Action:
    """``color C``."""
    return COLOR_BASE + color


def penalize_action(seat: int) -> Action:
    """``penalize N``: the host gives seat N the P4 penalty."""
    return PENALIZE_BASE + seat


def parse_action(text: str) -> Action:
    """Parse an action's notation: ``R7``, ``W=G``, ``R7!``, ``draw``, ``catch 2``, ``color G`` …

    Parsing is exact: only the canonical form is accepted, so that
    ``action_str(parse_action(s)) == s`` for every valid ``s``.

    >>> parse_action("catch 2") == CATCH_BASE + 2
    True
    >>> parse_action("W")
    Traceback (most recent call last):
    ...
    unokit.core.errors.NotationError: 'W': a wild card must name a colour, as in W=G
    """
    found = _ACTION_BY_TEXT.get(text)
    if found is not None:
        return found
    raise NotationError(_explain(text))


def _explain(text: str) -> str:
    body = text[:-1] if text.endswith("!") else text
    if "=" in body:
        face, _, col = body.partition("=")
        try:
            c = parse_card(face)
        except NotationError:
            return f"{text!r}: {face!r} is not a card code"
        if c < WILD:
            return f"{text!r}: only a wild card names a colour"
        return f"{text!r}: {col!r} is not a colour (use R, Y, G or B)"
    try:
        c = parse_card(body)
    except NotationError:
        pass
    else:
        if c >= WILD:
            return f"{text!r}: a wild card must name a colour, as in {body}=G"
    word = body.split(" ", 1)[0]
    if word in ("catch", "swap", "penalize"):
        return f"{text!r}: {word} takes a seat number 0-{MAX_SEATS - 1}, as in '{word} 2'"
    if word == "color":
        return f"{text!r}: color takes R, Y, G or B, as in 'color G'"
    return (
        f"{text!r} is not an action (a card such as R7 or W=G, optionally with !, or draw, "
        "pass, uno, challenge, accept, catch N, color C, swap N)"
    )


def action_str(a: Action) -> str:
    """The notation of action ``a`` (the inverse of :func:`parse_action`)."""
    return ACTION_TEXT[a]

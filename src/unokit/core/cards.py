"""Cards and colours: cheap integer values with lookup tables (the editions' decks and rules
are records in :mod:`unokit.core.editions`).

A card is a plain ``int`` (type alias :data:`Card`). Cards of one face are
indistinguishable, so a card's value *is* its face: ``R7`` is always the same
int. Coloured cards are ``colour * 13 + rank`` (0 … 51); the four wild faces
follow (52 … 55). Every property is a tuple lookup, never an object built at
each step.

>>> parse_card("R7")
7
>>> card_str(parse_card("B+2"))
'B+2'
>>> CARD_POINTS[parse_card("W+4")]
50
"""

from __future__ import annotations

from typing import Final, TypeAlias

from .errors import NotationError

Card: TypeAlias = int
"""A card face, ``0 … 55``. See the module docstring for the layout."""

Color: TypeAlias = int
"""A colour: ``RED`` 0, ``YELLOW`` 1, ``GREEN`` 2, ``BLUE`` 3 (``WILD_COLOR`` 4 for wild faces)."""

RED: Final = 0
YELLOW: Final = 1
GREEN: Final = 2
BLUE: Final = 3
WILD_COLOR: Final = 4
COLOR_LETTERS: Final = "RYGB"
COLOR_NAMES: Final = ("red", "yellow", "green", "blue")

# Ranks of coloured cards: 0-9 are numbers.
SKIP: Final = 10
REVERSE: Final = 11
DRAW_TWO: Final = 12
# Ranks of the wild faces (their "rank" in the tables below).
WILD_RANK: Final = 13
WILD_DRAW_FOUR_RANK: Final = 14
MATER_RANK: Final = 15
AGENT_P_RANK: Final = 16

WILD: Final = 52
WILD_DRAW_FOUR: Final = 53
MATER: Final = 54
AGENT_P: Final = 55
N_CARDS: Final = 56
"""Number of distinct card faces."""

_RANK_TEXT: Final = ("0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "S", "R", "+2")
_WILD_TEXT: Final = ("W", "W+4", "WM", "WP")


def _build_tables() -> tuple[
    tuple[int, ...], tuple[int, ...], tuple[int, ...], tuple[str, ...]
]:
    colors: list[int] = []
    ranks: list[int] = []
    points: list[int] = []
    texts: list[str] = []
    for color in range(4):
        for rank in range(13):
            colors.append(color)
            ranks.append(rank)
            points.append(rank if rank < 10 else 20)
            texts.append(COLOR_LETTERS[color] + _RANK_TEXT[rank])
    for i, text in enumerate(_WILD_TEXT):
        colors.append(WILD_COLOR)
        ranks.append(WILD_RANK + i)
        points.append(50)
        texts.append(text)
    return tuple(colors), tuple(ranks), tuple(points), tuple(texts)


# Per-card lookup tables, Final for the compiled build (see ``unokit.core.actions``).
_TABLES: Final = _build_tables()
CARD_COLOR: Final = _TABLES[0]
"""Per card: its colour (4 for wilds)."""
CARD_RANK: Final = _TABLES[1]
"""Per card: its rank (10 Skip, 11 Reverse, 12 Draw Two, 13 and up the wild faces)."""
CARD_POINTS: Final = _TABLES[2]
"""Per card: its points (E2)."""
CARD_TEXT: Final = _TABLES[3]
"""Per card: its notation."""

_CARD_BY_TEXT: Final[dict[str, Card]] = {text: card for card, text in enumerate(CARD_TEXT)}

IS_WILD: Final = tuple(c >= WILD for c in range(N_CARDS))
IS_NUMBER: Final = tuple(c < WILD and CARD_RANK[c] < 10 for c in range(N_CARDS))


def card(color: Color, rank: int) -> Card:
    """The coloured card of ``color`` and ``rank`` (0-9, ``SKIP``, ``REVERSE``, ``DRAW_TWO``).

    >>> card_str(card(GREEN, SKIP))
    'GS'
    """
    if not (0 <= color < 4 and 0 <= rank < 13):
        raise ValueError(f"no coloured card has colour {color} and rank {rank}")
    return color * 13 + rank


def parse_card(text: str) -> Card:
    """Parse a card code such as ``R7``, ``GS``, ``YR``, ``B+2``, ``W``, ``W+4``, ``WM`` or ``WP``.

    >>> parse_card("W+4") == WILD_DRAW_FOUR
    True
    >>> parse_card("X9")
    Traceback (most recent call last):
    ...
    unokit.core.errors.NotationError: 'X9' is not a card code (examples: R7, GS, YR, B+2, W, W+4, WM, WP)
    """
    found = _CARD_BY_TEXT.get(text)
    if found is None:
        raise NotationError(
            f"{text!r} is not a card code (examples: R7, GS, YR, B+2, W, W+4, WM, WP)"
        )
    return found


def card_str(c: Card) -> str:
    """The notation of card ``c`` (the inverse of :func:`parse_card`)."""
    return CARD_TEXT[c]


def parse_color(text: str) -> Color:
    """Parse a colour letter ``R``, ``Y``, ``G`` or ``B``.

    >>> parse_color("G")
    2
    """
    if len(text) != 1 or text not in COLOR_LETTERS:
        raise NotationError(f"{text!r} is not a colour (use R, Y, G or B)")
    return COLOR_LETTERS.index(text)


def hand_points(hand: list[Card] | tuple[Card, ...]) -> int:
    """The E2 points of a hand: face value, symbols 20, wilds 50.

    >>> hand_points([parse_card(t) for t in ("G1", "Y9", "W")])
    60
    """
    return sum([CARD_POINTS[c] for c in hand])

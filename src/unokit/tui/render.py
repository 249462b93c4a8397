"""Cards and the table as Rich text: each card in its colour *and* as its code (``R7``, ``W+4``),
so that the game reads the same without colour."""

from __future__ import annotations

from rich.text import Text

from ..core.cards import CARD_COLOR, CARD_RANK, COLOR_LETTERS, WILD, WILD_DRAW_FOUR, Card, card_str
from ..core.observation import Observation

CARD_STYLES = (
    "bold white on red3",
    "bold black on gold1",
    "bold white on green4",
    "bold white on blue3",
    "bold white on grey15",
)
COLOR_STYLES = ("bold red3", "bold gold1", "bold green4", "bold blue3")


def sort_key(c: Card) -> tuple[int, int]:
    """Hands are sorted by colour (red, yellow, green, blue, wilds), then by number or symbol."""
    return (CARD_COLOR[c], CARD_RANK[c])


def sorted_hand(hand: list[Card] | tuple[Card, ...]) -> list[Card]:
    """``hand`` in display order."""
    return sorted(hand, key=sort_key)


def chip(c: Card) -> Text:
    """A card as a coloured chip with its code: `` R7 ``."""
    return Text(f" {card_str(c)} ", style=CARD_STYLES[CARD_COLOR[c]])


def color_chip(color: int, word: str) -> Text:
    """The colour in play: its word and its letter, in that colour."""
    return Text(f"{word} [{COLOR_LETTERS[color]}]", style=COLOR_STYLES[color])


def hand_text(hand: list[Card], cursor: int, playable: set[Card], legend: str, width: int = 0,
              bluffs: frozenset[Card] | set[Card] = frozenset()) -> Text:
    """The hand in rows of chips that fit ``width`` (0: one row), each row with a marker line
    under it (``•`` playable, ``!`` playable as a bluff, ``▲`` selected), then the legend."""
    out = Text()
    chips = Text()
    marks = Text()
    for i, c in enumerate(hand):
        piece = chip(c)
        if i == cursor:
            piece.stylize("underline")
        size = len(piece.plain)
        if chips.plain and width and len(chips.plain) + 1 + size > width:
            out.append_text(chips)
            out.append("\n")
            out.append_text(marks)
            out.append("\n")
            chips, marks = Text(), Text()
        if chips.plain:
            chips.append(" ")
            marks.append(" ")
        chips.append_text(piece)
        if c in playable:
            mark = "!" if c in bluffs else "•"
            if i == cursor:
                mark = "▲"
        else:
            mark = "△" if i == cursor else " "
        marks.append(mark.center(size), style="bold red" if c in bluffs and c in playable else
                     ("bold" if i == cursor else ""))
    out.append_text(chips)
    out.append("\n")
    out.append_text(marks)
    out.append("\n")
    out.append(legend, style="dim")
    return out


def is_bluff(c: Card, hand: tuple[Card, ...] | list[Card], color: int) -> bool:
    """Whether playing ``c`` from ``hand`` on ``color`` would be a bluff: a Wild Draw Four
    while the hand holds another card of the colour in play (it may be challenged)."""
    return c == WILD_DRAW_FOUR and 0 <= color < 4 and any(CARD_COLOR[h] == color for h in hand)


def play_order(obs: Observation, first: int) -> list[int]:
    """The seats still in the game in the order play goes (``obs.direction``), from ``first``."""
    n = obs.players
    order = [first]
    seat = first
    for _ in range(n - 1):
        seat = (seat + obs.direction) % n
        if not obs.eliminated[seat]:
            order.append(seat)
    return order


def is_wild(c: Card) -> bool:
    """Whether ``c`` is a wild face."""
    return c >= WILD

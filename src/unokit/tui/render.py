"""Cards and the table as Rich text: each card in its colour *and* as its code (``R7``, ``W+4``),
so that the game reads the same without colour."""

from __future__ import annotations

from rich.text import Text

from ..cards import CARD_COLOR, CARD_RANK, COLOR_LETTERS, WILD, Card, card_str
from ..observation import Observation

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


def hand_text(hand: list[Card], cursor: int, playable: set[Card], legend: str) -> Text:
    """The hand on two lines: the chips, then a marker line (``•`` playable, ``▲`` selected)."""
    chips = Text()
    marks = Text()
    for i, c in enumerate(hand):
        piece = chip(c)
        if i == cursor:
            piece.stylize("underline")
        if i:
            chips.append(" ")
            marks.append(" ")
        chips.append_text(piece)
        width = len(piece.plain)
        mark = ("▲" if c in playable else "△") if i == cursor else ("•" if c in playable else " ")
        marks.append(mark.center(width), style="bold" if i == cursor else "")
    out = Text()
    out.append_text(chips)
    out.append("\n")
    out.append_text(marks)
    out.append("\n")
    out.append(legend, style="dim")
    return out


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

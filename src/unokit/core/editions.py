"""The editions as data: one :class:`Edition` record each, read by the engine, the bots, the
records and the translations instead of comparing edition names.

A record holds the deck (how many of each card face), the special card the edition adds, the
rules that card brings (C5, C6 in docs/rules.md) as flags, and the message id of the special
card's name; the translations stay in the catalogues (``unokit/text/locale``, looked up by
``unokit.text.i18n`` with the edition's name as context). docs/extending.md says what else a new
edition takes.

>>> cars2 = edition("cars2")
>>> cars2.special == MATER, cars2.peek_card == MATER, cars2.rules, cars2.answers_draw_cards
(True, True, ('C5',), False)
>>> len(edition_deck("phineas-ferb")), edition("phineas-ferb").answers_draw_cards
(112, True)
>>> edition("uno-flip")
Traceback (most recent call last):
...
unokit.core.errors.OptionError: unknown edition 'uno-flip' (choose from classic, cars2, phineas-ferb)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from .cards import AGENT_P, MATER, N_CARDS, WILD, WILD_DRAW_FOUR, Card, card
from .errors import OptionError

__all__ = ["CARS2", "CLASSIC", "EDITIONS", "PHINEAS_FERB", "RECORDS", "Edition", "check_edition",
           "deck_counts", "edition", "edition_counts", "edition_deck", "register_edition"]

_RANK_COPIES: Final = (1, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2)
"""Copies of each coloured rank in each colour, in every edition (S1): one 0, two of each of
1-9, Skip, Reverse and Draw Two."""


def deck_counts(wilds: dict[Card, int]) -> tuple[int, ...]:
    """Per card face: how many a deck holds, the coloured cards of every edition and ``wilds``."""
    counts = [0] * N_CARDS
    for colour in range(4):
        for rank in range(len(_RANK_COPIES)):
            counts[card(colour, rank)] = _RANK_COPIES[rank]
    for face, copies in wilds.items():
        counts[face] = copies
    return tuple(counts)


@dataclass(frozen=True)
class Edition:
    """One edition: its deck, its special card, and the rules that card brings."""

    name: str
    """As in docs/rules.md, records and ``--edition``: ``classic``, ``cars2``, ``phineas-ferb``."""
    title: str
    """The name on its box, the terminal game's title (``UNO Cars 2``): a brand name, not
    translated."""
    counts: tuple[int, ...]
    """Per card face (``0 … N_CARDS - 1``): how many the deck holds."""
    special: Card | None = None
    """The card it adds to the classic deck, if any."""
    special_name: str | None = None
    """The message id of the special card's name (``Special Agent Mater``), which the catalogues
    translate with the edition's name as context."""
    rules: tuple[str, ...] = ()
    """The rules of docs/rules.md that it adds to the shared ones."""
    peek_card: Card | None = None
    """C5: the card whose player sees every other hand as it is then (Mater)."""
    answer_card: Card | None = None
    """C6: the card that answers a Draw Two or Wild Draw Four played on its holder, so that
    the attacker draws instead (Agent P)."""

    @property
    def answers_draw_cards(self) -> bool:
        """C6: every Draw Two and Wild Draw Four waits for its target's answer (drawing, a
        challenge, or the answer card), since the target may hold the answer card."""
        return self.answer_card is not None


CLASSIC: Final = Edition(
    name="classic", title="UNO", counts=deck_counts({WILD: 4, WILD_DRAW_FOUR: 4}),
)
CARS2: Final = Edition(
    name="cars2", title="UNO Cars 2", counts=deck_counts({WILD: 4, WILD_DRAW_FOUR: 4, MATER: 4}),
    special=MATER, special_name="Special Agent Mater", rules=("C5",), peek_card=MATER,
)
PHINEAS_FERB: Final = Edition(
    name="phineas-ferb", title="UNO Phineas and Ferb",
    counts=deck_counts({WILD: 4, WILD_DRAW_FOUR: 4, AGENT_P: 4}),
    special=AGENT_P, special_name="Agent P", rules=("C6",), answer_card=AGENT_P,
)

RECORDS: Final[dict[str, Edition]] = {e.name: e for e in (CLASSIC, CARS2, PHINEAS_FERB)}
"""Every edition by name: the printed ones, then any added by :func:`register_edition`."""

EDITIONS: Final = tuple(RECORDS)
"""The names of the printed editions, as in docs/rules.md: ``classic``, ``cars2``, ``phineas-ferb``."""


def _deck(counts: tuple[int, ...]) -> tuple[Card, ...]:
    """The deck of ``counts`` in a fixed order: face by face."""
    deck: list[Card] = []
    for face in range(N_CARDS):
        deck.extend([face] * counts[face])
    return tuple(deck)


_DECKS: Final[dict[str, tuple[Card, ...]]] = {}
"""Each edition's deck, made when first asked for."""


def register_edition(record: Edition) -> Edition:
    """Add an edition that is not one of the printed ones (``docs/extending.md``): its deck is
    any mix of the card faces, and its special cards' rules are its record's fields. Raises
    :class:`~unokit.core.errors.OptionError` for a name taken or a record that makes no deck."""
    if record.name in RECORDS:
        raise OptionError(f"an edition named {record.name!r} exists already")
    if len(record.counts) != N_CARDS or any(k < 0 for k in record.counts) or sum(record.counts) < 2:
        raise OptionError(f"edition {record.name!r}: counts must give each of the {N_CARDS} faces a number")
    for what, face in (("special", record.special), ("peek_card", record.peek_card),
                       ("answer_card", record.answer_card)):
        if face is not None and not (WILD <= face < N_CARDS and record.counts[face]):
            raise OptionError(f"edition {record.name!r}: its {what} must be a wild face its deck holds")
    RECORDS[record.name] = record
    return record


def edition(name: str) -> Edition:
    """The record of the edition ``name``; raises :class:`~unokit.core.errors.OptionError` naming
    it if there is none."""
    found = RECORDS.get(name)
    if found is None:
        raise OptionError(f"unknown edition {name!r} (choose from {', '.join(EDITIONS)})")
    return found


def check_edition(name: str) -> str:
    """Return ``name`` if it names an edition, else raise :class:`~unokit.core.errors.OptionError`
    naming it."""
    return edition(name).name


def edition_deck(name: str) -> tuple[Card, ...]:
    """The full deck of the edition ``name`` in a fixed order (108 or 112 cards).

    >>> len(edition_deck("classic")), edition_deck("phineas-ferb").count(AGENT_P)
    (108, 4)
    """
    deck = _DECKS.get(name)
    if deck is None:
        deck = _DECKS[name] = _deck(edition(name).counts)
    return deck


def edition_counts(name: str) -> list[int]:
    """How many of each face the deck of the edition ``name`` holds, indexed by card (a new
    list, the caller's to change)."""
    return list(edition(name).counts)

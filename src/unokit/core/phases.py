"""What a game waits for: the one vocabulary of phases.

A phase is named by one of :data:`AWAITING` (``Game.awaiting``, ``Observation.awaiting``, the
positions and the protocol use these names; a server's room is ``round_over`` or
``game_over`` by the same names) and held by the engine as its index (``Game.phase``), one of
the constants below. The order of the indexes is part of the vocabulary: the phases in which a
seat decides come first, so ``phase < ROUND_OVER`` (:func:`deciding`) means that the round is
going on, and ``phase <= DRAWN`` that the seat on turn is at its turn's play.

>>> AWAITING[RESPOND], deciding(RESPOND), deciding(GAME_OVER), AWAITING.index("swap") == SWAP
('respond', True, False, True)
"""

from __future__ import annotations

from typing import Final, Literal

Awaiting = Literal["play", "drawn", "respond", "color", "swap", "round_over", "game_over"]
"""A phase's name."""

PLAY: Final = 0
"""The seat on turn plays a card or draws (T1, T2)."""
DRAWN: Final = 1
"""The seat on turn has drawn: it plays the drawn card or passes (T2)."""
RESPOND: Final = 2
"""A draw card waits for the answer of the seat on turn: accept, challenge, stack, Agent P."""
COLOR: Final = 3
"""The seat on turn names the colour of the wild turned up first (S3)."""
SWAP: Final = 4
"""The seat on turn chooses whom to swap hands with (``seven_zero``)."""
ROUND_OVER: Final = 5
"""The round is over; the next one is dealt by ``Game.start_round``."""
GAME_OVER: Final = 6
"""The match is over."""
AWAITING: Final[tuple[Awaiting, ...]] = (
    "play", "drawn", "respond", "color", "swap", "round_over", "game_over")
"""``AWAITING[phase]``: the phase's name."""
DECIDING: Final[tuple[Awaiting, ...]] = AWAITING[:ROUND_OVER]
"""The names of the phases in which the seat on turn decides."""


def deciding(phase: int) -> bool:
    """Whether a seat decides in ``phase`` (the round is going on)."""
    return phase < ROUND_OVER


__all__ = ["AWAITING", "COLOR", "DECIDING", "DRAWN", "GAME_OVER", "PLAY", "RESPOND", "ROUND_OVER", "SWAP",
           "Awaiting", "deciding"]

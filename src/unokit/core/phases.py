"""What a game waits for: its phase, an int (``Game.phase``), and the phase's name (``Game.awaiting``).

>>> AWAITING[RESPOND]
'respond'
"""

from __future__ import annotations

from typing import Final

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
AWAITING: Final = ("play", "drawn", "respond", "color", "swap", "round_over", "game_over")
"""``AWAITING[phase]``: the phase's name."""

__all__ = ["AWAITING", "COLOR", "DRAWN", "GAME_OVER", "PLAY", "RESPOND", "ROUND_OVER", "SWAP"]

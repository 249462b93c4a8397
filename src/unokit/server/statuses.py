"""A room's statuses, the wire values the browser reads, named after the engine's phases
where they mean the same (:mod:`unokit.core.phases`): ``round_over`` and ``game_over`` are
the phases' own names; a room's ``playing`` is any phase in which a seat decides; ``lobby``
(before the first match) and ``closed`` are the room's alone.

>>> ROUND_OVER_STATUS, GAME_OVER_STATUS, PLAYING
('round_over', 'game_over', 'playing')
"""

from __future__ import annotations

from typing import Final

from ..core.game import Game
from ..core.phases import AWAITING, GAME_OVER, ROUND_OVER, deciding
from .protocol import ProtocolError

LOBBY: Final = "lobby"
"""The room waits for its host to start the first match."""
PLAYING: Final = "playing"
"""A round is being played: the game is in a phase in which a seat decides."""
ROUND_OVER_STATUS: Final = AWAITING[ROUND_OVER]
"""The round is over; the next one is dealt when everyone is ready (or after the pause)."""
GAME_OVER_STATUS: Final = AWAITING[GAME_OVER]
"""The match is over; the host may start a rematch."""
CLOSED: Final = "closed"
"""The room is closed for good."""


def status_of(game: Game) -> str:
    """The status of a room whose match is ``game``: its phase's name, or ``playing``."""
    return PLAYING if deciding(game.phase) else AWAITING[game.phase]


def closed_error(reason: str | None) -> ProtocolError:
    """The refusal a client gets from a closed room (410), saying why it was closed."""
    why = {"format": "it was stored by a version of unokit that cannot read it",
           "empty": "everyone left", "idle": "it was left idle"}.get(reason or "", "")
    return ProtocolError("not_found", f"this room is closed{': ' + why if why else ''}", 410)


__all__ = ["CLOSED", "GAME_OVER_STATUS", "LOBBY", "PLAYING", "ROUND_OVER_STATUS", "closed_error", "status_of"]

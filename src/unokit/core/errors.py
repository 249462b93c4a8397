"""The errors unokit raises. All are :class:`ValueError` subclasses.

A caller can always tell why something was refused:

- :class:`NotationError`: the text is not a card, action, or record line at all (bad syntax).
- :class:`IllegalActionError`: a well-formed action that is not allowed now; ``reason`` says why.
- :class:`OptionError`: an unknown option, or a bad value for a known one.
- :class:`RecordError`: a malformed game record or scenario file.
"""

from __future__ import annotations


class UnoError(ValueError):
    """Base class of every error unokit raises on bad input."""


class NotationError(UnoError):
    """Text that is not valid card or action notation."""


class IllegalActionError(UnoError):
    """A well-formed action that the rules do not allow now. The game state is unchanged.

    Attributes:
        seat: the seat that tried the action.
        action: the action's notation.
        reason: why it was refused, in words.
    """

    def __init__(self, seat: int, action: str, reason: str) -> None:
        super().__init__(f"seat {seat} cannot {action!r}: {reason}")
        self.seat = seat
        self.action = action
        self.reason = reason


class OptionError(UnoError):
    """An unknown option name, an invalid value, or settings that cannot be played."""


class RecordError(UnoError):
    """A malformed game record or conformance scenario."""


class PositionError(RecordError):
    """A malformed or inconsistent position (:meth:`Game.from_dict <unokit.core.game.Game.from_dict>`,
    :meth:`Game.from_observation <unokit.core.game.Game.from_observation>`)."""

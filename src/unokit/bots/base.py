"""The bot interface: a bot sees only its seat's :class:`~unokit.core.observation.Observation`.

A bot is asked for a decision whenever its seat has legal actions. On its seat's turn
(``obs.turn == obs.seat`` and the game awaits ``play``, ``drawn``, ``respond``, ``color``
or ``swap``) it must return one of ``obs.legal``. Out of turn it may return an
out-of-turn action from ``obs.legal`` (``catch N``, ``uno``, a jump-in) or ``None``.
"""

from __future__ import annotations

from typing import Protocol

from ..core.actions import Action
from ..core.observation import Observation


class Bot(Protocol):
    """Anything with a ``name`` and an ``act`` method is a bot."""

    name: str

    def act(self, obs: Observation) -> Action | None:
        """Choose an action from ``obs.legal`` (``None``: nothing, allowed only out of turn)."""
        ...

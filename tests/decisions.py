"""The kinds of decision the human makes in ``unokit play``, told from the actions the app
gives the session: ``play``, ``draw``, ``pass``, ``color``, ``uno``, ``catch``, ``challenge``,
``agent_p``, ``swap``, ``accept``."""

from __future__ import annotations

from typing import Any

from unokit.core.actions import (
    ACTION_CARD,
    ACTION_KIND,
    ACTION_UNO,
    K_ACCEPT,
    K_CATCH,
    K_CHALLENGE,
    K_COLOR,
    K_DRAW,
    K_PASS,
    K_PLAY,
    K_SWAP,
    K_UNO,
    Action,
)
from unokit.core.cards import AGENT_P, WILD
from unokit.core.observation import Observation
from unokit.tui.session import Session

KIND_WORDS = {K_DRAW: "draw", K_PASS: "pass", K_UNO: "uno", K_CHALLENGE: "challenge", K_ACCEPT: "accept",
              K_COLOR: "color", K_CATCH: "catch", K_SWAP: "swap"}
"""The word of each kind of action (``K_*``) but a play."""


def decision_kinds(action: Action, obs: Observation) -> set[str]:
    """The kinds of decision ``action`` makes, taken when the human saw ``obs``: a play is
    ``play`` (``agent_p`` for Agent P answering a draw card), with ``color`` for a wild card
    and ``uno`` when it calls UNO."""
    if ACTION_KIND[action] != K_PLAY:
        return {KIND_WORDS[ACTION_KIND[action]]}
    c = ACTION_CARD[action]
    responding = obs.awaiting == "respond" and obs.turn == obs.seat
    kinds = {"agent_p" if responding and c == AGENT_P else "play"}
    if c >= WILD:
        kinds.add("color")
    if ACTION_UNO[action]:
        kinds.add("uno")
    return kinds


class DecisionsSession(Session):
    """A :class:`~unokit.tui.session.Session` that notes in :attr:`decisions` the kinds of
    decision of every action of the human it applies."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.decisions: set[str] = set()

    def act(self, action: Action) -> None:
        obs = self.observe()
        super().act(action)
        self.decisions |= decision_kinds(action, obs)

"""``random``: a uniformly random legal action."""

from __future__ import annotations

import random

from ..core.actions import Action
from ..core.observation import Observation


class RandomBot:
    """Picks uniformly among its legal actions; out of turn it acts with probability ``eagerness``."""

    name = "random"

    def __init__(self, seed: int | None = None, eagerness: float = 0.5) -> None:
        self.rng = random.Random(seed)
        self.eagerness = eagerness

    def seed(self, seed: int | None) -> None:
        """Play on as a new bot built with ``seed`` would."""
        self.rng.seed(seed)

    def act(self, obs: Observation) -> Action | None:
        """A random legal action (or, out of turn, sometimes nothing)."""
        legal = obs.legal
        if not legal:
            return None
        if obs.turn != obs.seat and self.rng.random() >= self.eagerness:
            return None
        return self.rng.choice(legal)

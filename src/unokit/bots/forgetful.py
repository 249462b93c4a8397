"""Bots at a table with people: they forget to call UNO now and then, so that a person can catch
them (``unokit play --forget-uno``, a room's ``forget_uno``).

:func:`make_table_bot` is how the terminal game and the server make a bot for a seat. A bot by
name forgets UNO at the table's rate; a difficulty level (:data:`~unokit.bots.levels.LEVELS`)
keeps its own documented rates (:data:`~unokit.bots.levels.MISTAKES`; ``hard`` makes none),
whatever the table's rate, so that ``easy`` stays easy at every table.

>>> from unokit import Game
>>> from unokit.bots import play_match
>>> bots = [make_table_bot("strong", 1, 0.3), make_table_bot("random", 2, 0.3),
...         make_table_bot("easy", 3, 0.0)]
>>> [type(b).__name__ for b in bots], bots[0].forget_uno, bots[2].mistakes.forget_uno
(['StrongBot', 'ForgetfulBot', 'LevelBot'], 0.3, 0.5)
>>> play_match(Game.new("classic", 3, seed=4), bots).is_over
True
"""

from __future__ import annotations

import random

from ..core.actions import ACTION_KIND, ACTION_UNO, K_PLAY, UNO, UNO_OFFSET, Action
from ..core.errors import OptionError
from ..core.observation import Observation
from .base import Bot
from .levels import LEVELS
from .registry import make_bot


class ForgetfulBot:
    """Wraps a bot so that it forgets to call UNO with chance ``forget`` (for bots without a
    ``forget_uno`` option of their own), and stays silent until it is caught or plays again.
    Its forgetting draws on its own random numbers, seeded by ``seed``."""

    def __init__(self, bot: Bot, forget: float, seed: int | None = None) -> None:
        self.bot = bot
        self.name = bot.name
        self.forget = forget
        self.rng = random.Random(seed)
        self._forgot = False

    def seed(self, seed: int) -> None:
        """Play on as :func:`make_table_bot` with ``seed`` would build it: the wrapped bot
        reseeded with ``seed`` (where it can be), the forgetting with ``seed + 7``."""
        reseed = getattr(self.bot, "seed", None)
        if callable(reseed):
            reseed(seed)
        self.rng.seed(seed + 7)
        self._forgot = False

    def act(self, obs: Observation) -> Action | None:
        """The wrapped bot's choice, with the UNO call sometimes left out."""
        if len(obs.hand) != 1:
            self._forgot = False
        a = self.bot.act(obs)
        if a is None:
            return None
        if ACTION_KIND[a] == K_PLAY and ACTION_UNO[a] and self.rng.random() < self.forget:
            self._forgot = True
            return a - UNO_OFFSET
        if a == UNO and self._forgot and obs.turn != obs.seat:
            return None
        return a


def make_table_bot(name: str, seed: int, forget_uno: float) -> Bot:
    """The bot ``name`` for a seat at a table with people, seeded by ``seed``.

    A level (``easy``, ``normal``, ``hard``) plays with its own mistake rates and ignores
    ``forget_uno``; another bot forgets to call UNO with chance ``forget_uno``: through its own
    ``forget_uno`` option when it has one, else wrapped in a :class:`ForgetfulBot` (seeded
    ``seed + 7``). Raises :class:`~unokit.core.errors.OptionError` for an unknown name.
    """
    if name in LEVELS:
        return make_bot(name, seed=seed)
    try:
        return make_bot(name, seed=seed, forget_uno=forget_uno)
    except OptionError:
        return ForgetfulBot(make_bot(name, seed=seed), forget_uno, seed + 7)


__all__ = ["ForgetfulBot", "make_table_bot"]

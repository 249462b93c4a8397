"""Bots: opponents for players and baselines for researchers. Each sees only its own seat.

>>> from unokit import Game
>>> from unokit.bots import RandomBot, play_match
>>> game = play_match(Game.new("classic", 3, seed=5), [RandomBot(seed=s) for s in range(3)])
>>> game.is_over
True
"""

from .base import Bot
from .driver import play_match, play_round, step
from .random_bot import RandomBot

__all__ = ["Bot", "RandomBot", "play_match", "play_round", "step"]

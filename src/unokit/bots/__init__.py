"""Bots: opponents for players and baselines for researchers. Each sees only its own seat.

Three bots are registered by name (:func:`make_bot`): ``random``, ``heuristic`` and ``strong``
(see ``docs/bots.md``); :data:`BOT_OPTIONS` lists the options each takes, with their types and
ranges, which :func:`make_bot` and :func:`parse_bot_options` check.

>>> from unokit import Game
>>> from unokit.bots import RandomBot, play_match
>>> game = play_match(Game.new("classic", 3, seed=5), [RandomBot(seed=s) for s in range(3)])
>>> game.is_over
True
"""

from .base import Bot
from .driver import ask, play_match, play_round
from .heuristic import HeuristicBot
from .random_bot import RandomBot
from .registry import BOT_OPTIONS, BOTS, BotOption, bot_names, make_bot, parse_bot_options, split_bot_names
from .strong import StrongBot

__all__ = [
    "BOTS",
    "BOT_OPTIONS",
    "Bot",
    "BotOption",
    "HeuristicBot",
    "RandomBot",
    "StrongBot",
    "ask",
    "bot_names",
    "make_bot",
    "parse_bot_options",
    "play_match",
    "play_round",
    "split_bot_names",
]

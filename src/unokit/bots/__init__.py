"""Bots: opponents for players and baselines for researchers. Each sees only its own seat.

Three bots are registered by name (:func:`make_bot`): ``random``, ``heuristic`` and ``strong``
(see ``docs/bots.md``), with ``strong-v1`` (the first version of the strong bot) and the difficulty
levels for people, :data:`LEVELS` (``easy``, ``normal``, ``hard``), rated for players by
:data:`LEVEL_ELO`; :data:`BOT_OPTIONS` lists the options each takes, with their types and
ranges, which :func:`make_bot` and :func:`parse_bot_options` check. :func:`make_table_bot` makes
a bot for a seat at a table with people (the terminal game, the server): it forgets to call UNO
at the table's rate, except a level, which keeps its own.

>>> from unokit import Game
>>> from unokit.bots import RandomBot, play_match
>>> game = play_match(Game.new("classic", 3, seed=5), [RandomBot(seed=s) for s in range(3)])
>>> game.is_over
True
"""

from .base import Bot
from .driver import bot_answers, play_match, play_round
from .forgetful import ForgetfulBot, make_table_bot
from .heuristic import HeuristicBot
from .levels import LEVEL_ELO, LEVELS, MISTAKES, LevelBot, Mistakes
from .random_bot import RandomBot
from .registry import BOT_OPTIONS, BOTS, BotOption, bot_names, make_bot, parse_bot_options, split_bot_names
from .strong import StrongBot

__all__ = [
    "BOTS",
    "BOT_OPTIONS",
    "LEVELS",
    "LEVEL_ELO",
    "MISTAKES",
    "Bot",
    "BotOption",
    "ForgetfulBot",
    "HeuristicBot",
    "LevelBot",
    "Mistakes",
    "RandomBot",
    "StrongBot",
    "bot_answers",
    "bot_names",
    "make_bot",
    "make_table_bot",
    "parse_bot_options",
    "play_match",
    "play_round",
    "split_bot_names",
]

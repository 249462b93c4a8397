"""unokit: UNO as the printed Mattel rule sheets describe it, as a fast, typed Python engine.

>>> import unokit
>>> game = unokit.Game.new("classic", players=2, seed=1)
>>> game.n, len(game.hands[0])
(2, 7)
"""

from .core.actions import Action, action_str, parse_action
from .core.cards import Card, card_str, parse_card
from .core.editions import EDITIONS, edition_deck
from .core.errors import (
    IllegalActionError,
    NotationError,
    OptionError,
    RecordError,
    UnoError,
)
from .core.game import Game
from .core.observation import Observation
from .core.options import Options
from .core.phases import AWAITING

__version__ = "0.1.0"

__all__ = [
    "AWAITING",
    "EDITIONS",
    "Action",
    "Card",
    "Game",
    "IllegalActionError",
    "NotationError",
    "Observation",
    "OptionError",
    "Options",
    "RecordError",
    "UnoError",
    "action_str",
    "card_str",
    "edition_deck",
    "parse_action",
    "parse_card",
]

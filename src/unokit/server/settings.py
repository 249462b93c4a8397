"""A room's settings: as ``POST /api/rooms`` gives them (checked by :func:`parse_settings`)
and the database keeps them; each match dealt from them, and the seeds and bots derived from
the room's seed."""

from __future__ import annotations

import hashlib
import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..bots.base import Bot
from ..bots.forgetful import make_table_bot
from ..core.cards import parse_card
from ..core.errors import OptionError, UnoError
from ..core.game import Game
from ..core.options import Options
from .models import DEFAULT_BETWEEN_ROUNDS, DEFAULT_REACTION, CreateRoom, Deal
from .protocol import ProtocolError


@dataclass
class Settings:
    """A room's settings, as ``POST /api/rooms`` gives them (checked) and the database keeps
    them."""

    edition: str
    players: int
    seats: list[str]
    """What each seat was made as: ``human`` or a bot's name."""
    options: Options
    bot_delay: float
    forget_uno: float
    fill_bot: str
    seed: int
    deal: dict[str, Any] | None = None
    public: bool = False
    between_rounds: float = DEFAULT_BETWEEN_ROUNDS
    turn_timeout: float | None = None
    fixed_seed: bool = False
    reaction: float = DEFAULT_REACTION
    """Seconds no bot acts while a person may call UNO or catch a bot, and before a bot plays
    for a person away."""
    """The first match is dealt from ``seed`` itself (``--dev``'s ``seed``); else every match's
    seed is derived from it, so that a finished match's record (which holds its seed) tells
    nothing of the next match's cards."""

    def to_json(self) -> dict[str, Any]:
        """The settings as stored (the seed and the stacked deal included)."""
        return {"edition": self.edition, "players": self.players, "seats": list(self.seats),
                "options": self.options.changed(), "bot_delay": self.bot_delay,
                "forget_uno": self.forget_uno, "fill_bot": self.fill_bot, "seed": self.seed,
                "deal": self.deal, "public": self.public, "between_rounds": self.between_rounds,
                "turn_timeout": self.turn_timeout, "fixed_seed": self.fixed_seed,
                "reaction": self.reaction}

    def public_json(self) -> dict[str, Any]:
        """The settings as every client is shown them (no seed, no deal)."""
        return {"edition": self.edition, "players": self.players, "options": self.options.as_dict(),
                "bot_delay": self.bot_delay, "forget_uno": self.forget_uno, "fill_bot": self.fill_bot,
                "public": self.public, "between_rounds": self.between_rounds,
                "turn_timeout": self.turn_timeout, "reaction": self.reaction}

    def new_game(self, game_no: int) -> Game:
        """The match ``game_no`` of the room (0: the first; a rematch is the next), dealt from
        the room's seed (the stacked deal, for the first match of a room made with one)."""
        return _new_game(self, game_no)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Settings:
        """Settings as stored (trusted: written by :meth:`to_json`)."""
        timeout = data.get("turn_timeout")
        return cls(str(data["edition"]), int(data["players"]), [str(s) for s in data["seats"]],
                   Options.from_mapping(data.get("options") or {}), float(data["bot_delay"]),
                   float(data["forget_uno"]), str(data["fill_bot"]), int(data["seed"]), data.get("deal"),
                   bool(data.get("public", False)),
                   float(data.get("between_rounds", DEFAULT_BETWEEN_ROUNDS)),
                   None if timeout is None else float(timeout), bool(data.get("fixed_seed", False)),
                   float(data.get("reaction", DEFAULT_REACTION)))


def _bad(message: str) -> ProtocolError:
    return ProtocolError("malformed", message)


def parse_settings(body: CreateRoom, dev: bool) -> Settings:
    """The settings of a checked ``POST /api/rooms`` body; raises ``malformed`` (what the
    models cannot check: the seats against ``players``, the options against the deck, a
    ``seed`` or ``deal`` on a server without ``--dev``)."""
    for name in ("seed", "deal"):
        if getattr(body, name) is not None and not dev:
            raise _bad(f"{name}: allowed only on a server run with --dev")
    if body.bots is None:
        players = 4 if body.players is None else body.players
        seats = ["human"] + [body.fill_bot] * (players - 1)
    else:
        seats = ["human"] + ["human" if b is None else b for b in body.bots]
        if body.players is not None and body.players != len(seats):
            raise _bad(f"bots: players is {body.players}, so bots needs {body.players - 1} entries, "
                       f"not {len(body.bots)}")
        if not 2 <= len(seats) <= 10:
            raise _bad("bots: a room has 2 to 10 seats (1 to 9 entries)")
    try:
        options = Options.from_mapping(body.options.model_dump(exclude_unset=True))
    except OptionError as exc:
        raise _bad(f"options: {exc}") from None
    seed = random.SystemRandom().randrange(2**63) if body.seed is None else body.seed
    deal = None if body.deal is None else body.deal.model_dump()
    settings = Settings(body.edition, len(seats), seats, options, body.bot_delay, body.forget_uno,
                        body.fill_bot, seed, deal, body.public, body.between_rounds, body.turn_timeout,
                        fixed_seed=body.seed is not None, reaction=body.reaction)
    try:
        game = settings.new_game(0)  # checks the options against the deck, and the stacked deal
    except (UnoError, TypeError, ValueError, KeyError) as exc:
        raise _bad(f"deal: {exc}" if deal is not None else f"options: {exc}") from None
    if game.n != settings.players:
        raise _bad(f"deal: {game.n} hands for {settings.players} seats")
    return settings


def _new_game(settings: Settings, game_no: int) -> Game:
    fixed = settings.fixed_seed and game_no == 0
    seed = settings.seed if fixed else derive(settings.seed, "game", game_no)
    if settings.deal is not None and game_no == 0:
        deal = Deal.model_validate(settings.deal)
        return Game.from_setup(hands=[[parse_card(c) for c in h] for h in deal.hands],
                               discard=parse_card(deal.discard), draw=[parse_card(c) for c in deal.draw],
                               dealer=deal.dealer, edition=settings.edition, options=settings.options,
                               seed=seed)
    return Game.new(settings.edition, settings.players, settings.options, seed)


def derive(seed: int, *parts: object) -> int:
    """A seed for a purpose, derived from the match's seed (63 bits)."""
    text = ":".join(["unokit-server", str(seed), *map(str, parts)])
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big") >> 1


def room_bot(name: str, seed: int, forget_uno: float) -> Bot:
    """A server bot: ``name`` from the registry, forgetting UNO at times as ``unokit play``'s do
    (a difficulty level keeps its own mistake rates)."""
    return make_table_bot(name, seed, forget_uno)



__all__ = ["Settings", "derive", "parse_settings", "room_bot"]

"""Nothing the server sends a seat depends on a card hidden from it.

Two rooms play the same actions in two matches that differ only in cards hidden from seat
``s`` (stacked deals, ``--dev``'s ``deal``): every message the server sends ``s`` is the same
text, byte for byte, in both; and the same for a spectator, whose hidden cards are every hand
and the draw pile. The matches are compared for as long as the engine shows ``s`` the same
(the same actions legal, the same events and observation): a swap of hidden cards may change
what is public later (a challenge won or lost), and the test then stops there.
"""

from __future__ import annotations

import asyncio
import itertools
import random
from typing import Any

import pytest

from conftest import random_options, random_step
from test_server_support import enter, make_room, request
from unokit import Game, edition_deck
from unokit.core.actions import action_str
from unokit.core.cards import CARD_POINTS, card_str
from unokit.core.observation import Observation
from unokit.core.phases import GAME_OVER, ROUND_OVER
from unokit.server import security
from unokit.server.rooms import Rooms, ServerOptions
from unokit.server.store import Store

PUBLIC = ("players", "hand_sizes", "top", "color", "direction", "turn", "awaiting", "draw_size", "discard",
          "pending", "attacker", "owed", "catchable", "scores", "eliminated", "dealer", "round_no",
          "history", "options", "idle_turns")


def _seen(game: Game, seat: int | None) -> Any:
    """What the engine shows ``seat`` (``None``: a spectator) now."""
    obs: Observation = game.observe(0 if seat is None else seat)
    public = (*tuple(getattr(obs, f) for f in PUBLIC), game.round_winner, tuple(game.winners))
    if seat is None:
        return public
    return (*public, obs.hand, obs.drawn, tuple(sorted(obs.seen.items())), obs.legal)


def _script(rng: random.Random, game: Game, steps: int) -> list[tuple[int, str]]:
    """A random line of play: ``(seat, action)``, and ``(-1, "ready")`` between rounds."""
    game = game.copy()
    out: list[tuple[int, str]] = []
    for _ in range(steps):
        if game.phase == GAME_OVER:
            break
        if game.phase == ROUND_OVER:
            out.append((-1, "ready"))
            game.start_round()
            continue
        seat, action = random_step(game, rng, eagerness=0.25)
        game.apply(seat, action)
        out.append((seat, action_str(action)))
    return out


def _deal(rng: random.Random) -> tuple[dict[str, Any], str, Any]:
    """A random stacked deal (``create``'s ``deal``), its edition and options."""
    edition = rng.choice(("classic", "cars2", "phineas-ferb"))
    players = rng.randint(2, 4)
    options = random_options(rng, players, edition, target=rng.choice((30, 80, 500)))
    hand_size = options.hand_size
    deck = list(edition_deck(edition))
    rng.shuffle(deck)
    hands = [deck[i * hand_size:(i + 1) * hand_size] for i in range(players)]
    return ({"dealer": rng.randrange(players), "hands": [[card_str(c) for c in h] for h in hands],
             "discard": card_str(deck[players * hand_size]),
             "draw": [card_str(c) for c in deck[players * hand_size + 1:]]}, edition, options)


def _faces_shown(game: Game, script: list[tuple[int, str]], observer: int | None) -> set[str]:
    """Every card face the first round of ``script`` shows ``observer`` (its hands, what it
    draws, every card played, the hands it is shown)."""
    game = game.copy()
    shown = set() if observer is None else {card_str(c) for c in game.hands[observer]}
    for seat, action in script:
        if seat < 0:
            break
        for e in game.apply(seat, action):
            _collect(e.seen_by(observer).to_dict(), shown)
    return shown


def _collect(value: Any, out: set[str]) -> None:
    if isinstance(value, dict):
        for k, v in value.items():
            if k in ("card", "cards", "hand", "hands", "shown"):
                _collect_cards(v, out)
    return None


def _collect_cards(value: Any, out: set[str]) -> None:
    if isinstance(value, str):
        out.add(value)
    elif isinstance(value, list):
        for v in value:
            _collect_cards(v, out)
    elif isinstance(value, dict):
        for v in value.values():
            _collect_cards(v, out)


def _swapped(rng: random.Random, deal: dict[str, Any], observer: int | None,
             avoid: set[str]) -> dict[str, Any] | None:
    """``deal`` with one to three pairs of equal-point cards swapped between places hidden from
    ``observer`` (other hands, the draw pile), faces in ``avoid`` left alone; ``None`` if
    there are none to swap."""
    from unokit.core.cards import parse_card

    hands = [list(h) for h in deal["hands"]]
    draw = list(deal["draw"])
    places = [(s, i) for s in range(len(hands)) if s != observer for i in range(len(hands[s]))]
    places += [(-1, i) for i in range(len(draw))]

    def at(p: tuple[int, int]) -> str:
        return str(draw[p[1]] if p[0] < 0 else hands[p[0]][p[1]])

    def put(p: tuple[int, int], c: str) -> None:
        if p[0] < 0:
            draw[p[1]] = c
        else:
            hands[p[0]][p[1]] = c

    swaps, used, want = 0, set(), rng.randint(1, 3)
    for a, b in itertools.combinations(rng.sample(places, len(places)), 2):
        ca, cb = at(a), at(b)
        if (a in used or b in used or (a[0] == b[0] and a[0] >= 0) or ca == cb or ca in avoid or cb in avoid
                or CARD_POINTS[parse_card(ca)] != CARD_POINTS[parse_card(cb)]):
            continue
        put(a, cb)
        put(b, ca)
        used |= {a, b}
        swaps += 1
        if swaps >= want:
            break
    if not swaps:
        return None
    return {**deal, "hands": hands, "draw": draw}


def _game(deal: dict[str, Any], edition: str, options: Any, seed: int) -> Game:
    from unokit.core.cards import parse_card

    return Game.from_setup(hands=[[parse_card(c) for c in h] for h in deal["hands"]],
                           discard=parse_card(deal["discard"]), draw=[parse_card(c) for c in deal["draw"]],
                           dealer=deal["dealer"], edition=edition, options=options, seed=seed)


Case = tuple[dict[str, Any], dict[str, Any], str, Any, int, int | None, list[tuple[int, str]], int]


def _case(seed: int) -> Case:
    """The pair of deals of a seed, the observer, the line of play and how long it agrees."""
    rng = random.Random(f"leak:{seed}")
    deal_a, edition, options = _deal(rng)
    players = len(deal_a["hands"])
    observer: int | None = None if seed % 4 == 3 else rng.randrange(players)
    game_seed = rng.randrange(2**40)
    a = _game(deal_a, edition, options, game_seed)
    script = _script(rng, a, 160)
    deal_b = None
    for steps in (len(script), 60, 30, 15, 5, 0):  # the fewer faces shown, the more to swap
        deal_b = _swapped(rng, deal_a, observer, _faces_shown(a, script[:steps], observer))
        if deal_b is not None:
            break
    assert deal_b is not None
    b = _game(deal_b, edition, options, game_seed)
    agree = _agreeing_prefix(a, b, script, observer)
    return deal_a, deal_b, edition, options, game_seed, observer, script, agree


def _agreeing_prefix(a: Game, b: Game, script: list[tuple[int, str]], observer: int | None) -> int:
    """How many steps of ``script`` show ``observer`` the same in both matches."""
    a, b = a.copy(), b.copy()
    for k, (seat, action) in enumerate(script):
        if seat < 0:
            ea, eb = a.start_round(), b.start_round()
        else:
            try:
                ea = a.apply(seat, action)
                eb = b.apply(seat, action)
            except ValueError:
                return k
        if [e.seen_by(observer) for e in ea] != [e.seen_by(observer) for e in eb] \
                or _seen(a, observer) != _seen(b, observer):
            return k
    return len(script)


async def _run(deal: dict[str, Any], edition: str, options: Any, seed: int, players: int,
               script: list[tuple[int, str]], observer: int | None) -> list[str]:
    """Play ``script`` in a room made with ``deal``; returns the texts ``observer`` was sent
    (a spectator's when ``observer`` is ``None``), from its ``hello`` on."""
    tokens = (f"token-of-seat-{n}" for n in itertools.count())
    security_new_token = security.new_token
    security.new_token = lambda: next(tokens)
    try:
        rooms = Rooms(Store("sqlite://"), ServerOptions(dev=True))
        room, token = await make_room(rooms, "P0", bots=[None] * (players - 1), options=options.changed(),
                                      edition=edition, seed=seed, deal=deal)
        seat_tokens = [token] + [(await room.take_seat(f"P{s}", s))[1] for s in range(1, players)]
    finally:
        security.new_token = security_new_token
    spectator = await enter(rooms, room, None)
    people = [await enter(rooms, room, t) for t in seat_tokens]
    await room.start(token)
    for seat, action in script:
        if seat < 0:
            for p in people:
                await request(rooms, p, type="ready")
        else:
            error = await request(rooms, people[seat], type="act", action=action, version=room.version)
            assert error is None, (seat, action, error)
        await asyncio.sleep(0)
    rooms.stop()
    watcher = spectator if observer is None else people[observer]
    return list(watcher.sent)


SEEDS = range(64)
"""The random matches compared: enough that Mater peeks, challenges, Agent P answers and
seven-zero swaps and rotations all come up (``test_the_matches_hold_every_hidden_card_event``)."""


@pytest.mark.parametrize("seed", SEEDS)
def test_a_seat_is_sent_the_same_bytes_whatever_the_cards_hidden_from_it(
        seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(security, "new_code", lambda: "TEST23TEST23AB")
    deal_a, deal_b, edition, options, game_seed, observer, script, agree = _case(seed)
    assert deal_a != deal_b
    players = len(deal_a["hands"])
    script = script[:agree]
    sent_a = asyncio.run(_run(deal_a, edition, options, game_seed, players, script, observer))
    sent_b = asyncio.run(_run(deal_b, edition, options, game_seed, players, script, observer))
    assert len(sent_a) == len(sent_b)
    for i, (x, y) in enumerate(zip(sent_a, sent_b, strict=True)):
        assert x == y, f"message {i} differs:\n{x}\n{y}"
    assert sum('"type":"state"' in t for t in sent_a) >= 1 + min(len(script), 1)


def test_the_pairs_agree_long_enough_to_mean_something() -> None:
    lengths = [_case(seed)[-1] for seed in SEEDS]
    assert sum(lengths) >= len(SEEDS) * 60, lengths


def test_the_matches_hold_every_hidden_card_event() -> None:
    """The compared stretches include every event that shows (or moves) hidden cards: Mater's
    peeks, Wild Draw Four challenges, Agent P's answers, seven-zero swaps and rotations."""
    seen: dict[str, int] = {}
    for seed in SEEDS:
        deal_a, _, edition, options, game_seed, _, script, agree = _case(seed)
        game = _game(deal_a, edition, options, game_seed)
        for seat, action in script[:agree]:
            for e in game.start_round() if seat < 0 else game.apply(seat, action):
                seen[type(e).__name__] = seen.get(type(e).__name__, 0) + 1
    for kind in ("Peeked", "Challenged", "AgentPAnswered", "HandsSwapped", "HandsRotated"):
        assert seen.get(kind, 0) >= 3, (kind, seen)

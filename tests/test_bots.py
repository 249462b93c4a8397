"""Bots: legal actions everywhere, no peeking at hidden cards, registry, heuristic rules."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from unokit import Game
from unokit.bots import BOTS, LEVELS, HeuristicBot, RandomBot, StrongBot, bot_names, make_bot, play_match
from unokit.bots.heuristic import best_color, bluff_probability
from unokit.bots.strong import determinize, draw_constraints, known_hands
from unokit.core.actions import ACTION_KIND, K_CATCH, Action, action_str, parse_action
from unokit.core.cards import parse_card
from unokit.core.editions import edition_deck
from unokit.core.errors import OptionError
from unokit.core.observation import Observation
from unokit.core.options import Options
from unokit.core.phases import DECIDING, ROUND_OVER

OPTION_SETS = [
    {},
    {"stacking": "progressive"},
    {"stacking": "plus4_on_plus2", "jump_in": True},
    {"seven_zero": True},
    {"draw_until_playable": True, "force_play": True},
    {"wd4_bluffing": "forbid", "illegal_play": "penalize"},
    {"scoring": "alternative"},
    {"mode": "partners"},
    {"mode": "elimination"},
    {"agent_p_draws_from": "draw", "two_handed_rules": False},
    {"hand_size": 3},
]


SEARCHERS = ("strong", "strong-v1", "hard")
"""The registered bots that search (each takes ``rollouts`` and ``max_ms``)."""


def _bots(names: list[str], seed: int) -> list:  # type: ignore[type-arg]
    out = []
    for s, name in enumerate(names):
        kw: dict[str, object] = {}
        if name in SEARCHERS:
            kw = {"rollouts": 4, "iterations": 1, "max_ms": 0}
        elif name == "heuristic":
            kw = {"forget_uno": 0.3}
        out.append(make_bot(name, seed=seed * 10 + s, **kw))
    return out


ALL_BOTS = [*bot_names(), "strong-v1"]
"""Every bot that ``make_bot`` knows by name: the listed ones and ``strong-v1``."""


def test_every_registered_bot_is_covered() -> None:
    """The legality and no-peeking tests below run every registered bot and level."""
    assert set(ALL_BOTS) == {"random", "heuristic", *SEARCHERS, *LEVELS}
    assert "strong-v1" in BOTS and "strong-v1" not in bot_names()


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    edition=st.sampled_from(["classic", "cars2", "phineas-ferb"]),
    opt_index=st.integers(0, len(OPTION_SETS) - 1),
    players=st.integers(2, 6),
    seed=st.integers(0, 10_000),
    mix=st.lists(st.sampled_from(ALL_BOTS), min_size=6, max_size=6),
)
def test_bots_play_only_legal_actions(edition: str, opt_index: int, players: int, seed: int,
                                      mix: list[str]) -> None:
    opts = dict(OPTION_SETS[opt_index])
    if opts.get("mode") == "partners":
        players = max(4, players + players % 2)
    opts["target"] = 60
    options = Options.from_mapping(opts)
    game = Game.new(edition, players, options, seed=seed)
    play_match(game, [_Checked(bot) for bot in _bots(mix[:players], seed)], max_rounds=200)
    assert game.is_over


class _Checked:
    """A bot whose every answer must be legal, and an action on its own turn (the table's loop
    would replace anything else without a word)."""

    def __init__(self, bot: Any) -> None:
        self.bot = bot
        self.name = bot.name

    def act(self, obs: Observation) -> Action | None:
        a = self.bot.act(obs)
        on_turn = obs.turn == obs.seat and obs.awaiting in DECIDING
        assert a is not None or not on_turn, f"{self.name} gave nothing on its turn"
        assert a is None or a in obs.legal, f"{self.name} chose {a}, not legal"
        return a  # type: ignore[no-any-return]


def _hidden_variant(game: Game, seat: int, rng: random.Random) -> Game:
    """The same game with every card hidden from ``seat`` dealt again at random."""
    other = game.copy()
    hidden = [c for t in range(game.n) if t != seat for c in other.hands[t]] + other.draw_pile
    rng.shuffle(hidden)
    for t in range(game.n):
        if t != seat:
            k = len(other.hands[t])
            other.hands[t] = hidden[:k]
            hidden = hidden[k:]
    other.draw_pile = hidden
    other.seen = [dict(s) for s in game.seen]
    other._version += 1  # the cards changed behind the game's back: its legal actions are read again
    return other


@pytest.mark.parametrize("name", ALL_BOTS)
def test_bots_do_not_read_hidden_cards(name: str) -> None:
    rng = random.Random(7)
    checked = 0
    for seed in range(6):
        options = Options(target=100)
        game = Game.new("cars2", 3, options, seed=seed)
        drivers = [HeuristicBot(seed=s) for s in range(3)]
        for _ in range(60):
            if game.phase >= ROUND_OVER:
                break
            seat = game.turn
            obs = game.observe(seat)
            for _variant in range(2):
                twin = _hidden_variant(game, seat, rng)
                twin_obs = twin.observe(seat)
                assert twin_obs == obs  # the views differ only in cards hidden from the seat
                kw: dict[str, object] = {"rollouts": 6, "max_ms": 0} if name in SEARCHERS else {}
                a = make_bot(name, seed=seed, **kw).act(obs)
                b = make_bot(name, seed=seed, **kw).act(twin_obs)
                assert a == b, (action_str(a) if a is not None else None, obs)
                checked += 1
            game.apply(seat, drivers[seat].act(obs))  # type: ignore[arg-type]
    assert checked > 50


@pytest.mark.parametrize("name", ALL_BOTS)
def test_bots_do_not_read_hidden_cards_out_of_turn(name: str) -> None:
    """The same out of turn: a missed UNO call to catch, one's own UNO call to make."""
    rng = random.Random(8)
    checked = 0
    kw: dict[str, object] = {"rollouts": 6, "max_ms": 0} if name in SEARCHERS else {}
    for seed in range(30):
        game = Game.new("classic", 3, Options(target=100), seed=seed)
        drivers = [HeuristicBot(seed=s, forget_uno=0.7) for s in range(3)]
        while game.phase < ROUND_OVER:
            for seat in range(3):
                obs = game.observe(seat)
                if seat == game.turn or not obs.legal:
                    continue
                twin_obs = _hidden_variant(game, seat, rng).observe(seat)
                assert twin_obs == obs
                a = make_bot(name, seed=seed, **kw).act(obs)
                b = make_bot(name, seed=seed, **kw).act(twin_obs)
                assert a == b, (action_str(a) if a is not None else None, obs)
                checked += 1
            seat = game.turn
            game.apply(seat, drivers[seat].act(game.observe(seat)))  # type: ignore[arg-type]
    assert checked > 20


def test_strong_bot_does_not_read_the_game_behind_the_view() -> None:
    """The view's history is a window on the game's log: the bot must not depend on the
    log past its view, nor on anything but the observation."""
    game = Game.from_setup(hands=[["R1", "G2", "B5"], ["R5", "B7", "Y3"]], discard="R3",
                           draw=["Y1", "Y2", "G7", "G8"], dealer=1)
    obs = game.observe(0)
    twin = Game.from_setup(hands=[["R1", "G2", "B5"], ["Y1", "G8", "G7"]], discard="R3",
                           draw=["Y3", "Y2", "B7", "R5"], dealer=1)
    assert twin.observe(0) == obs
    a = StrongBot(seed=3, rollouts=40, max_ms=0).act(obs)
    b = StrongBot(seed=3, rollouts=40, max_ms=0).act(twin.observe(0))
    assert a == b


def test_registry() -> None:
    assert isinstance(make_bot("random", seed=1), RandomBot)
    assert isinstance(make_bot("heuristic", seed=1, forget_uno=0.5), HeuristicBot)
    assert isinstance(make_bot("strong", seed=1, iterations=3), StrongBot)
    with pytest.raises(OptionError, match="unknown bot 'gandalf'"):
        make_bot("gandalf")
    with pytest.raises(OptionError, match="strong"):
        make_bot("strong", bogus=1)


def _obs(hands: list[list[str]], discard: str, draw: list[str], seat: int = 0, **kw: object):  # type: ignore[no-untyped-def]
    game = Game.from_setup(hands=hands, discard=discard, draw=draw, dealer=len(hands) - 1, **kw)  # type: ignore[arg-type]
    return game, game.observe(seat)


def test_heuristic_prefers_colour_it_holds_most_and_keeps_wilds() -> None:
    _, obs = _obs([["W", "R2", "G3", "G7", "G1", "R9"], ["R5", "B7"]], "G9", ["Y1", "Y2"])
    assert action_str(HeuristicBot().act(obs)) in ("G7", "G3", "G1")  # green, not R9, not the wild
    # Highest points among the green cards.
    assert action_str(HeuristicBot().act(obs)) == "G7"
    _, obs = _obs([["W", "R2", "B3"], ["R5", "B7"]], "G9", ["Y1", "Y2"])
    assert action_str(HeuristicBot().act(obs)) == "W=B"  # B3 outscores R2 on the tie


def test_heuristic_calls_uno_and_catches() -> None:
    _, obs = _obs([["R1", "G2"], ["R5", "B7"]], "R3", ["Y1", "Y2"])
    assert action_str(HeuristicBot().act(obs)) == "R1!"
    forgetful = HeuristicBot(seed=1, forget_uno=1.0)
    assert action_str(forgetful.act(obs)) == "R1"
    game, _ = _obs([["R1", "G2"], ["R5", "B7"], ["Y9", "Y8"]], "R3", ["Y1", "Y2"])
    game.apply(0, "R1")
    obs2 = game.observe(2)
    assert any(ACTION_KIND[a] == K_CATCH for a in obs2.legal)
    assert action_str(HeuristicBot().act(obs2)) == "catch 0"


def test_heuristic_plays_legal_wd4_but_not_a_bluff() -> None:
    _, obs = _obs([["W+4", "R2", "B3"], ["R5", "B7"]], "G9", ["Y1", "Y2"])
    assert action_str(HeuristicBot().act(obs)).startswith("W+4=")
    game, _ = _obs([["G2", "B3", "R2"], ["R5", "B7"]], "R9", ["W+4", "Y2"])
    game.apply(0, "draw")  # draws W+4 while holding red: playing it would be a bluff
    assert action_str(HeuristicBot().act(game.observe(0))) == "pass"
    _, obs = _obs([["G2", "B3"], ["R5", "B7"]], "R9", ["Y1", "Y2"])
    assert action_str(HeuristicBot().act(obs)) == "draw"


def test_bluff_probability_and_challenge() -> None:
    # Seat 0 played W+4 on red holding red cards: a bluff. Seat 1 holds no red, and sees
    # 3 of 4 cards of seat 0 would need to avoid red: probability high.
    game, _ = _obs([["W+4", "R1", "R2", "R4", "R5"], ["Y5", "B7", "G3"]], "R3",
                   ["Y1", "Y2", "G1", "G2", "B1", "B2"])
    game.apply(0, "W+4=G")
    obs = game.observe(1)
    p = bluff_probability(obs)
    assert 0.0 < p < 1.0
    assert HeuristicBot(challenge_threshold=p - 1e-9).act(obs) == parse_action("challenge")
    assert HeuristicBot(challenge_threshold=p + 1e-9).act(obs) == parse_action("accept")


def test_best_color() -> None:
    assert best_color([parse_card(c) for c in ("R1", "B7", "B2", "W")]) == 3
    assert best_color([]) == 0


def test_determinize_is_consistent_with_the_view() -> None:
    for seed in range(10):
        game = Game.new("cars2", 4, seed=seed)
        bots = [HeuristicBot(seed=s) for s in range(4)]
        for _ in range(25):
            if game.phase >= ROUND_OVER:
                break
            seat = game.turn
            game.apply(seat, bots[seat].act(game.observe(seat)))  # type: ignore[arg-type]
        if game.phase >= ROUND_OVER:
            continue
        seat = game.turn
        obs = game.observe(seat)
        world = determinize(obs, random.Random(seed), known_hands(obs), draw_constraints(obs))
        every = sorted(c for h in world.hands for c in h) + sorted(world.draw_pile)
        assert sorted(every + world.discard) == sorted(edition_deck("cars2"))
        assert world.hand_sizes() == game.hand_sizes()
        assert world.hands[seat] == game.hands[seat]
        assert world.observe(seat).legal == obs.legal


def test_known_hands_after_a_mater_peek() -> None:
    game = Game.from_setup(hands=[["WM", "R2", "R7"], ["Y5", "B7", "G3"], ["G9", "B1", "Y1"]], discard="R3",
                           draw=["Y2", "G1", "G2", "B2"], dealer=2, edition="cars2")
    game.apply(0, "WM=R")
    game.apply(1, "draw")
    game.apply(1, "pass")
    game.apply(2, "draw")
    game.apply(2, "pass")
    obs = game.observe(0)
    known = known_hands(obs)
    assert sorted(known[1]) == sorted(parse_card(c) for c in ("Y5", "B7", "G3"))
    world = determinize(obs, random.Random(1), known)
    assert all(c in world.hands[1] for c in known[1])
    assert all(c in world.hands[2] for c in known[2])


def test_strong_iteration_mode_is_deterministic() -> None:
    game = Game.new("classic", 3, seed=2)
    obs = game.observe(game.turn)
    picks = {StrongBot(seed=9, rollouts=30, max_ms=0).act(obs) for _ in range(3)}
    assert len(picks) == 1


def test_strong_time_budget() -> None:
    game = Game.new("classic", 2, seed=5)
    bot = StrongBot(seed=1, time_ms=5)
    while game.phase < ROUND_OVER:
        seat = game.turn
        obs = game.observe(seat)
        a = bot.act(obs) if seat == 0 else HeuristicBot().act(obs)
        assert a is not None
        game.apply(seat, a)
        if seat == 0 and bot.last_iterations:
            assert bot.last_seconds < 0.05


def test_draw_constraints_from_a_draw() -> None:
    game = Game.from_setup(hands=[["R1", "G2", "B5"], ["Y5", "B7", "G3"]], discard="R3",
                           draw=["Y1", "Y2", "G7", "G8"], dealer=1)
    game.apply(0, "R1")
    game.apply(1, "draw")  # seat 1 held no red, no 1 and no wild
    game.apply(1, "pass")
    obs = game.observe(0)
    assert draw_constraints(obs) == {1: (0, 1, 3, 0)}
    world = determinize(obs, random.Random(4), None, draw_constraints(obs))
    non_matching = [c for c in world.hands[1] if c < 52 and c // 13 != 0 and c % 13 != 1]
    assert len(non_matching) >= 3
    game.apply(0, "draw")
    game.apply(0, "pass")
    game.apply(1, "Y1")  # a card played: at most 2 of the 3 cards left are surely old
    obs = game.observe(0)
    assert draw_constraints(obs) == {1: (0, 1, 2, 0)}


def test_draw_constraints_from_a_wild_play() -> None:
    # Seat 1 plays a Wild Draw Four at a normal turn: a heuristic seat holds no coloured card
    # that matches then (it keeps its wilds), so the W+4 is taken as no bluff.
    game = Game.from_setup(hands=[["R1", "G2", "B5", "Y9", "R8"], ["W+4", "G3", "B6", "Y7", "G8", "W"]],
                           discard="R3", draw=["Y1", "Y2", "G7", "G9", "B1", "B2"], dealer=0)
    game.apply(1, "W+4=G")
    obs = game.observe(0)
    assert obs.awaiting == "respond"
    assert draw_constraints(obs) == {1: (0, 3, 5, 1)}
    for seed in range(20):
        world = determinize(obs, random.Random(seed), None, draw_constraints(obs))
        assert not world.bluff
        assert not any(c < 52 and (c // 13 == 0 or c % 13 == 3) for c in world.hands[1])


def test_draw_constraints_from_a_drawn_card_played() -> None:
    game = Game.from_setup(hands=[["R1", "G2", "B5"], ["Y5", "B7", "G3"]], discard="R3",
                           draw=["W+4", "Y2", "G7", "G8"], dealer=1)
    game.apply(0, "R1")
    game.apply(1, "draw")
    game.apply(1, "W+4=G")  # the drawn card played at once: the 3 cards left are all old
    obs = game.observe(0)
    assert draw_constraints(obs) == {1: (0, 1, 3, 0)}


def test_strong_does_not_challenge_a_heuristic_wild_draw_four() -> None:
    # The heuristic would challenge (the attacker holds 5 cards), but a seat that plays a W+4
    # at a normal turn holds nothing else that matches, so the challenge would cost 6 cards.
    game = Game.from_setup(hands=[["R1", "G2", "B5", "Y9", "R8"], ["W+4", "G3", "B6", "Y7", "G8", "W"]],
                           discard="R3", draw=["Y1", "Y2", "G7", "G9", "B1", "B2", "Y3", "Y4", "G4", "G5"],
                           dealer=0)
    game.apply(1, "W+4=G")
    obs = game.observe(0)
    assert HeuristicBot().act(obs) == parse_action("challenge")
    assert StrongBot(seed=1, max_ms=0).act(obs) == parse_action("accept")


@pytest.mark.parametrize("edition", ["classic", "cars2", "phineas-ferb"])
def test_the_strong_bots_rollouts_play_the_heuristic_exactly(edition: str) -> None:
    """With ``exact_model`` (the default), the rollout policy makes the heuristic's own choice at
    every turn of heuristic rounds (cards, drawn cards, colours, answers, challenges)."""
    from unokit.bots.strong.rollouts import _fast_action

    checked = 0
    for seed in range(40):
        players = 2 + seed % 3
        game = Game.new(edition, players, Options(target=1), seed=seed)
        bots = [HeuristicBot(seed=s) for s in range(players)]
        prev = -1  # the colour in play before the latest action
        while game.phase < ROUND_OVER:
            for seat in range(players):
                obs = game.observe(seat)
                a = bots[seat].act(obs) if obs.legal else None
                if a is None:
                    continue
                if obs.turn == seat and obs.awaiting in ("play", "drawn", "respond", "color", "swap"):
                    assert _fast_action(game, seat, -1, True, prev) == a, (action_str(a), obs)
                    checked += 1
                prev = game.color
                game.apply(seat, a)
                break
    assert checked > 1000

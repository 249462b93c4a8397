"""The strong bot searches the game it is in: the match options come with each observation.

Before, ``StrongBot`` took the options as a constructor argument that defaulted to the default
options, and ``unokit play`` / ``unokit demo`` never passed them: under house rules it searched
a different game from the one on the table. These tests fail on that bot.
"""

from __future__ import annotations

import random

import pytest

from unokit import Game
from unokit.bots import HeuristicBot, StrongBot, make_bot
from unokit.bots.strong import determinize, draw_constraints, known_hands
from unokit.bots.strong.rollouts import _fast_action
from unokit.core.actions import action_str, parse_action
from unokit.core.errors import OptionError
from unokit.core.observation import Observation
from unokit.core.options import Options
from unokit.core.phases import RESPOND

HOUSE = Options(stacking="progressive", seven_zero=True, jump_in=True)


def with_options(obs: Observation, options: Options) -> Observation:
    """``obs`` as if the match played by ``options`` (everything else the same)."""
    return Observation(obs.seat, obs.edition, obs.players, obs.hand, obs.hand_sizes, obs.top, obs.color,
                       obs.direction, obs.turn, obs.awaiting, obs.draw_size, obs.discard, obs.pending,
                       obs.attacker, obs.drawn, obs.owed, obs.catchable, obs.scores, obs.eliminated,
                       obs.dealer, obs.round_no, obs.history, obs.seen, obs.legal, options, obs.idle_turns)


def _seven_swap_position() -> Observation:
    # Seat 1 holds one card; seat 0 can play its Red 7 on the Blue 7. With seven_zero, the 7
    # swaps hands: seat 0 keeps one card and seat 1 takes seven, which wins the round most of
    # the time. Without the house rule the 7 is the worst play (it leaves blue, the colour
    # seat 0 holds), and the heuristic plays a blue card.
    game = Game.from_setup(hands=[["R7", "B1", "B2", "B3", "B5", "B8", "B9", "G9"], ["Y4"]], discard="B7",
                           draw=["Y1", "Y2", "G7", "G8", "R1", "R2", "G3", "G4"], dealer=1, options=HOUSE)
    obs = game.observe(0)
    assert obs.options == HOUSE and obs.awaiting == "play" and obs.turn == 0
    return obs


def test_the_bot_takes_no_options_argument() -> None:
    with pytest.raises(TypeError):
        StrongBot(seed=1, options=HOUSE)  # type: ignore[call-arg]
    with pytest.raises(OptionError):
        make_bot("strong", seed=1, options=HOUSE)


def test_under_seven_zero_the_strong_bot_plays_the_swap() -> None:
    """The regression: searching the real game, the 7 is by far the best play. The old bot,
    built without options, searched default-rule worlds and kept the heuristic's blue card."""
    obs = _seven_swap_position()
    seven = parse_action("R7")
    assert seven in obs.legal
    assert HeuristicBot().act(obs) != seven
    for seed in range(3):
        assert StrongBot(seed=seed, max_ms=0).act(obs) == seven


def test_the_options_decide_the_search() -> None:
    """The same position, with only the options of the observation changed: the choice follows
    them (the bot has no other source of rules)."""
    obs = _seven_swap_position()
    plain = with_options(obs, Options())
    seven = parse_action("R7")
    picks = [StrongBot(seed=seed, max_ms=0).act(plain) for seed in range(3)]
    assert seven not in picks, [action_str(a) for a in picks if a is not None]
    assert all(a in obs.legal for a in picks)


def _stacking_position() -> Observation:
    # Seat 1 plays a Draw Two on seat 0, who holds one: progressive stacking lets it answer.
    game = Game.from_setup(hands=[["R+2", "B1", "B2", "G3"], ["Y+2", "G5", "R4"]], discard="Y6",
                           draw=["Y1", "Y2", "G7", "G8", "R1", "R2", "G4", "B4"], dealer=0, options=HOUSE)
    game.apply(1, "Y+2")
    obs = game.observe(0)
    assert obs.awaiting == "respond" and obs.pending == 2
    return obs


def test_under_stacking_the_search_weighs_the_stack() -> None:
    obs = _stacking_position()
    stack = parse_action("R+2")
    assert stack in obs.legal  # the real game offers the stack ...
    bot = StrongBot(seed=2, max_ms=0)
    assert stack in bot.candidates(obs)  # ... and the search weighs it
    choice = bot.act(obs)
    assert choice in obs.legal
    assert bot.last_iterations > 0  # it searched (more than one candidate)


@pytest.mark.parametrize("make_obs", [_seven_swap_position, _stacking_position])
def test_determinized_worlds_play_by_the_match_options(make_obs: object) -> None:
    obs = make_obs()  # type: ignore[operator]
    rng = random.Random(5)
    for _ in range(10):
        world = determinize(obs, rng, known_hands(obs), draw_constraints(obs))
        assert world.options == obs.options == HOUSE
        assert world.legal_actions(obs.seat) == obs.legal  # the real game's choices, stack included
        assert world.observe(obs.seat).options == HOUSE
    if obs.awaiting == "respond":
        # The same position under the default rules: no stacking, so no such choice.
        plain = with_options(obs, Options())
        world = determinize(plain, rng)
        assert world.phase == RESPOND
        assert parse_action("R+2") not in world.legal_actions(obs.seat)


def test_the_rollout_policy_skips_eliminated_seats() -> None:
    # Seat 1 is out (elimination): seat 0's next seat is seat 2, which holds 5 cards, so seat 0
    # plays by colour (3 blue cards) rather than attacking as if the next seat held none.
    game = Game.from_setup(hands=[["RS", "B1", "B2", "B3"], [], ["Y4", "Y5", "G2", "G6", "R9"]], discard="R1",
                           draw=["Y1", "Y2", "G7", "G8", "R2", "G4", "B4"], dealer=2,
                           options=Options(mode="elimination"), eliminated=[1], scores=[10, 600, 20])
    assert game.turn == 0 and game.next_seat(0) == 2
    assert _fast_action(game, 0) == parse_action("B1")

"""Inference from the other seats' choices (``unokit.bots.inference``) and the strong bot's use of it."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from unokit import Game
from unokit.bots import HeuristicBot
from unokit.bots.driver import bot_answers
from unokit.bots.heuristic import unseen_counts
from unokit.bots.inference import DREW, PLAYED, RECEIVED, evidence, sample_hands, violations
from unokit.bots.strong import draw_constraints, informed_choice, known_voids
from unokit.core.actions import parse_action
from unokit.core.cards import CARD_COLOR, WILD, parse_card
from unokit.core.drive import drive
from unokit.core.options import Options
from unokit.core.phases import ROUND_OVER
from unokit.core.table import Table


def cards(*texts: str) -> list[int]:
    return [parse_card(t) for t in texts]


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(edition=st.sampled_from(["classic", "cars2", "phineas-ferb"]), players=st.integers(2, 5),
       seed=st.integers(0, 100_000), two_handed=st.booleans(), bluffing=st.sampled_from(["allow", "forbid"]))
def test_the_true_hands_of_heuristic_seats_explain_all_their_choices(
        edition: str, players: int, seed: int, two_handed: bool, bluffing: str) -> None:
    # The model is exact for the heuristic: whatever the table, a heuristic seat's real hand
    # never contradicts the evidence that another seat reads from the public history.
    options = Options(target=1, two_handed_rules=two_handed, wd4_bluffing=bluffing)
    game = Game.new(edition, players, options, seed=seed)
    bots = [HeuristicBot(seed=seed + s, forget_uno=0.2) for s in range(players)]
    checked = 0
    for _ in range(400):
        if game.phase >= ROUND_OVER:
            break
        me = game.turn
        evid = evidence(game.observe(me), options)
        assert evid is not None
        for t, events in evid.items():
            assert t != me
            assert violations(game.hands[t], events) == 0, (t, events, game.hands[t])
            checked += len(events)
        # The out-of-turn seats, then the seat on turn, as the driver asks them.
        drive(Table(game), bot_answers(game, bots), until=lambda step: step.decision.must)
    assert checked > 0


def test_a_play_from_a_smaller_colour_is_unexplained() -> None:
    r7, b7 = parse_card("R7"), parse_card("B7")
    # Red in play with a 7 on top; the seat answered with a Blue 7.
    events = [[PLAYED, b7, -1, CARD_COLOR[r7], 7, 1]]
    assert violations(cards("R1", "R2"), events) == 1  # it held more red: it would have played red
    assert violations(cards("B1", "B2"), events) == 0  # blue was its longest colour
    assert violations(cards("B1", "R2"), events) == 0  # a tie broken by points (7 > 2)


def test_a_kept_draw_means_nothing_could_be_played() -> None:
    events = [[DREW, 0, 3, -1]]  # red in play, a 3 on top; it drew and kept the card
    assert violations(cards("G1", "B5", "Y7"), events) == 0
    assert violations(cards("G1", "B5", "Y3"), events) == 1  # Y3 matched the 3
    assert violations(cards("G1", "W"), events) == 1  # a wild is always playable
    # Cards received later may be the playable ones: after 2 unseen cards, 2 may match.
    assert violations(cards("G1", "R5", "Y3"), [*events, [RECEIVED, 2]]) == 0
    assert violations(cards("G1", "R5", "Y3"), [*events, [RECEIVED, 1]]) == 1


def test_evidence_reads_plays_draws_and_penalties_from_the_history() -> None:
    game = Game.from_setup(hands=[["R1", "R2", "B5", "Y9"], ["Y2", "B7", "G3", "G8"]], discard="R3",
                           draw=["G4", "Y3", "G7", "W+4"], dealer=1)
    game.apply(0, "R1")
    game.apply(1, "draw")  # G4 does not match the R1: kept
    game.apply(1, "pass")
    game.apply(0, "R2")
    game.apply(1, "Y2")
    obs = game.observe(0)
    evid = evidence(obs, game.options)
    assert evid is not None
    assert [e[0] for e in evid[1]] == [DREW, PLAYED]
    assert violations(game.hands[1], evid[1]) == 0
    # A hand holding a red card could not have drawn on the R1.
    assert violations(cards("R9", "B7", "G3", "G4"), evid[1]) >= 1



@pytest.mark.parametrize("house", [{"seven_zero": True}, {"jump_in": True}, {"stacking": "progressive"},
                                   {"draw_until_playable": True}, {"illegal_play": "penalize"}])
def test_house_rules_that_hide_card_moves_turn_the_inference_off(house: dict[str, object]) -> None:
    options = Options.from_mapping(house)
    game = Game.new("classic", 3, options, seed=1)
    assert evidence(game.observe(0), options) is None


def test_sampled_hands_explain_the_evidence_and_keep_every_card() -> None:
    game = Game.from_setup(hands=[["R1", "G2", "B5", "Y9"], ["Y5", "B7", "G3", "G8"]], discard="R3",
                           draw=["G4", "Y2", "G7", "W+4"], dealer=1)
    game.apply(0, "R1")
    game.apply(1, "draw")
    game.apply(1, "pass")
    obs = game.observe(0)
    size = obs.hand_sizes[1]
    evid = evidence(obs, game.options)
    assert evid is not None
    counts = unseen_counts(obs)
    rng = random.Random(5)
    for _ in range(50):
        pool = [c for c, k in enumerate(counts) for _ in range(k)]
        before = Counter(pool)
        rng.shuffle(pool)
        hands = sample_hands({1: size}, {}, pool, evid, rng)
        assert Counter(pool) + Counter(hands[1]) == before
        assert len(hands[1]) == size == 5
        assert violations(hands[1], evid[1]) == 0
        # It drew on a red 1: no red card, no 1 and no wild.
        assert not any(c >= WILD or CARD_COLOR[c] == 0 or c % 13 == 1 for c in hands[1])


def test_informed_choice_turns_play_to_the_colour_the_next_seat_lacks() -> None:
    # Seat 1 drew on green and kept the card: it holds no green. Seat 0 holds more yellow,
    # but a green card keeps seat 1 drawing.
    game = Game.from_setup(hands=[["G1", "G2", "Y1", "Y5", "Y6", "B4"], ["Y3", "B7", "R3", "R8"]],
                           discard="G3", draw=["R4", "Y2", "G7", "B4", "R1"], dealer=1)
    game.apply(0, "G1")
    game.apply(1, "draw")  # R4 does not match the G1
    game.apply(1, "pass")
    obs = game.observe(0)
    lacking = known_voids(obs, draw_constraints(obs, game.options))
    assert lacking[1] == 2  # green, for seat 1, the next seat
    assert HeuristicBot().act(obs) == parse_action("Y1")  # yellow: its longest colour
    assert informed_choice(obs, lacking) == parse_action("G2")


def test_perfect_information_experiment_runs() -> None:
    # benchmarks/perfect_information.py (docs/strength.md): the oracle and the baseline both play.
    import subprocess
    import sys
    from pathlib import Path

    from unokit.bench import engine_build

    script = Path(__file__).resolve().parents[1] / "benchmarks" / "perfect_information.py"
    for extra in ([], ["--baseline"]):
        proc = subprocess.run([sys.executable, str(script), "--games", "2", "--jobs", "1", *extra],
                              capture_output=True, text=True, timeout=300)
        if engine_build() != "pure Python":  # the oracle patches the bot: pure-Python bots only
            assert proc.returncode != 0 and "needs the pure-Python bots" in proc.stderr, proc.stderr
            assert "Traceback" not in proc.stderr
            continue
        assert proc.returncode == 0, proc.stderr
        assert "2 one-round games" in proc.stdout

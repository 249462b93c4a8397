"""The RL environments (``unokit.envs``, ``docs/rl.md``): Gymnasium's and PettingZoo's own
checkers, unmodified, for every edition with 2 and 4 players and for 10 players and every house
rule on; the encoding's layout; and properties over random games: a random masked policy never
takes an illegal action, the observation never depends on cards hidden from the seat, and a
seeded reset is reproducible.

Needs the rl extra (``pip install '.[rl]' in a clone``); skipped without it.
"""

from __future__ import annotations

import itertools
import random
import warnings
from pathlib import Path
from typing import Any

import pytest

REASON = "the RL environments need the rl extra: pip install '.[rl]' in a clone"
np = pytest.importorskip("numpy", reason=REASON)
gymnasium = pytest.importorskip("gymnasium", reason=REASON)
pytest.importorskip("pettingzoo", reason=REASON)

from gymnasium.utils.env_checker import check_env  # noqa: E402
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from pettingzoo.test import api_test, seed_test  # noqa: E402

import unokit.envs  # noqa: E402
from conftest import agent_turns, option_maps  # noqa: E402
from unokit import EDITIONS, Game, Options  # noqa: E402
from unokit.core.cards import N_CARDS  # noqa: E402
from unokit.core.errors import IllegalActionError  # noqa: E402
from unokit.core.phases import ROUND_OVER  # noqa: E402
from unokit.core.table import Table  # noqa: E402
from unokit.envs import ENV_ID, N_ENV_ACTIONS, NOTHING, Encoder, layout, pettingzoo_env  # noqa: E402
from unokit.envs.gymnasium import UnoEnv  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
ALL_HOUSE_RULES = {"stacking": "progressive", "seven_zero": True, "jump_in": True,
                   "draw_until_playable": True, "force_play": True}
SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# The checker configurations: each edition with 2 and 4 players under default options; 10
# players; every house rule on (in each edition, 4 players, and at 10 players in classic).
CONFIGS: list[tuple[str, int, dict[str, Any]]] = [
    *((e, p, {}) for e in EDITIONS for p in (2, 4)),
    ("classic", 10, {}),
    *((e, 4, ALL_HOUSE_RULES) for e in EDITIONS),
    ("classic", 10, ALL_HOUSE_RULES),
]
IDS = [f"{e}-{p}p-{'house' if o else 'default'}" for e, p, o in CONFIGS]


# --------------------------------------------------------------------------- the checkers

@pytest.mark.parametrize(("edition", "players", "options"), CONFIGS, ids=IDS)
def test_gymnasium_check_env(edition: str, players: int, options: dict[str, Any]) -> None:
    env = gymnasium.make(ENV_ID, edition=edition, players=players, options=options)
    check_env(env.unwrapped)
    env.close()


@pytest.mark.parametrize(("edition", "players", "options"), CONFIGS, ids=IDS)
def test_pettingzoo_api_test_and_seed_test(edition: str, players: int, options: dict[str, Any]) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # advice about dict observations, as for PettingZoo's own games
        api_test(pettingzoo_env.env(edition=edition, players=players, options=options), num_cycles=300)
        seed_test(lambda: pettingzoo_env.env(edition=edition, players=players, options=options),
                  num_cycles=300)


def test_pettingzoo_whole_match_with_elimination() -> None:
    # episode="match" plays every round; seats knocked out are terminated as the match goes on.
    options = {"mode": "elimination", "target": 60}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(pettingzoo_env.env(players=4, options=options, episode="match", reward="match"),
                 num_cycles=2000)
    env = pettingzoo_env.env(players=4, options=options, episode="match", reward="match")
    env.reset(seed=3)
    rng = random.Random(3)
    finished: dict[str, float] = {}
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        totals[agent] += reward
        if terminated or truncated:
            finished[agent] = totals[agent]
            env.step(None)
            continue
        env.step(rng.choice(list(np.flatnonzero(obs["action_mask"]))))
    assert env.unwrapped.game.is_over and len(finished) == 4
    [winner] = env.unwrapped.game.winners
    assert finished[f"player_{winner}"] == 1.0
    assert sorted(finished.values()) == [-1.0, -1.0, -1.0, 1.0]


def test_gymnasium_make_vec_sync_and_async() -> None:
    for mode in ("sync", "async"):
        envs = gymnasium.make_vec(ENV_ID, num_envs=2, vectorization_mode=mode, players=3,
                                  opponents=["random"])
        obs, _ = envs.reset(seed=5)
        assert obs["observation"].shape == (2, layout(3)[-1].stop)
        assert obs["action_mask"].shape == (2, N_ENV_ACTIONS)
        episodes = 0
        for _ in range(200):
            # An episode's last observation's mask holds only "nothing now" (never empty: naive
            # masked sampling works); the next step (whose action is ignored) resets that
            # environment: Gymnasium's next-step autoreset.
            actions = np.array([int(np.flatnonzero(m)[0]) for m in obs["action_mask"]])
            obs, _, terminated, _, _ = envs.step(actions)
            assert (obs["action_mask"].sum(axis=1) > 0).all()
            only_nothing = (obs["action_mask"].sum(axis=1) == 1) & (obs["action_mask"][:, NOTHING] == 1)
            assert (only_nothing == terminated).all()
            episodes += int(terminated.sum())
        assert episodes > 0
        envs.close()


# --------------------------------------------------------------------------- the encoding

def test_layout_is_documented_and_fixed() -> None:
    doc = (ROOT / "docs" / "rl.md").read_text(encoding="utf-8")
    for players in (2, 3, 10):
        slices = layout(players)
        assert slices[0].start == 0
        assert all(a.stop == b.start for a, b in itertools.pairwise(slices))
    for s in layout(2):
        assert f"| `{s.name}` |" in doc, f"slice {s.name} is not in docs/rl.md's table"
    # The shape depends on the players only: every edition and option gives the same size.
    sizes = {Encoder(e, 4, Options.from_mapping(o)).size for e in EDITIONS for o in ({}, ALL_HOUSE_RULES)}
    assert sizes == {layout(4)[-1].stop}


def test_encoding_reads_the_public_state() -> None:
    game = Game.from_setup(hands=[["R1", "G2", "G2"], ["R5", "B7"], ["Y1"]], discard="R3",
                           draw=["Y2", "Y3"], dealer=2, options=Options(target=100))
    game.scores = [50, 0, 120]
    enc = Encoder("classic", 3, game.options)
    vec = enc.encode(game, 0)
    part = {name: vec[sl] for name, sl in enc.slices.items()}
    assert part["hand"][1] == 1 and part["hand"][28] == 2 and part["hand"].sum() == 3  # R1, G2 ×2
    assert part["top"][3] == 1 and part["top"].sum() == 1
    assert list(part["color"]) == [1, 0, 0, 0]
    assert list(part["phase"]) == [1, 0, 0, 0, 0, 0]
    assert list(part["turn"]) == [1, 0, 0] and list(part["hand_sizes"]) == [3, 2, 1]
    assert list(part["scores"]) == [0.5, 0.0, 1.0]  # over the target, capped at 1
    assert part["discard"][3] == 1 and part["draw_pile"][0] == 2 and part["direction"][0] == 1
    # Seat 1 sees itself first: relative seats.
    v1 = enc.encode(game, 1)
    assert list(v1[enc.slices["hand_sizes"]]) == [2, 1, 3]
    assert list(v1[enc.slices["turn"]]) == [0, 0, 1]
    assert v1[enc.slices["phase"]][-1] == 1  # not on turn: asked out of turn
    rules = vec[enc.slices["rules"]]
    # classic; stacking off; individual; the defaults two_handed_rules, wd4_bluffing allow and
    # agent_p_draws_from discard.
    assert rules[0] == 1 and rules.sum() == 6


@pytest.mark.parametrize("edition", EDITIONS)
def test_encoding_from_an_observation_equals_the_games(edition: str) -> None:
    rng = random.Random(edition)
    options = Options.from_mapping({**ALL_HOUSE_RULES, "illegal_play": "penalize"})
    game = Game.new(edition, 4, options, seed=11)
    enc = Encoder(edition, 4, options)
    for _ in range(400):
        if game.phase >= ROUND_OVER:
            break
        for seat in range(4):
            obs = game.observe(seat)
            assert (enc.encode(game, seat) == enc.encode_observation(obs)).all()
            assert (enc.mask(game, seat) == enc.mask_observation(obs)).all()
        seat = game.turn
        game.step(seat, rng.choice(game.legal_actions(seat)))


# --------------------------------------------------------------------------- properties

ENV_OPTIONS = ("seven_zero", "jump_in", "draw_until_playable", "force_play", "stacking", "wd4_bluffing",
               "illegal_play", "hand_size")
"""The options these properties always set, each at random; the others keep their defaults (the
target too: the reset test plays whole matches), except that the mode is sometimes partners."""


@st.composite
def configurations(draw: st.DrawFn) -> tuple[str, int, Options, int]:
    edition = draw(st.sampled_from(EDITIONS))
    players = draw(st.integers(2, 10))
    values = draw(option_maps(players, edition, only=(*ENV_OPTIONS, "mode"), required=ENV_OPTIONS,
                              hand_size=range(1, 10), mode=("partners",)))
    return edition, players, Options.from_mapping(values), draw(st.integers(0, 2**32))


@SETTINGS
@given(configurations())
def test_random_masked_policy_never_takes_an_illegal_action(config: tuple[str, int, Options, int]) -> None:
    edition, players, options, seed = config
    # raw_env raises on an action outside the mask (env() would end the episode instead).
    env = pettingzoo_env.raw_env(edition=edition, players=players, options=options)
    env.reset(seed=seed)
    rng = random.Random(seed)
    game = env.game
    decisions = 0
    for _, seat, obs in agent_turns(env, max_iter=3000):
        mask = obs["action_mask"]
        legal = set(game.legal_actions(seat))
        out = seat != game.turn
        # The mask is the engine's legal actions, plus "nothing now" exactly when asked out of turn.
        assert set(np.flatnonzero(mask[:NOTHING]).tolist()) == legal
        assert bool(mask[NOTHING]) == out
        assert obs["observation"][env._match.encoder.slices["phase"]][-1] == out
        env.step(int(rng.choice(np.flatnonzero(mask))))  # never raises
        decisions += 1
    assert decisions > 0


@SETTINGS
@given(configurations(), st.integers(0, 200), st.data())
def test_observation_never_depends_on_hidden_cards(config: tuple[str, int, Options, int], moves: int,
                                                   data: st.DataObject) -> None:
    edition, players, options, seed = config
    game = Game.new(edition, players, options, seed=seed)
    rng = random.Random(seed)
    table = Table(game)
    for _ in range(moves):
        seat = table.next_seat()
        if seat is None:
            break
        legal = game.legal_actions(seat)
        if seat != game.turn and rng.random() < 0.5:
            table.decline(seat)
        else:
            table.step(seat, rng.choice(legal))
    if game.phase >= ROUND_OVER:
        return
    seat = data.draw(st.integers(0, players - 1))
    obs = game.observe(seat)
    # Another world consistent with what the seat sees: every card hidden from it dealt anew.
    hidden = [c for t in range(players) if t != seat for c in game.hands[t]] + list(game.draw_pile)
    random.Random(seed + 1).shuffle(hidden)
    hands: list[list[int]] = []
    for t in range(players):
        if t == seat:
            hands.append(list(game.hands[t]))
        else:
            hands.append(hidden[:len(game.hands[t])])
            hidden = hidden[len(game.hands[t]):]
    world = Game.from_observation(obs, hands, hidden, seed=seed + 2)
    for out in (None, True, False):
        a = Encoder(edition, players, options).encode(game, seat, out)
        b = Encoder(edition, players, options).encode(world, seat, out)
        differ = [s.name for s in layout(players) if (a[s.start:s.stop] != b[s.start:s.stop]).any()]
        assert not differ, differ
    assert (Encoder(edition, players, options).mask(game, seat) ==
            Encoder(edition, players, options).mask(world, seat)).all()


@SETTINGS
@given(configurations(), st.integers(0, 2**31))
def test_seeded_reset_is_reproducible(config: tuple[str, int, Options, int], action_seed: int) -> None:
    edition, players, options, seed = config

    def run_gym() -> list[Any]:
        env = UnoEnv(edition=edition, players=players, options=options,
                     opponents=["heuristic", "random"][:players - 1], seat="random")
        rng = random.Random(action_seed)
        out: list[Any] = []
        for episode in range(2):
            obs, _ = env.reset(seed=seed if episode == 0 else None)
            out.append((env.seat, obs["observation"].tobytes()))
            done = False
            while not done:
                obs, reward, done, _, _ = env.step(rng.choice(np.flatnonzero(obs["action_mask"])))
                out.append((obs["observation"].tobytes(), obs["action_mask"].tobytes(), reward))
        return out

    def run_pz() -> list[Any]:
        env = pettingzoo_env.env(edition=edition, players=players, options=options)
        env.reset(seed=seed)
        rng = random.Random(action_seed)
        out: list[Any] = []
        for agent in env.agent_iter():
            obs, reward, terminated, truncated, _ = env.last()
            out.append((agent, obs["observation"].tobytes(), reward))
            env.step(None if terminated or truncated else rng.choice(np.flatnonzero(obs["action_mask"])))
        return out

    assert run_gym() == run_gym()
    assert run_pz() == run_pz()


# --------------------------------------------------------------------------- the environments

def _play_until(env: Any, wanted: Any, rng: random.Random, limit: int = 20_000) -> Any:
    for agent, _, obs in agent_turns(env, max_iter=limit):
        if wanted(env, agent, obs):
            return agent, obs
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return None


def test_out_of_turn_decisions_reach_the_agents() -> None:
    # With jump_in, seats holding the top card's twin are asked out of turn; they may jump in
    # or answer nothing now; after a play without the UNO call, the player may call UNO late,
    # and the others may catch it.
    env = pettingzoo_env.raw_env(players=4, options={"jump_in": True})
    rng = random.Random(1)
    kinds: set[str] = set()
    for seed in range(20):
        env.reset(seed=seed)
        for _, seat, obs in agent_turns(env, max_iter=20_000):
            mask = obs["action_mask"]
            if seat == env.game.turn:
                assert mask[NOTHING] == 0
                env.step(int(rng.choice(np.flatnonzero(mask))))
                continue
            assert mask[NOTHING] == 1
            legal = env.game.legal_actions(seat)
            assert legal and all(mask[a] for a in legal)
            kinds.update("uno" if a == 138 else "catch" if 145 <= a < 155 else "jump" for a in legal)
            if rng.random() < 0.5:
                version = env.game.version
                env.step(NOTHING)  # nothing now: the next seat is asked; the game did not change
                assert env.game.version == version
            else:
                env.step(int(rng.choice(np.flatnonzero(mask))))
    assert kinds == {"jump", "uno", "catch"}


def test_gymnasium_learning_seat_is_asked_out_of_turn_and_may_pass() -> None:
    env = UnoEnv(players=2, opponents=["random"], options={"jump_in": True})
    rng = random.Random(2)
    seen = 0
    for seed in range(30):
        obs, info = env.reset(seed=seed)
        done = False
        while not done:
            mask = obs["action_mask"]
            assert (mask == info["action_mask"]).all() and (env.action_masks() == mask.astype(bool)).all()
            if env.game.turn != env.seat:
                seen += 1
                assert mask[NOTHING] == 1 and obs["observation"][env._match.encoder.slices["phase"]][-1] == 1
                obs, reward, done, _, info = env.step(NOTHING)
                continue
            assert mask[NOTHING] == 0
            obs, reward, done, _, info = env.step(int(rng.choice(np.flatnonzero(mask))))
        assert reward in (1.0, -1.0)
        assert info["action_mask"].tolist() == [0] * NOTHING + [1] and "round_winner" in info
    assert seen > 0


def test_gymnasium_opponents_bots_and_policies() -> None:
    calls = []

    def first_legal(obs: dict[str, Any]) -> int:
        calls.append(obs["observation"].shape)
        mask = obs["action_mask"]
        return NOTHING if mask[NOTHING] else int(np.flatnonzero(mask)[0])

    from unokit.bots import HeuristicBot

    env = gymnasium.make(ENV_ID, players=4, opponents=[first_legal, HeuristicBot(seed=1), "strong"],
                         options={"target": 50}, episode="match", reward="score")
    obs, _ = env.reset(seed=4)
    done, total = False, 0.0
    while not done:
        obs, reward, done, _, info = env.step(int(np.flatnonzero(obs["action_mask"])[-1]))
        total += reward
    assert calls and env.unwrapped.game.is_over
    assert info["scores"] == tuple(env.unwrapped.game.scores)
    with pytest.raises(ValueError, match="opponents"):
        UnoEnv(players=2, opponents=["heuristic", "random"])
    with pytest.raises(Exception, match="unknown bot"):
        UnoEnv(players=2, opponents=["nobody"])
    with pytest.raises(ValueError, match="episode"):
        UnoEnv(episode="hand")


def test_illegal_actions() -> None:
    env = UnoEnv(players=2, opponents=["heuristic"])
    obs, _ = env.reset(seed=1)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    obs, reward, terminated, truncated, info = env.step(illegal)
    assert (reward, terminated, truncated, info["illegal_action"]) == (-1.0, True, False, True)
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)
    # PettingZoo: env() ends the episode with -1 for the agent; raw_env raises.
    pz = pettingzoo_env.env(players=3)
    with pytest.raises(AttributeError, match="reset"):
        pz.step(0)
    pz.reset(seed=2)
    agent = pz.agent_selection
    obs, *_ = pz.last()
    pz.step(int(np.flatnonzero(obs["action_mask"] == 0)[0]))
    assert all(pz.terminations.values()) and pz.rewards[agent] == -1.0
    raw = pettingzoo_env.raw_env(players=3)
    raw.reset(seed=2)
    obs = raw.observe(raw.agent_selection)
    with pytest.raises(IllegalActionError):
        raw.step(int(np.flatnonzero(obs["action_mask"] == 0)[0]))


def test_rewards_of_a_round() -> None:
    env = pettingzoo_env.env(players=3, reward="score", options={"target": 200})
    env.reset(seed=8)
    rng = random.Random(8)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        totals[agent] += reward
        env.step(None if terminated or truncated else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    game = env.unwrapped.game
    winner = f"player_{game.round_winner}"
    assert totals[winner] == pytest.approx(game.scores[game.round_winner] / 200)
    assert all(v == 0 for a, v in totals.items() if a != winner)


def test_render_and_spaces() -> None:
    env = UnoEnv(players=2, render_mode="ansi")
    env.reset(seed=0)
    text = env.render()
    assert text is not None and "hand:" in text and "legal:" in text
    assert env.observation_space["observation"].shape == (layout(2)[-1].stop,)
    assert env.action_space.n == N_ENV_ACTIONS
    pz = pettingzoo_env.raw_env(players=2, render_mode="ansi")
    pz.reset(seed=0)
    assert "hand:" in pz.render()
    assert N_CARDS == 56 and unokit.envs.ENV_ID in gymnasium.registry
    # The package's modules, not the libraries they are named after.
    from unokit.envs import gymnasium as gym_module
    from unokit.envs import pettingzoo as pz_module

    assert gym_module.UnoEnv is UnoEnv and pz_module is pettingzoo_env


# --------------------------------------------------------------------------- the match underneath

def test_a_match_builds_its_game_once(monkeypatch: pytest.MonkeyPatch) -> None:
    import unokit.envs.core as envs_core

    built: list[tuple[str, int]] = []

    class Counting:
        @staticmethod
        def new(edition: str, players: int, *args: Any, **kwargs: Any) -> Game:
            built.append((edition, players))
            return Game.new(edition, players, *args, **kwargs)

    monkeypatch.setattr(envs_core, "Game", Counting)
    envs_core.Match("cars2", 3, None, "round", "round")
    assert built == [("cars2", 3)]
    with pytest.raises(ValueError, match="players"):
        envs_core.Match("classic", 11, None, "round", "round")  # still checked when built


def test_reset_goes_on_from_a_position() -> None:
    game = Game.new("classic", 3, Options(jump_in=True), seed=11)
    for _ in range(4):
        seat = Table(game).next_seat()
        assert seat is not None
        game.step(seat, game.legal_actions(seat)[0])
    position = game.to_dict()
    env = pettingzoo_env.raw_env(players=3, options={"jump_in": True})
    env.reset(seed=0, options={"position": position})
    assert env.game.state() == game.state()
    assert env.agent_selection == f"player_{Table(game).next_seat()}"
    gym_env = UnoEnv(players=3, options={"jump_in": True}, opponents=["random"], seat=game.turn)
    gym_env.reset(seed=0, options={"position": position})
    assert gym_env.game.round_no == game.round_no and gym_env.game.hands[game.turn] == game.hands[game.turn]
    with pytest.raises(ValueError, match="other options"):
        env.reset(options={"position": Game.new("classic", 3, seed=1).to_dict()})


def test_an_opponent_answering_nothing_on_its_turn_plays_its_first_legal_action() -> None:
    class Silent:
        name = "silent"

        def act(self, obs: Any) -> int | None:
            return None

    class FirstLegal(Silent):
        def act(self, obs: Any) -> int | None:
            return obs.legal[0] if obs.turn == obs.seat and obs.legal else None

    def play(opponent: Silent) -> Game:
        env = UnoEnv(players=2, opponents=[opponent], seat=0)
        obs, _ = env.reset(seed=3)
        terminated = False
        while not terminated:
            obs, _, terminated, _, info = env.step(int(np.flatnonzero(obs["action_mask"])[-1]))
            assert not info.get("illegal_action")
        game: Game = env.game
        return game

    silent, first = play(Silent()), play(FirstLegal())
    assert silent.awaiting in ("round_over", "game_over")
    assert silent.state() == first.state()

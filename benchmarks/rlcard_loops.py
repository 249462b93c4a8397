"""Reference loops over RLCard 1.2.0's UNO, for side-by-side benchmarks.

Importable only where ``rlcard`` is installed (see ``benchmarks/requirements.txt``).
Each function plays ``games`` complete games with uniformly random legal actions
and returns ``(games_played, total_steps)``; one step is one action taken by a
player (a card played or a ``draw``).

The three functions measure three layers of RLCard:

* :func:`rlcard_env_run` -- the RL API: ``rlcard.make('uno')`` + ``RandomAgent`` +
  ``env.run`` (observation planes, legal-action dicts, trajectories, payoffs).
* :func:`rlcard_game_step` -- the engine with state dicts: ``UnoGame.init_game`` /
  ``get_legal_actions`` / ``step`` (each ``step`` builds a state dict).
* :func:`rlcard_bare_loop` -- the bare rules: what ``UnoGame.init_game`` and
  ``UnoGame.step`` do with the state-dict building stripped out, i.e. the round
  object driven directly through ``get_legal_actions`` and ``proceed_round``.

RLCard notes that matter here:

* One RLCard UNO "game" is a single hand: it ends as soon as one player empties
  their hand. There is no scoring and no play to 500 points.
* ``rlcard.make('uno', config={'game_num_players': 4})`` silently ignores the
  player count (``Env.__init__`` only applies game configs to blackjack and the
  hold'em games), so the env is always two-player. ``UnoGame(num_players=4)``
  works. For ``players != 2`` :func:`rlcard_env_run` therefore sets the count on
  the env's game (and ``env.num_players``) after ``make``; the engine and the
  env code read it from there at every reset.
* ``RandomAgent`` draws from numpy's *global* generator, so
  :func:`rlcard_env_run` reseeds ``numpy.random`` (a process-wide side effect).
"""

from __future__ import annotations

import random

import numpy as np
import rlcard  # type: ignore[import-untyped]
from rlcard.agents import RandomAgent  # type: ignore[import-untyped]
from rlcard.games.uno.dealer import UnoDealer  # type: ignore[import-untyped]
from rlcard.games.uno.game import UnoGame  # type: ignore[import-untyped]
from rlcard.games.uno.player import UnoPlayer  # type: ignore[import-untyped]
from rlcard.games.uno.round import UnoRound  # type: ignore[import-untyped]

__all__ = ["rlcard_bare_loop", "rlcard_env_run", "rlcard_game_step"]


def _check_args(games: int, players: int) -> None:
    if games < 0:
        raise ValueError(f"games must be >= 0, got {games}")
    if players < 2:
        raise ValueError(f"players must be >= 2, got {players}")


def rlcard_env_run(games: int, seed: int, players: int = 2) -> tuple[int, int]:
    """Play ``games`` games through RLCard's RL API (``env.run``).

    The env is seeded with ``seed`` (deck shuffles, wild colours); the
    ``RandomAgent`` choices come from numpy's global generator, which is
    reseeded with ``seed`` too. Steps are counted from the trajectories: each
    player's list is ``[state, action, state, action, ..., final_state]``, so
    it holds ``(len - 1) // 2`` actions.
    """
    _check_args(games, players)
    np.random.seed(seed)
    env = rlcard.make("uno", config={"seed": seed})
    if players != 2:
        # 'game_num_players' is ignored for UNO by Env.__init__; set it directly.
        env.game.num_players = players
        env.num_players = players
    env.set_agents([RandomAgent(num_actions=env.num_actions)] * players)
    steps = 0
    for _ in range(games):
        trajectories, _payoffs = env.run(is_training=False)
        steps += sum((len(t) - 1) // 2 for t in trajectories)
    return games, steps


def rlcard_game_step(games: int, seed: int, players: int = 2) -> tuple[int, int]:
    """Play ``games`` games on ``UnoGame`` (the engine, with state dicts).

    Per game: ``init_game()``, then ``get_legal_actions()`` -> uniform choice
    -> ``step(action)`` until ``is_over()``. The game's numpy generator (deck
    shuffles, wild colours) is seeded with ``seed`` the way ``Env.seed`` does
    it; action choices use ``random.Random(seed)``. Steps = ``step`` calls.
    """
    _check_args(games, players)
    rng = random.Random(seed)
    game = UnoGame(num_players=players)
    game.np_random = np.random.RandomState(seed)
    steps = 0
    for _ in range(games):
        game.init_game()
        while not game.is_over():
            legal: list[str] = game.get_legal_actions()
            game.step(rng.choice(legal))
            steps += 1
    return games, steps


def rlcard_bare_loop(games: int, seed: int, players: int = 2) -> tuple[int, int]:
    """Play ``games`` games on RLCard's bare rules (no state dicts).

    The setup is ``UnoGame.init_game`` minus ``get_state``: a fresh shuffled
    dealer, ``players`` players dealt 7 cards each, a round, the flipped and
    performed top card. Each step is ``UnoGame.step`` minus ``get_state`` (and
    minus the step-back snapshot, off by default): legal actions from
    ``round.get_legal_actions``, uniform choice, ``round.proceed_round``.
    Seeding as in :func:`rlcard_game_step`, and no RNG draw is added or
    dropped, so for the same ``(games, seed, players)`` both play exactly the
    same games and return the same totals. Steps = ``proceed_round`` calls.
    """
    _check_args(games, players)
    rng = random.Random(seed)
    np_random = np.random.RandomState(seed)
    steps = 0
    for _ in range(games):
        dealer = UnoDealer(np_random)
        hands = [UnoPlayer(i, np_random) for i in range(players)]
        for player in hands:
            dealer.deal_cards(player, 7)
        round_ = UnoRound(dealer, players, np_random)
        top_card = round_.flip_top_card()
        round_.perform_top_card(hands, top_card)
        while not round_.is_over:
            legal: list[str] = round_.get_legal_actions(hands, round_.current_player)
            round_.proceed_round(hands, rng.choice(legal))
            steps += 1
    return games, steps

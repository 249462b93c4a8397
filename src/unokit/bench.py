"""How fast the engine simulates: seeded random-play loops, timed.

A *game* here is one round (one hand dealt, played until a player goes out), the unit
RLCard and most RL libraries count; with ``match=True`` it is a whole match to the target.
Play is uniformly random over the legal actions of the seat on turn, which include the
UNO-call variants of a play and the catches of a missed call (draw is always legal, so
random rounds are long: report steps as well as games).

* :func:`engine_loop` -- the rules engine alone: ``legal_actions`` / ``step``.
* :func:`observe_loop` -- as an agent sees it: the acting seat's full
  :class:`~unokit.core.observation.Observation` (with its legal actions) at every step.
* :func:`playable_first_loop` -- the engine loop with RLCard's action space as the policy:
  a random playable card if there is one, else draw (then play the drawn card if it is
  playable, else pass). Its rounds are as short as RLCard's, so games/s compare fairly.
  It is also how real players and the bots play: they rarely draw with a card to play.
* :func:`playable_first_observe_loop` -- the same policy reading each step's observation.
* :func:`playout_loop` and :func:`playable_first_playout_loop` -- the games of
  :func:`engine_loop` and :func:`playable_first_loop`, each round played to its end by the
  engine itself (:func:`unokit.core.playout.playout`): the same games, step for step, without a
  Python loop around the engine. This is how fast the engine simulates random games; the
  first four are how fast it runs under a caller's own Python loop.

:data:`LOOPS` names them ``engine``, ``observe``, ``engine-rlpolicy``, ``observe-rlpolicy``,
``playout`` and ``playout-rlpolicy``; ``fast`` and ``fast-rlpolicy``, the games of
``engine`` and ``engine-rlpolicy`` played by the native core (:func:`unokit.fast.play`: the
rules in C, no Python between steps; where the extension is built); and ``gym`` and
``pettingzoo``, rounds through the RL environments' APIs (:mod:`unokit.envs`, the ``rl`` extra,
imported only when they run).

Every loop deals its games from its one generator by default (``deals="stream"``), as
RLCard's loops deal from their one ``np_random``; ``deals="seeded"`` deals each game from its
own seed instead, what a recorded match or a tournament does (:data:`DEALS`).

:func:`measure` times a loop in this process; :func:`measure_parallel` in several at once,
for a machine's total rate. :func:`engine_build` says whether the engine modules were
compiled with mypyc, and :func:`native_core` whether the native core is built.

>>> engine_loop(3, seed=1, players=2)[0]
3
>>> result = measure("engine", games=2, players=3)
>>> result.games, result.steps > 0
(2, True)
"""

from __future__ import annotations

import importlib
import random
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

from . import fast as _fast
from .core import game as _game_module
from .core.actions import ACTION_KIND, DRAW, K_PLAY
from .core.game import Game
from .core.options import Options
from .core.phases import DRAWN, PLAY, ROUND_OVER
from .core.playout import playout

__all__ = [
    "DEALS",
    "ENGINE_LOOPS",
    "FAST_LOOPS",
    "LOOPS",
    "PROCESS_SEED_STRIDE",
    "RL_LOOPS",
    "BenchResult",
    "engine_build",
    "engine_loop",
    "fast_loop",
    "fast_playable_first_loop",
    "gym_loop",
    "measure",
    "measure_parallel",
    "native_core",
    "observe_loop",
    "pettingzoo_loop",
    "playable_first_loop",
    "playable_first_observe_loop",
    "playable_first_playout_loop",
    "playout_loop",
]

Progress = Callable[[int], None]
"""Called after each game with the number of games finished so far."""


def _game_seed(seed: int, i: int) -> int:
    return seed * 1_000_003 + i


RoundLoop = Callable[[Game, random.Random], int]
"""Plays the current round of a game to its end, choosing with a generator; returns the steps."""


DEALS = ("stream", "seeded")
"""How the loops deal their games: ``"stream"``, every game from the loop's one generator
(the one that makes the choices), as RLCard deals from its one ``np_random``; or
``"seeded"``, each game from its own seed (``Game.new``'s default: two generators seeded
for each game, which a record or a tournament needs, and which costs about a fifth of a
short round)."""


def _check_deals(deals: str) -> None:
    if deals not in DEALS:
        raise ValueError(f"unknown deals {deals!r} (deals: {', '.join(DEALS)})")


def _check_loop(loop: str) -> None:
    if loop not in LOOPS:
        raise ValueError(f"unknown loop {loop!r} (loops: {', '.join(LOOPS)})")


def _play_games(round_loop: RoundLoop, games: int, seed: int, players: int, edition: str,
                options: Options | None, match: bool, progress: Progress | None,
                deals: str) -> tuple[int, int]:
    """The shared frame of the loops: deal each game, play its round(s), count steps."""
    _check_deals(deals)
    rng = random.Random(seed)
    deal_rng = rng if deals == "stream" else None
    opts = options if options is not None else Options()
    steps = 0
    for i in range(games):
        game = Game.new(edition, players, opts, _game_seed(seed, i), deal_rng=deal_rng)
        while True:
            steps += round_loop(game, rng)
            if not match or game.phase != ROUND_OVER:
                break
            game.start_round(events=False)  # a match goes on to its next round
        if progress is not None:
            progress(i + 1)
    return games, steps


def _engine_round(game: Game, rng: random.Random) -> int:
    choice = rng.choice
    steps = 0
    while game.phase < ROUND_OVER:
        seat = game.turn
        game.step(seat, choice(game.legal_actions(seat)))
        steps += 1
    return steps


def _observe_round(game: Game, rng: random.Random) -> int:
    choice = rng.choice
    steps = 0
    while game.phase < ROUND_OVER:
        seat = game.turn
        game.step(seat, choice(game.observe(seat).legal))
        steps += 1
    return steps


def _playable_first_round(game: Game, rng: random.Random, observe: bool = False) -> int:
    choice = rng.choice
    kind = ACTION_KIND
    steps = 0
    while game.phase < ROUND_OVER:
        seat = game.turn
        legal: Sequence[int] = game.observe(seat).legal if observe else game.legal_actions(seat)
        phase = game.phase  # what the observation's `awaiting` says, as a number
        if phase == PLAY:  # the plays come first, then draw
            k = legal.index(DRAW)
            a = choice(legal[:k]) if k else DRAW
        elif phase == DRAWN:  # the drawn card's plays come first, then pass
            k = 0
            while k < len(legal) and kind[legal[k]] == K_PLAY:
                k += 1
            a = choice(legal[:k]) if k else legal[0]
        else:
            a = choice(legal)
        game.step(seat, a)
        steps += 1
    return steps


def _playable_first_observe_round(game: Game, rng: random.Random) -> int:
    return _playable_first_round(game, rng, observe=True)


def _uniform_playout(game: Game, rng: random.Random) -> int:
    return playout(game, rng, "uniform")


def _playable_first_playout(game: Game, rng: random.Random) -> int:
    return playout(game, rng, "playable-first")


def engine_loop(games: int, seed: int = 0, players: int = 2, edition: str = "classic",
                options: Options | None = None, match: bool = False,
                progress: Progress | None = None, deals: str = "stream") -> tuple[int, int]:
    """Play ``games`` seeded games with random legal play; returns ``(games, steps)``.

    One step is one applied action. The choices come from ``random.Random(seed)``. Game
    ``i`` is ``Game.new(edition, players, options, seed * 1_000_003 + i, deal_rng=...)``:
    with ``deals="stream"`` it is dealt from that same generator, with ``"seeded"`` from
    its seed (see :data:`DEALS`).
    """
    return _play_games(_engine_round, games, seed, players, edition, options, match, progress,
                       deals)


def observe_loop(games: int, seed: int = 0, players: int = 2, edition: str = "classic",
                 options: Options | None = None, match: bool = False,
                 progress: Progress | None = None, deals: str = "stream") -> tuple[int, int]:
    """As :func:`engine_loop`, but the acting seat's observation is built at every step
    and the action is chosen from its ``legal`` field (what an agent does)."""
    return _play_games(_observe_round, games, seed, players, edition, options, match, progress,
                       deals)


def playable_first_loop(games: int, seed: int = 0, players: int = 2, edition: str = "classic",
                        options: Options | None = None, match: bool = False,
                        progress: Progress | None = None, deals: str = "stream") -> tuple[int, int]:
    """As :func:`engine_loop`, with RLCard's action space as the random policy.

    At a turn (``play``): uniformly random among the play actions (every matching card, a
    wild once per colour, with their UNO-call variants) when there is one, otherwise
    ``draw``. After drawing: a random play of the drawn card if it is playable, otherwise
    ``pass``. Any other decision (a colour, a draw card to answer, a swap) is uniformly
    random over the legal actions. UNO calls and catches out of turn are never chosen
    (RLCard has none). RLCard offers ``draw`` only when nothing is playable; this policy
    plays the same way, so its rounds take about as many steps as RLCard's.
    """
    return _play_games(_playable_first_round, games, seed, players, edition, options, match,
                       progress, deals)


def playable_first_observe_loop(games: int, seed: int = 0, players: int = 2,
                                edition: str = "classic", options: Options | None = None,
                                match: bool = False, progress: Progress | None = None,
                                deals: str = "stream") -> tuple[int, int]:
    """As :func:`playable_first_loop`, but the acting seat's observation is built at every
    step and the action is chosen from its ``legal`` field. The same seeds play the same
    games as :func:`playable_first_loop` (the observation's legal actions are the engine's).
    """
    return _play_games(_playable_first_observe_round, games, seed, players, edition, options,
                       match, progress, deals)


def playout_loop(games: int, seed: int = 0, players: int = 2, edition: str = "classic",
                 options: Options | None = None, match: bool = False,
                 progress: Progress | None = None, deals: str = "stream") -> tuple[int, int]:
    """:func:`engine_loop`'s games, each round played by the engine's own
    :func:`~unokit.core.playout.playout` (uniform policy): the same games and steps, with no
    interpreted code between the steps in the compiled build."""
    return _play_games(_uniform_playout, games, seed, players, edition, options, match,
                       progress, deals)


def playable_first_playout_loop(games: int, seed: int = 0, players: int = 2,
                                edition: str = "classic", options: Options | None = None,
                                match: bool = False, progress: Progress | None = None,
                                deals: str = "stream") -> tuple[int, int]:
    """:func:`playable_first_loop`'s games, each round played by the engine's own
    :func:`~unokit.core.playout.playout` (``"playable-first"`` policy): the same games and steps."""
    return _play_games(_playable_first_playout, games, seed, players, edition, options, match,
                       progress, deals)


def engine_build() -> str:
    """``"compiled (mypyc)"`` if the engine imported is the mypyc build (what ``pip install .``
    makes where a C compiler works; see ``setup.py``), else ``"pure Python"`` (an editable
    install, or no working compiler).

    >>> engine_build() in ("pure Python", "compiled (mypyc)")
    True
    """
    path = getattr(_game_module, "__file__", None) or ""
    return "pure Python" if path.endswith(".py") else "compiled (mypyc)"


def native_core() -> str:
    """One line naming the native core: ``"native core: built (unokit.fast)"``, or why not.

    >>> native_core().startswith("native core: ")
    True
    """
    if _fast.AVAILABLE:
        return "native core: built (unokit.fast)"
    return f"native core: not built ({_fast.WHY})"


def fast_loop(games: int, seed: int = 0, players: int = 2, edition: str = "classic",
              options: Options | None = None, match: bool = False,
              progress: Progress | None = None, deals: str = "stream") -> tuple[int, int]:
    """:func:`engine_loop`'s games, step for step, played by the native core
    (:func:`unokit.fast.play`, uniform policy) with no Python between steps. A
    ``RuntimeError`` saying why where the extension is not built."""
    return _fast.play(games, seed, players, edition, options, "uniform", match, progress, deals)


def fast_playable_first_loop(games: int, seed: int = 0, players: int = 2, edition: str = "classic",
                             options: Options | None = None, match: bool = False,
                             progress: Progress | None = None, deals: str = "stream") -> tuple[int, int]:
    """:func:`playable_first_loop`'s games, step for step, played by the native core
    (:func:`unokit.fast.play`, ``"playable-first"`` policy)."""
    return _fast.play(games, seed, players, edition, options, "playable-first", match, progress, deals)


def gym_loop(games: int, seed: int = 0, players: int = 2, edition: str = "classic",
             options: Options | None = None, match: bool = False,
             progress: Progress | None = None, deals: str = "stream") -> tuple[int, int]:
    """Rounds through the Gymnasium API (``unokit/Uno-v0``), every seat a uniformly random
    masked policy, the encoding and the mask built at each decision
    (:func:`unokit.envs.loops.gym_loop`; needs the ``rl`` extra, imported only here)."""
    return _rl_loop("gym_loop")(games, seed, players, edition, options, match, progress, deals)


def pettingzoo_loop(games: int, seed: int = 0, players: int = 2, edition: str = "classic",
                    options: Options | None = None, match: bool = False,
                    progress: Progress | None = None, deals: str = "stream") -> tuple[int, int]:
    """Rounds through the PettingZoo AEC API, every agent a uniformly random masked policy
    (:func:`unokit.envs.loops.pettingzoo_loop`; needs the ``rl`` extra, imported only here)."""
    return _rl_loop("pettingzoo_loop")(games, seed, players, edition, options, match, progress,
                                       deals)


def _rl_loop(name: str) -> Callable[..., tuple[int, int]]:
    """A loop of :mod:`unokit.envs.loops`, imported when first run: the core needs neither
    gymnasium nor pettingzoo."""
    try:
        loops = importlib.import_module("unokit.envs.loops")
    except ImportError as exc:
        raise ImportError(f"the gym and pettingzoo loops need the rl extra: pip install '.[rl]' in a "
                          f"clone of unokit ({exc})") from None
    fn: Callable[..., tuple[int, int]] = getattr(loops, name)
    return fn


FAST_LOOPS = ("fast", "fast-rlpolicy")
"""The loops of the native core (:mod:`unokit.fast`), where its extension is built."""
ENGINE_LOOPS = ("engine", "observe", "engine-rlpolicy", "observe-rlpolicy", "playout",
                "playout-rlpolicy", *(FAST_LOOPS if _fast.AVAILABLE else ()))
"""The loops of the engine alone, which need nothing but unokit: what ``unokit bench`` runs by
default (``--loop all``); the native core's where it is built."""
RL_LOOPS = ("gym", "pettingzoo")
"""The loops through the RL environments' APIs (the ``rl`` extra)."""

LOOPS: dict[str, Callable[..., tuple[int, int]]] = {
    "engine": engine_loop,
    "observe": observe_loop,
    "engine-rlpolicy": playable_first_loop,
    "observe-rlpolicy": playable_first_observe_loop,
    "playout": playout_loop,
    "playout-rlpolicy": playable_first_playout_loop,
    "fast": fast_loop,
    "fast-rlpolicy": fast_playable_first_loop,
    "gym": gym_loop,
    "pettingzoo": pettingzoo_loop,
}
"""The loops by name: uniformly random play, and the RLCard-equivalent (playable-first) policy;
driven from Python (``engine``, ``observe``) or by the engine's own playout (``playout``); and
uniformly random masked play through the Gymnasium and PettingZoo environments (``gym``,
``pettingzoo``: :data:`RL_LOOPS`, which need the ``rl`` extra)."""


@dataclass(frozen=True, slots=True)
class BenchResult:
    """The outcome of one timed run."""

    loop: str
    games: int
    steps: int
    seconds: float

    @property
    def games_per_s(self) -> float:
        """Games (rounds, or matches) per second."""
        return self.games / self.seconds if self.seconds > 0 else 0.0

    @property
    def steps_per_s(self) -> float:
        """Applied actions per second."""
        return self.steps / self.seconds if self.seconds > 0 else 0.0

    @property
    def steps_per_game(self) -> float:
        """Mean actions per game."""
        return self.steps / self.games if self.games else 0.0


def measure(loop: str = "engine", games: int | None = None, seconds: float | None = None,
            seed: int = 0, players: int = 2, edition: str = "classic",
            options: Options | None = None, match: bool = False,
            progress: Progress | None = None, deals: str = "stream") -> BenchResult:
    """Time ``loop`` for ``games`` games, or for about ``seconds`` seconds (in batches).

    With neither, it plays 100 games. ``deals`` is how the games are dealt (:data:`DEALS`).
    """
    _check_loop(loop)
    fn = LOOPS[loop]
    if games is not None and seconds is not None:
        raise ValueError("give games or seconds, not both")
    if games is not None or seconds is None:
        total = 100 if games is None else games
        start = time.perf_counter()
        played, steps = fn(total, seed, players, edition, options, match, progress, deals)
        return BenchResult(loop, played, steps, time.perf_counter() - start)
    # Time-boxed: batches of growing size, each with its own seed, until the time is up.
    played = steps = 0
    batch = 1
    start = time.perf_counter()
    elapsed = 0.0
    while elapsed < seconds:
        base = played

        def batch_progress(done: int, base: int = base) -> None:
            if progress is not None:
                progress(base + done)

        g, s = fn(batch, seed + played, players, edition, options, match, batch_progress, deals)
        played += g
        steps += s
        elapsed = time.perf_counter() - start
        per_game = elapsed / played
        batch = max(1, min(played, int((seconds - elapsed) / per_game) // 2 or 1))
    return BenchResult(loop, played, steps, elapsed)


PROCESS_SEED_STRIDE = 1 << 32
"""Process ``k`` of :func:`measure_parallel` plays from seed ``seed + k * PROCESS_SEED_STRIDE``,
so no two processes play the same games."""


def _measure_in_process(loop: str, games: int | None, seconds: float | None, seed: int,
                        players: int, edition: str, options: Options | None,
                        match: bool, deals: str) -> tuple[BenchResult, float, float]:
    """One process's share of :func:`measure_parallel`: its result, and when it began and
    ended by the system clock (comparable across processes, unlike ``perf_counter``)."""
    began = time.time()
    result = measure(loop, games=games, seconds=seconds, seed=seed, players=players,
                     edition=edition, options=options, match=match, deals=deals)
    return result, began, time.time()


def measure_parallel(loop: str = "engine", jobs: int = 2, games: int | None = None,
                     seconds: float | None = None, seed: int = 0, players: int = 2,
                     edition: str = "classic", options: Options | None = None,
                     match: bool = False, deals: str = "stream") -> BenchResult:
    """Time ``loop`` in ``jobs`` processes at once: the machine's total rate, to size a
    simulation that uses every core.

    ``games`` are shared out as evenly as possible (process ``k`` plays from seed
    ``seed + k * PROCESS_SEED_STRIDE``; process 0 plays what :func:`measure` would), or each
    process runs for about ``seconds``. The result sums the games and steps of all
    processes over the wall-clock time from the first one's start to the last one's end
    (starting the processes is not counted). ``jobs=1`` is :func:`measure`.
    """
    if jobs < 1:
        raise ValueError(f"jobs must be at least 1, got {jobs}")
    if games is not None and seconds is not None:
        raise ValueError("give games or seconds, not both")
    _check_loop(loop)
    _check_deals(deals)  # before any process starts
    if jobs == 1:
        return measure(loop, games=games, seconds=seconds, seed=seed, players=players,
                       edition=edition, options=options, match=match, deals=deals)
    if games is None and seconds is None:
        games = 100
    shares: list[int | None] = [None] * jobs
    if games is not None:
        shares = [n for n in (games // jobs + (k < games % jobs) for k in range(jobs)) if n > 0]
    with ProcessPoolExecutor(max_workers=len(shares)) as pool:
        futures = [pool.submit(_measure_in_process, loop, share, seconds,
                               seed + k * PROCESS_SEED_STRIDE, players, edition, options, match,
                               deals)
                   for k, share in enumerate(shares)]
        parts = [f.result() for f in futures]
    span = max(end for _, _, end in parts) - min(began for _, began, _ in parts)
    return BenchResult(loop, sum(r.games for r, _, _ in parts), sum(r.steps for r, _, _ in parts),
                       span)

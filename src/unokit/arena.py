"""The arena: many seeded matches between bots, with seats rotated, and their statistics.

A *game* is a full match (``Game.new`` then ``play_match``). The lineup gives one bot per
seat; when it names fewer bots than there are players, its last bot fills the remaining
seats (``strong,heuristic`` with 4 players is one ``strong`` against three ``heuristic``).

Base seeds of :data:`HELD_OUT` (10^6) and above are *held-out*: kept for reported figures,
never for tuning a bot (``docs/strength.md``); the summary says which kind a series is.

Seats are rotated so that no bot has a seat advantage: the games come in blocks of
``players`` games that share one seed (the same dealer and the same shuffled decks), game
``i`` seating lineup entry ``(s + i) % players`` at seat ``s``. Every game is reproducible
from ``(seed, i)`` alone: see :func:`game_seed` and :func:`play_game`.

>>> cfg = ArenaConfig(bots=("heuristic", "random"), games=4, players=2,
...                   options=Options(target=100), seed=1)
>>> results = run_arena(cfg)
>>> summary = summarize(cfg, results)
>>> summary["games"], sorted(summary["bots"])
(4, ['heuristic', 'random'])
"""

from __future__ import annotations

import importlib
import json
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Final

from .bots.base import Bot
from .bots.driver import play_match
from .bots.registry import BOTS, make_bot
from .core.errors import OptionError, UnoError
from .core.game import Game
from .core.options import Options
from .stats import anchored, bradley_terry_elo, mean_and_interval, wilson_interval

HELD_OUT: Final = 1_000_000
"""Base seeds from here up are held-out: reported figures only, each in one series
(``docs/strength.md``); bots are developed on seeds below it."""


def held_out(seed: int) -> bool:
    """Whether base seed ``seed`` is a held-out one (:data:`HELD_OUT` and above).

    >>> held_out(1_000_000), held_out(999_999)
    (True, False)
    """
    return seed >= HELD_OUT


@dataclass(frozen=True)
class ArenaConfig:
    """What the arena plays: the bot lineup, the number of games, the edition, the players,
    the options, the base seed, and keyword options per bot name (``{"strong": {"iterations": 8}}``)."""

    bots: tuple[str, ...]
    games: int
    edition: str = "classic"
    players: int = 2
    options: Options = field(default_factory=Options)
    seed: int = 0
    bot_options: tuple[tuple[str, tuple[tuple[str, Any], ...]], ...] = ()

    def lineup(self) -> list[str]:
        """One bot name per seat (the last named bot fills the remaining seats)."""
        if not self.bots:
            raise OptionError("the arena needs at least one bot")
        if len(self.bots) > self.players:
            raise OptionError(f"{len(self.bots)} bots do not fit {self.players} seats")
        names = list(self.bots)
        names += [names[-1]] * (self.players - len(names))
        for n in names:
            if n not in BOTS:
                raise OptionError(f"unknown bot {n!r} (bots: {', '.join(sorted(BOTS))})")
        return names

    def kwargs_for(self, name: str) -> dict[str, Any]:
        """The keyword options given for bot ``name``."""
        for n, items in self.bot_options:
            if n == name:
                return dict(items)
        return {}


@dataclass
class GameResult:
    """One arena game: who sat where, who won, and what happened.

    ``credit[s]`` is seat ``s``'s share of the win (1 for a sole winner, ``1/k`` for ``k``
    teams or seats sharing it, 0 for a loss); ``round_points[r][s]`` is what seat ``s``'s
    total (its team's, with partners) gained in round ``r``. ``bot_stats[s]`` is what seat
    ``s``'s bot counted of its own work (a searching bot's ``search_stats()``: decisions
    searched, how often its time cap bound, seconds spent), empty for other bots.
    """

    index: int
    seed: int
    seats: list[str]
    winners: list[int]
    credit: list[float]
    rounds: int
    actions: int
    first_player: int
    round_points: list[list[float]]
    bot_stats: list[dict[str, float]] = field(default_factory=list)


def game_seed(seed: int, index: int, players: int) -> int:
    """The match seed of arena game ``index`` (shared by a block of ``players`` games)."""
    return seed * 1_000_003 + index // players


def seating(lineup: Sequence[str], index: int) -> list[str]:
    """The bot at each seat in game ``index``: the lineup rotated by ``index``.

    >>> seating(["a", "b", "c"], 1)
    ['b', 'c', 'a']
    """
    n = len(lineup)
    return [lineup[(s + index) % n] for s in range(n)]


def build_bot(config: ArenaConfig, name: str, seed: int) -> Bot:
    """Bot ``name`` for a game of ``config`` (the match options reach it in its observations)."""
    return make_bot(name, seed=seed, **config.kwargs_for(name))


def play_game(config: ArenaConfig, index: int) -> tuple[GameResult, Game]:
    """Play arena game ``index`` of ``config``; the same arguments always give the same game."""
    lineup = config.lineup()
    seats = seating(lineup, index)
    seed = game_seed(config.seed, index, config.players)
    game = Game.new(config.edition, config.players, config.options, seed=seed)
    bots = [build_bot(config, name, seed * 16 + s) for s, name in enumerate(seats)]
    first = game.turn
    round_points: list[list[float]] = []
    before = [list(game.scores)]

    def on_round_end(g: Game) -> None:
        prev = before[0]
        gained = [float(g.scores[g.team_of(s)] - prev[g.team_of(s)]) for s in range(g.n)]
        round_points.append(gained)
        before[0] = list(g.scores)

    count = [0]

    def on_action(g: Game, seat: int, action: int) -> None:
        count[0] += 1

    play_match(game, bots, on_action=on_action, on_round_end=on_round_end)
    win_seats = [s for s in range(game.n) if game.team_of(s) in game.winners]
    share = 1.0 / len(game.winners) if game.winners else 0.0
    credit = [share if s in win_seats else 0.0 for s in range(game.n)]
    result = GameResult(index, seed, seats, win_seats, credit, len(round_points), count[0], first,
                        round_points, [bot_stats(b) for b in bots])
    return result, game


def bot_stats(bot: Bot) -> dict[str, float]:
    """What ``bot`` counted of its work (its ``search_stats()``, if it has one), else ``{}``."""
    stats = getattr(bot, "search_stats", None)
    return dict(stats()) if callable(stats) else {}


def _play_chunk(config: ArenaConfig, indices: Sequence[int],
                record_dir: str | None = None) -> list[GameResult]:
    out: list[GameResult] = []
    for i in indices:
        result, game = play_game(config, i)
        if record_dir is not None:
            from .core.record import write_record

            write_record(game, Path(record_dir) / f"game-{i:06d}.json")
        out.append(result)
    return out


def _chunks(indices: Sequence[int], workers: int) -> list[list[int]]:
    """Split the games for ``workers`` processes, largest chunks first (guided scheduling).

    Each chunk is an eighth of a worker's share of what is left, at most 50 games and at
    least one: few chunks to send while there is much to do, and small ones at the end, so
    that the workers finish together instead of one playing a last big chunk alone.
    """
    out: list[list[int]] = []
    i, n = 0, len(indices)
    while i < n:
        size = max(1, min(50, (n - i) // (max(workers, 1) * 8)))
        out.append(list(indices[i:i + size]))
        i += size
    return out


def run_arena(config: ArenaConfig, jobs: int = 1, progress: Callable[[int], None] | None = None,
              backend: str = "process", record_dir: str | Path | None = None,
              indices: Iterable[int] | None = None) -> list[GameResult]:
    """Play the arena's games (all of them, or just ``indices``) and return their results,
    sorted by index.

    ``jobs`` processes share the work (``backend="process"``), or a Ray cluster does
    (``backend="ray"``, needs the ``ray`` extra). ``progress`` is called with the number of
    games just finished. ``record_dir`` saves each game's record there.
    """
    config.lineup()
    todo = list(range(config.games)) if indices is None else list(indices)
    rec = str(record_dir) if record_dir is not None else None
    if rec is not None:
        Path(rec).mkdir(parents=True, exist_ok=True)
    results: list[GameResult] = []
    if backend == "ray":
        results = _run_ray(config, todo, jobs, progress, rec)
    elif backend != "process":
        raise OptionError(f"unknown backend {backend!r} (use process or ray)")
    elif jobs <= 1 or len(todo) <= 1:
        for i in todo:
            results.extend(_play_chunk(config, [i], rec))
            if progress is not None:
                progress(1)
    else:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            futures = [pool.submit(_play_chunk, config, chunk, rec) for chunk in _chunks(todo, jobs)]
            for fut in as_completed(futures):
                done = fut.result()
                results.extend(done)
                if progress is not None:
                    progress(len(done))
    results.sort(key=lambda r: r.index)
    return results


def _run_ray(config: ArenaConfig, todo: list[int], jobs: int,
             progress: Callable[[int], None] | None, rec: str | None) -> list[GameResult]:
    try:
        # Typed as Any: Ray's own stubs, when installed, do not describe remote functions with
        # default arguments, and mypy must pass with or without the optional extra.
        ray: Any = importlib.import_module("ray")
    except ImportError:
        raise UnoError("--backend ray needs Ray: pip install '.[ray]' in a clone of unokit") from None
    if not ray.is_initialized():
        ray.init(ignore_reinit_error=True, log_to_driver=False)
    remote = ray.remote(_play_chunk)
    pending = [remote.remote(config, chunk, rec) for chunk in _chunks(todo, jobs)]
    results: list[GameResult] = []
    while pending:
        ready, pending = ray.wait(pending, num_returns=1)
        for ref in ready:
            done: list[GameResult] = ray.get(ref)
            results.extend(done)
            if progress is not None:
                progress(len(done))
    return results


def summarize(config: ArenaConfig, results: Sequence[GameResult],
              elo_anchor: tuple[str, float] | None = None) -> dict[str, Any]:
    """The arena's statistics as a JSON-ready dict.

    Per bot name: games played (seat entries), wins (shared wins count as fractions), win
    rate with its 95% Wilson interval, points per round (mean and 95% half-width) and the
    Bradley-Terry Elo rating (:func:`~unokit.stats.bradley_terry_elo`; averaging 1500, or
    with ``elo_anchor=(name, rating)`` shifted so that that bot has that rating) fitted on the
    pairwise results of every game (a winner beats each loser of another bot; two seats
    that both won or both lost draw). Also: the first player's win rate (the seat that
    took the first turn of the match) against the fair share ``1 / players``, the win
    rate by seat, and the distribution of rounds and actions per game; for a bot that counts
    its work (``search_stats()``), ``search``: its searched decisions, their mean time and how
    often the time cap bound (:func:`search_summary`). The config says whether the base seed
    is a held-out one (:func:`held_out`).
    """
    lineup = config.lineup()
    names = sorted(set(lineup))
    entries = {n: 0 for n in names}
    wins = {n: 0.0 for n in names}
    points: dict[str, list[float]] = {n: [] for n in names}
    seat_wins = [0.0] * config.players
    first_wins = 0.0
    rounds_hist: dict[int, int] = {}
    actions: list[float] = []
    for r in results:
        for s, name in enumerate(r.seats):
            entries[name] += 1
            wins[name] += r.credit[s]
            seat_wins[s] += r.credit[s]
            for rp in r.round_points:
                points[name].append(rp[s])
        first_wins += 1.0 if r.credit[r.first_player] > 0 else 0.0
        rounds_hist[r.rounds] = rounds_hist.get(r.rounds, 0) + 1
        actions.append(float(r.actions))
    pairwise = _pairwise(results)
    elo = bradley_terry_elo(pairwise) if pairwise else {n: 1500.0 for n in names}
    if elo_anchor is not None:
        elo = anchored(elo, *elo_anchor)
    work = _work(results)
    bots = {n: _bot_row(entries[n], wins[n], points[n], elo.get(n, 1500.0), work.get(n)) for n in names}
    n_games = len(results)
    flo, fhi = wilson_interval(first_wins, n_games)
    return {
        "config": {
            "bots": list(config.bots), "lineup": lineup, "games": config.games,
            "edition": config.edition, "players": config.players,
            "options": config.options.changed(), "seed": config.seed,
            "bot_options": {n: dict(items) for n, items in config.bot_options},
            "held_out": held_out(config.seed),
        },
        "games": n_games,
        "bots": bots,
        "pairwise_wins": {f"{a}>{b}": v for (a, b), v in sorted(pairwise.items())},
        "first_player": {"win_rate": first_wins / n_games if n_games else 0.0, "ci95": [flo, fhi],
                         "fair_share": 1.0 / config.players},
        "seat_win_rate": [w / n_games if n_games else 0.0 for w in seat_wins],
        "rounds_per_game": {str(k): v for k, v in sorted(rounds_hist.items())},
        "actions_per_game_mean": mean_and_interval(actions)[0],
    }


def _bot_row(entries: int, wins: float, points: list[float], elo: float,
             work: dict[str, float] | None) -> dict[str, Any]:
    """One bot's line of the summary."""
    lo, hi = wilson_interval(wins, entries)
    m, half = mean_and_interval(points)
    row: dict[str, Any] = {"entries": entries, "wins": wins, "win_rate": wins / entries if entries else 0.0,
                           "ci95": [lo, hi], "points_per_round": m, "points_per_round_ci95": half,
                           "rounds": len(points), "elo": elo}
    if work is not None:
        row["search"] = search_summary(work)
    return row


def _pairwise(results: Sequence[GameResult]) -> dict[tuple[str, str], float]:
    """``(a, b) -> wins of a over b``, over every pair of seats of different bots in every game:
    a winner beats each loser; two seats that both won or both lost draw (a half each)."""
    pairwise: dict[tuple[str, str], float] = {}
    for r in results:
        for s, a in enumerate(r.seats):
            for t, b in enumerate(r.seats):
                if t <= s or a == b:
                    continue
                ws, wt = r.credit[s] > 0, r.credit[t] > 0
                if ws == wt:
                    pairwise[(a, b)] = pairwise.get((a, b), 0.0) + 0.5
                    pairwise[(b, a)] = pairwise.get((b, a), 0.0) + 0.5
                elif ws:
                    pairwise[(a, b)] = pairwise.get((a, b), 0.0) + 1.0
                else:
                    pairwise[(b, a)] = pairwise.get((b, a), 0.0) + 1.0
    return pairwise


def _work(results: Sequence[GameResult]) -> dict[str, dict[str, float]]:
    """The work counted by each bot that counts it (``search_stats()``), summed over its seats."""
    work: dict[str, dict[str, float]] = {}
    for r in results:
        for s, stats in enumerate(r.bot_stats):
            if stats:
                into = work.setdefault(r.seats[s], {})
                for key, value in stats.items():
                    into[key] = into.get(key, 0.0) + value
    return work


def search_summary(work: dict[str, float]) -> dict[str, float]:
    """A searching bot's counts over a series (summed ``search_stats()``), with the mean time
    per searched decision (``mean_ms``) and the share of them on which the time cap bound
    (``capped_rate``: the search stopped before its budget of rollouts)."""
    searched = work.get("searched", 0.0)
    out = dict(work)
    out["mean_ms"] = 1000.0 * work.get("seconds", 0.0) / searched if searched else 0.0
    out["capped_rate"] = work.get("capped", 0.0) / searched if searched else 0.0
    return out


def format_summary(summary: dict[str, Any]) -> str:
    """A plain-text table of :func:`summarize`'s figures."""
    seed = summary["config"]["seed"]
    kind = "held-out" if held_out(seed) else f"development: held-out seeds are {HELD_OUT:,} and above"
    lines = [f"{summary['games']} games, {summary['config']['players']} players, "
             f"edition {summary['config']['edition']}, options {summary['config']['options'] or 'default'}, "
             f"seed {seed} ({kind})"]
    lines.append(f"{'bot':<12}{'seats':>7}{'win rate':>10}{'95% CI':>18}{'pts/round':>12}{'Elo':>8}")
    order = sorted(summary["bots"].items(), key=lambda kv: -kv[1]["elo"])
    for name, b in order:
        lo, hi = b["ci95"]
        lines.append(f"{name:<12}{b['entries']:>7}{100 * b['win_rate']:>9.1f}%"
                     f"{f'[{100 * lo:.1f}%, {100 * hi:.1f}%]':>18}"
                     f"{b['points_per_round']:>12.1f}{b['elo']:>8.0f}")
    fp = summary["first_player"]
    lines.append(f"first player wins {100 * fp['win_rate']:.1f}% "
                 f"[{100 * fp['ci95'][0]:.1f}%, {100 * fp['ci95'][1]:.1f}%] (fair share "
                 f"{100 * fp['fair_share']:.1f}%); "
                 f"mean {summary['actions_per_game_mean']:.0f} actions per game")
    for name, b in order:
        w = b.get("search")
        if w:
            lines.append(f"{name}: {w['searched']:,.0f} searched decisions, {w['mean_ms']:.1f} ms each on "
                         f"average; the time cap bound on {w['capped']:,.0f} "
                         f"({100 * w['capped_rate']:.2f}%)")
    return "\n".join(lines)


def write_report(summary: dict[str, Any], results: Sequence[GameResult],
                 directory: str | Path) -> list[Path]:
    """Write ``results.json`` (the summary and every game's result) and, when matplotlib is
    installed (the ``arena`` extra), PNG plots: win rate by bot with 95% error bars, the
    distribution of game length, and the first-player advantage. Returns the files written."""
    out = Path(directory)
    out.mkdir(parents=True, exist_ok=True)
    data = {"summary": summary, "results": [asdict(r) for r in results]}
    path = out / "results.json"
    path.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    written = [path]
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return written
    names = sorted(summary["bots"], key=lambda n: -summary["bots"][n]["win_rate"])
    rates = [summary["bots"][n]["win_rate"] for n in names]
    lows = [max(0.0, r - summary["bots"][n]["ci95"][0]) for n, r in zip(names, rates, strict=True)]
    highs = [max(0.0, summary["bots"][n]["ci95"][1] - r) for n, r in zip(names, rates, strict=True)]
    fig, ax = plt.subplots(figsize=(5, 3.5))
    ax.bar(names, rates, yerr=[lows, highs], capsize=6, color="#4477aa")
    ax.axhline(1.0 / summary["config"]["players"], color="grey", linestyle="--", label="fair share")
    ax.set_ylabel("win rate (95% Wilson CI)")
    ax.set_ylim(0, 1)
    ax.legend()
    ax.set_title(f"{summary['games']} games, {summary['config']['players']} players")
    fig.tight_layout()
    fig.savefig(out / "win_rate.png", dpi=110)
    plt.close(fig)
    written.append(out / "win_rate.png")
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(9, 3.5))
    hist = summary["rounds_per_game"]
    ax1.bar([int(k) for k in hist], list(hist.values()), color="#66aa55")
    ax1.set_xlabel("rounds per game")
    ax1.set_ylabel("games")
    ax2.hist([r.actions for r in results], bins=40, color="#66aa55")
    ax2.set_xlabel("actions per game")
    fig.tight_layout()
    fig.savefig(out / "game_length.png", dpi=110)
    plt.close(fig)
    written.append(out / "game_length.png")
    fig, ax = plt.subplots(figsize=(5, 3.5))
    seats = summary["seat_win_rate"]
    fp = summary["first_player"]
    labels = [*(f"seat {s}" for s in range(len(seats))), "first player"]
    ax.bar(labels, [*seats, fp["win_rate"]],
           yerr=[[0.0] * len(seats) + [max(0.0, fp["win_rate"] - fp["ci95"][0])],
                 [0.0] * len(seats) + [max(0.0, fp["ci95"][1] - fp["win_rate"])]],
           capsize=6, color=["#aaaaaa"] * len(seats) + ["#cc6677"])
    ax.axhline(fp["fair_share"], color="grey", linestyle="--")
    ax.set_ylabel("win rate")
    ax.set_title("first-player advantage")
    fig.tight_layout()
    fig.savefig(out / "first_player.png", dpi=110)
    plt.close(fig)
    written.append(out / "first_player.png")
    return written

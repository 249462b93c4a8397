"""Partner-rotation tournaments (M3 in docs/rules.md).

Every player partners every other player for 4 hands. The schedule is built from a
round-robin of partnerships (the circle method: ``players - 1`` rounds in which everyone
has one partner), played 4 times; in each hand the pairs of a round sit at tables of two
partnerships (partners across the table), so a player is never at two tables at once.
4 players: 12 hands at 1 table; 8 players: 28 hands at 2 tables at once.

Each hand is one round of a 4-seat ``mode: partners`` game; the points the winning
partnership scores count for both its players. Standings total each player's points over
all partnerships; the highest total wins, and players tied for it share the win (settled as
E3 settles a tie for the lowest total: ``docs/rules.md``).

>>> sched = schedule(4)
>>> len(sched), sched[0]
(12, [((0, 3), (1, 2))])
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from itertools import combinations

from .bots.base import Bot
from .bots.driver import play_round
from .bots.registry import make_bot
from .core.errors import OptionError
from .core.game import Game
from .core.options import Options

HANDS_PER_PAIR = 4
"""How many hands each pair of players are partners (M3)."""

Pair = tuple[int, int]
Table = tuple[Pair, Pair]


def one_factorization(players: int) -> list[list[Pair]]:
    """``players - 1`` rounds, each pairing every player with one partner, so that every pair
    meets exactly once (the circle method). ``players`` must be even.

    >>> one_factorization(4)
    [[(0, 3), (1, 2)], [(1, 3), (0, 2)], [(2, 3), (0, 1)]]
    """
    if players < 2 or players % 2:
        raise OptionError(f"a round of partnerships needs an even number of players, not {players}")
    fixed = players - 1
    rounds: list[list[Pair]] = []
    for r in range(fixed):
        pairs: list[Pair] = [(r, fixed)]
        for k in range(1, players // 2):
            a, b = (r + k) % fixed, (r - k) % fixed
            pairs.append((min(a, b), max(a, b)))
        rounds.append(pairs)
    return rounds


def schedule(players: int, hands_per_pair: int = HANDS_PER_PAIR) -> list[list[Table]]:
    """The M3 schedule: a list of hands, each a list of tables played at once, each table two
    partnerships. ``players`` must be a multiple of 4.

    The round-robin of partnerships is repeated ``hands_per_pair`` times; in repetition
    ``k`` the pairs of a round are grouped into tables in a rotated order, so that the
    opponents vary as well.
    """
    if players < 4 or players % 4:
        raise OptionError(f"partner rotation needs 4, 8, 12 … players, not {players}")
    rounds = one_factorization(players)
    out: list[list[Table]] = []
    for k in range(hands_per_pair):
        for pairs in rounds:
            p = list(pairs)
            if len(p) > 2:
                first, rest = p[0], p[1:]
                shift = k % len(rest)
                p = [first, *rest[shift:], *rest[:shift]]
            out.append([(p[i], p[i + 1]) for i in range(0, len(p), 2)])
    return out


def check_schedule(sched: Sequence[Sequence[Table]], players: int,
                   hands_per_pair: int = HANDS_PER_PAIR) -> None:
    """Raise :class:`~unokit.core.errors.OptionError` unless every pair partners exactly
    ``hands_per_pair`` hands and no player sits at two tables of one hand."""
    count = {pair: 0 for pair in combinations(range(players), 2)}
    for h, tables in enumerate(sched):
        seated: set[int] = set()
        for table in tables:
            for a, b in table:
                for p in (a, b):
                    if p in seated:
                        raise OptionError(f"hand {h}: player {p} sits at two tables")
                    seated.add(p)
                count[(min(a, b), max(a, b))] += 1
    bad = {pair: n for pair, n in count.items() if n != hands_per_pair}
    if bad:
        raise OptionError(f"pairs not partnered {hands_per_pair} times: {bad}")


def format_schedule(sched: Sequence[Sequence[Table]], names: Sequence[str] | None = None) -> str:
    """The schedule as text: one line per hand, tables separated by ``|``."""
    def who(p: int) -> str:
        return names[p] if names is not None else f"P{p + 1}"

    lines = []
    for h, tables in enumerate(sched):
        parts = [f"{who(a)}+{who(b)} vs {who(c)}+{who(d)}" for (a, b), (c, d) in tables]
        lines.append(f"hand {h + 1:>2}: " + "  |  ".join(parts))
    return "\n".join(lines)


@dataclass
class Standings:
    """Each player's total, and the points they scored with each partner."""

    names: list[str]
    totals: list[float]
    by_partner: list[dict[int, float]] = field(default_factory=list)
    hands_played: int = 0

    def ranking(self) -> list[int]:
        """Players from the highest total to the lowest (equal totals in player order)."""
        return sorted(range(len(self.names)), key=lambda p: (-self.totals[p], p))

    def rank(self, player: int) -> int:
        """``player``'s place: 1 + the number of players with a higher total, so players with
        equal totals share a place (1, 1, 3, …)."""
        return 1 + sum(t > self.totals[player] for t in self.totals)

    def winners(self) -> list[int]:
        """The players with the highest total (M3), in player order: more than one when they
        tie, and they share the win. Empty when there are no players.

        >>> Standings(["Ann", "Bo", "Cy"], [120.0, 80.0, 120.0]).winners()
        [0, 2]
        """
        return [p for p in range(len(self.names)) if self.rank(p) == 1]

    def format(self) -> str:
        """The standings as a text table, then the winner (or the winners sharing the win)."""
        lines = [f"{'#':>3}  {'player':<22}{'points':>8}  best partnership"]
        for p in self.ranking():
            best = max(self.by_partner[p].items(), key=lambda kv: (kv[1], -kv[0]), default=None)
            with_ = f"{self.names[best[0]]} ({best[1]:.0f})" if best else "-"
            lines.append(f"{self.rank(p):>3}  {self.names[p]:<22}{self.totals[p]:>8.0f}  {with_}")
        won = self.winners()
        if len(won) == 1:
            lines.append(f"winner: {self.names[won[0]]}")
        elif won:
            lines.append(f"winners, tied on {self.totals[won[0]]:.0f}: "
                         + ", ".join(self.names[p] for p in won))
        return "\n".join(lines)


def play_tournament(bots: Sequence[str], edition: str = "classic", options: Options | None = None,
                    seed: int = 0, names: Sequence[str] | None = None,
                    on_hand: Callable[[int, Table, list[float]], None] | None = None) -> Standings:
    """Play the M3 schedule for ``len(bots)`` players (bot names, any mix).

    Each table hand is one round of a 4-seat partners game seeded by ``(seed, hand, table)``:
    partnership ``(a, b)`` at seats 0 and 2, ``(c, d)`` at seats 1 and 3. ``on_hand`` is
    called with the hand number, the table and the points of the two partnerships.
    """
    players = len(bots)
    sched = schedule(players)
    opts = options if options is not None else Options()
    opts = Options.from_mapping({**opts.as_dict(), "mode": "partners"})
    labels = list(names) if names is not None else [f"P{p + 1} ({b})" for p, b in enumerate(bots)]
    standings = Standings(labels, [0.0] * players, [{} for _ in range(players)])
    for h, tables in enumerate(sched):
        for t, table in enumerate(tables):
            (a, b), (c, d) = table
            seat_players = [a, c, b, d]
            game_seed = (seed * 1_000 + h) * 16 + t
            game = Game.new(edition, 4, opts, seed=game_seed)
            seat_bots: list[Bot] = [make_bot(bots[p], seed=game_seed * 8 + s)
                                    for s, p in enumerate(seat_players)]
            play_round(game, seat_bots)
            team_points = [float(game.scores[0]), float(game.scores[1])]
            for team, (x, y) in enumerate(((a, b), (c, d))):
                pts = team_points[team]
                for p, q in ((x, y), (y, x)):
                    standings.totals[p] += pts
                    standings.by_partner[p][q] = standings.by_partner[p].get(q, 0.0) + pts
            if on_hand is not None:
                on_hand(h, table, team_points)
        standings.hands_played += 1
    return standings

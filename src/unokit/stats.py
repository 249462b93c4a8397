"""Statistics for the arena: confidence intervals and Elo ratings.

- :func:`wilson_interval`: the Wilson score interval of a win rate (95% by default).
- :func:`elo_expected` and :func:`elo_update`: the classic Elo formulas (sequential updates).
- :func:`bradley_terry_elo`: ratings by maximum likelihood over all pairwise results
  (the Bradley-Terry model, whose win probability is the Elo curve), independent of the
  order of the games. This is what the arena reports as "Elo"; :func:`anchored` shifts a
  scale so that one bot has a given rating (``random`` = 1000 for players).

>>> lo, hi = wilson_interval(60, 100)
>>> round(lo, 4), round(hi, 4)
(0.502, 0.6906)
>>> round(elo_expected(1600, 1400), 4)
0.7597
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

Z95 = 1.959963984540054
"""The two-sided 95% quantile of the standard normal distribution."""


def wilson_interval(wins: float, n: float, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for ``wins`` successes out of ``n`` trials.

    ``wins`` may be fractional (a shared win counts as a fraction). With ``n == 0`` the
    interval is ``(0.0, 1.0)``.

    >>> wilson_interval(0, 10)[0]
    0.0
    """
    if n <= 0:
        return (0.0, 1.0)
    p = wins / n
    z2 = z * z
    denom = 1.0 + z2 / n
    centre = (p + z2 / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def elo_expected(rating_a: float, rating_b: float) -> float:
    """The expected score of A against B under Elo: ``1 / (1 + 10 ** ((Rb - Ra) / 400))``."""
    return 1.0 / (1.0 + math.pow(10.0, (rating_b - rating_a) / 400.0))


def elo_update(rating_a: float, rating_b: float, score_a: float, k: float = 16.0) -> tuple[float, float]:
    """Both ratings after one game in which A scored ``score_a`` (1 win, 0.5 draw, 0 loss).

    >>> elo_update(1500, 1500, 1.0, k=32)
    (1516.0, 1484.0)
    """
    delta = k * (score_a - elo_expected(rating_a, rating_b))
    return (rating_a + delta, rating_b - delta)


def sequential_elo(results: Sequence[tuple[str, str, float]], k: float = 16.0,
                   start: float = 1500.0) -> dict[str, float]:
    """Ratings after applying :func:`elo_update` to each ``(a, b, score_a)`` in order."""
    ratings: dict[str, float] = {}
    for a, b, score in results:
        ra = ratings.setdefault(a, start)
        rb = ratings.setdefault(b, start)
        ratings[a], ratings[b] = elo_update(ra, rb, score, k)
    return ratings


def bradley_terry_elo(wins: Mapping[tuple[str, str], float], prior_games: float = 1.0,
                      mean: float = 1500.0, iterations: int = 10_000,
                      tolerance: float = 1e-10) -> dict[str, float]:
    """Elo ratings by maximum likelihood: ``wins[(a, b)]`` is how often ``a`` beat ``b``.

    The Bradley-Terry model gives ``P(a beats b) = g_a / (g_a + g_b)``; the fit uses the
    minorization-maximization algorithm (Hunter, 2004). ``prior_games`` adds that many
    virtual drawn games between every pair that met (half a win each way), so that an
    undefeated bot still gets a finite rating. Ratings are ``400 * log10(g)``, shifted so
    their average is ``mean``.

    >>> r = bradley_terry_elo({("a", "b"): 75, ("b", "a"): 25}, prior_games=0)
    >>> round(r["a"] - r["b"], 2)
    190.85
    """
    names = sorted({n for pair in wins for n in pair})
    if not names:
        return {}
    w: dict[tuple[str, str], float] = {}
    for (a, b), v in wins.items():
        if a != b:
            w[(a, b)] = w.get((a, b), 0.0) + float(v)
    pairs = {(min(a, b), max(a, b)) for a, b in w}
    for a, b in pairs:
        w[(a, b)] = w.get((a, b), 0.0) + prior_games / 2
        w[(b, a)] = w.get((b, a), 0.0) + prior_games / 2
    games: dict[tuple[str, str], float] = {}
    for a, b in pairs:
        games[(a, b)] = games[(b, a)] = w[(a, b)] + w[(b, a)]
    total_wins = {n: sum(v for (a, _), v in w.items() if a == n) for n in names}
    gamma = dict.fromkeys(names, 1.0)
    for _ in range(iterations):
        new: dict[str, float] = {}
        for i in names:
            denom = sum(games[(i, j)] / (gamma[i] + gamma[j]) for j in names if (i, j) in games)
            new[i] = total_wins[i] / denom if denom > 0 and total_wins[i] > 0 else 1e-12
        scale = math.exp(sum(math.log(v) for v in new.values()) / len(new))
        new = {k: v / scale for k, v in new.items()}
        change = max(abs(math.log(new[k]) - math.log(gamma[k])) for k in names)
        gamma = new
        if change < tolerance:
            break
    ratings = {n: 400.0 * math.log10(g) for n, g in gamma.items()}
    shift = mean - sum(ratings.values()) / len(ratings)
    return {n: r + shift for n, r in ratings.items()}


def anchored(ratings: Mapping[str, float], name: str, value: float) -> dict[str, float]:
    """``ratings`` shifted so that ``name`` is rated ``value`` (unchanged when ``name`` is not
    rated): Elo differences are all a fit says, so a scale shown to players needs an anchor
    (``random`` at 1000 in ``docs/strength.md``).

    >>> anchored({"random": 1200.0, "easy": 1500.0}, "random", 1000)
    {'random': 1000.0, 'easy': 1300.0}
    """
    if name not in ratings:
        return dict(ratings)
    shift = value - ratings[name]
    return {n: r + shift for n, r in ratings.items()}


def mean_and_interval(values: Sequence[float], z: float = Z95) -> tuple[float, float]:
    """The mean of ``values`` and the half-width of its normal-approximation interval.

    >>> m, h = mean_and_interval([1.0, 3.0])
    >>> m, round(h, 4)
    (2.0, 1.96)
    """
    n = len(values)
    if n == 0:
        return (0.0, 0.0)
    m = sum(values) / n
    if n == 1:
        return (m, 0.0)
    var = sum((v - m) ** 2 for v in values) / (n - 1)
    return (m, z * math.sqrt(var / n))

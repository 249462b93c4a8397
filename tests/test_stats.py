"""Arena statistics on known inputs: Wilson intervals, Elo updates, Bradley-Terry fits."""

import math

import pytest

from unokit.stats import (
    bradley_terry_elo,
    elo_expected,
    elo_update,
    mean_and_interval,
    sequential_elo,
    wilson_interval,
)


def _wilson_by_quadratic(k: float, n: float, z: float = 1.959963984540054) -> tuple[float, float]:
    """The interval's ends solve (k/n - p)^2 = z^2 p (1 - p) / n, a quadratic in p."""
    ph = k / n
    a = 1 + z * z / n
    b = -(2 * ph + z * z / n)
    c = ph * ph
    d = math.sqrt(b * b - 4 * a * c)
    return ((-b - d) / (2 * a), (-b + d) / (2 * a))


def test_wilson_known_values() -> None:
    lo, hi = wilson_interval(60, 100)
    assert lo == pytest.approx(0.502002, abs=1e-5)
    assert hi == pytest.approx(0.690599, abs=1e-5)
    for k, n in ((60, 100), (2200, 4000), (1, 7), (1160, 2000)):
        assert wilson_interval(k, n) == pytest.approx(_wilson_by_quadratic(k, n), abs=1e-12)


def test_wilson_edges() -> None:
    assert wilson_interval(0, 0) == (0.0, 1.0)
    lo, hi = wilson_interval(0, 10)
    assert lo == 0.0 and hi == pytest.approx(0.277532, abs=1e-6)
    lo, hi = wilson_interval(10, 10)
    assert hi == pytest.approx(1.0) and lo == pytest.approx(0.722468, abs=1e-6)


def test_elo_expected_and_update() -> None:
    assert elo_expected(1500, 1500) == 0.5
    assert elo_expected(1600, 1400) == pytest.approx(1 / (1 + 10 ** -0.5))
    assert elo_update(1500, 1500, 1.0, k=32) == (1516.0, 1484.0)
    a, b = elo_update(1600, 1400, 0.0, k=20)
    assert a == pytest.approx(1600 - 20 * elo_expected(1600, 1400))
    assert a + b == pytest.approx(3000)


def test_sequential_elo() -> None:
    r = sequential_elo([("a", "b", 1.0), ("a", "b", 1.0)], k=32)
    assert r["a"] == pytest.approx(1516 + 32 * (1 - elo_expected(1516, 1484)))
    assert r["a"] + r["b"] == pytest.approx(3000)


def test_bradley_terry_two_players() -> None:
    r = bradley_terry_elo({("a", "b"): 75, ("b", "a"): 25}, prior_games=0)
    assert r["a"] - r["b"] == pytest.approx(400 * math.log10(3), abs=1e-6)
    assert (r["a"] + r["b"]) / 2 == pytest.approx(1500)


def test_bradley_terry_transitive() -> None:
    # a beats b 2:1, b beats c 2:1, a beats c 4:1: consistent with gammas 4, 2, 1.
    wins = {("a", "b"): 200, ("b", "a"): 100, ("b", "c"): 200, ("c", "b"): 100,
            ("a", "c"): 400, ("c", "a"): 100}
    r = bradley_terry_elo(wins, prior_games=0)
    step = 400 * math.log10(2)
    assert r["a"] - r["b"] == pytest.approx(step, abs=1e-4)
    assert r["b"] - r["c"] == pytest.approx(step, abs=1e-4)


def test_bradley_terry_prior_keeps_unbeaten_finite() -> None:
    r = bradley_terry_elo({("a", "b"): 10}, prior_games=1)
    # 10.5 : 0.5 after the virtual draw.
    assert r["a"] - r["b"] == pytest.approx(400 * math.log10(21), abs=1e-6)


def test_mean_and_interval() -> None:
    m, h = mean_and_interval([1.0, 2.0, 3.0, 4.0])
    assert m == 2.5
    assert h == pytest.approx(1.959964 * math.sqrt(1.6666667 / 4), abs=1e-5)
    assert mean_and_interval([]) == (0.0, 0.0)

"""Random draws from a ``random.Random``, number for number as its own methods, but cheaper.

``random.Random.shuffle`` and ``randrange`` are written in Python (``random.py``): a shuffle
of 108 cards makes 107 interpreted ``_randbelow`` calls. These functions run CPython's very
algorithm on the generator's ``getrandbits`` (``_randbelow_with_getrandbits``: ``k`` bits,
drawn again while the value is out of range), so they give the same results and leave the
generator in the same state, and every seed, record and sampled search replays the same.
They are part of the engine (the deal, T6 reshuffles) and of the strong bot's sampling, and
the mypyc build compiles them to native loops.

A generator of another class (a subclass, e.g. a test's scripted dealer) is left to its own
methods.

>>> import random
>>> a, b = list(range(10)), list(range(10))
>>> random.Random(7).shuffle(a); shuffle(random.Random(7), b)
>>> a == b
True
>>> random.Random(7).randrange(52) == randbelow(random.Random(7), 52)
True
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Final, TypeVar

T = TypeVar("T")

_RANDOM: Final = random.Random  # a static in the compiled build: no module lookup per call

__all__ = ["bound_getrandbits", "randbelow", "randbelow_with", "shuffle", "shuffle_tail"]


def bound_getrandbits(rng: random.Random) -> Callable[[int], int] | None:
    """``rng.getrandbits``, bound once, if ``rng`` is a plain ``random.Random`` (whose own
    methods draw through it); ``None`` for a subclass, which is left to its own methods.

    For a loop that draws many times: looking the method up by name at every draw costs as
    much as the draw itself.
    """
    return rng.getrandbits if type(rng) is _RANDOM else None


def shuffle(rng: random.Random, x: list[T]) -> None:
    """``rng.shuffle(x)``: the same order and the same generator state afterwards."""
    getrandbits = bound_getrandbits(rng)
    if getrandbits is None:
        rng.shuffle(x)
        return
    for i in range(len(x) - 1, 0, -1):
        n = i + 1
        k = n.bit_length()
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        x[i], x[j] = x[j], x[i]


def shuffle_tail(rng: random.Random, x: list[T], k: int) -> None:
    """Shuffle only the last ``k`` places of ``x``, with ``k`` draws rather than ``len(x) - 1``.

    They get exactly the cards ``rng.shuffle(x)`` would put there (its first ``k`` steps fill
    them, from the end, and the later steps never touch them), so ``x[-k:]`` is a uniformly
    random draw of ``k`` cards, in random order. The places before them are left partly
    shuffled, and the generator has made fewer draws than a whole shuffle would.

    >>> a, b = list(range(52)), list(range(52))
    >>> random.Random(3).shuffle(a); shuffle_tail(random.Random(3), b, 5)
    >>> a[-5:] == b[-5:]
    True
    """
    getrandbits = bound_getrandbits(rng)
    for i in range(len(x) - 1, max(len(x) - 1 - k, 0), -1):
        j = randbelow_with(rng, getrandbits, i + 1)
        x[i], x[j] = x[j], x[i]


def randbelow(rng: random.Random, n: int) -> int:
    """``rng.randrange(n)`` for ``n >= 1``: the same number and the same generator state."""
    if n <= 0:
        raise ValueError(f"randbelow needs n >= 1, got {n}")
    if type(rng) is not _RANDOM:
        return rng.randrange(n)
    k = n.bit_length()
    r = rng.getrandbits(k)
    while r >= n:
        r = rng.getrandbits(k)
    return r


def randbelow_with(rng: random.Random, getrandbits: Callable[[int], int] | None, n: int) -> int:
    """:func:`randbelow` for a loop of draws, with ``getrandbits = bound_getrandbits(rng)``.

    :func:`randbelow` does not delegate to it: binding the method for a single draw costs
    more than looking it up (a delegating ``randbelow`` took 377 ns a call in pure Python,
    against 224).
    """
    if getrandbits is None:
        return rng.randrange(n)
    k = n.bit_length()
    r = getrandbits(k)
    while r >= n:
        r = getrandbits(k)
    return r

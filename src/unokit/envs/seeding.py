"""How an environment reseeds the players it is given, so that ``reset(seed=...)`` replays
an episode whatever sits at the other seats.

The seeding protocol, applied at every reset with a seed drawn from the environment's stream:

* a player (a bot object or a callable policy) with a callable ``seed`` attribute is called
  with it: ``player.seed(n)`` (an ``int`` below ``2**63``). unokit's bots have one: after
  ``bot.seed(n)`` a bot plays exactly as a new one built with ``seed=n`` and the same options;
* otherwise every :class:`random.Random` the player holds, in its attributes and those of the
  objects it holds (another bot inside it, lists of them; a few levels deep), is reseeded
  from ``n``, in the order of the attributes' names;
* a plain function holds no state and needs nothing.

>>> import random
>>> class Coin:
...     def __init__(self) -> None:
...         self.rng = random.Random()
>>> a, b = Coin(), Coin()
>>> reseed(a, 7); reseed(b, 7)
>>> a.rng.random() == b.rng.random()
True
"""

from __future__ import annotations

import random
import types
from typing import Any

__all__ = ["reseed"]

_DEPTH = 4


def reseed(player: Any, seed: int) -> None:
    """Reseed ``player`` from ``seed`` (see the module's docstring)."""
    fn = getattr(player, "seed", None)
    if callable(fn):
        fn(seed)
        return
    _reseed_held(player, random.Random(seed), _DEPTH, set())


def _reseed_held(obj: Any, source: random.Random, depth: int, seen: set[int]) -> None:
    if id(obj) in seen or depth < 0:
        return
    seen.add(id(obj))
    if isinstance(obj, random.Random):
        obj.seed(source.getrandbits(63))
        return
    if isinstance(obj, (types.FunctionType, types.BuiltinFunctionType, types.ModuleType, type,
                        str, bytes, int, float, bool)) or obj is None:
        return
    if isinstance(obj, (list, tuple)):
        for item in obj:
            _reseed_held(item, source, depth - 1, seen)
        return
    if isinstance(obj, dict):
        return  # caches and tables: no generator of a player's lies in them
    held: dict[str, Any] = dict(getattr(obj, "__dict__", {}))
    for cls in type(obj).__mro__:
        for name in getattr(cls, "__slots__", ()):
            if isinstance(name, str) and hasattr(obj, name):
                held.setdefault(name, getattr(obj, name))
    for name in sorted(held):
        _reseed_held(held[name], source, depth - 1, seen)

"""Reinforcement-learning environments for unokit: Gymnasium and PettingZoo, full rules,
2–10 players (``docs/rl.md``). Needs the ``rl`` extra: ``pip install '.[rl]' in a clone of unokit``
(gymnasium, pettingzoo, numpy); the rest of unokit needs none of it.

Importing this package registers the Gymnasium environment ``unokit/Uno-v0``
(:class:`~unokit.envs.gymnasium.UnoEnv`)::

    import gymnasium
    import unokit.envs

    env = gymnasium.make("unokit/Uno-v0", players=4, opponents=["heuristic"])

and gives the PettingZoo environment as ``pettingzoo_env`` (the module
:mod:`unokit.envs.pettingzoo`, imported when first used)::

    from unokit.envs import pettingzoo_env

    env = pettingzoo_env.env(players=4)
"""

from __future__ import annotations

import importlib
from typing import Any

__all__ = [
    "ENV_ID",
    "EPISODES",
    "NOTHING",
    "N_ENV_ACTIONS",
    "REWARDS",
    "Encoder",
    "layout",
    "pettingzoo_env",
]

ENV_ID = "unokit/Uno-v0"
"""The Gymnasium id, registered on import."""

_NEEDS = "unokit.envs needs the rl extra: pip install '.[rl]' in a clone of unokit"

# Imported under other names: ``unokit.envs.gymnasium`` is this package's module, not the library.
try:
    import gymnasium as _gymnasium
    import numpy as _numpy  # noqa: F401 (the encoding's)
except ImportError as exc:  # without the extra, importing this package does nothing
    _MISSING: str | None = str(exc)
else:
    _MISSING = None
    if ENV_ID not in _gymnasium.registry:
        _gymnasium.register(id=ENV_ID, entry_point="unokit.envs.gymnasium:UnoEnv")

_LAZY = {"EPISODES": ".core", "REWARDS": ".core", "N_ENV_ACTIONS": ".encoding",
         "NOTHING": ".encoding", "Encoder": ".encoding", "layout": ".encoding"}


def __getattr__(name: str) -> Any:
    """The package's names, imported on first use: ``pettingzoo_env`` (the PettingZoo
    environment's module, which needs pettingzoo) and the encoding's. Without the rl extra,
    an ImportError that says how to install it."""
    if name != "pettingzoo_env" and name not in _LAZY:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    if _MISSING is not None:
        raise ImportError(f"{_NEEDS} ({_MISSING})")
    if name == "pettingzoo_env":
        try:
            return importlib.import_module(".pettingzoo", __name__)
        except ImportError as exc:
            raise ImportError(f"the PettingZoo environment needs the rl extra: "
                              f"pip install '.[rl]' in a clone of unokit ({exc})") from None
    return getattr(importlib.import_module(_LAZY[name], __name__), name)

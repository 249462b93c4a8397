"""pytest, for the whole checkout: the RL environments' doctests (``src/unokit/envs``) need the
rl extra (gymnasium, pettingzoo, numpy); without it they are not collected, as the tests of
``tests/test_envs*.py`` skip. The package itself ships no test code."""

from __future__ import annotations

import importlib.util

_DEPENDENCIES = ("gymnasium", "pettingzoo", "numpy")

_AVAILABLE = all(importlib.util.find_spec(m) for m in _DEPENDENCIES)
collect_ignore_glob = [] if _AVAILABLE else ["src/unokit/envs/*.py"]

"""pytest: the environments' doctests need the rl extra (gymnasium, pettingzoo, numpy);
without it they are not collected, as the tests of ``tests/test_envs*.py`` skip."""

from __future__ import annotations

import importlib.util

_DEPENDENCIES = ("gymnasium", "pettingzoo", "numpy")

collect_ignore_glob = [] if all(importlib.util.find_spec(m) for m in _DEPENDENCIES) else ["*.py"]

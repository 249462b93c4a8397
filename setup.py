"""Build hook. Pure Python by default; ``UNOKIT_COMPILE=1`` compiles the engine (and the
bots that search with it) with mypyc.

The normal install (``pip install -e .``, a wheel from PyPI) is pure Python and needs
nothing but setuptools; the test command checks both builds (``scripts/test-compiled.sh``).
The compiled build is opt-in and needs mypy (which brings mypyc) and a C compiler at build
time only; the compiled package has no runtime dependency::

    pip install "setuptools>=77" "mypy>=1.10"
    UNOKIT_COMPILE=1 pip install --no-build-isolation --no-deps --force-reinstall .

``scripts/build-compiled.sh [VENV]`` does exactly that (default ``.venv-bench``).
``unokit.bench.engine_build()`` says which build is imported.
"""

from __future__ import annotations

import os
from typing import Any

from setuptools import setup

# The rules engine: what the hot loops run. Every module here must compile under mypyc;
# the rest of unokit (the other bots, arena, CLI, TUI) stays pure Python and imports these
# as usual.
# options.py stays pure Python: it is not hot (read once per game), and a compiled frozen
# dataclass cannot be pickled, which `unokit arena --jobs N` needs to send Options to workers.
# Compiled classes (Game, Observation, RoundStart, the compiled bots) cannot be pickled or
# deep-copied either:
# use Game.copy() and records (see docs/performance.md).
ENGINE_MODULES = ["cards", "actions", "draws", "errors", "observation", "game"]
# The bots whose decisions run the engine in a loop: the strong bot's search (thousands of
# sampled plays per decision), its inference and the heuristic rules it plays out with.
# Compiled, they reach the engine's fields natively instead of through descriptors.
BOT_MODULES = ["bots/heuristic", "bots/inference", "bots/strong"]


def ext_modules() -> list[Any]:
    if os.environ.get("UNOKIT_COMPILE", "").lower() not in ("1", "true", "yes"):
        return []
    from mypyc.build import mypycify  # only needed for the opt-in compiled build

    return list(mypycify([f"src/unokit/{m}.py" for m in ENGINE_MODULES + BOT_MODULES], opt_level="3"))


setup(ext_modules=ext_modules())

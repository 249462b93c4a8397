"""Build hook: the rules engine compiled with mypyc wherever it can be, pure Python otherwise.

``UNOKIT_COMPILE`` chooses (read at build time only):

* unset, or ``auto`` (the default): a regular install or wheel (``pip install .``,
  ``python -m build``) compiles the engine and the bots that search with it, when a C
  compiler and the Python headers work; where they do not, it builds the same package in
  pure Python and says so. An editable install (``pip install -e .``, which
  ``scripts/setup.sh`` makes) stays pure Python, so that edits to the source take effect.
* ``1``: compile, and fail if it cannot (``scripts/build-compiled.sh``).
* ``0``: pure Python.

A regular wheel build needs mypy, which brings mypyc: the in-tree build backend
(``build_backend/unokit_build.py``) asks pip for it, unless ``UNOKIT_COMPILE=0``. The
installed package needs nothing at run time either way, and the pure-Python source is in it
too; ``unokit.bench.engine_build()`` says which build is imported. By hand, without build
isolation::

    pip install "setuptools>=77" "mypy>=1.10"
    UNOKIT_COMPILE=1 pip install --no-build-isolation --no-deps --force-reinstall .
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

from setuptools import setup
from setuptools.command.build_ext import build_ext
from setuptools.errors import CCompilerError, CompileError, ExecError, LinkError, PlatformError

# The rules engine: what the hot loops run. Every module here must compile under mypyc;
# the rest of unokit (the other bots, arena, CLI, TUI) stays pure Python and imports these
# as usual.
# options.py stays pure Python: it is not hot (read once per game), and a compiled frozen
# dataclass cannot be pickled, which `unokit arena --jobs N` needs to send Options to workers.
# Compiled classes (Game, Observation, RoundStart, the compiled bots) cannot be pickled or
# deep-copied either:
# use Game.copy() and records (see docs/performance.md).
ENGINE_MODULES = ["cards", "actions", "draws", "errors", "observation", "game", "playout"]
# The bots whose decisions run the engine in a loop: the strong bot's search (thousands of
# sampled plays per decision), its inference and the heuristic rules it plays out with.
# Compiled, they reach the engine's fields natively instead of through descriptors.
BOT_MODULES = ["bots/heuristic", "bots/inference", "bots/strong"]


def compile_mode() -> str:
    """``"auto"``, ``"require"`` or ``"off"``, from ``UNOKIT_COMPILE``."""
    raw = os.environ.get("UNOKIT_COMPILE", "auto").strip().lower()
    if raw in ("", "auto"):
        return "auto"
    if raw in ("1", "true", "yes"):
        return "require"
    if raw in ("0", "false", "no"):
        return "off"
    sys.exit(f"UNOKIT_COMPILE={raw!r} is not a choice: 1 (compile), 0 (pure Python) or auto")


MODE = compile_mode()


def say(message: str) -> None:
    """A line for whoever runs the build (pip shows it with -v, and on failure)."""
    print(f"unokit build: {message}", file=sys.stderr, flush=True)


METADATA_COMMANDS = {"egg_info", "dist_info", "sdist"}
"""What pip and build run for metadata and sdists: nothing is compiled for them."""


def compiles() -> bool:
    """Whether this run of setup.py builds the extension modules."""
    if MODE == "off":
        return False
    if MODE == "auto":  # a regular wheel only: not an editable install, an sdist or metadata
        return "bdist_wheel" in sys.argv
    return "bdist_wheel" in sys.argv or not METADATA_COMMANDS & set(sys.argv[1:])


def ext_modules() -> list[Any]:
    if not compiles():
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        if MODE == "require":
            raise
        say("mypyc is not installed here: building the pure-Python engine")
        return []
    paths = [f"src/unokit/{m}.py" for m in ENGINE_MODULES + BOT_MODULES]
    try:
        return list(mypycify(paths, opt_level="3", target_dir="build/mypyc"))
    except (Exception, SystemExit) as exc:  # mypyc exits on what it cannot compile
        if MODE == "require":
            raise
        say(f"mypyc could not compile the engine ({type(exc).__name__}: {exc}); building the "
            "pure-Python engine instead")
        return []


class BuildExtOrPure(build_ext):
    """``build_ext`` that, by default (``auto``), leaves the package pure Python when the C
    build fails (no compiler, no Python headers) instead of failing the install."""

    def run(self) -> None:
        try:
            super().run()
        except (CCompilerError, CompileError, ExecError, LinkError, PlatformError) as exc:
            if MODE != "auto":
                raise
            for ext in self.extensions:  # nothing half-built may be packed
                Path(self.get_ext_fullpath(ext.name)).unlink(missing_ok=True)
            self.extensions = []
            self.distribution.ext_modules = []
            why = str(exc) if len(str(exc)) <= 120 else str(exc)[:117] + "..."
            say(f"the C build failed ({type(exc).__name__}: {why}); building the pure-Python "
                "engine instead, which plays the same games 1.5-3x slower (docs/performance.md)")


EXTENSIONS = ext_modules()
if EXTENSIONS:
    say(f"compiling {len(ENGINE_MODULES) + len(BOT_MODULES)} engine and bot modules with mypyc")

setup(
    ext_modules=EXTENSIONS,
    cmdclass={"build_ext": BuildExtOrPure},
    # Compiled and pure builds keep apart, so that neither packs the other's leftovers.
    options={"build": {"build_base": "build/mypyc" if EXTENSIONS else "build/pure"}},
)

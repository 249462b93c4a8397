"""Build hook: the rules engine compiled with mypyc wherever it can be, pure Python otherwise.

It reads two environment variables, and nothing else (no command line):

``UNOKIT_COMPILE`` chooses, at build time only:

* unset, or ``auto`` (the default): a regular install or wheel (``pip install .``,
  ``python -m build``) compiles the engine and the bots that search with it, and builds the
  native core ``unokit.fast._core`` (the rules in C, ``src/unokit/fast/_core.c``), when a C
  compiler and the Python headers work; where they do not, it builds the same package in
  pure Python and says so. An editable install (``pip install -e .``, which
  ``scripts/setup.sh`` makes), an sdist and the metadata steps stay pure Python, so that
  edits to the source take effect.
* ``1``: compile a wheel, and fail if it cannot (``scripts/build-compiled.sh``).
* ``0``: pure Python.

``UNOKIT_BUILD_EXTENSIONS=1`` says that this run builds a wheel, so it may compile: the
in-tree build backend (``build_backend/unokit_build.py``) sets it in its ``build_wheel`` hook
and in no other. The same backend asks pip for mypy, which brings mypyc, for a wheel build,
unless ``UNOKIT_COMPILE=0``. The installed package needs nothing at run time either way, and
the pure-Python source is in it too; ``unokit.bench.engine_build()`` says which build is
imported. By hand, without build isolation (pip still builds through the backend)::

    pip install "setuptools>=77" "mypy>=1.10"
    UNOKIT_COMPILE=1 pip install --no-build-isolation --no-deps --force-reinstall .

To compile in place for a source checkout, set the backend's variable yourself:
``UNOKIT_BUILD_EXTENSIONS=1 UNOKIT_COMPILE=1 python setup.py build_ext --inplace``.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext
from setuptools.errors import CCompilerError, CompileError, ExecError, LinkError, PlatformError

# What mypyc compiles, read from the source and kept in no list: every module of the engine
# (``src/unokit/core/``) but those marked ``# mypyc: pure`` on a line of their own (each says
# why: not hot, or pickled through a default the compiled class lacks), plus the modules
# elsewhere marked ``# mypyc: compile`` (the bots whose decisions run the engine in a loop:
# compiled, they reach the engine's fields natively instead of through descriptors). The rest
# of unokit stays pure Python and imports these as usual.
PURE_MARK = "# mypyc: pure"
COMPILE_MARK = "# mypyc: compile"


def _marked(path: Path, mark: str) -> bool:
    return any(line.strip().startswith(mark) for line in path.read_text(encoding="utf-8").splitlines())


def compiled_modules(root: Path = Path("src/unokit")) -> list[str]:
    """The source files that mypyc compiles (paths relative to the project), sorted."""
    core = [p for p in sorted((root / "core").glob("*.py"))
            if p.name != "__init__.py" and not _marked(p, PURE_MARK)]
    others = [p for p in sorted(root.rglob("*.py"))
              if "core" not in p.relative_to(root).parts[:1] and _marked(p, COMPILE_MARK)]
    return [p.as_posix() for p in core + others]


def _choice(name: str, default: str, choices: dict[str, tuple[str, ...]], hint: str) -> str:
    """The choice that the environment variable ``name`` names (one clear error if none)."""
    raw = os.environ.get(name, default).strip().lower()
    for choice, spellings in choices.items():
        if raw in spellings:
            return choice
    sys.exit(f"{name}={raw!r} is not a choice: {hint}")


def compile_mode() -> str:
    """``"auto"``, ``"require"`` or ``"off"``, from ``UNOKIT_COMPILE``."""
    return _choice("UNOKIT_COMPILE", "auto",
                   {"auto": ("", "auto"), "require": ("1", "true", "yes"), "off": ("0", "false", "no")},
                   "1 (compile), 0 (pure Python) or auto")


def wheel_build() -> bool:
    """Whether this run builds a wheel (``UNOKIT_BUILD_EXTENSIONS=1``, which the build backend's
    ``build_wheel`` sets): only a wheel is compiled, never an editable install, an sdist or
    metadata."""
    return _choice("UNOKIT_BUILD_EXTENSIONS", "0",
                   {"yes": ("1", "true", "yes"), "no": ("", "0", "false", "no")},
                   "1 (a wheel build: compile) or 0") == "yes"


MODE = compile_mode()


def say(message: str) -> None:
    """A line for whoever runs the build (pip shows it with -v, and on failure)."""
    print(f"unokit build: {message}", file=sys.stderr, flush=True)


def compiles() -> bool:
    """Whether this run of setup.py builds the extension modules."""
    return MODE != "off" and wheel_build()


NATIVE_CORE = Extension("unokit.fast._core", ["src/unokit/fast/_core.c"])
"""The native core (``unokit.fast``): plain C, built with whatever mypyc makes of the engine,
and without mypyc where it is not installed."""


def ext_modules() -> list[Any]:
    if not compiles():
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        if MODE == "require":
            raise
        say("mypyc is not installed here: building the pure-Python engine (with the native core)")
        return [NATIVE_CORE]
    paths = compiled_modules()
    try:
        return [*mypycify(paths, opt_level="3", target_dir="build/mypyc"), NATIVE_CORE]
    except (Exception, SystemExit) as exc:  # mypyc exits on what it cannot compile
        if MODE == "require":
            raise
        say(f"mypyc could not compile the engine ({type(exc).__name__}: {exc}); building the "
            "pure-Python engine instead (with the native core)")
        return [NATIVE_CORE]


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
                "engine instead, which plays the same games 1.5-3x slower, without the native "
                "core unokit.fast (docs/performance.md)")


EXTENSIONS = ext_modules()
if len(EXTENSIONS) > 1:
    say(f"compiling {len(compiled_modules())} engine and bot modules with mypyc, and the native core")
elif EXTENSIONS:
    say("compiling the native core (unokit.fast)")

setup(
    ext_modules=EXTENSIONS,
    cmdclass={"build_ext": BuildExtOrPure},
    # Compiled and pure builds keep apart, so that neither packs the other's leftovers.
    options={"build": {"build_base": "build/mypyc" if EXTENSIONS else "build/pure"}},
)

"""The build: what ``pip install .`` asks for and compiles (``build_backend/unokit_build.py``,
``setup.py``). Building the compiled engine itself, and the fallback to pure Python without a
C compiler, are checked by ``scripts/test-compiled.sh`` (they take a minute)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

HOOKS = """
import json, unokit_build
print(json.dumps({"wheel": unokit_build.get_requires_for_build_wheel(),
                  "editable": unokit_build.get_requires_for_build_editable(),
                  "sdist": unokit_build.get_requires_for_build_sdist()}))
"""


@pytest.fixture(scope="module")
def tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of what a build reads (the hooks run setup.py, which writes egg-info there)."""
    out = tmp_path_factory.mktemp("tree")
    for name in ("setup.py", "pyproject.toml", "README.md", "MANIFEST.in"):
        shutil.copy(ROOT / name, out / name)
    for name in ("build_backend", "src"):
        shutil.copytree(ROOT / name, out / name, ignore=shutil.ignore_patterns("__pycache__", "*.so"))
    return out


def _run(tree: Path, code: str, **env: str) -> subprocess.CompletedProcess[str]:
    environ = {k: v for k, v in os.environ.items() if k != "UNOKIT_COMPILE"}
    environ.update(env, PYTHONPATH=str(tree / "build_backend"))
    return subprocess.run([sys.executable, "-c", code], cwd=tree, env=environ,
                          capture_output=True, text=True, timeout=120)


def test_pyproject_names_the_in_tree_backend() -> None:
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert 'build-backend = "unokit_build"' in text and 'backend-path = ["build_backend"]' in text
    assert "include build_backend/unokit_build.py" in (ROOT / "MANIFEST.in").read_text(encoding="utf-8")


@pytest.mark.parametrize(("env", "mypy_for_wheel"), [({}, True), ({"UNOKIT_COMPILE": "auto"}, True),
                                                     ({"UNOKIT_COMPILE": "1"}, True),
                                                     ({"UNOKIT_COMPILE": "0"}, False)])
def test_only_a_regular_wheel_build_asks_for_mypy(tree: Path, env: dict[str, str],
                                                 mypy_for_wheel: bool) -> None:
    proc = _run(tree, HOOKS, **env)
    assert proc.returncode == 0, proc.stderr
    requires = json.loads(proc.stdout.strip().splitlines()[-1])
    assert any(r.startswith("mypy") for r in requires["wheel"]) == mypy_for_wheel
    # An editable install and an sdist are never compiled, so never need mypy.
    assert not any(r.startswith("mypy") for r in requires["editable"] + requires["sdist"])


def test_a_bad_unokit_compile_is_one_clear_error(tree: Path) -> None:
    proc = _run(tree, "import runpy, sys; sys.argv = ['setup.py', 'egg_info']; "
                      "runpy.run_path('setup.py')", UNOKIT_COMPILE="maybe")
    assert proc.returncode != 0
    assert "UNOKIT_COMPILE='maybe' is not a choice: 1 (compile), 0 (pure Python) or auto" in proc.stderr
    assert "Traceback" not in proc.stderr


@pytest.mark.parametrize(("argv", "env", "compiled"), [
    (["bdist_wheel"], {}, True),                       # pip install ., python -m build
    (["editable_wheel"], {}, False),                   # pip install -e .
    (["egg_info"], {}, False),                         # metadata
    (["bdist_wheel"], {"UNOKIT_COMPILE": "0"}, False),
    (["bdist_wheel"], {"UNOKIT_COMPILE": "1"}, True),
    (["editable_wheel"], {"UNOKIT_COMPILE": "1"}, True),   # asked for: compiled in place
    (["dist_info", "--output-dir", "x"], {"UNOKIT_COMPILE": "1"}, False),  # metadata only
])
def test_what_setup_py_compiles(tree: Path, argv: list[str], env: dict[str, str], compiled: bool) -> None:
    # setup() itself is replaced: only the decision is checked here, not a build.
    code = ("import json, runpy, sys, setuptools\n"
            "seen = {}\n"
            "setuptools.setup = lambda **kw: seen.update(kw)\n"
            f"sys.argv = ['setup.py', *{argv!r}]\n"
            "import mypyc.build\n"
            "mypyc.build.mypycify = lambda paths, **kw: [p for p in paths]\n"
            "runpy.run_path('setup.py')\n"
            "base = seen['options']['build']['build_base']\n"
            "print(json.dumps({'ext': seen['ext_modules'], 'base': base}))\n")
    pytest.importorskip("mypyc.build")
    proc = _run(tree, code, **env)
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout.strip().splitlines()[-1])
    assert bool(out["ext"]) == compiled
    assert out["base"] == ("build/mypyc" if compiled else "build/pure")
    if compiled:
        assert "src/unokit/game.py" in out["ext"] and "src/unokit/bots/strong.py" in out["ext"]


def test_a_mypyc_failure_falls_back_to_pure_python_unless_required(tree: Path) -> None:
    pytest.importorskip("mypyc.build")
    code = ("import json, runpy, sys, setuptools\n"
            "seen = {}\n"
            "setuptools.setup = lambda **kw: seen.update(kw)\n"
            "sys.argv = ['setup.py', 'bdist_wheel']\n"
            "import mypyc.build\n"
            "def refuse(paths, **kw):\n"
            "    sys.exit(1)  # what mypyc does on code it cannot compile\n"
            "mypyc.build.mypycify = refuse\n"
            "runpy.run_path('setup.py')\n"
            "print(json.dumps(seen['ext_modules']))\n")
    proc = _run(tree, code)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout.strip().splitlines()[-1]) == []
    assert "mypyc could not compile the engine (SystemExit: 1); building the pure-Python" in proc.stderr
    required = _run(tree, code, UNOKIT_COMPILE="1")
    assert required.returncode == 1 and "ext_modules" not in required.stdout

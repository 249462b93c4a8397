"""The build: what ``pip install .`` asks for and compiles (``build_backend/unokit_build.py``,
which marks a wheel build with ``UNOKIT_BUILD_EXTENSIONS=1``, and ``setup.py``, which reads
only the environment). Building the compiled engine itself, and the fallback to pure Python
without a C compiler, are checked by ``scripts/test-compiled.sh`` (they take a minute)."""

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
    environ = {k: v for k, v in os.environ.items() if k not in ("UNOKIT_COMPILE", "UNOKIT_BUILD_EXTENSIONS")}
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
    proc = _run(tree, "import runpy; runpy.run_path('setup.py')", UNOKIT_COMPILE="maybe")
    assert proc.returncode != 0
    assert "UNOKIT_COMPILE='maybe' is not a choice: 1 (compile), 0 (pure Python) or auto" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_setup_py_reads_no_command_line() -> None:
    # What to build comes from the environment (the backend's build_wheel sets its variable).
    assert "sys.argv" not in (ROOT / "setup.py").read_text(encoding="utf-8")


def test_only_build_wheel_is_not_setuptools_own(tree: Path) -> None:
    code = ("import json, unokit_build, setuptools.build_meta as s\n"
            "names = [n for n in dir(s) if n.startswith(('build_', 'get_requires', 'prepare_'))]\n"
            "print(json.dumps(sorted(n for n in names if getattr(unokit_build, n) is not getattr(s, n))))\n")
    proc = _run(tree, code)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout.strip().splitlines()[-1]) == ["build_wheel", "get_requires_for_build_wheel"]


@pytest.mark.parametrize("before", [None, "0"])
def test_build_wheel_marks_a_wheel_build_while_it_runs(tree: Path, before: str | None) -> None:
    # setuptools' build_wheel is replaced: it reports what setup.py would read.
    code = ("import json, os, setuptools.build_meta as s, unokit_build\n"
            "s.build_wheel = lambda *a, **k: os.environ.get('UNOKIT_BUILD_EXTENSIONS')\n"
            "during = unokit_build.build_wheel('dist')\n"
            "print(json.dumps([during, os.environ.get('UNOKIT_BUILD_EXTENSIONS')]))\n")
    env = {} if before is None else {"UNOKIT_BUILD_EXTENSIONS": before}
    proc = _run(tree, code, **env)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout.strip().splitlines()[-1]) == ["1", before]


@pytest.mark.parametrize(("hook", "compiled"), [("build_wheel", True), ("build_editable", False)])
def test_setuptools_runs_setup_py_under_the_hook(tree: Path, tmp_path: Path, hook: str,
                                                 compiled: bool) -> None:
    # The real hooks, building a real (pure) wheel: mypycify only says that it was asked.
    pytest.importorskip("mypyc.build")
    code = ("import sys, mypyc.build, unokit_build\n"
            "def mypycify(paths, **kw):\n"
            "    print('unokit test: mypycify was asked', file=sys.stderr)\n"
            "    return []\n"
            "mypyc.build.mypycify = mypycify\n"
            f"print(unokit_build.{hook}({str(tmp_path)!r}))\n")
    proc = _run(tree, code)
    assert proc.returncode == 0, proc.stderr
    assert (tmp_path / proc.stdout.strip().splitlines()[-1]).is_file()
    assert ("unokit test: mypycify was asked" in proc.stderr) == compiled


def _decide(tree: Path, mypycify: str, **env: str) -> subprocess.CompletedProcess[str]:
    """Run setup.py with setup() replaced and ``mypycify`` as mypyc's: only the decision is
    made, nothing is built. Prints the extension modules and the build folder as JSON."""
    code = ("import json, runpy, sys, setuptools\n"
            "seen = {}\n"
            "setuptools.setup = lambda **kw: seen.update(kw)\n"
            "import mypyc.build\n"
            f"{mypycify}\n"
            "mypyc.build.mypycify = mypycify\n"
            "runpy.run_path('setup.py')\n"
            "base = seen['options']['build']['build_base']\n"
            "ext = [e if isinstance(e, str) else e.name for e in seen['ext_modules']]\n"
            "print(json.dumps({'ext': ext, 'base': base}))\n")
    return _run(tree, code, **env)


@pytest.mark.parametrize(("env", "compiled"), [
    ({"UNOKIT_BUILD_EXTENSIONS": "1"}, True),          # pip install ., python -m build
    ({}, False),                                       # pip install -e ., sdist, metadata
    ({"UNOKIT_BUILD_EXTENSIONS": "0"}, False),
    ({"UNOKIT_BUILD_EXTENSIONS": "1", "UNOKIT_COMPILE": "0"}, False),
    ({"UNOKIT_BUILD_EXTENSIONS": "1", "UNOKIT_COMPILE": "1"}, True),
    ({"UNOKIT_COMPILE": "1"}, False),                  # required, but not a wheel: metadata
])
def test_what_setup_py_compiles(tree: Path, env: dict[str, str], compiled: bool) -> None:
    pytest.importorskip("mypyc.build")
    proc = _decide(tree, "def mypycify(paths, **kw):\n    return list(paths)", **env)
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout.strip().splitlines()[-1])
    assert bool(out["ext"]) == compiled
    assert out["base"] == ("build/mypyc" if compiled else "build/pure")
    if compiled:
        for module in ("core/game", "core/editions", "core/phases", "bots/heuristic"):
            assert f"src/unokit/{module}.py" in out["ext"]
        assert out["ext"][-1] == "unokit.fast._core"  # the native core, beside mypyc's modules
        assert any(path.startswith("src/unokit/bots/strong") for path in out["ext"])
        for kept_pure in ("core/__init__", "core/options", "core/events", "tui/app", "server/rooms"):
            assert f"src/unokit/{kept_pure}.py" not in out["ext"]


def test_the_compiled_set_is_read_from_the_source(tree: Path) -> None:
    """Every module of the engine folder is compiled unless it is marked pure, and a module
    elsewhere only when it is marked: a new rule module needs no list edited."""
    pytest.importorskip("mypyc.build")
    (tree / "src/unokit/core/new_rule.py").write_text('"""A rule."""\n', encoding="utf-8")
    (tree / "src/unokit/core/kept.py").write_text('"""Kept."""\n# mypyc: pure: not hot\n', encoding="utf-8")
    (tree / "src/unokit/bots/hot.py").write_text('"""Hot."""\n# mypyc: compile (hot)\n', encoding="utf-8")
    try:
        proc = _decide(tree, "def mypycify(paths, **kw):\n    return list(paths)",
                       UNOKIT_BUILD_EXTENSIONS="1")
    finally:
        for name in ("core/new_rule", "core/kept", "bots/hot"):
            (tree / f"src/unokit/{name}.py").unlink()
    assert proc.returncode == 0, proc.stderr
    ext = json.loads(proc.stdout.strip().splitlines()[-1])["ext"]
    assert ext.pop() == "unokit.fast._core"
    assert "src/unokit/core/new_rule.py" in ext and "src/unokit/bots/hot.py" in ext
    assert "src/unokit/core/kept.py" not in ext
    assert ext == sorted(p for p in ext if "/core/" in p) + sorted(p for p in ext if "/core/" not in p)


def test_a_bad_build_toggle_is_one_clear_error(tree: Path) -> None:
    proc = _run(tree, "import runpy; runpy.run_path('setup.py')", UNOKIT_BUILD_EXTENSIONS="wheel")
    assert proc.returncode != 0
    assert "UNOKIT_BUILD_EXTENSIONS='wheel' is not a choice: 1 (a wheel build: compile) or 0" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_a_mypyc_failure_falls_back_to_pure_python_unless_required(tree: Path) -> None:
    pytest.importorskip("mypyc.build")
    refuse = "def mypycify(paths, **kw):\n    sys.exit(1)  # what mypyc does on code it cannot compile"
    proc = _decide(tree, refuse, UNOKIT_BUILD_EXTENSIONS="1")
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout.strip().splitlines()[-1])["ext"] == ["unokit.fast._core"]
    assert "mypyc could not compile the engine (SystemExit: 1); building the pure-Python" in proc.stderr
    required = _decide(tree, refuse, UNOKIT_BUILD_EXTENSIONS="1", UNOKIT_COMPILE="1")
    assert required.returncode == 1 and "ext" not in required.stdout


def test_each_extra_names_another_instead_of_copying_it() -> None:
    """The dev extra names the web extra (``unokit[web]``) instead of a copy of its list, and
    the ``unokit.bot_prefixes`` entry points name modules of the package."""
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    extras = project["optional-dependencies"]
    assert "unokit[web]" in extras["dev"]
    assert not set(extras["web"]) & set(extras["dev"]), "dev copies part of the web extra"
    for target in project["entry-points"]["unokit.bot_prefixes"].values():
        module = target.partition(":")[0]
        assert (ROOT / "src" / Path(*module.split("."))).with_suffix(".py").is_file(), target

"""The choice options are typed with ``Literal`` (``unokit.core.options``): mypy catches a misspelt
value written in code, as ``Options.from_mapping`` catches one read at run time."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import get_args

import pytest

from unokit.core.errors import OptionError
from unokit.core.options import Options, Stacking

SRC = Path(__file__).resolve().parent.parent / "src"


def _mypy(tmp_path: Path, code: str) -> subprocess.CompletedProcess[str]:
    pytest.importorskip("mypy", reason="mypy is not installed (it is in the dev extra)")
    snippet = tmp_path / "snippet.py"
    snippet.write_text(code, encoding="utf-8")
    env = dict(os.environ, MYPYPATH=str(SRC))
    return subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--config-file", os.devnull, "--no-incremental",
         "--cache-dir", os.devnull, str(snippet)],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300,
    )


def test_mypy_catches_a_misspelt_option_value(tmp_path: Path) -> None:
    proc = _mypy(tmp_path, 'from unokit import Options\n\nOptions(stacking="progresive")\n'
                           'Options(stacking="progressive", scoring="alternative")\n')
    assert proc.returncode == 1, proc.stdout + proc.stderr
    errors = [line for line in proc.stdout.splitlines() if ": error:" in line]
    assert len(errors) == 1, proc.stdout
    assert "snippet.py:3:" in errors[0] and '"stacking"' in errors[0] and "progresive" in errors[0]


def test_the_runtime_check_reads_the_same_values() -> None:
    # The values listed once, in the Literal types: the error names the same choices.
    with pytest.raises(OptionError, match="choose from off, progressive, plus4_on_plus2"):
        Options.from_mapping({"stacking": "progresive"})
    assert Options(stacking="plus4_on_plus2").stacking == "plus4_on_plus2"
    assert get_args(Stacking) == ("off", "progressive", "plus4_on_plus2")

"""unokit's build backend: setuptools' own, plus mypy (which brings mypyc) as a requirement
of a regular wheel build, so that ``pip install .`` can compile the rules engine.

Every hook is setuptools.build_meta's. The one difference is what a wheel build asks the
build front end (pip, ``python -m build``) to install first: ``mypy`` as well, unless
``UNOKIT_COMPILE=0``. An editable install (``pip install -e .``) and an sdist need only
setuptools: they are never compiled. What is compiled, and the fallback to pure Python where
no C compiler works, is decided in ``setup.py``.
"""

from __future__ import annotations

import os

from setuptools import build_meta as _setuptools
from setuptools.build_meta import *  # noqa: F403  (every hook as setuptools has it, but one)

MYPYC_REQUIREMENT = "mypy>=1.10"


def get_requires_for_build_wheel(config_settings: dict[str, str | list[str]] | None = None) -> list[str]:
    """setuptools' wheel requirements, plus mypy unless ``UNOKIT_COMPILE=0``."""
    requires = list(_setuptools.get_requires_for_build_wheel(config_settings))
    if os.environ.get("UNOKIT_COMPILE", "auto").strip().lower() not in ("0", "false", "no"):
        requires.append(MYPYC_REQUIREMENT)
    return requires

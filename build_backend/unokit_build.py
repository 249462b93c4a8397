"""unokit's build backend: setuptools' own, with a regular wheel build marked as one, so that
``pip install .`` can compile the rules engine.

Every hook is setuptools.build_meta's but two:

* ``get_requires_for_build_wheel`` asks the build front end (pip, ``python -m build``) for
  ``mypy`` (which brings mypyc) as well, unless ``UNOKIT_COMPILE=0``;
* ``build_wheel`` sets ``UNOKIT_BUILD_EXTENSIONS=1`` while setuptools builds the wheel (and
  puts the old value back after), which is how ``setup.py`` knows that this build may compile.

An editable install (``pip install -e .``), an sdist and the metadata steps are setuptools'
hooks unchanged: they never set the variable, are never compiled and need only setuptools.
What is compiled, and the fallback to pure Python where no C compiler works, is decided in
``setup.py``, from environment variables only.
"""

from __future__ import annotations

import os

from setuptools import build_meta as _setuptools
from setuptools.build_meta import *  # noqa: F403  (every hook as setuptools has it, but two)

MYPYC_REQUIREMENT = "mypy>=1.10"
BUILD_EXTENSIONS = "UNOKIT_BUILD_EXTENSIONS"
"""The variable ``build_wheel`` sets to ``1`` for ``setup.py``: a wheel build, which may compile."""

ConfigSettings = dict[str, str | list[str]] | None


def get_requires_for_build_wheel(config_settings: ConfigSettings = None) -> list[str]:
    """setuptools' wheel requirements, plus mypy unless ``UNOKIT_COMPILE=0``."""
    requires = list(_setuptools.get_requires_for_build_wheel(config_settings))
    if os.environ.get("UNOKIT_COMPILE", "auto").strip().lower() not in ("0", "false", "no"):
        requires.append(MYPYC_REQUIREMENT)
    return requires


def build_wheel(wheel_directory: str, config_settings: ConfigSettings = None,
                metadata_directory: str | None = None) -> str:
    """setuptools' ``build_wheel`` with ``UNOKIT_BUILD_EXTENSIONS=1`` set while it runs
    (setuptools runs ``setup.py`` in this process)."""
    old = os.environ.get(BUILD_EXTENSIONS)
    os.environ[BUILD_EXTENSIONS] = "1"
    try:
        return _setuptools.build_wheel(wheel_directory, config_settings, metadata_directory)
    finally:
        if old is None:
            del os.environ[BUILD_EXTENSIONS]
        else:
            os.environ[BUILD_EXTENSIONS] = old

"""The rules of each edition as the in-game help shows them (``?`` in ``unokit play``).

The same Markdown files are the rules pages of the docs (``docs/playing.md`` links them):
``<lang>/<edition>.md`` introduces the edition and its special card, ``<lang>/rules.md``
holds the rules every edition shares.

>>> text = help_text("cars2", "en")
>>> "Special Agent Mater" in text and "Wild Draw Four" in text
True
"""

from __future__ import annotations

from pathlib import Path

from ...core.editions import check_edition
from ..i18n import LANGUAGES

HELP_DIR = Path(__file__).parent


def help_path(edition: str, lang: str, part: str | None = None) -> Path:
    """The help file of ``edition`` (or the shared ``rules`` part) in ``lang``."""
    if lang not in LANGUAGES:
        lang = "en"
    return HELP_DIR / lang / f"{part or check_edition(edition)}.md"


def help_text(edition: str, lang: str) -> str:
    """The whole help of ``edition`` in ``lang``: the edition's page, then the shared rules."""
    own = help_path(edition, lang).read_text(encoding="utf-8")
    shared = help_path(edition, lang, "rules").read_text(encoding="utf-8")
    return own.rstrip() + "\n\n" + shared

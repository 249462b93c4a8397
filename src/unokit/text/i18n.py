"""Translations of everything a player reads: gettext catalogues for en, es, pt, fr and el.

The catalogues are ``unokit/text/locale/<lang>/LC_MESSAGES/unokit.po`` (the source, edited by
translators) and the compiled ``unokit.mo`` beside each, which ships with the package, so a
plain ``pip install`` needs nothing else at run time (only the standard library's
:mod:`gettext`). After editing a ``.po`` file, recompile with ``python -m unokit.text.i18n``
(needs Babel, in the ``dev`` extra); a test checks that the ``.mo`` files are up to date.

Card names follow the wording of each edition's printed rule sheet in that language
(the Spanish classic sheet says *Roba Dos*, the Latin-American Cars 2 sheet *Roba 2*):
they are looked up with the edition as the message context.

>>> from unokit.core.cards import parse_card
>>> tr = translator("es")
>>> tr.card_name(parse_card("B+2"), "classic"), tr.card_name(parse_card("B+2"), "cars2")
('Roba Dos azul', 'Roba 2 azul')
>>> translator("en").card_name(parse_card("W+4"), "classic")
'Wild Draw Four'
"""

from __future__ import annotations

import gettext
import os
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Final

from ..core.cards import (
    CARD_COLOR,
    CARD_RANK,
    DRAW_TWO,
    REVERSE,
    SKIP,
    WILD,
    WILD_DRAW_FOUR_RANK,
    WILD_RANK,
    Card,
)
from ..core.editions import RECORDS
from ..core.errors import UnoError

DOMAIN: Final = "unokit"
LANGUAGES: Final = ("en", "es", "pt", "fr", "el")
"""The languages of ``unokit play --lang``."""
LANGUAGE_NAMES: Final = {
    "en": "English", "es": "Español", "pt": "Português", "fr": "Français", "el": "Ελληνικά",
}
LOCALE_DIR: Final = Path(__file__).parent / "locale"


def N_(message: str) -> str:
    """Mark ``message`` for extraction without translating it now (translate it later)."""
    return message


# Card names, with the edition as context so that each edition follows its own sheet.
# They are looked up dynamically; :func:`dynamic_messages` lists them for the catalogues.
# Every edition has these; its special card's name is in its record (unokit.core.editions).
_SHARED_RANK_NAMES: Final[dict[int, str]] = {
    SKIP: "Skip",
    REVERSE: "Reverse",
    DRAW_TWO: "Draw Two",
    WILD_RANK: "Wild",
    WILD_DRAW_FOUR_RANK: "Wild Draw Four",
}
_RANK_NAMES: Final[dict[int, str]] = {
    **_SHARED_RANK_NAMES,
    **{CARD_RANK[e.special]: e.special_name for e in RECORDS.values()
       if e.special is not None and e.special_name is not None},
}
COLOR_WORDS: Final = ("red", "yellow", "green", "blue")

BOT_LABELS: Final[dict[str, str]] = {
    "easy": N_("Easy bot"), "normal": N_("Normal bot"), "hard": N_("Hard bot"),
    "random": N_("Random bot"), "heuristic": N_("Heuristic bot"), "strong": N_("Strong bot"),
}
"""The message id of each offered bot's name as a seat's choice in the browser (``Easy bot``),
by its registry name; the client translates it with the catalogue of its language."""

_OBLIQUE: Final[dict[str, tuple[re.Pattern[str], str]]] = {
    # Greek declines the player's name after an article in the genitive or the accusative
    # ("του Παίκτη 1", "τον Παίκτη 2"); the messages are written with the nominative's form.
    "el": (re.compile(r"\b(του|τον|στον|των) Παίκτης (\d+)((?: και)? )?(Παίκτης)?"), "Παίκτη"),
}
"""Per language, how a name takes the case of the article before it (see :meth:`Translator.agree`)."""


def dynamic_messages() -> list[tuple[str, str]]:
    """The ``(context, message)`` pairs looked up with a computed message: the colours and
    every edition's card names. Each catalogue must translate them all."""
    out = [("colour", word) for word in COLOR_WORDS]
    for edition in RECORDS.values():
        out.extend((edition.name, name) for name in _SHARED_RANK_NAMES.values())
        if edition.special_name is not None:
            out.append((edition.name, edition.special_name))
    return out


def default_language(environ: Mapping[str, str] | None = None) -> str:
    """The language of the locale (``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``, ``LANG``), else English.

    >>> default_language({"LANG": "pt_BR.UTF-8"}), default_language({"LANG": "de_DE"})
    ('pt', 'en')
    >>> default_language({"LANGUAGE": "fr:en", "LANG": "es_ES.UTF-8"})
    'fr'
    """
    env = os.environ if environ is None else environ
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(var, "")
        if not value:
            continue
        for part in value.split(":"):
            code = part.split(".")[0].split("@")[0].split("_")[0].lower()
            if code in LANGUAGES:
                return code
        if var != "LANGUAGE":
            # The first set locale variable decides (as in C); C/POSIX and others mean English.
            return "en"
    return "en"


class Translator:
    """The messages of one language. ``_``, ``ngettext`` and ``pgettext`` as in :mod:`gettext`."""

    def __init__(self, lang: str, catalog: gettext.NullTranslations) -> None:
        self.lang = lang
        self.catalog = catalog

    def _(self, message: str) -> str:
        """Translate ``message``."""
        return self.catalog.gettext(message)

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        """Translate the form of ``singular``/``plural`` that fits ``n``."""
        return self.catalog.ngettext(singular, plural, n)

    def pgettext(self, context: str, message: str) -> str:
        """Translate ``message`` in ``context``."""
        return self.catalog.pgettext(context, message)

    def agree(self, text: str) -> str:
        """``text`` with each player's name in the case its article asks for: a message puts
        ``Player {n}`` in the nominative, and Greek declines it after ``του``/``τον``.

        >>> translator("el").agree("Ο Παίκτης 1 τσακώνει τον Παίκτης 2.")
        'Ο Παίκτης 1 τσακώνει τον Παίκτη 2.'
        """
        rule = _OBLIQUE.get(self.lang)
        if rule is None:
            return text
        pattern, oblique = rule

        def decline(m: re.Match[str]) -> str:
            out = f"{m.group(1)} {oblique} {m.group(2)}"
            if m.group(3):
                out += m.group(3) + (oblique if m.group(4) else "")
            return out

        return pattern.sub(decline, text)

    def color(self, color: int) -> str:
        """A colour's name (``0 … 3``)."""
        return self.pgettext("colour", COLOR_WORDS[color])

    def card_name(self, c: Card, edition: str) -> str:
        """A card in words, as that edition's sheet in this language names it: ``red 7``."""
        rank = CARD_RANK[c]
        if c >= WILD:
            return self.pgettext(edition, _RANK_NAMES[rank])
        name = str(rank) if rank < 10 else self.pgettext(edition, _RANK_NAMES[rank])
        return self._("{color} {card}").format(color=self.color(CARD_COLOR[c]), card=name)


def translator(lang: str) -> Translator:
    """The :class:`Translator` of ``lang`` (one of :data:`LANGUAGES`); raises UnoError otherwise."""
    if lang not in LANGUAGES:
        raise UnoError(f"unknown language {lang!r} (choose from {', '.join(LANGUAGES)})")
    if lang == "en":
        return Translator(lang, gettext.NullTranslations())
    try:
        catalog = gettext.translation(DOMAIN, localedir=str(LOCALE_DIR), languages=[lang])
    except OSError as exc:
        raise UnoError(f"the {lang!r} message catalogue is missing: {exc}") from None
    return Translator(lang, catalog)


def compile_catalogs(locale_dir: Path = LOCALE_DIR) -> list[Path]:
    """Compile every ``.po`` under ``locale_dir`` to its ``.mo`` with Babel; returns the ``.mo`` paths."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    written: list[Path] = []
    for po in sorted(locale_dir.glob("*/LC_MESSAGES/*.po")):
        with po.open("rb") as f:
            catalog = read_po(f, locale=po.parts[-3])
        mo = po.with_suffix(".mo")
        with mo.open("wb") as f:
            write_mo(f, catalog, use_fuzzy=False)
        written.append(mo)
    return written


__all__ = ["BOT_LABELS", "LANGUAGES", "LANGUAGE_NAMES", "N_", "Translator", "compile_catalogs",
           "default_language", "dynamic_messages", "translator"]

if __name__ == "__main__":
    for path in compile_catalogs():
        print(path)

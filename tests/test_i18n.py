"""The translation catalogues are complete: no message the player sees falls back to English."""

from __future__ import annotations

import gettext
import io
from pathlib import Path

import pytest

from conftest import placeholder_errors
from unokit.core.cards import parse_card
from unokit.core.editions import EDITIONS
from unokit.text.help import help_path, help_text
from unokit.text.i18n import LANGUAGES, LOCALE_DIR, default_language, dynamic_messages, translator

babel = pytest.importorskip("babel")
from babel.messages.extract import extract_from_file  # noqa: E402
from babel.messages.mofile import write_mo  # noqa: E402
from babel.messages.pofile import read_po  # noqa: E402

SRC = Path(__file__).resolve().parent.parent / "src" / "unokit"
SOURCES = [*sorted((SRC / "text").rglob("*.py")), SRC / "narrate.py", SRC / "commands" / "play.py",
           *sorted((SRC / "tui").glob("*.py"))]
KEYWORDS = {"_": None, "ngettext": (1, 2), "pgettext": ((1, "c"), 2), "N_": None, "Nn_": (1, 2)}
TRANSLATED = [lang for lang in LANGUAGES if lang != "en"]


def source_messages() -> set[tuple[str | None, str | tuple[str, ...]]]:
    """Every message the player can see: those marked in the source, and the card names."""
    found: set[tuple[str | None, str | tuple[str, ...]]] = set()
    for path in SOURCES:
        for _line, message, _comments, context in extract_from_file("python", str(path), keywords=KEYWORDS):
            found.add((context, message))
    found.update(dynamic_messages())
    return found


def load_po(lang: str):  # type: ignore[no-untyped-def]
    path = LOCALE_DIR / lang / "LC_MESSAGES" / "unokit.po"
    with path.open("rb") as f:
        return read_po(f, locale=lang)


def test_sources_have_messages() -> None:
    messages = source_messages()
    assert len(messages) > 100
    assert (None, "Your hand") in messages and ("cars2", "Special Agent Mater") in messages


@pytest.mark.parametrize("lang", TRANSLATED)
def test_catalogue_is_complete(lang: str) -> None:
    catalog = load_po(lang)
    assert catalog.num_plurals == 2
    missing, wrong = placeholder_errors(lang, catalog, source_messages())
    assert not wrong, wrong
    assert not missing, f"{lang}: untranslated: {missing}"


@pytest.mark.parametrize("lang", TRANSLATED)
def test_compiled_catalogue_matches_the_po(lang: str) -> None:
    buf = io.BytesIO()
    write_mo(buf, load_po(lang), use_fuzzy=False)
    buf.seek(0)
    fresh = gettext.GNUTranslations(buf)
    shipped = translator(lang).catalog
    assert isinstance(shipped, gettext.GNUTranslations)
    assert fresh._catalog == shipped._catalog, "run: python -m unokit.text.i18n"  # type: ignore[attr-defined]


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_message_is_translated_at_run_time(lang: str) -> None:
    tr = translator(lang)
    same = []
    for context, message in source_messages():
        if isinstance(message, tuple):
            got = tr.ngettext(message[0], message[1], 5)
            english = message[1]
        elif context:
            got = tr.pgettext(context, message)
            english = message
        else:
            got = tr._(message)
            english = message
        if got == english:
            same.append(message)
    # Words that are the same in the language (card codes, "Total", placeholders only).
    allowed = {"{who}: {cards}", "u UNO", "Total", "Table", "{color} {card}", "Agent P"}
    assert set(same) <= allowed, f"{lang}: falls back to English: {set(same) - allowed}"


def test_card_names_follow_each_sheet() -> None:
    wd4 = parse_card("W+4")
    assert translator("es").card_name(wd4, "classic") == "Comodín Roba Cuatro"
    assert translator("es").card_name(wd4, "phineas-ferb") == "Comodín Roba 4"
    assert translator("pt").card_name(parse_card("Y+2"), "classic") == "Bisca 2 amarelo"
    assert translator("pt").card_name(parse_card("WM"), "cars2") == "Agente Especial Mate"
    assert translator("fr").card_name(parse_card("RS"), "cars2") == "Passer rouge"
    assert translator("el").card_name(parse_card("GR"), "classic") == "πράσινο Αλλάζει η Φορά"
    assert translator("en").card_name(parse_card("B7"), "classic") == "blue 7"


def test_default_language_comes_from_the_locale() -> None:
    assert default_language({"LANG": "es_ES.UTF-8"}) == "es"
    assert default_language({"LC_ALL": "el_GR.UTF-8", "LANG": "fr_FR"}) == "el"
    assert default_language({"LANG": "C"}) == "en"
    assert default_language({}) == "en"


def test_unknown_language_is_an_error() -> None:
    from unokit.core.errors import UnoError

    with pytest.raises(UnoError, match="unknown language"):
        translator("de")


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("edition", EDITIONS)
def test_help_exists_for_every_edition_and_language(lang: str, edition: str) -> None:
    assert help_path(edition, lang).is_file() and help_path(edition, lang, "rules").is_file()
    text = help_text(edition, lang)
    assert "W+4" in text and "| " in text


def test_greek_names_take_the_case_of_their_article() -> None:
    el = translator("el")
    assert el.agree("Ο Παίκτης 1 τσακώνει τον Παίκτης 2.") == "Ο Παίκτης 1 τσακώνει τον Παίκτη 2."
    assert el.agree("το W+4 του Παίκτης 10: μπλόφα") == "το W+4 του Παίκτη 10: μπλόφα"
    assert el.agree("Αναμονή για τον Παίκτης 3…") == "Αναμονή για τον Παίκτη 3…"
    assert el.agree("του Παίκτης 1 και Παίκτης 3") == "του Παίκτη 1 και Παίκτη 3"
    assert el.agree("Ο Παίκτης 1 και Παίκτης 3 κερδίζουν") == "Ο Παίκτης 1 και Παίκτης 3 κερδίζουν"
    for lang in ("en", "es", "pt", "fr"):
        assert translator(lang).agree("del Jugador 1 του Παίκτης 2") == "del Jugador 1 του Παίκτης 2"


@pytest.mark.parametrize("lang", TRANSLATED)
def test_bot_names_are_translated(lang: str) -> None:
    from unokit.bots.registry import bot_names
    from unokit.tui.session import bot_word

    tr = translator(lang)
    for name in bot_names():
        assert bot_word(tr, name) != name, (lang, name)

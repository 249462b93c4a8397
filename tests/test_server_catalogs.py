"""``GET /api/i18n/{lang}`` and ``GET /api/rules/{lang}/{edition}``: the browser gets the very
catalogues and rules help the terminal game reads, and can translate with them exactly as
gettext does."""

from __future__ import annotations

import gettext

import pytest

from test_server_support import app_client
from unokit.server.catalogs import catalog_json, evaluate, plural_tree
from unokit.text.help import help_text
from unokit.text.i18n import DOMAIN, LANGUAGES, LOCALE_DIR, dynamic_messages

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != "en"])
def test_the_json_catalogue_translates_as_gettext_does(lang: str) -> None:
    data = catalog_json(lang)
    tr = gettext.translation(DOMAIN, localedir=str(LOCALE_DIR), languages=[lang])
    for msgid, msgstr in data["messages"].items():
        context, sep, message = msgid.partition("\x04")
        if sep:
            assert tr.pgettext(context, message) == msgstr
        else:
            assert tr.gettext(msgid) == msgstr
    for context, message in dynamic_messages():  # every card name and colour, by context
        assert data["messages"][f"{context}\x04{message}"] == tr.pgettext(context, message)
    assert data["plurals"], "the catalogue has plural messages"
    for singular, forms in data["plurals"].items():
        assert len(forms) == data["nplurals"]
        for n in range(0, 130):
            assert forms[evaluate(data["plural"], n)] == tr.ngettext(singular, singular + " (plural)", n)


def test_english_has_no_catalogue_and_the_plural_rule_of_english() -> None:
    data = catalog_json("en")
    assert data["messages"] == {} and data["plurals"] == {}
    assert [evaluate(data["plural"], n) for n in (0, 1, 2)] == [1, 0, 1]


@pytest.mark.parametrize("header", [
    "nplurals=2; plural=(n != 1);",
    "nplurals=2; plural=(n > 1);",
    "nplurals=1; plural=0;",
    "nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);",
    "nplurals=4; plural=(n==1 ? 0 : n==0 || ( n%100>1 && n%100<11) ? 1 : (n%100>10 && n%100<20 ) ? 2 : 3);",
    "nplurals=6; plural=(n==0 ? 0 : n==1 ? 1 : n==2 ? 2 : n%100>=3 && n%100<=10 ? 3 : n%100>=11 ? 4 : 5);",
])
def test_the_plural_tree_is_gettexts_expression(header: str) -> None:
    expression = header.split("plural=")[1].rstrip(";")
    expected = gettext.c2py(expression)
    tree = plural_tree(header)
    assert all(evaluate(tree, n) == expected(n) for n in range(0, 1001))


def test_the_endpoints() -> None:
    with app_client() as client:
        fr = client.get("/api/i18n/fr")
        assert fr.status_code == 200 and fr.json()["messages"]["Player {n}"] == "Joueur {n}"
        assert client.get("/api/i18n/xx").status_code == 404
        rules = client.get("/api/rules/es/cars2").json()
        assert rules["markdown"] == help_text("cars2", "es")
        assert rules["edition_markdown"].startswith("#") and rules["rules_markdown"]
        assert client.get("/api/rules/es/uno-flip").status_code == 404
        assert client.get("/api/rules/xx/classic").status_code == 404

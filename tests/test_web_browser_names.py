"""The players' names in real Chromium (docs/web.md): two people (one with markup in their
name) and a bot play a short stacked match; each page's log, the result and the tab's title
name the others by their display names and the reader as "you", and a name is shown as text.
The new-room form's options come from ``GET /api/config``.

Runs as ``tests/test_web_browser.py`` does (its server, browser and pages), and skips with it.
"""

from __future__ import annotations

from typing import Any

from test_web_browser import Pages, browser, log_has, open_app, pages, server, table  # noqa: F401

MARKUP = "<img src=x onerror=z=1>"
"""A name that would run a script if a page read it as HTML."""


def _room(page: Any, base: str) -> str:
    """A room with a stacked deal, made through the client's own code: Ana (this page) at seat
    0, a seat kept for a person, a heuristic bot; a match to 1 point that Ana wins in two plays
    while the others draw and pass. Returns the code."""
    open_app(page, base)
    form = {"name": "Ana", "edition": "classic", "players": 3, "bots": [None, "heuristic"],
            "options": {"target": 1}, "public": False, "bot_delay": 0, "between_rounds": 0, "forget_uno": 0,
            "seed": 1, "deal": {"dealer": 2, "hands": [["R5", "R7"], ["G1", "G2"], ["B1", "B2"]],
                                "discard": "R3", "draw": ["Y9", "Y8", "Y6", "Y4", "G8", "B8"]}}
    return str(page.evaluate("""async (form) => {
        const net = await import("/static/net.js");
        return (await net.createRoom(form)).code;
    }""", form))


def test_the_log_the_result_and_the_title_name_the_players_and_you(pages: Pages) -> None:  # noqa: F811
    base = pages.base
    ana = pages.new()
    code = _room(ana, base)
    ana.goto(f"{base}/r/{code}")
    ana.wait_for_selector("#start-match")
    other = pages.new()
    other.goto(f"{base}/r/{code}")
    other.wait_for_selector("#join-name")
    other.fill("#join-name", MARKUP)
    other.click("#join-button")
    ana.locator('#seat-list li[data-seat="1"]', has_text=MARKUP).wait_for()
    ana.click("#start-match")
    table(ana)
    table(other)
    ana.wait_for_function("() => document.title.startsWith('Your turn')")
    ana.click("#act-uno")
    ana.locator('#hand button.card.playable[data-card="R5"]').click()
    log_has(ana, "You play red 5.")
    log_has(ana, "You call UNO!")
    log_has(other, "Ana plays red 5.")
    ana.wait_for_function("(who) => document.title.startsWith(`Waiting for ${who}…`)", arg=MARKUP)
    other.wait_for_function("() => document.title.startsWith('Your turn')")
    other.click("#act-draw")
    other.locator("#act-pass:enabled").click()
    log_has(other, "You draw a card.")
    log_has(other, "You keep the card and pass.")
    log_has(ana, f"{MARKUP} draws a card.")
    log_has(ana, f"{MARKUP} keeps the card and passes.")
    for p in (ana, other):
        log_has(p, "Heuristic bot 3 draws a card.")
    ana.wait_for_function("() => document.title.startsWith('Your turn')")
    ana.locator('#hand button.card.playable[data-card="R7"]').click()
    for p in (ana, other):
        p.wait_for_selector("#round-end:not([hidden]) #score-table")
    log_has(ana, "You went out: the round is over.")
    log_has(other, "Ana went out: the round is over.")
    assert ana.locator("#round-end-title").inner_text() == "You won the game!"
    assert other.locator("#round-end-title").inner_text() == "Ana won the game!"
    ana.wait_for_function("(code) => document.title === `You won the game! — ${code} — unokit`", arg=code)
    other.wait_for_function("(code) => document.title === `Ana won the game! — ${code} — unokit`", arg=code)
    for p in (ana, other):
        assert p.evaluate("() => window.z") is None
        assert p.locator("main img").count() == 0
        assert "Player 1" not in p.locator("#log").inner_text()


def test_the_new_room_form_offers_the_servers_options(pages: Pages) -> None:  # noqa: F811
    page = pages.new()
    open_app(page, pages.base)
    config = page.evaluate("async () => (await fetch('/api/config')).json()")
    target, hand_size = config["options"]["target"], config["options"]["hand_size"]
    field = page.locator("#opt-target")
    assert field.input_value() == str(target["default"])
    assert field.get_attribute("max") == str(target["max"])
    assert field.get_attribute("min") == str(target["min"])
    assert page.locator("#opt-hand_size").get_attribute("max") == str(hand_size["max"])
    house = page.locator("#new-room details").nth(1)
    assert house.locator("#opt-stacking").count() == 1 and house.locator("#opt-target").count() == 0
    assert page.locator("#opt-stacking option").all_text_contents() == [
        "Off", "Draw Two on Draw Two, Wild Draw Four on Wild Draw Four",
        "Also a Wild Draw Four on a Draw Two"]
    assert page.locator('label[for="opt-jump_in"]').text_content() == "Jump in with an identical card"
    names = page.locator("#lang-select option").all_inner_texts()
    assert names == [config["language_names"][code] for code in config["languages"]]
    page.select_option("#lang-select", "es")
    page.locator('label[for="opt-jump_in"]', has_text="idéntica").wait_for(state="attached")

"""A fair table in real Chromium (docs/web.md), against ``unokit serve --dev`` as in
tests/test_web_browser.py: "play and call UNO!" on the card itself; the large UNO! in reach
after a play without a call, in time before the bot catches; the large Catch! of a bot that
forgot; the countdown of a person's turn; the banner of a bot playing for you and "I'm back";
the host's seat changes in the lobby; the page of a person removed, and of a room that does not
exist. At most two browser contexts a test, so that the per-address limits are not reached.
"""

from __future__ import annotations

import time
from typing import Any

from test_web_browser import Pages, browser, card, log_has, open_app, pages, server, stacked_room, start

__all__ = ["browser", "pages", "server"]  # the fixtures, imported for the tests here

DRAW = ["Y1", "Y2", "Y3", "Y4", "Y5", "Y6", "Y7", "Y8"]


def _two_cards(page: Any, base: str, **settings: Any) -> None:
    stacked_room(page, base, "classic", hands=[["R7", "G8"], ["B1", "B2", "B3", "B4"]], discard="R1",
                 draw=DRAW, dealer=1, bots=["heuristic"], **settings)


def test_play_and_call_uno_at_the_card_itself(pages: Pages) -> None:
    page = pages.new()
    _two_cards(page, pages.base, reaction=0)
    card(page, "R7").wait_for()
    assert not page.locator('.uno-play[data-card="G8"]').count()  # not playable now
    page.click('.uno-play[data-card="R7"]')
    log_has(page, "You call UNO!")
    assert not page.locator("#log li", has_text="catches you").count()


def test_the_large_uno_stays_in_reach_and_a_late_call_is_in_time(pages: Pages) -> None:
    page = pages.new()
    _two_cards(page, pages.base, reaction=4)
    page.click('#hand button.card.playable[data-card="R7"]')  # no call with the play
    page.wait_for_selector("#big-uno")
    time.sleep(1.5)
    assert page.locator("#big-uno").is_visible()
    page.click("#big-uno")
    log_has(page, "You call UNO!")
    assert not page.locator("#log li", has_text="catches you").count()
    page.wait_for_selector("#big-uno", state="detached")


def test_the_large_catch_of_a_bot_that_forgot(pages: Pages) -> None:
    page = pages.new()
    hands = [["R5", "G1", "G2"], ["R6", "R9"], ["B1", "B2", "B3", "B4"]]
    stacked_room(page, pages.base, "classic", hands=hands, discard="R1", draw=DRAW, dealer=2,
                 bots=["heuristic", "heuristic"], forget_uno=1, reaction=4)
    page.click('#hand button.card.playable[data-card="R5"]')
    page.wait_for_selector("#big-catch-1")
    time.sleep(1.0)
    page.click("#big-catch-1")
    log_has(page, "You catch Heuristic bot 2 without an UNO call.")


def test_the_countdown_the_away_banner_and_im_back(pages: Pages) -> None:
    page = pages.new()
    stacked_room(page, pages.base, "classic", hands=[["R5", "R6", "G1", "G2"], ["R7", "R8", "B3", "B4"]],
                 discard="R1", draw=DRAW, dealer=1, bots=["heuristic"], turn_timeout=3, reaction=6)
    page.wait_for_selector("#countdown:not([hidden])")
    assert int(page.locator("#countdown").inner_text()) in (1, 2, 3)
    page.wait_for_selector("#away-banner")  # the time ran out: a bot plays for us
    assert "A bot is playing for you." in page.locator("#away-banner").inner_text()
    page.click("#im-back")
    page.wait_for_selector("#away-banner", state="detached")
    page.wait_for_selector("#countdown:not([hidden])")  # our own turn_timeout again, once on turn


def test_the_host_changes_a_bots_level_and_opens_its_seat(pages: Pages) -> None:
    page = pages.new()
    open_app(page, pages.base)
    code = page.evaluate("""async () => {
        const net = await import("/static/net.js");
        return (await net.createRoom({name: "Ana", edition: "classic", players: 3,
                                      bots: ["heuristic", "heuristic"], options: {}})).code;
    }""")
    page.goto(f"{pages.base}/r/{code}")
    row = '#seat-list li[data-seat="{}"]'
    page.select_option(row.format(2) + ' select[aria-label="Level of Player 3"]', "hard")
    page.locator(row.format(2), has_text="Hard bot").wait_for()
    page.click(row.format(1) + ' button[aria-label="Open Player 2 for a person"]')
    page.locator(row.format(1), has_text="open seat").wait_for()
    start(page)
    assert "Hard bot" in page.locator('.seat[data-seat="2"]').inner_text()


def test_a_person_removed_sees_only_that(pages: Pages) -> None:
    ana = pages.new()
    open_app(ana, pages.base)
    code = ana.evaluate("""async () => {
        const net = await import("/static/net.js");
        const form = {name: "Ana", edition: "classic", players: 2, bots: [null], options: {}};
        return (await net.createRoom(form)).code;
    }""")
    ana.goto(f"{pages.base}/r/{code}")
    bea = pages.new()
    open_app(bea, pages.base, f"/r/{code}")
    bea.fill("#join-name", "Bea")
    bea.click("#join-button")
    bea.locator('#seat-list li[data-seat="1"]', has_text="you").wait_for()
    ana.click('#seat-list li[data-seat="1"] button[aria-label="Kick Player 2"]')
    bea.locator("#fatal", has_text="You were removed from this room.").wait_for()
    assert bea.locator("#room-lobby").is_hidden() and bea.locator("#table").is_hidden()
    assert not bea.locator(".badge-you:visible").count()
    bea.reload()
    bea.wait_for_selector("#join-name")  # the page is no seat's any more: it may join again


def test_a_room_that_does_not_exist_says_only_so(pages: Pages) -> None:
    page = pages.new()
    open_app(page, pages.base, "/r/ZZZZZZ")
    page.locator("#fatal", has_text="There is no room with that code.").wait_for()
    time.sleep(0.5)
    assert page.locator("#room-lobby").is_hidden()
    assert not page.get_by_text("Connecting…").is_visible()
    assert page.locator("#conn-banner").is_hidden()

"""The table's layout in real Chromium (docs/web.md, "The table"): on a phone upright (390 x 844)
and on its side (844 x 390), with touch and mobile emulation, and on a desktop (1440 x 900),
with 2, 4 and 10 players and hands of 7 and 25 cards, every card of the hand and the Draw and
UNO! controls lie in the viewport on your turn without scrolling, each at least 44 px, and so
does a wild's colour picker; the round's end is an overlay in view; the other seats keep their
places across a Reverse; the hands you were shown leave out a card once it is played; back from
the background, the page reconnects silently.

A server of its own (``unokit serve --dev --rate-limit 0``: many rooms in a few seconds), rooms
with a stacked first deal. Skipped like tests/test_web_browser.py without Playwright or Chromium.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import test_web_browser as web
from test_web_browser import CHROMIUM, TIMEOUT_MS, _free_port, stop

VIEWPORTS = {"phone": (390, 844, True), "phone-side": (844, 390, True), "desktop": (1440, 900, False)}


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """``unokit serve --dev`` without rate limits, on 127.0.0.2 (apart from the other modules)."""
    folder = tmp_path_factory.mktemp("table")
    port = _free_port()
    proc = serve(folder, port)
    yield f"http://127.0.0.2:{port}"
    stop(proc)


def serve(folder: Path, port: int) -> Any:
    import subprocess
    import sys
    import time

    with (folder / "server.log").open("a") as log:
        proc = subprocess.Popen(
            [sys.executable, "-m", "unokit", "serve", "--dev", "--host", "127.0.0.2", "--port", str(port),
             "--rate-limit", "0", "--rooms-per-address", "0", "--sockets-per-address", "0",
             "--database", f"sqlite:///{folder / 'rooms.db'}", "--log-level", "warning"],
            stdout=log, stderr=subprocess.STDOUT, cwd=folder)
    deadline = time.monotonic() + 30
    while not web._up(f"http://127.0.0.2:{port}"):
        if proc.poll() is not None or time.monotonic() > deadline:
            proc.kill()
            pytest.fail("unokit serve did not start:\n" + (folder / "server.log").read_text())
        time.sleep(0.1)
    return proc


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with web.sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM)
        yield b
        b.close()


@pytest.fixture
def contexts(browser: Any) -> Iterator[Any]:
    made: list[Any] = []
    errors: list[str] = []

    def new(view: str) -> Any:
        width, height, phone = VIEWPORTS[view]
        ctx = browser.new_context(viewport={"width": width, "height": height}, is_mobile=phone,
                                  has_touch=phone, reduced_motion="reduce", locale="en-US")
        ctx.set_default_timeout(TIMEOUT_MS)
        made.append(ctx)
        page = ctx.new_page()
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        return page

    yield new
    for ctx in made:
        ctx.close()
    assert not errors, errors


def classic_deck() -> list[str]:
    ranks = ["0"] + [r for r in ["1", "2", "3", "4", "5", "6", "7", "8", "9", "S", "R", "+2"] for _ in (1, 2)]
    return [c + r for r in ranks for c in "RYGB"] + ["W", "W+4"] * 4


def deal(players: int, mine: int, first: list[str] | None = None, discard: str = "G5") -> dict[str, Any]:
    """Seat 0 plays first with ``mine`` cards (``first`` among them), every other seat 7."""
    deck = classic_deck()
    deck.remove(discard)
    for code in first or []:
        deck.remove(code)
    hands = [(first or []) + deck[:mine - len(first or [])]]
    deck = deck[mine - len(first or []):]
    for _ in range(players - 1):
        hands.append(deck[:7])
        deck = deck[7:]
    return {"dealer": players - 1, "hands": hands, "discard": discard, "draw": deck[:12]}


def room(page: Any, base: str, players: int, the_deal: dict[str, Any], edition: str = "classic",
         bots: list[str] | None = None, **settings: Any) -> None:
    page.goto(base + "/")
    page.wait_for_selector("body.ready")
    form = {"name": "Ana", "edition": edition, "players": players, "public": False,
            "bots": bots or ["heuristic"] * (players - 1), "options": {}, "bot_delay": 0, "between_rounds": 0,
            "forget_uno": 0, "seed": 1, "deal": the_deal, **settings}
    code = page.evaluate("async (f) => (await (await import('/static/net.js')).createRoom(f)).code", form)
    page.goto(f"{base}/r/{code}")
    page.wait_for_selector("#start-match")
    page.click("#start-match")
    page.wait_for_selector("#table:not([hidden])")


def in_view(page: Any, selector: str) -> list[str]:
    """What of ``selector`` lies outside the viewport or under 44 x 44 px (nothing: empty)."""
    return list(page.evaluate("""(sel) => {
        const w = window.innerWidth, h = window.innerHeight, bad = [];
        for (const el of document.querySelectorAll(sel)) {
            const r = el.getBoundingClientRect();
            const name = el.dataset.card || el.id || el.className;
            const out = r.left < 0 || r.top < 0 || r.right > w + 0.5 || r.bottom > h + 0.5;
            if (out) bad.push(`${name} at ${r.left},${r.top},${r.right},${r.bottom} of ${w}x${h}`);
            if (r.width < 44 || r.height < 44) bad.push(`${name} is ${r.width}x${r.height}`);
        }
        return bad;
    }""", selector))


@pytest.mark.parametrize("view", list(VIEWPORTS))
@pytest.mark.parametrize("players", [2, 4, 10])
@pytest.mark.parametrize("mine", [7, 25])
def test_your_hand_and_moves_fit_the_screen_on_your_turn(contexts: Any, base: str, view: str, players: int,
                                                         mine: int) -> None:
    page = contexts(view)
    room(page, base, players, deal(players, mine))
    page.wait_for_selector("#hand button.card.playable")
    assert page.locator("#hand button.card").count() == mine
    assert page.evaluate("() => window.scrollY") == 0
    bad = in_view(page, "#hand button.card, #act-draw, #act-uno, #draw-pile")
    assert not bad, bad
    assert page.evaluate("() => document.documentElement.scrollWidth") <= VIEWPORTS[view][0]
    # The seats around the table do not overlap one another, nor the piles.
    boxes = page.locator("#opponents .seat, #center .piles").evaluate_all(
        "els => els.map(e => { const r = e.getBoundingClientRect(); "
        "return [r.left, r.top, r.right, r.bottom]; })")
    assert len(boxes) == players
    for i, a in enumerate(boxes):
        for b in boxes[i + 1:]:
            apart = a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1]
            assert apart, f"{a} overlaps {b}"


@pytest.mark.parametrize("view", list(VIEWPORTS))
def test_the_colour_picker_is_in_view_with_the_hand(contexts: Any, base: str, view: str) -> None:
    page = contexts(view)
    room(page, base, 10, deal(10, 25, first=["W"]))
    page.locator('#hand button.card.playable[data-card="W"]').click()
    page.wait_for_selector("#picker .color-btn")
    assert page.locator("#picker .color-btn").count() == 4
    bad = in_view(page, "#picker .btn, #hand button.card, #act-uno")
    assert not bad, bad
    assert page.evaluate("() => window.scrollY") == 0


def places(page: Any) -> dict[str, tuple[int, int]]:
    got = page.locator("#opponents .seat").evaluate_all(
        "els => els.map(e => { const r = e.getBoundingClientRect(); "
        "return [e.dataset.seat, Math.round(r.left), Math.round(r.top)]; })")
    return {seat: (x, y) for seat, x, y in got}


@pytest.mark.parametrize("view", ["phone", "desktop"])
def test_the_seats_keep_their_places_across_a_reverse(contexts: Any, base: str, view: str) -> None:
    page = contexts(view)
    room(page, base, 4, deal(4, 7, first=["GR"]), bot_delay=0.3)
    page.wait_for_selector("#hand button.card.playable")
    before = places(page)
    assert page.locator("#direction").get_attribute("data-direction") == "1"
    # Play goes from seat 0 to seat 1 first: on your left, then over the top to your right.
    assert before["1"][0] < before["2"][0] < before["3"][0]
    page.locator('#hand button.card.playable[data-card="GR"]').click()
    page.wait_for_selector('#direction[data-direction="-1"]')
    assert places(page) == before
    page.wait_for_selector("#hand button.card.playable")
    assert places(page) == before


def test_the_round_end_is_an_overlay_in_view(contexts: Any, base: str) -> None:
    page = contexts("phone")
    the_deal = {"dealer": 1, "hands": [["G7"], ["R1", "R2", "R3"]], "discard": "G5", "draw": ["B1", "B2"]}
    room(page, base, 2, the_deal, between_rounds=120)
    page.locator('#hand button.card.playable[data-card="G7"]').click()
    page.wait_for_selector("#round-end:not([hidden]) #score-table")
    bad = in_view(page, "#ready-button")
    assert not bad, bad
    box = page.locator("#round-end").bounding_box()
    assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= 844


def test_the_hands_you_were_shown_leave_out_the_cards_played_since(contexts: Any, base: str) -> None:
    page = contexts("phone")
    the_deal = {"dealer": 1, "hands": [["WM", "R3", "G8"], ["Y5", "B7", "B9", "R6"]], "discard": "G2",
                "draw": ["R1", "R2", "G1", "G4"]}
    room(page, base, 2, the_deal, edition="cars2", bot_delay=0.3)
    page.locator('#hand button.card.playable[data-card="WM"]').click()
    page.locator('#picker button[data-color="Y"]').click()
    page.wait_for_selector("#seen-panel:not([hidden])")
    assert "What you were shown" in page.locator("#seen-panel").inner_text()
    assert "Seen in round 1, move 1" in page.locator('#seen-list li[data-seat="1"]').inner_text()
    bad = in_view(page, "#seen-close")
    assert not bad, bad
    # The bot's only yellow card is played on the Mater's yellow: the overlay drops it.
    page.wait_for_selector('#discard .card[data-card="Y5"]')
    seen = web.cards_in(page, '#seen-list li[data-seat="1"] .card')
    assert sorted(seen) == ["B7", "B9", "R6"]
    # Closed, it opens again from the table.
    page.click("#seen-close")
    page.wait_for_selector("#seen-panel", state="hidden")
    page.click("#seen-open")
    page.wait_for_selector("#seen-panel:not([hidden])")


def test_back_from_the_background_the_page_reconnects_silently(contexts: Any, base: str) -> None:
    page = contexts("phone")
    sockets: list[Any] = []
    page.on("websocket", lambda ws: sockets.append(ws))
    room(page, base, 2, deal(2, 7))
    page.wait_for_selector("#hand button.card.playable")
    opened = len(sockets)
    page.evaluate("""() => {
        const set = (state) => {
            Object.defineProperty(document, "visibilityState", { value: state, configurable: true });
            document.dispatchEvent(new Event("visibilitychange"));
        };
        set("hidden");
        const now = Date.now;
        Date.now = () => now() + 60000;  // a minute in the background
        set("visible");
        Date.now = now;
    }""")
    deadline = page.evaluate("() => Date.now()") + 5000
    while len(sockets) == opened and page.evaluate("() => Date.now()") < deadline:
        page.wait_for_timeout(50)
        assert page.locator("#conn-banner").is_hidden()
    assert len(sockets) == opened + 1
    page.wait_for_selector("#hand button.card.playable")
    assert page.locator("#conn-banner").is_hidden()
    page.locator("#hand button.card.playable").first.click()  # the new socket plays
    page.locator("#log li", has_text="You play").first.wait_for()

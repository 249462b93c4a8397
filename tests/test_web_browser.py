"""The browser client in real Chromium (docs/web.md): Playwright for Python drives Debian's
``chromium`` against ``unokit serve --dev``, started as a real subprocess on a free port with
an SQLite database in a temporary folder.

Rooms with a stacked deal (``--dev``) make each decision a seat can face arise, and every one
is clicked at least once across the module: play, draw, pass, play the drawn card, name a
colour (for a wild, and for a wild turned up first), call UNO (before the play), catch a
player who did not call, challenge and accept a Wild Draw Four (seeing the challenged hand),
answer with Agent P, choose whom to swap with on a 7, jump in; Mater's peek shows the other
hands. Two people in two browser contexts and a bot play a round to its score table; a reload
comes back to the same seat; a spectator sees no cards; the Greek page renders; a
``<script>`` name does not run; the keys alone play a turn; the page fits 390 px.

Skipped, with the reason, when Playwright, Chromium or the server's packages are missing.
UNOKIT_WEB_SCREENSHOTS=1 also writes the screenshots of docs/web/ (docs/web.md).
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

REQUIRED = os.environ.get("UNOKIT_REQUIRE_BROWSER") == "1"
"""Set by .ci/run: a missing browser or package fails these tests instead of skipping them."""


def _missing(why: str) -> None:
    how = (f"{why}; to run the browser tests: bash scripts/test.sh as root (it installs Debian's "
           "chromium), or apt-get install chromium and pip install playwright")
    if REQUIRED:
        pytest.fail(how, pytrace=False)
    pytest.skip(how, allow_module_level=True)


try:
    from playwright import sync_api
except ImportError:
    _missing("Playwright is not installed")
for _module in ("fastapi", "uvicorn", "sqlalchemy", "alembic"):
    try:
        __import__(_module)
    except ImportError:
        _missing(f"unokit serve needs {_module} (the web extra)")

CHROMIUM = os.environ.get("UNOKIT_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
if not Path(CHROMIUM).exists():
    _missing("Debian's chromium is not installed")

ROOT = Path(__file__).resolve().parent.parent
SHOTS = ROOT / "docs" / "web"
WRITE_SHOTS = os.environ.get("UNOKIT_WEB_SCREENSHOTS") == "1"
TIMEOUT_MS = 15_000

CLICKED: set[str] = set()
"""The kinds of decision clicked so far in this module (checked by the last test)."""
DECISIONS = {"play", "draw", "pass", "play_drawn", "color_wild", "color_first", "uno", "catch", "challenge",
             "accept", "agent_p", "swap", "jump_in", "ready"}


# ---------------------------------------------------------------------- the server and the browser


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _up(base: str) -> bool:
    for path in ("/api/health", "/healthz"):
        try:
            with urllib.request.urlopen(base + path, timeout=1) as res:
                if res.status == 200:
                    return True
        except OSError:
            continue
    return False


def serve(folder: Path, port: int) -> subprocess.Popen[bytes]:
    """Start ``unokit serve --dev`` on ``port`` with the database of ``folder``; wait for it. Every
    page of these tests comes from 127.0.0.1, so the rooms and sockets one address may hold are
    lifted (the limits have tests of their own, in ``test_server_limits.py``)."""
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    with (folder / "server.log").open("a") as log:
        proc = subprocess.Popen(
            [sys.executable, "-m", "unokit", "serve", "--dev", "--host", "127.0.0.1", "--port", str(port),
             "--database", f"sqlite:///{folder / 'rooms.db'}", "--log-level", "warning",
             "--rooms-per-address", "0", "--sockets-per-address", "0"],
            stdout=log, stderr=subprocess.STDOUT, env=env, cwd=folder)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while not _up(base):
        if proc.poll() is not None or time.monotonic() > deadline:
            proc.kill()
            pytest.fail("unokit serve did not start:\n" + (folder / "server.log").read_text())
        time.sleep(0.1)
    return proc


def stop(proc: subprocess.Popen[bytes]) -> None:
    proc.terminate()
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """``unokit serve --dev`` on a free port, with its own SQLite database; its base URL."""
    port = _free_port()
    proc = serve(tmp_path_factory.mktemp("serve"), port)
    yield f"http://127.0.0.1:{port}"
    stop(proc)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM)
        yield b
        b.close()


class Socket:
    """One WebSocket a page opened: its URL and the text frames both ways, decoded."""

    def __init__(self, ws: Any) -> None:
        self.url = str(ws.url)
        self.sent: list[Any] = []
        self.got: list[Any] = []
        ws.on("framesent", lambda payload: self.sent.append(_decode(payload)))
        ws.on("framereceived", lambda payload: self.got.append(_decode(payload)))

    def problems(self) -> list[str]:
        """Where the client or the server broke docs/protocol.md on this socket."""
        found = []
        if not re.fullmatch(r"ws://127\.0\.0\.1:\d+/ws/[A-Z0-9]+", self.url):
            found.append(f"a socket at {self.url}")
        for n, msg in enumerate(self.sent):
            kind = msg.get("type") if isinstance(msg, dict) else None
            if kind not in CLIENT_TYPES:
                found.append(f"sent {msg!r}")
            again = n == 1 and kind == "hello" and "token" in self.sent[0]  # watching after all
            if (n == 0) != (kind == "hello") and not again:
                found.append(f"sent {kind} as message {n}")  # hello first
            elif kind == "act" and not (isinstance(msg.get("version"), int)
                                        and isinstance(msg.get("action"), str)):
                found.append(f"an act without its version: {msg!r}")
        version = None
        for n, msg in enumerate(self.got):
            kind = msg.get("type") if isinstance(msg, dict) else None
            if kind == "error" and set(msg) != {"type", "code", "message"}:
                found.append(f"an error of another shape: {msg!r}")
            if kind == "events":
                if n + 1 == len(self.got):
                    continue  # the page closed in between
                after = self.got[n + 1]
                if not (isinstance(after, dict) and after.get("type") == "state"
                        and after.get("version") == msg["version"]):
                    found.append(f"events of version {msg['version']} not followed by its state")
            if kind == "state":
                v = msg["version"]
                if version is not None and v not in (version, version + 1):
                    found.append(f"state version {v} after {version}")
                version = v
        return found


def _decode(payload: Any) -> Any:
    try:
        return json.loads(payload)
    except (TypeError, ValueError):
        return payload


CLIENT_TYPES = {"hello", "act", "chat", "ready", "kick", "bot", "move", "leave", "rematch", "back"}


class Pages:
    """Browser contexts of one test, each with its own storage (one person each); closed after
    it. Every page's WebSockets are recorded and checked against docs/protocol.md."""

    def __init__(self, browser: Any, base: str) -> None:
        self.browser = browser
        self.base = base
        self.contexts: list[Any] = []
        self.errors: list[str] = []
        self.sockets: list[Socket] = []

    def new(self, locale: str = "en-US", width: int = 1280, height: int = 800) -> Any:
        ctx = self.browser.new_context(locale=locale, viewport={"width": width, "height": height},
                                       reduced_motion="reduce")
        ctx.set_default_timeout(TIMEOUT_MS)
        self.contexts.append(ctx)
        page = ctx.new_page()
        page.on("pageerror", lambda exc: self.errors.append(f"page error: {exc}"))
        page.on("console", self._console)
        page.on("dialog", self._dialog)
        page.on("websocket", lambda ws: self.sockets.append(Socket(ws)))
        return page

    def _console(self, message: Any) -> None:
        text = str(message.text)
        if message.type == "error" and ("Content Security Policy" in text or "Uncaught" in text):
            self.errors.append(f"console: {text}")  # the page broke its own policy

    def _dialog(self, dialog: Any) -> None:
        self.errors.append(f"dialog: {dialog.message}")  # an alert() would be a script that ran
        dialog.dismiss()

    def close(self) -> None:
        for ctx in self.contexts:
            ctx.close()
        for sock in self.sockets:
            self.errors += sock.problems()


@pytest.fixture
def pages(browser: Any, server: str) -> Iterator[Pages]:
    p = Pages(browser, server)
    yield p
    p.close()
    assert not p.errors, p.errors


# ---------------------------------------------------------------------- helpers


def open_app(page: Any, base: str, path: str = "/") -> None:
    page.goto(base + path)
    page.wait_for_selector("body.ready")


def stacked_room(page: Any, base: str, edition: str, hands: list[list[str]], discard: str, draw: list[str],
                 dealer: int, bots: list[str | None], options: dict[str, Any] | None = None,
                 name: str = "Ana", **settings: Any) -> str:
    """Make a room with a stacked first deal through the client's own code (as the new-room
    form does), seat this page at seat 0 as its host, and open the room. Returns the code."""
    deal = {"dealer": dealer, "hands": hands, "discard": discard, "draw": draw}
    return seeded_room(page, base, edition, bots, options, name, deal=deal, **settings)


def seeded_room(page: Any, base: str, edition: str, bots: list[str | None],
                options: dict[str, Any] | None = None, name: str = "Ana", **settings: Any) -> str:
    """Make a seeded room (``settings`` may stack its deal) with this page at seat 0, as its
    host, through the client's own code; open it. Returns the code."""
    open_app(page, base)
    form = {"name": name, "edition": edition, "players": len(bots) + 1, "bots": bots,
            "options": options or {}, "public": False, "bot_delay": 0, "between_rounds": 0, "forget_uno": 0,
            "seed": 1, **settings}
    code = page.evaluate("""async (form) => {
        const net = await import("/static/net.js");
        return (await net.createRoom(form)).code;
    }""", form)
    page.goto(f"{base}/r/{code}")
    page.wait_for_selector("body.ready")
    start(page)
    return str(code)


def start(page: Any) -> None:
    """The host clicks Start: a room never starts by itself, not even with bots at every
    other seat."""
    page.wait_for_selector("#start-match")
    assert page.locator("#table").is_hidden()
    page.click("#start-match")
    table(page)


def table(page: Any) -> None:
    page.wait_for_selector("#table:not([hidden])")


def log_has(page: Any, text: str) -> None:
    page.locator("#log li", has_text=text).first.wait_for()


def cards_in(page: Any, selector: str) -> list[str]:
    """The codes of the cards that ``selector`` finds."""
    return list(page.locator(selector).evaluate_all("els => els.map(e => e.dataset.card)"))


def hand(page: Any) -> list[str]:
    return cards_in(page, "#hand button.card")


def card(page: Any, code: str) -> Any:
    return page.locator(f'#hand button.card.playable[data-card="{code}"]').first


def click(page: Any, selector: str, kind: str) -> None:
    page.locator(selector).first.click()
    CLICKED.add(kind)


def status(page: Any) -> str:
    return str(page.locator("#status").inner_text())


def shot(page: Any, name: str) -> None:
    """Keep a screenshot in docs/web/ (UNOKIT_WEB_SCREENSHOTS=1)."""
    if WRITE_SHOTS:
        SHOTS.mkdir(parents=True, exist_ok=True)
        path = SHOTS / name
        page.screenshot(path=str(path))
        with contextlib.suppress(ImportError):  # a palette of 256 colours keeps the file small
            from PIL import Image

            with Image.open(path) as img:
                small = img.convert("RGB").quantize(256, dither=Image.Dither.NONE)
            small.save(path, optimize=True)


STEPS = (  # (what is on the page, what to click, the kind of decision), in order of preference
    ("#round-end:not([hidden])", None, None),
    ("#picker .color-btn", "#picker .color-btn", "color_wild"),
    (".btn-catch", ".btn-catch", "catch"),
    ("#act-uno.btn-urgent", "#act-uno", "uno"),
    ('#hand button.card.playable', "#hand button.card.playable", "play"),
    ("#play-drawn", "#play-drawn", "play_drawn"),
    ("#act-draw:enabled", "#act-draw", "draw"),
    ("#act-pass:enabled", "#act-pass", "pass"),
    ("#act-accept:enabled", "#act-accept", "accept"),
)


def step(page: Any) -> bool:
    """One click of a person who plays sensibly, if anything is to be done now: catch, call
    UNO, name a colour, play (a playable card, calling UNO before a next-to-last card), draw,
    pass, take the cards. Returns whether it clicked."""
    found = page.evaluate("""(selectors) => {
        const i = selectors.findIndex((s) => document.querySelector(s));
        const uno = document.querySelector('#act-uno:enabled[aria-pressed="false"]') !== null;
        return [i, uno];
    }""", [s for s, _, _ in STEPS])
    index, can_arm_uno = found
    if index < 0 or STEPS[index][1] is None:
        return False
    _, selector, kind = STEPS[index]
    assert selector is not None and kind is not None
    if kind == "play" and can_arm_uno:
        click(page, "#act-uno", "uno")
    try:
        page.locator(selector).first.click(timeout=2000)
    except sync_api.Error:  # the table changed under the click (a bot moved): look again
        return False
    CLICKED.add(kind)
    return True


def fill_new_room(page: Any, name: str, players: int, seats: dict[int, str], hand_size: int | None = None,
                  seed: int | None = None, between_rounds: int = 0) -> None:
    page.wait_for_selector("#new-room")
    page.fill("#your-name", name)
    page.fill("#players", str(players))
    for seat, kind in seats.items():
        page.select_option(f"#seat-{seat}", kind)
    if hand_size is not None:
        page.click("#new-room summary >> nth=0")
        page.fill("#opt-hand_size", str(hand_size))
    page.click("#new-room summary >> nth=2")
    page.fill("#bot-delay", "0")
    page.fill("#between-rounds", str(between_rounds))
    if seed is not None and page.locator("#seed").count():
        page.fill("#seed", str(seed))


# ---------------------------------------------------------------------- two people and a bot


def test_two_people_and_a_bot_play_a_round_to_its_score_table(pages: Pages) -> None:
    base = pages.base
    ana = pages.new()
    open_app(ana, base)
    fill_new_room(ana, "Ana", 3, {1: "human", 2: "heuristic"}, hand_size=3, seed=4, between_rounds=120)
    ana.evaluate("() => { document.activeElement.blur(); window.scrollTo(0, 0); }")
    shot(ana, "new-room.png")
    ana.click("#create-room")
    ana.wait_for_url("**/r/*")
    link = ana.url
    ana.wait_for_selector("#seat-list")
    bruno = pages.new()
    bruno.goto(link)
    bruno.wait_for_selector("body.ready")
    bruno.fill("#join-name", "Bruno")
    bruno.click("#join-button")
    ana.locator('#seat-list li[data-seat="1"]', has_text="Bruno").wait_for()
    start(ana)
    table(bruno)
    assert ana.locator("#my-seat-title").inner_text().startswith("Player 1 · Ana")
    assert bruno.locator("#my-seat-title").inner_text().startswith("Player 2 · Bruno")
    assert "Heuristic bot" in ana.locator("#opponents").inner_text()
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        if all(p.locator("#round-end:not([hidden])").count() for p in (ana, bruno)):
            break
        acted = False
        for p in (ana, bruno):
            acted = step(p) or acted
        (ana if acted else bruno).wait_for_timeout(50 if acted else 100)
    for p in (ana, bruno):
        p.wait_for_selector("#round-end:not([hidden]) #score-table")
        rows = p.locator("#score-table tbody tr")
        assert rows.count() == 3
        assert p.locator("#score-table tbody tr.winner").count() == 1
    log_has(ana, "went out: the round is over.")
    shot(ana, "score-table.png")
    # Both ready: the next round is dealt at once (well before between_rounds).
    click(ana, "#ready-button", "ready")
    ana.wait_for_selector("#ready-note")
    click(bruno, "#ready-button", "ready")
    for p in (ana, bruno):
        log_has(p, "Round 2:")
        p.wait_for_selector("#round-end", state="hidden")
    # Bruno goes: a bot plays for him until he comes back, and Ana sees it.
    bruno.close()
    ana.locator('.seat[data-seat="1"] .badge-off', has_text="a bot plays for them").wait_for()


# ---------------------------------------------------------------------- each decision, on a stacked deal


def test_challenge_a_wild_draw_four_and_see_the_hand_then_draw_and_keep(pages: Pages) -> None:
    page = pages.new()
    stacked_room(page, pages.base, "classic",
                 hands=[["R1", "G7", "B5", "G1"], ["W+4", "Y3", "Y4"]], discard="R9",
                 draw=["B2", "B6", "G2", "G6", "R5", "R6", "R8", "B8", "G9", "B9"], dealer=1,
                 bots=["heuristic"], options={"target": 10})
    table(page)
    assert "Your turn" in status(page)
    click(page, '#hand button.card.playable[data-card="R1"]', "play")
    page.wait_for_selector("#act-challenge")  # the bot played its Wild Draw Four on us
    assert page.locator("#act-accept").is_enabled()
    click(page, "#act-challenge", "challenge")
    log_has(page, "You challenge the Wild Draw Four of Heuristic bot 2: it was played fairly.")
    page.wait_for_selector("#seen-list")  # the challenged hand, shown to the challenger
    page.wait_for_selector("#act-draw:enabled")
    # Less the card the bot has played since (the top of the pile).
    seen = cards_in(page, '#seen-list li[data-seat="1"] .card')
    assert sorted(seen + cards_in(page, "#discard .card")) == ["Y3", "Y4"]
    assert len(hand(page)) == 9
    click(page, "#act-draw", "draw")
    page.wait_for_selector("#act-pass:enabled")
    assert "cannot be played" in status(page)
    click(page, "#act-pass", "pass")
    log_has(page, "You keep the card and pass.")
    log_has(page, "Heuristic bot 2 went out: the round is over.")
    # The target is reached: the match result, and the way back.
    page.wait_for_selector("#round-end:not([hidden]) #score-table")
    assert page.locator("#round-end-title").inner_text() == "Heuristic bot 2 won the game!"
    assert "Player 2" in page.locator("#score-table tr.winner").inner_text()
    assert page.locator('#round-end a[href="/"]').count() == 1
    assert page.locator("#ready-button").count() == 0
    # The host plays again in the same room: a new match, its totals from zero (its versions
    # go on counting: the sockets' check of Pages).
    page.click("#rematch-button")
    page.wait_for_selector("#round-end", state="hidden")
    page.wait_for_function("() => [...document.querySelectorAll('#log li')]"
                           ".filter((li) => li.textContent.startsWith('Round 1:')).length === 2")
    assert page.locator("#scores-panel td").all_inner_texts() == ["0", "0"]


def test_play_the_drawn_wild_name_a_colour_catch_and_call_uno(pages: Pages) -> None:
    page = pages.new()
    stacked_room(page, pages.base, "classic",
                 hands=[["R2", "B3", "G5"], ["G1", "G2", "R7"]], discard="G9",
                 draw=["W", "B4", "B6", "Y7", "Y8", "Y9"], dealer=1, bots=["heuristic"], forget_uno=1)
    table(page)
    click(page, "#act-draw", "draw")
    page.wait_for_selector("#play-drawn")
    assert page.locator("#hand button.card.drawn").get_attribute("data-card") == "W"
    click(page, "#play-drawn", "play_drawn")
    page.wait_for_selector("#picker")
    click(page, '#picker button[data-color="R"]', "color_wild")
    log_has(page, "You play Wild and name red.")
    click(page, '#hand button.card.playable[data-card="R2"]', "play")
    page.wait_for_selector(".btn-catch")  # the bot is down to one card and forgot UNO
    assert "did not call UNO" in status(page)
    click(page, '.seat[data-seat="1"] .btn-catch', "catch")
    log_has(page, "You catch Heuristic bot 2 without an UNO call.")
    # Our next-to-last card: UNO is pressed before the play, and goes with it.
    card(page, "G5").wait_for()
    click(page, '#act-uno[aria-pressed="false"]', "uno")
    assert page.locator("#act-uno").get_attribute("aria-pressed") == "true"
    click(page, '#hand button.card.playable[data-card="G5"]', "play")
    log_has(page, "You call UNO!")
    assert not page.locator('#log li', has_text="Player 2 catches Player 1").count()


def test_answer_with_agent_p_and_accept_a_draw_two(pages: Pages) -> None:
    page = pages.new()
    stacked_room(page, pages.base, "phineas-ferb",
                 hands=[["B1", "WP", "G3", "G4"], ["B+2", "R+2", "Y9", "Y8"]], discard="B5",
                 draw=["R5", "G+2", "Y1", "Y2", "Y3", "Y4", "R1"], dealer=1, bots=["heuristic"])
    table(page)
    click(page, '#hand button.card.playable[data-card="B1"]', "play")
    page.wait_for_selector("#act-accept")  # a Draw Two waits for our answer
    assert page.locator('#hand button.card.playable[data-card="WP"]').count() == 1
    click(page, '#hand button.card.playable[data-card="WP"]', "agent_p")
    click(page, '#picker button[data-color="G"]', "color_wild")
    log_has(page, "You answer with Agent P and name green: Heuristic bot 2 takes the cards.")
    click(page, '#act-uno[aria-pressed="false"]', "uno")  # G3 is our next-to-last card
    click(page, '#hand button.card.playable[data-card="G3"]', "play")
    page.wait_for_selector("#act-accept")  # the bot drew the Draw Two and played it
    assert "Take 2 cards" in page.locator("#act-accept").inner_text()
    click(page, "#act-accept", "accept")
    log_has(page, "You take the cards.")


def test_name_the_colour_of_a_wild_turned_up_and_peek_with_mater(pages: Pages) -> None:
    page = pages.new()
    stacked_room(page, pages.base, "cars2",
                 hands=[["WM", "R3", "G8"], ["Y5", "Y6", "B7", "B9"]], discard="W",
                 draw=["R1", "R2", "G1", "G2"], dealer=1, bots=["heuristic"])
    table(page)
    page.wait_for_selector("#picker")
    assert "choose the colour" in status(page)
    click(page, '#picker button[data-color="B"]', "color_first")
    log_has(page, "You name blue.")
    click(page, '#hand button.card.playable[data-card="WM"]', "play")
    click(page, '#picker button[data-color="R"]', "color_wild")
    log_has(page, "You peek at every other hand.")
    seen = cards_in(page, '#seen-list li[data-seat="1"] .card')
    assert sorted(seen) == ["B7", "B9", "Y5", "Y6"]


def test_choose_whom_to_swap_hands_with_on_a_seven(pages: Pages) -> None:
    page = pages.new()
    stacked_room(page, pages.base, "classic",
                 hands=[["R7", "G1", "B2"], ["Y1", "Y2"], ["B5", "B6", "B8", "B9"]], discard="R3",
                 draw=["G5", "G6", "G7", "G8"], dealer=2, bots=["heuristic", "heuristic"],
                 options={"seven_zero": True})
    table(page)
    click(page, '#hand button.card.playable[data-card="R7"]', "play")
    page.wait_for_selector('.seat[data-seat="2"] .btn-swap')
    assert "swap hands" in status(page)
    click(page, '.seat[data-seat="2"] .btn-swap', "swap")
    log_has(page, "You swap hands with Heuristic bot 3.")


def test_jump_in_with_the_same_card(pages: Pages) -> None:
    page = pages.new()
    stacked_room(page, pages.base, "classic",
                 hands=[["G5", "R1", "B2"], ["Y1", "Y2", "Y3"]], discard="G5",
                 draw=["B5", "B6", "B7", "B8"], dealer=0, bots=["heuristic"], options={"jump_in": True},
                 bot_delay=4)
    table(page)
    assert "jump in" in status(page)
    click(page, '#hand button.card.playable[data-card="G5"]', "jump_in")
    log_has(page, "You jump in with green 5.")


def test_the_time_left_is_shown_and_a_bot_plays_when_it_runs_out(pages: Pages) -> None:
    page = pages.new()
    stacked_room(page, pages.base, "classic",
                 hands=[["R1", "G7", "B5"], ["Y3", "Y4", "Y6"]], discard="R9",
                 draw=["B2", "B6", "G2", "G6"], dealer=1, bots=["heuristic"], turn_timeout=2)
    page.locator("#deadline", has_text="then a bot plays for you").wait_for()
    log_has(page, "You play red 1.")  # played for us when the time ran out
    page.locator("#my-seat .badge-off", has_text="a bot plays for you until you act").wait_for()


# ---------------------------------------------------------------------- the seat, spectators, safety


def test_a_reload_comes_back_to_the_same_seat_and_a_spectator_sees_no_cards(pages: Pages) -> None:
    page = pages.new()
    code = stacked_room(page, pages.base, "classic",
                        hands=[["R1", "G7", "B5"], ["Y3", "Y4", "Y6"]], discard="R9",
                        draw=["B2", "B6", "G2", "G6"], dealer=1, bots=["heuristic"])
    table(page)
    before = hand(page)
    assert "token" not in page.url
    page.reload()
    page.wait_for_selector("body.ready")
    table(page)
    page.wait_for_selector("#hand button.card")
    assert hand(page) == before
    assert page.locator("#my-seat-title").inner_text().startswith("Player 1 · Ana")
    log_has(page, "The first card is red 9.")
    watcher = pages.new()
    open_app(watcher, pages.base, f"/r/{code}")
    table(watcher)
    watcher.wait_for_selector("#spectator-note")
    assert watcher.locator("#hand").count() == 0
    assert watcher.locator("#actions").count() == 0
    # The only face shown is the discard pile's top; the seats show counts.
    faces = cards_in(watcher, "#table .card:not(.card-back)")
    assert faces == ["R9"]
    assert "3 cards" in watcher.locator('.seat[data-seat="0"]').inner_text()
    stored = watcher.evaluate("() => JSON.stringify(window.localStorage)")
    assert code not in stored
    # What reached the spectator's page holds no card of a hand either.
    watching = [sock for sock in pages.sockets if sock.sent and sock.sent[0] == {"type": "hello"}]
    views = [m["view"] for sock in watching for m in sock.got
             if isinstance(m, dict) and m.get("type") == "state"]
    assert views and all(v["seat"] is None and v["hand"] == [] and v["legal"] == [] and v["seen"] == {}
                         and v["drawn"] is None for v in views)
    saved = json.loads(page.evaluate("() => JSON.stringify(window.localStorage)"))
    assert any(code in key for key in saved)


def test_the_host_moves_gives_to_a_bot_and_kicks_and_the_lobby_lists_public_rooms(pages: Pages) -> None:
    base = pages.base
    ana = pages.new()
    open_app(ana, base)
    fill_new_room(ana, "Ana", 4, {1: "human", 2: "human", 3: "human"})
    ana.check("#public")
    ana.click("#create-room")
    ana.wait_for_url("**/r/*")
    code = ana.url.rsplit("/", 1)[1]
    ana.wait_for_selector("#seat-list")
    visitor = pages.new()
    open_app(visitor, base)
    visitor.locator(f'.room-link[data-code="{code}"]').click()  # listed in the lobby
    visitor.wait_for_selector("#join-name")
    visitor.fill("#join-name", "Bruno")
    visitor.click("#join-button")
    row = '#seat-list li[data-seat="{}"]'
    ana.locator(row.format(1), has_text="Bruno").wait_for()
    ana.click(row.format(1) + ' button[aria-label="Move Player 2 down"]')
    ana.locator(row.format(2), has_text="Bruno").wait_for()
    visitor.locator(row.format(2), has_text="you").wait_for()
    ana.select_option(row.format(1) + " select", "strong")
    ana.click(row.format(1) + ' button[aria-label="Give Player 2 to a bot"]')
    ana.locator(row.format(1), has_text="Strong bot").wait_for()
    ana.click(row.format(2) + ' button[aria-label="Kick Player 3"]')
    visitor.locator("#fatal", has_text="You were removed from this room.").wait_for()
    ana.locator(row.format(2), has_text="open seat").wait_for()
    start(ana)
    assert "Strong bot" in ana.locator('.seat[data-seat="1"]').inner_text()


def test_a_room_that_does_not_exist_says_so(pages: Pages) -> None:
    page = pages.new()
    open_app(page, pages.base, "/r/ZZZZZZ")
    page.locator("#fatal", has_text="There is no room with that code.").wait_for()
    page.click('#fatal a[href="/"]')
    page.wait_for_selector("#new-room")


def test_a_stale_token_watches_and_a_closed_room_says_why(pages: Pages) -> None:
    page = pages.new()
    code = seeded_room(page, pages.base, "classic", ["heuristic"], seed=3)
    assert len(code) == 14
    # A token the room does not know (its seat given away): the page watches instead.
    other = pages.new()
    open_app(other, pages.base)
    other.evaluate("(code) => localStorage.setItem('unokit.seat.' + code, "
                   "JSON.stringify({seat: 0, token: 'not-a-token'}))", code)
    open_app(other, pages.base, f"/r/{code}")
    other.wait_for_selector("#spectator-note")
    assert other.evaluate("(code) => localStorage.getItem('unokit.seat.' + code)", code) is None
    # Everyone leaves (a client's `leave`): the room closes, and its page says why.
    page.evaluate("""(code) => new Promise((resolve) => {
        const ws = new WebSocket(`ws://${location.host}/ws/${code}`);
        const { token } = JSON.parse(localStorage.getItem('unokit.seat.' + code));
        ws.onopen = () => ws.send(JSON.stringify({type: 'hello', token}));
        ws.onmessage = (ev) => {
            const msg = JSON.parse(ev.data);
            if (msg.type === 'room') ws.send(JSON.stringify({type: 'leave'}));
            if (msg.type === 'left') resolve(msg.reason);
        };
    })""", code)
    page.locator("#fatal", has_text="You left the room.").wait_for()
    other.locator("#fatal", has_text="This room is closed.").wait_for()
    open_app(other, pages.base, f"/r/{code}")
    other.locator("#fatal", has_text="This room is closed: everyone left.").wait_for()


def test_the_page_reconnects_by_itself_after_the_server_restarts(browser: Any, tmp_path: Path) -> None:
    port = _free_port()
    proc = serve(tmp_path, port)
    pages = Pages(browser, f"http://127.0.0.1:{port}")
    try:
        page = pages.new()
        stacked_room(page, pages.base, "classic",
                     hands=[["R1", "G7", "B5"], ["Y3", "Y4", "Y6"]], discard="R9",
                     draw=["B2", "B6", "G2", "G6"], dealer=1, bots=["heuristic"])
        before = hand(page)
        proc.kill()  # SIGKILL, mid-round
        proc.wait()
        page.locator("#conn-banner", has_text="reconnecting").wait_for()
        proc = serve(tmp_path, port)
        page.wait_for_selector("#conn-banner", state="hidden", timeout=30_000)
        page.wait_for_selector("#hand button.card.playable")
        assert hand(page) == before
        click(page, '#hand button.card.playable[data-card="R1"]', "play")
        log_has(page, "You play red 1.")
    finally:
        pages.close()
        stop(proc)
    assert not pages.errors, pages.errors


def test_a_script_in_a_name_or_in_the_chat_is_shown_as_text(pages: Pages) -> None:
    page = pages.new()
    open_app(page, pages.base)
    fill_new_room(page, "<img src=x onerror=z=1>", 2, {1: "human"})
    page.click("#create-room")
    page.wait_for_url("**/r/*")
    link = page.url
    page.wait_for_selector("#seat-list")
    other = pages.new()
    other.goto(link)
    other.wait_for_selector("#join-name")
    other.fill("#join-name", "<script>z=2</script>")
    other.click("#join-button")
    page.wait_for_function("() => document.body.innerText.includes('<script>z=2</script>')")
    other.fill("#chat-input", '<script>window.z=3</script><img src=x onerror="window.z=4"><b>bold</b>')
    other.click("#chat-form button")
    page.locator("#chat-list .chat-text", has_text="<b>bold</b>").wait_for()
    for p in (page, other):
        assert p.evaluate("() => window.z") is None
        assert p.locator("#chat-list b, #chat-list img, #chat-list script").count() == 0
        assert p.locator("main img").count() == 0
    assert "<img src=x onerror=z=1>" in other.locator("body").inner_text()


def test_the_keys_alone_play_a_turn(pages: Pages) -> None:
    page = pages.new()
    stacked_room(page, pages.base, "classic",
                 hands=[["R1", "G7", "B5", "G1"], ["W+4", "Y3", "Y4"]], discard="R9",
                 draw=["B2", "B6", "G2", "G6", "R5", "R6", "R8", "B8"], dealer=1, bots=["heuristic"])
    table(page)
    page.wait_for_selector("#hand button.card.playable")
    page.keyboard.press("h")  # to the hand: its first playable card
    focused = page.evaluate("() => document.activeElement.dataset.card")
    assert focused == "R1"
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("Enter")
    page.wait_for_selector("#act-challenge")
    page.keyboard.press("a")  # take the four cards
    log_has(page, "You take the cards.")
    page.wait_for_selector("#act-draw:enabled")
    page.keyboard.press("d")
    page.wait_for_selector("#act-pass:enabled")
    page.keyboard.press("p")
    log_has(page, "You keep the card and pass.")
    # Every control has a name a screen reader reads.
    unnamed = page.evaluate("""() => [...document.querySelectorAll('button, select, input')]
        .filter(el => !el.hidden && el.offsetParent !== null)
        .filter(el => !(el.getAttribute('aria-label') || el.textContent.trim()
                        || (el.labels && el.labels.length)))
        .map(el => el.outerHTML.slice(0, 80))""")
    assert unnamed == []


# ---------------------------------------------------------------------- languages and sizes


LANGS = {"en-US": ("your turn", "en"), "es-ES": ("tu turno", "es"), "pt-BR": ("sua vez", "pt"),
         "fr-FR": ("à vous", "fr"), "el-GR": ("σειρά σας", "el")}


@pytest.mark.parametrize("locale", list(LANGS))
def test_the_table_in_each_language(pages: Pages, locale: str) -> None:
    words, lang = LANGS[locale]
    page = pages.new(locale=locale)
    seeded_room(page, pages.base, "classic", ["heuristic", "strong", "random"], seed=20261201)
    table(page)
    assert page.evaluate("() => document.documentElement.lang") == lang
    assert page.locator("#lang-select").input_value() == lang
    page.wait_for_selector("#hand button.card.playable")
    assert page.locator("#my-seat .badge-turn").inner_text() == words
    text = page.locator("body").inner_text()
    if lang != "en":
        assert "Your turn" not in text and "Draw a card" not in text
    first_line = page.locator("#log li:not(.log-rule)").first.inner_text()
    if lang == "el":
        assert first_line == "Γύρος 1: μοιράζει ο Δυνατό bot 3."  # the strong bot, by its Greek name
        assert page.locator("#lang-select option:checked").inner_text() == "Ελληνικά"
    shot(page, f"table-{lang}.png")
    # The switcher changes the language at once, and keeps the choice.
    page.select_option("#lang-select", "en" if lang != "en" else "fr")
    page.wait_for_function("(l) => document.documentElement.lang === l", arg="en" if lang != "en" else "fr")
    assert page.evaluate("() => window.localStorage.getItem('unokit.lang')") in ("en", "fr")


@pytest.mark.parametrize("locale", list(LANGS))
def test_the_levels_are_offered_for_a_seat_in_each_language(pages: Pages, locale: str) -> None:
    from unokit.bots import LEVEL_ELO, LEVELS
    from unokit.text.i18n import translator

    tr = translator(LANGS[locale][1])
    levels = [tr._("Easy bot"), tr._("Normal bot"), tr._("Hard bot")]
    page = pages.new(locale=locale)
    open_app(page, pages.base)
    page.wait_for_selector("#seat-1")
    offered = [t.strip() for t in page.locator("#seat-1 option").all_inner_texts()]
    # After "a person", the levels easiest first, each with its rating.
    assert offered[1:4] == [f"{label} · Elo {LEVEL_ELO[n]}" for label, n in zip(levels, LEVELS, strict=True)]
    seeded_room(page, pages.base, "classic", ["easy", "normal", "hard"], seed=7)
    for seat, label in enumerate(levels, start=1):
        page.locator(f'.seat[data-seat="{seat}"]', has_text=label).wait_for()


def test_the_table_fits_a_phone_and_the_rules_open(pages: Pages) -> None:
    page = pages.new(width=390, height=844)
    seeded_room(page, pages.base, "phineas-ferb", ["heuristic", "random", "strong"], seed=7)
    table(page)
    page.wait_for_selector("#hand button.card.playable")
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= 390, f"the page is {width} px wide at 390 px"
    box = page.locator("#hand button.card").first.bounding_box()
    assert box is not None and box["width"] >= 40
    shot(page, "table-phone.png")
    page.click("#help-button")
    page.locator("#help-body h2, #help-body h3").first.wait_for()
    assert "Agent P" in page.locator("#help-body").inner_text()
    page.click("#help-close")


def test_every_decision_kind_was_clicked() -> None:
    missing = DECISIONS - CLICKED
    if missing and len(CLICKED) < 6:
        pytest.skip("only part of the module ran")
    assert not missing, f"never clicked: {sorted(missing)}"

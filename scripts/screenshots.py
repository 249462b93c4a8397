"""The screenshots of docs/web/ (docs/web.md): the table on a phone (390 x 844) and on a desktop
(1440 x 900), with 4 and 10 players, in English and Greek, and on a phone the score table at a
round's end and the hands Mater's peek showed, taken in Debian's Chromium through
Playwright against ``unokit serve --dev`` on a free port, each room with a stacked first deal.

    PYTHONPATH=src .venv/bin/python scripts/screenshots.py [--out docs/web]
"""

from __future__ import annotations

import argparse
import contextlib
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = "/usr/bin/chromium"
SIZES = {"phone": (390, 844), "desktop": (1440, 900)}
LOCALES = {"en": "en-US", "el": "el-GR"}
BOTS = ["easy", "normal", "hard", "heuristic", "strong", "random"]
NAMES = ["Ana", "Νίκος"]


def classic_deck() -> list[str]:
    """The classic deck's codes, the colours taking turns so that any run of it is mixed."""
    ranks = ["0"] + [r for r in ["1", "2", "3", "4", "5", "6", "7", "8", "9", "S", "R", "+2"] for _ in (1, 2)]
    return [c + r for r in ranks for c in "RYGB"] + ["W", "W+4"] * 4


def stacked_deal(players: int, mine: int, others: int = 7, discard: str = "G5") -> dict[str, Any]:
    """A first deal where seat 0 plays first with ``mine`` cards, every other seat ``others``."""
    deck = classic_deck()
    deck.remove(discard)
    hands = [deck[:mine]]
    deck = deck[mine:]
    for _ in range(players - 1):
        hands.append(deck[:others])
        deck = deck[others:]
    return {"dealer": players - 1, "hands": hands, "discard": discard, "draw": deck[:12]}


@contextlib.contextmanager
def server() -> Iterator[str]:
    """``unokit serve --dev`` with its own database, on a free port, without rate limits."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    with tempfile.TemporaryDirectory() as folder:
        proc = subprocess.Popen(
            [sys.executable, "-m", "unokit", "serve", "--dev", "--port", str(port), "--rate-limit", "0",
             "--database", f"sqlite:///{folder}/rooms.db", "--log-level", "warning"])
        base = f"http://127.0.0.1:{port}"
        try:
            for _ in range(300):
                with contextlib.suppress(OSError):
                    urllib.request.urlopen(base + "/api/health", timeout=1).close()
                    break
                time.sleep(0.1)
            yield base
        finally:
            proc.terminate()
            proc.wait(10)


def open_table(page: Any, base: str, players: int, mine: int, name: str, deal: dict[str, Any] | None = None,
               edition: str = "classic") -> None:
    """Make a room with a stacked deal (this page at seat 0, bots elsewhere), start it, and wait
    for this seat's turn."""
    page.goto(base + "/")
    page.wait_for_selector("body.ready")
    form = {"name": name, "edition": edition, "players": players, "public": False,
            "bots": [BOTS[n % len(BOTS)] for n in range(players - 1)], "options": {}, "bot_delay": 0.2,
            "between_rounds": 120, "forget_uno": 0, "seed": 1, "deal": deal or stacked_deal(players, mine)}
    code = page.evaluate("async (f) => (await (await import('/static/net.js')).createRoom(f)).code", form)
    page.goto(f"{base}/r/{code}")
    page.wait_for_selector("#start-match")
    page.click("#start-match")
    page.wait_for_selector("#hand button.card.playable")
    page.evaluate("() => document.activeElement && document.activeElement.blur()")


def shoot(path: Path, page: Any) -> None:
    """Keep a screenshot, with a palette of 256 colours when Pillow is there (a smaller file)."""
    page.screenshot(path=str(path))
    with contextlib.suppress(ImportError):
        from PIL import Image

        with Image.open(path) as img:
            small = img.convert("RGB").quantize(256, dither=Image.Dither.NONE)
        small.save(path, optimize=True)


def overlays(browser: Any, base: str, out: Path) -> None:
    """On a phone: the score table at a round's end, and the hands Mater's peek showed."""
    ctx = browser.new_context(locale="en-US", viewport={"width": 390, "height": 844}, is_mobile=True,
                              has_touch=True, reduced_motion="reduce", device_scale_factor=1)
    page = ctx.new_page()
    deal = {"dealer": 3, "hands": [["G7"], ["R1", "R2", "B3"], ["Y4", "Y5"], ["B8", "R9", "Y9"]],
            "discard": "G5", "draw": ["B1", "B2", "R4", "Y2", "G2", "G3"]}
    open_table(page, base, 4, 1, "Ana", deal)
    page.click('#hand button.card.playable[data-card="G7"]')
    page.wait_for_selector("#round-end:not([hidden]) #ready-button")
    shoot(out / "round-end-phone.png", page)
    deal = {"dealer": 3, "hands": [["WM", "R3", "G8", "B4"], ["Y5", "B7", "B9", "R6"], ["G1", "Y1", "B2"],
                                   ["R7", "Y3", "G6", "B1", "R2"]],
            "discard": "G2", "draw": ["R1", "R4", "G4", "B5", "Y6", "G9"]}
    open_table(page, base, 4, 4, "Ana", deal, edition="cars2")
    page.click('#hand button.card.playable[data-card="WM"]')
    page.click('#picker button[data-color="Y"]')
    page.wait_for_selector('#discard .card[data-card="Y5"]')
    page.wait_for_selector("#seen-panel:not([hidden])")
    page.wait_for_timeout(1500)
    shoot(out / "shown-hands-phone.png", page)
    ctx.close()


def main() -> None:
    """Take every screenshot into --out."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "web")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    from playwright.sync_api import sync_playwright

    with server() as base, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM)
        for lang, locale in LOCALES.items():
            for size, (width, height) in SIZES.items():
                phone = size == "phone"
                for players in (4, 10):
                    ctx = browser.new_context(locale=locale, viewport={"width": width, "height": height},
                                              is_mobile=phone, has_touch=phone, reduced_motion="reduce",
                                              device_scale_factor=1)
                    page = ctx.new_page()
                    open_table(page, base, players, 7 if players == 4 else 25, NAMES[lang == "el"])
                    path = args.out / f"table-{lang}-{size}-{players}.png"
                    shoot(path, page)
                    print(path)
                    ctx.close()
        overlays(browser, base, args.out)
        browser.close()


if __name__ == "__main__":
    main()

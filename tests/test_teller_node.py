"""The browser's move log (``static/teller.js``) says word for word what the terminal's
:class:`~unokit.narrate.Teller` says, from the same events, the table of words for events and
the catalogues the server serves (``GET /api/narration``, ``GET /api/i18n/{lang}``, and the special
cards' names of ``GET /api/config``), checked under Node.js without a browser, over seeded matches
of every edition in every language.

Needs ``node`` (v18 or later) on the ``PATH``; without it the test skips, unless
``UNOKIT_REQUIRE_BROWSER=1`` is set (as CI does), where a missing ``node`` fails.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from conftest import random_options
from unokit.narrate import Teller
from unokit.text.i18n import LANGUAGES, translator

STATIC = Path(__file__).resolve().parent.parent / "src" / "unokit" / "server" / "static"

RUNNER = """
import { readFileSync } from "node:fs";
const input = JSON.parse(readFileSync(process.argv[2], "utf8"));
globalThis.document = { documentElement: {} };
const served = { "/api/narration": input.narration, [`/api/i18n/${input.lang}`]: input.catalogue,
  "/api/config": input.config };
globalThis.fetch = async (url) => (url in served ? { ok: true, status: 200, json: async () => served[url] }
  : { ok: false, status: 404 });
const i18n = await import("./i18n.js");
await (await import("./config.js")).loadConfig();
await i18n.setLanguage(input.lang);
const { Teller } = await import("./teller.js");
const out = input.streams.map((st) => {
  const t = new Teller(st.edition, st.players, st.teams);
  t.names = st.names;
  t.viewer = st.viewer;
  if (st.known) {
    t.scores = new Array(st.sides).fill(0);
    t.eliminated = new Array(st.players).fill(false);
  }
  return st.events.flatMap((e) => t.tell(e));
});
process.stdout.write(JSON.stringify(out));
"""


def _node() -> str:
    node = shutil.which("node")
    if node is None:
        if os.environ.get("UNOKIT_REQUIRE_BROWSER") == "1":
            pytest.fail("node is missing and UNOKIT_REQUIRE_BROWSER=1: install Node.js 18+")
        pytest.skip("needs Node.js: install `node` (18 or later) and run "
                    "`pytest tests/test_teller_node.py`")
    return node


def _match_events(edition: str, players: int, seed: int, options: dict[str, Any]) -> list[Any]:
    """Every event of a seeded match between bots (random and heuristic, so that bluffs,
    challenges and answers happen), through the table driver; at most about 1,500."""
    from unokit import Game
    from unokit.bots.heuristic import HeuristicBot
    from unokit.bots.random_bot import RandomBot
    from unokit.core.options import Options
    from unokit.core.phases import ROUND_OVER
    from unokit.core.table import Table

    game = Game.new(edition, players, options=Options.from_mapping(options), seed=seed)
    table = Table(game)
    bots = [RandomBot(seed=seed + i) if i % 2 else HeuristicBot(seed=seed + i) for i in range(players)]
    events = list(game.opening_events())
    while not game.is_over and len(events) < 1500:
        if game.phase >= ROUND_OVER:
            events += table.start_round()
            continue
        seat = table.next_seat()
        assert seat is not None
        action = bots[seat].act(game.observe(seat))
        if action is None:
            table.decline(seat)
        else:
            events += table.act(seat, action)
    return events


def _rare_events() -> list[Any]:
    """Events the matches above may not hold, in a plausible order."""
    from unokit.core import events as ev
    from unokit.core.cards import parse_card as c

    return [
        ev.RoundStarted(round_no=2, dealer=1, hand_sizes=(3, 3, 3),
                        hands=((c("R1"), c("G2"), c("W")), None, None)),
        ev.TurnedUp(card=c("W+4"), returned=True), ev.TurnedUp(card=c("WP")), ev.ColorNamed(seat=2, color=1),
        ev.WrongCard(seat=2, card=c("R5")), ev.Drew(seat=2, count=2, cards=None, reason="penalty"),
        ev.Reshuffled(draw_size=40), ev.Played(seat=0, card=c("W+4"), color=3),
        ev.DrawPending(seat=1, count=4, attacker=0),
        ev.Played(seat=1, card=c("WP"), color=2), ev.AgentPAnswered(seat=1, attacker=0, count=4),
        ev.Drew(seat=0, count=4, cards=None, reason="agent_p", source="discard"),
        ev.Played(seat=1, card=c("B+2"), color=3), ev.DrawPending(seat=2, count=2, attacker=1),
        ev.AgentPAnswered(seat=2, attacker=1, count=2),
        ev.Played(seat=2, card=c("G0"), color=2, uno=True, jump_in=True),
        ev.HandsRotated(direction=-1, hands=(None, None, None)),
        ev.UnoMissed(seat=1), ev.Caught(catcher=0, seat=1), ev.HostPenalty(seat=2),
        ev.Played(seat=0, card=c("W"), color=0, jump_in=True),
        ev.RoundEnded(winner=2, points=(10, 20, 0), scores=(0, 0, 30.5), eliminated=(False, True, False),
                      blocked=True),
        ev.GameEnded(winners=(0, 2)),
    ]


GAMES = [("classic", 3, 0, 5, {"seven_zero": True, "jump_in": True, "target": 150}),
         ("phineas-ferb", 4, 2, 7, {"stacking": "progressive", "mode": "partners", "target": 300}),
         ("cars2", 3, 0, 9, {"mode": "elimination", "target": 60, "illegal_play": "penalize"}),
         ("cars2", 4, 2, 11, {"mode": "partners", "target": 200}),
         ("phineas-ferb", 5, 0, 13, {"mode": "elimination", "target": 100, "jump_in": True}),
         ("phineas-ferb", 3, 0, -1, {})]
"""Seeded matches of every edition (partners among them), and the rare events (seed -1)."""


def _random_games(count: int) -> list[tuple[str, int, int, int, dict[str, Any]]]:
    """``count`` more matches, of every edition in turn, with random seats and options."""
    rng = random.Random("teller")
    games = []
    for k in range(count):
        edition = ("classic", "cars2", "phineas-ferb")[k % 3]
        players = rng.randint(2, 10)
        options = random_options(rng, players, edition, target=rng.choice((50, 150, 400))).changed()
        teams = players // 2 if options.get("mode") == "partners" else 0
        games.append((edition, players, teams, 100 + k, options))
    return games


ALL_GAMES = GAMES + _random_games(12)


def _served(path: str) -> Any:
    """What the server answers to ``GET path`` (the words, the catalogues)."""
    from fastapi.testclient import TestClient

    from unokit.server.app import create_app
    from unokit.server.rooms import ServerOptions
    from unokit.server.store import Store

    with TestClient(create_app(Store("sqlite://"), ServerOptions()), base_url="http://localhost") as client:
        answer = client.get(path)
        assert answer.status_code == 200, path
        return answer.json()


NAMES = ["Ana", "<b>x</b>", "Heuristic bot 3", "<img src=x onerror=alert(1)>", "Zoë", None]
"""Display names the tellers are given (None: a seat told as ``Player {n}``)."""


def _names(players: int, n: int) -> list[str | None] | None:
    """The names of the ``n``-th stream's seats: none for some streams, else a mix of names and
    seats without one."""
    if n % 5 == 4:
        return None
    return [NAMES[(n + s) % len(NAMES)] for s in range(players)]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_teller_js_tells_the_events_as_the_terminal_does(lang: str, tmp_path: Path) -> None:
    node = _node()
    work = tmp_path / "static"
    shutil.copytree(STATIC, work)
    (work / "package.json").write_text('{"type": "module"}', encoding="utf-8")
    (work / "run.js").write_text(RUNNER, encoding="utf-8")
    want, streams = [], []
    for n, (edition, players, teams, seed, options) in enumerate(ALL_GAMES):
        sides = teams or players
        events = _rare_events() if seed < 0 else _match_events(edition, players, seed, options)
        seat = None if n % 3 == 2 else n % players  # some told as a spectator sees them
        known = n % 4 != 3  # some told without the totals before (a log joined late)
        seen = [e.seen_by(seat) for e in events]
        names = _names(players, n)
        teller = Teller(translator(lang), edition, players, teams, scores=[0] * sides if known else None,
                        eliminated=[False] * players if known else None, names=names, viewer=seat)
        want.append(teller.tell_all(seen))
        streams.append({"edition": edition, "players": players, "teams": teams, "sides": sides,
                        "known": known, "names": names, "viewer": -1 if seat is None else seat,
                        "events": [e.to_dict() for e in seen]})
    data = tmp_path / "input.json"
    data.write_text(json.dumps({"lang": lang, "catalogue": _served(f"/api/i18n/{lang}"),
                                "narration": _served("/api/narration"),
                                "config": _served("/api/config"), "streams": streams}),
                    encoding="utf-8")
    run = subprocess.run([node, str(work / "run.js"), str(data)], capture_output=True, text=True,
                         timeout=300, check=False)
    assert run.returncode == 0, run.stderr
    got = json.loads(run.stdout)
    told = [line for lines in want for line in lines]
    assert any("<b>x</b>" in line for line in told) and any("Ana" in line for line in told)
    if lang == "en":
        assert any(line.startswith("You play") for line in told)
        assert any(line.startswith(("You draw", "You are skipped")) for line in told)
    for (edition, *_), expected, lines in zip(ALL_GAMES, want, got, strict=True):
        assert len(expected) > 20
        for n, (a, b) in enumerate(zip(expected, lines, strict=False)):
            assert a == b, f"{lang} {edition}, line {n}: terminal {a!r}, teller.js {b!r}"
        assert len(expected) == len(lines)


def test_the_table_uses_only_what_both_interpreters_know() -> None:
    """Every operation and word in the table is one of the documented ones, and teller.js
    interprets each of them (so that a new one cannot reach only the terminal)."""
    from unokit.text.events import EVENT_WORDS, OPERATIONS, WORDS

    used_ops: set[str] = set()
    used_words: set[str] = set()

    def value(x: Any) -> None:
        if isinstance(x, list):
            used_ops.add(x[0])
            for a in x[1:]:
                value(a)

    for told in EVENT_WORDS["events"].values():
        for _name, x in [*told.get("before", ()), *told.get("after", ())]:
            value(x)
        for group in told["lines"]:
            value(group.get("each"))
            for case in group["cases"]:
                value(case.get("when"))
                value(case.get("count"))
                for _name, x in case.get("set", ()):
                    value(x)
                for word, x in case.get("fill", {}).values():
                    used_words.add(word)
                    value(x)
    assert used_ops <= set(OPERATIONS) and used_words <= set(WORDS)
    assert {"next", "side_of", "at", "eq"} <= used_ops
    script = (STATIC / "teller.js").read_text(encoding="utf-8")
    for name in (*OPERATIONS, *WORDS):
        assert f'"{name}"' in script, name

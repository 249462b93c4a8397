"""Differential safety net for engine optimisations: a digest of every step of many matches.

Plays seeded matches across the three editions, 2-10 players and a spread of options
with seeded random legal play over *all* seats (out-of-turn UNO calls, catches and
jump-ins included), plus the occasional illegal attempt (its error reason is recorded),
wrong-card play (``illegal_play: penalize``), host penalty and ``Game.copy``. Every step
feeds a per-match digest: the legal actions of every seat, the acting seat's observation,
the hands, piles, scores and state fields.

Usage (from the repository root)::

    python benchmarks/golden.py --write benchmarks/golden.json   # record the current engine
    python benchmarks/golden.py --check benchmarks/golden.json   # compare after a change

``--check`` exits 1 and names the first differing matches if anything changed.
"""

from __future__ import annotations

import argparse
import dataclasses
import hashlib
import json
import random
import sys
import time
from collections.abc import Sequence
from typing import Any

from unokit.core.actions import ACTION_KIND, DRAW, N_ACTIONS, penalize_action, play_action
from unokit.core.cards import CARD_COLOR, CARD_RANK, WILD
from unokit.core.editions import EDITIONS
from unokit.core.errors import IllegalActionError
from unokit.core.game import Game
from unokit.core.options import Options
from unokit.core.phases import GAME_OVER, ROUND_OVER

MAX_STEPS = 2500
"""Steps per match at most (a match stops early at game over)."""


def match_config(i: int) -> tuple[str, int, Options]:
    """The edition, player count and options of match ``i`` (deterministic)."""
    rng = random.Random(f"golden-config:{i}")
    edition = EDITIONS[i % 3]
    players = 2 + (i * 7) % 9
    mode = rng.choice(("individual", "individual", "partners", "elimination"))
    if mode == "partners" and players not in (4, 6, 8, 10):
        mode = "individual"
    opts: dict[str, Any] = {
        "mode": mode,
        "scoring": rng.choice(("standard", "alternative")),
        "stacking": rng.choice(("off", "progressive", "plus4_on_plus2")),
        "seven_zero": rng.random() < 0.4,
        "jump_in": rng.random() < 0.4,
        "draw_until_playable": rng.random() < 0.3,
        "force_play": rng.random() < 0.3,
        "wd4_bluffing": rng.choice(("allow", "forbid")),
        "illegal_play": rng.choice(("reject", "penalize")),
        "agent_p_draws_from": rng.choice(("discard", "draw")),
        "two_handed_rules": rng.random() < 0.8,
        "hand_size": rng.choice((7, 7, 5, 3, 2)),
        "target": rng.choice((500, 150, 60)),
    }
    if i % 10 == 0:  # every tenth match: all defaults (the printed rules)
        opts = {"target": 200}
    return edition, players, Options.from_mapping(opts)


def _norm(value: Any) -> Any:
    if isinstance(value, dict):
        return tuple(sorted((k, _norm(v)) for k, v in value.items()))
    if isinstance(value, (str, int, float)):
        return value
    if isinstance(value, Sequence):
        return tuple(_norm(v) for v in value)
    return repr(value)


_LATER_FIELDS = frozenset({"idle_turns"})
"""Observation fields added after the digests were written: the digests cover the others (the
engine's behaviour is the same; ``idle_turns`` is checked by the tests)."""


def _obs_digest(game: Game, seat: int) -> tuple[Any, ...]:
    obs = game.observe(seat)
    out: list[Any] = []
    for f in dataclasses.fields(obs):
        if f.name in _LATER_FIELDS:
            continue
        v = getattr(obs, f.name)
        if f.name == "history":  # only appended to; length and last entry suffice per step
            out.append((len(v), tuple(v[-1]) if len(v) else None, tuple(v[:3])))
        else:
            out.append((f.name, _norm(v)))
    out.append((obs.hand_text(), obs.top_text(), obs.legal_text()))
    return tuple(out)


def _state(game: Game) -> tuple[Any, ...]:
    return (
        game.phase, game.awaiting, game.turn, game.direction, game.color, game.top, game.drawn,
        game.pending, game.pending_rank, game.attacker, game.bluff, game.round_no, game.dealer,
        game.round_winner, tuple(game.winners), tuple(game.scores), tuple(game.eliminated),
        tuple(tuple(h) for h in game.hands), tuple(game.draw_pile), tuple(game.discard),
        tuple(game.owed), tuple(game.window), tuple(game.hand_sizes()), len(game.history),
        game.is_over, repr(game),
    )


def play_match(i: int) -> str:
    """Play match ``i`` and return its digest."""
    edition, players, options = match_config(i)
    h = hashlib.blake2b(digest_size=16)

    def feed(*items: Any) -> None:
        h.update(repr(items).encode())

    game = Game.new(edition, players, options, seed=i)
    rng = random.Random(f"golden-play:{i}")
    feed("new", _state(game))
    for step in range(MAX_STEPS):
        if game.phase == GAME_OVER:
            break
        if game.phase == ROUND_OVER:
            feed("round_end", _state(game))
            game.start_round()
            feed("start", _state(game))
            continue
        legal = [tuple(game.legal_actions(s)) for s in range(players)]
        feed("legal", legal)
        # Who acts: sometimes an out-of-turn seat with something to do, else the turn seat.
        others = [s for s in range(players) if s != game.turn and legal[s]]
        seat = rng.choice(others) if others and rng.random() < 0.25 else game.turn
        feed("obs", seat, _obs_digest(game, seat))
        r = rng.random()
        if r < 0.03:
            # An arbitrary action: legal or not, the outcome (or the reason) is recorded.
            a = rng.randrange(N_ACTIONS)
            if ACTION_KIND[a] == 9:
                a = DRAW
        elif r < 0.06 and game.phase == 0 and seat == game.turn:
            # A card from the hand, matching or not (a wrong card with illegal_play: penalize).
            hand = game.hands[seat]
            if not hand:
                continue
            c = rng.choice(hand)
            a = play_action(c, rng.randrange(4) if c >= WILD else -1, rng.random() < 0.2)
        elif r < 0.065:
            target = rng.randrange(players)
            try:
                game.apply_host(penalize_action(target))
                feed("host", target, _state(game))
            except IllegalActionError as exc:
                feed("host-refused", target, str(exc), exc.reason)
            continue
        else:
            choices = legal[seat]
            plays = [a for a in choices if a != DRAW]
            # Favour playing over drawing so that rounds end and matches reach their end.
            a = rng.choice(plays) if plays and rng.random() < 0.8 else rng.choice(choices)
        if step % 97 == 0:
            copy = game.copy()
            feed("copy", _state(copy) == _state(game))
        try:
            game.step(seat, a)
            feed("apply", seat, a, _state(game))
        except IllegalActionError as exc:
            feed("refused", seat, a, str(exc), exc.reason, _state(game))
        if step % 211 == 0:
            feed("tables", [CARD_COLOR[c] + CARD_RANK[c] for c in game.discard[-3:]])
    feed("end", _state(game))
    return h.hexdigest()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    group = parser.add_mutually_exclusive_group(required=True)
    group.add_argument("--write", metavar="FILE", help="record the digests of the current engine")
    group.add_argument("--check", metavar="FILE", help="compare the current engine with FILE")
    parser.add_argument("--matches", type=int, default=300)
    args = parser.parse_args(argv)
    start = time.perf_counter()
    digests = {str(i): play_match(i) for i in range(args.matches)}
    took = time.perf_counter() - start
    if args.write:
        with open(args.write, "w") as f:
            json.dump(digests, f, indent=0, sort_keys=True)
            f.write("\n")
        print(f"wrote {len(digests)} match digests to {args.write} ({took:.1f}s)")
        return 0
    with open(args.check) as f:
        want: dict[str, str] = json.load(f)
    bad = [k for k, v in digests.items() if want.get(k) != v]
    if bad:
        print(f"DIFFERENT: {len(bad)} of {len(digests)} matches, first {bad[:10]} ({took:.1f}s)")
        return 1
    print(f"identical: {len(digests)} matches ({took:.1f}s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())

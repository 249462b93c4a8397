"""The conformance runner: plays the JSON rule scenarios (their format: ``tests/scenarios/README.md``).

Each scenario is a stacked deal, a list of actions, and what must hold after each of them.
:func:`run_scenario` never raises on a malformed scenario: it reports the file, the step
and what is wrong, as a failed :class:`Result`.

>>> r = run_scenario({
...     "name": "a wild names the colour",
...     "setup": {"edition": "classic", "dealer": 0, "hands": [["W", "R1"], ["G2", "B3"]],
...               "discard": "R4", "draw": ["Y1"]},
...     "steps": [{"seat": 1, "do": "draw", "expect": {"awaiting": "drawn"}},
...               {"seat": 1, "do": "pass"},
...               {"seat": 0, "do": "W=G", "expect": {"color": "G", "turn": 1}}]})
>>> r.line()
'PASS a wild names the colour'
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .core.actions import parse_action
from .core.cards import COLOR_LETTERS, card_str, parse_card
from .core.errors import IllegalActionError, NotationError, RecordError, UnoError
from .core.game import Game
from .core.options import Options
from .core.state import State


@dataclass(frozen=True)
class Result:
    """The outcome of one scenario. ``step`` is 1-based (0: the setup)."""

    name: str
    file: str
    passed: bool
    step: int = 0
    message: str = ""

    def line(self) -> str:
        """``PASS name`` or ``FAIL name: step N: what differed``."""
        if self.passed:
            return f"PASS {self.name}"
        return f"FAIL {self.name}: step {self.step}: {self.message}"

    def as_dict(self) -> dict[str, Any]:
        """The result as a JSON-ready dict."""
        return {"name": self.name, "file": self.file, "passed": self.passed,
                "step": self.step, "message": self.message}


class _Fail(Exception):
    def __init__(self, step: int, message: str) -> None:
        super().__init__(message)
        self.step = step
        self.message = message


def _malformed(step: int, message: str) -> _Fail:
    return _Fail(step, f"malformed scenario: {message}")


def build_game(setup: Mapping[str, Any]) -> Game:
    """The :class:`Game` a scenario's ``setup`` describes. Raises :class:`RecordError`."""
    if not isinstance(setup, Mapping):
        raise RecordError("'setup' must be an object")
    known = {"edition", "dealer", "hands", "discard", "draw", "deck", "players", "options",
             "scores", "eliminated", "seed"}
    unknown = set(setup) - known
    if unknown:
        raise RecordError(f"unknown setup key(s): {', '.join(sorted(unknown))}")
    try:
        options = Options.from_mapping(setup.get("options") or {})
        edition = setup.get("edition", "classic")
        dealer = setup.get("dealer", 0)
        seed = setup.get("seed")
        if not isinstance(dealer, int) or (seed is not None and not isinstance(seed, int)):
            raise RecordError("'dealer' and 'seed' must be whole numbers")
        scores = setup.get("scores")
        eliminated = setup.get("eliminated", [])
        if "deck" in setup:
            players = setup.get("players")
            if not isinstance(players, int):
                raise RecordError("a setup with 'deck' needs 'players'")
            game = Game(edition, players, options, seed)
            if scores is not None:
                if len(scores) != len(game.scores):
                    raise RecordError(f"'scores' needs {len(game.scores)} entries")
                game.scores = list(scores)
            for s in eliminated:
                game.eliminated[s] = True
            game.start_round(dealer=dealer, deck=[_card(c) for c in setup["deck"]])
            return game
        for key in ("hands", "discard", "draw"):
            if key not in setup:
                raise RecordError(f"setup needs 'deck' or 'hands', 'discard' and 'draw' ({key!r} missing)")
        hands = setup["hands"]
        if not isinstance(hands, list) or not all(isinstance(h, list) for h in hands):
            raise RecordError("'hands' must be a list of lists of cards")
        return Game.from_setup(
            hands=[[_card(c) for c in h] for h in hands],
            discard=_card(setup["discard"]),
            draw=[_card(c) for c in setup["draw"]],
            dealer=dealer, edition=edition, options=options, scores=scores,
            eliminated=eliminated, seed=seed,
        )
    except RecordError:
        raise
    except (UnoError, TypeError, KeyError, IndexError) as exc:
        raise RecordError(f"bad setup: {exc}") from None


def _card(text: Any) -> int:
    if not isinstance(text, str):
        raise RecordError(f"{text!r} is not a card code")
    return parse_card(text)


def _snapshot(game: Game) -> State:
    return game.state()


def _seat_key(key: Any, n: int, step: int) -> int:
    try:
        seat = int(key)
    except (TypeError, ValueError):
        raise _malformed(step, f"{key!r} is not a seat number") from None
    if not 0 <= seat < n:
        raise _malformed(step, f"seat {seat} does not exist")
    return seat


def _cards(value: Any, step: int) -> list[str]:
    if not isinstance(value, list):
        raise _malformed(step, f"{value!r} is not a list of cards")
    try:
        return sorted(card_str(_card(c)) for c in value)
    except UnoError as exc:
        raise _malformed(step, str(exc)) from None


_STATE: dict[str, Callable[[Game], Any]] = {
    "turn": lambda g: g.turn,
    "awaiting": lambda g: g.awaiting,
    "top": lambda g: card_str(g.top),
    "color": lambda g: COLOR_LETTERS[g.color],
    "direction": lambda g: g.direction,
    "hand_sizes": lambda g: g.hand_sizes(),
    "draw_size": lambda g: len(g.draw_pile),
    "discard_size": lambda g: len(g.discard),
    "round_winner": lambda g: g.round_winner if g.round_winner >= 0 else None,
    "scores": lambda g: list(g.scores),
    "winner": lambda g: sorted(g.winners),
    "eliminated": lambda g: [s for s in range(g.n) if g.eliminated[s]],
}
"""The ``expect`` keys that name one value of the game, and how to read it."""
_SEAT_SETS = ("winner", "eliminated")
"""The ``expect`` keys whose list of seats may come in any order."""

_Differ = Callable[[str, Any, Any], None]


def _check(game: Game, expect: Any, step: int) -> None:
    if not isinstance(expect, Mapping):
        raise _malformed(step, "'expect' must be an object")
    diffs: list[str] = []

    def differ(what: str, want: Any, got: Any) -> None:
        if want != got:
            diffs.append(f"{what}: expected {want!r}, got {got!r}")

    for key, want in expect.items():
        if key in _STATE:
            if key in _SEAT_SETS and isinstance(want, list):
                want = sorted(want)
            differ(key, want, _STATE[key](game))
        elif key == "hands":
            _check_hands(game, want, step, differ)
        elif key in ("legal", "illegal"):
            diffs += _legality_diffs(game, key, want, step)
        elif key == "seen":
            _check_seen(game, want, step, differ)
        else:
            raise _malformed(step, f"unknown expect key {key!r}")
    if diffs:
        raise _Fail(step, "; ".join(diffs))


def _check_hands(game: Game, want: Any, step: int, differ: _Differ) -> None:
    """``"hands": {seat: cards}``: each seat's hand, in any order."""
    if not isinstance(want, Mapping):
        raise _malformed(step, "'hands' must map seats to cards")
    for seat_key, cards in want.items():
        seat = _seat_key(seat_key, game.n, step)
        differ(f"hand of seat {seat}", _cards(cards, step), sorted(card_str(c) for c in game.hands[seat]))


def _legality_diffs(game: Game, key: str, want: Any, step: int) -> list[str]:
    """``"legal"`` or ``"illegal"``: ``{seat: actions}`` each of which the seat may (may not)
    take. Text that is no action at all is certainly not legal."""
    if not isinstance(want, Mapping):
        raise _malformed(step, f"'{key}' must map seats to actions")
    diffs: list[str] = []
    for seat_key, actions in want.items():
        seat = _seat_key(seat_key, game.n, step)
        if not isinstance(actions, list):
            raise _malformed(step, f"'{key}' of seat {seat} must be a list")
        for text in actions:
            try:
                a = parse_action(text)
            except (NotationError, TypeError):
                if key == "illegal":
                    continue  # not even an action: certainly not legal
                raise _malformed(step, f"{text!r} is not an action") from None
            ok = game.is_legal(seat, a)
            if key == "legal" and not ok:
                diffs.append(f"{text!r} should be legal for seat {seat}")
            if key == "illegal" and ok:
                diffs.append(f"{text!r} should be illegal for seat {seat}")
    return diffs


def _check_seen(game: Game, want: Any, step: int, differ: _Differ) -> None:
    """``"seen": {seat: {other: cards}}``: the cards of ``other``'s hand that ``seat`` was shown."""
    if not isinstance(want, Mapping):
        raise _malformed(step, "'seen' must map seats to {seat: cards}")
    for seat_key, shown in want.items():
        seat = _seat_key(seat_key, game.n, step)
        if not isinstance(shown, Mapping):
            raise _malformed(step, "'seen' must map seats to {seat: cards}")
        view = game.observe(seat).seen
        for other_key, cards in shown.items():
            other = _seat_key(other_key, game.n, step)
            got_cards = view.get(other)
            differ(f"seat {seat} saw seat {other}", _cards(cards, step),
                   None if got_cards is None else sorted(card_str(c) for c in got_cards))


def run_scenario(data: Any, file: str = "<scenario>", strict: bool = False) -> Result:
    """Run one scenario (already parsed from JSON). Never raises on bad input.

    A step with ``"error": true`` passes when the engine refuses its action and leaves the
    game as it was. Text that is not an action at all is refused too (the engine cannot even
    read it); ``strict`` makes that a malformed scenario instead, to catch misspelt actions.
    """
    name = data.get("name") if isinstance(data, Mapping) else None
    if not isinstance(name, str):
        name = file
    try:
        if not isinstance(data, Mapping):
            raise _malformed(0, "a scenario must be a JSON object")
        try:
            game = build_game(data.get("setup"))  # type: ignore[arg-type]  # checked inside
        except UnoError as exc:
            raise _malformed(0, f"{file}: {exc}") from None
        except Exception as exc:  # an engine bug must be reported, not crash the run
            raise _Fail(0, f"engine error in setup: {type(exc).__name__}: {exc}") from None
        steps = data.get("steps")
        if not isinstance(steps, list):
            raise _malformed(0, "'steps' must be a list")
        for i, step in enumerate(steps, start=1):
            try:
                _run_step(game, step, i, strict)
            except _Fail:
                raise
            except Exception as exc:  # an engine bug must be reported, not crash the run
                raise _Fail(i, f"engine error: {type(exc).__name__}: {exc}") from None
    except _Fail as fail:
        message = fail.message
        if message.startswith("malformed scenario") and file not in message:
            message = f"{message} (in {file})"
        return Result(name, file, False, fail.step, message)
    return Result(name, file, True)


def _run_step(game: Game, step: Any, i: int, strict: bool) -> None:
    if not isinstance(step, Mapping):
        raise _malformed(i, "a step must be an object")
    unknown = set(step) - {"seat", "do", "expect", "error"}
    if unknown:
        raise _malformed(i, f"unknown step key(s) {', '.join(sorted(unknown))}")
    if "do" in step:
        seat, text = step.get("seat"), step["do"]
        if not isinstance(seat, int) or not isinstance(text, str):
            raise _malformed(i, "an action step needs a whole-number 'seat' and a 'do' string")
        want_error = step.get("error", False) is True
        before = _snapshot(game)
        try:
            game.apply(seat, text)
        except NotationError as exc:
            if not want_error or strict:
                raise _malformed(i, str(exc)) from None
        except IllegalActionError as exc:
            if not want_error:
                raise _Fail(i, f"seat {seat} {text!r} was refused: {exc.reason}") from None
            if _snapshot(game) != before:
                raise _Fail(i, f"refusing seat {seat} {text!r} changed the game") from None
        else:
            if want_error:
                raise _Fail(i, f"seat {seat} {text!r} was accepted, but must be refused")
    elif "error" in step or "seat" in step:
        raise _malformed(i, "'seat'/'error' given without 'do'")
    if "expect" in step:
        _check(game, step["expect"], i)


def scenario_files(paths: Iterable[str | Path]) -> list[Path]:
    """Every ``*.json`` file named or inside the folders named, sorted within each folder."""
    files: list[Path] = []
    for p in paths:
        path = Path(p)
        if path.is_dir():
            files.extend(sorted(path.rglob("*.json")))
        else:
            files.append(path)
    return files


def run_files(files: Iterable[Path], on_result: Callable[[Result], None] | None = None,
              strict: bool = False) -> list[Result]:
    """Run every scenario file; unreadable or non-JSON files are failed results, not crashes.
    ``strict`` as in :func:`run_scenario`."""
    results: list[Result] = []
    for f in files:
        try:
            data = json.loads(f.read_text(encoding="utf-8"))
        except OSError as exc:
            result = Result(str(f), str(f), False, 0, f"cannot read {f}: {exc.strerror}")
        except (json.JSONDecodeError, UnicodeDecodeError) as exc:
            result = Result(str(f), str(f), False, 0, f"malformed scenario: {f} is not JSON: {exc}")
        else:
            result = run_scenario(data, str(f), strict)
        results.append(result)
        if on_result is not None:
            on_result(result)
    return results

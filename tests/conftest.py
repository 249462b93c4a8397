"""Shared helpers for the rule tests.

``setup(...)`` builds a stacked round (``Game.from_setup``) with options given as keywords;
``refused(...)`` asserts that an action is refused and that the game did not change at all;
``snapshot(...)`` is the full state used for that comparison; ``random_options(...)`` draws a
random mix of RULES.md options (used by the property and soak tests); ``random_step(...)`` and
``walk(...)`` play random legal actions; ``agent_turns(...)`` is the PettingZoo agent loop;
``placeholder_errors(...)`` checks a catalogue's translations against their messages.
"""

from __future__ import annotations

import argparse
import random
import re
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

import pytest

from unokit import Game, IllegalActionError, NotationError, Options, action_str, card_str, edition_deck
from unokit.core.actions import Action, parse_action
from unokit.core.observation import Observation

COLORS = "RYGB"


def setup(
    hands: Sequence[Sequence[str]],
    discard: str,
    draw: Sequence[str] = (),
    *,
    dealer: int = 0,
    edition: str = "classic",
    scores: Sequence[int | float] | None = None,
    eliminated: Sequence[int] = (),
    seed: int = 0,
    **options: Any,
) -> Game:
    """A stacked round: ``hands`` per seat, the turned-up ``discard``, ``draw`` top card first."""
    return Game.from_setup(
        hands=[list(h) for h in hands],
        discard=discard,
        draw=list(draw),
        dealer=dealer,
        edition=edition,
        options=Options.from_mapping(options),
        scores=scores,
        eliminated=eliminated,
        seed=seed,
    )


def snapshot(game: Game) -> tuple[Any, ...]:
    """Everything that makes up the game's state (its :class:`~unokit.core.state.State`), plus what
    every seat is offered and observes."""
    return (
        game.state(),
        [game.legal_actions(s) for s in range(game.n)],
        [game.observe(s) for s in range(game.n)],
    )


def refused(game: Game, seat: int, action: str | Action, error: type[Exception] = IllegalActionError) -> str:
    """Assert that ``seat`` may not take ``action``: it is not listed as legal (when it parses),
    ``apply`` raises ``error``, and the whole game state is unchanged. Returns the message."""
    before = snapshot(game)
    if error is IllegalActionError:
        assert not game.is_legal(seat, action), f"{action!r} is listed as legal for seat {seat}"
    with pytest.raises(error) as info:
        game.apply(seat, action)
    assert snapshot(game) == before, f"refusing {action!r} for seat {seat} changed the game"
    return str(info.value)


def play(game: Game, *steps: tuple[int, str]) -> None:
    """Apply ``(seat, action)`` steps in order, each of which must be legal."""
    for seat, action in steps:
        assert game.is_legal(seat, action), (
            f"{action!r} is not legal for seat {seat}: legal {legal(game, seat)}; {game!r}"
        )
        game.apply(seat, action)


def legal(game: Game, seat: int) -> list[str]:
    """The legal actions of ``seat`` in notation."""
    return [action_str(a) for a in game.legal_actions(seat)]


def hand(game: Game, seat: int) -> list[str]:
    """``seat``'s hand in notation, sorted."""
    return sorted(card_str(c) for c in game.hands[seat])


def cards(*texts: str) -> list[str]:
    """Card codes, sorted (to compare with :func:`hand`)."""
    return sorted(texts)


def top(game: Game) -> str:
    """The top card of the discard pile."""
    return card_str(game.top)


def color(game: Game) -> str:
    """The colour in play as a letter."""
    return COLORS[game.color]


def draw_top_first(game: Game) -> list[str]:
    """The draw pile in notation, top card first."""
    return [card_str(c) for c in reversed(game.draw_pile)]


def all_cards(game: Game) -> Counter[int]:
    """Every card in the hands and both piles, as a multiset."""
    count: Counter[int] = Counter()
    for h in game.hands:
        count.update(h)
    count.update(game.draw_pile)
    count.update(game.discard)
    return count


def assert_whole_deck(game: Game) -> None:
    """Card conservation: the hands and the piles hold exactly the edition's deck."""
    assert all_cards(game) == Counter(edition_deck(game.edition)), "cards were created or lost"


def random_options(rng: random.Random, players: int, edition: str, target: int | None = None) -> Options:
    """A random mix of every option of RULES.md's Options and House rules tables that a match of
    ``players`` seats can be played with."""
    deck = len(edition_deck(edition))
    values: dict[str, Any] = {
        "target": target if target is not None else rng.randint(1, 200),
        "scoring": rng.choice(("standard", "alternative")),
        "mode": rng.choice(
            ("individual", "elimination") + (("partners",) if players in (4, 6, 8, 10) else ())
        ),
        "two_handed_rules": rng.random() < 0.7,
        "wd4_bluffing": rng.choice(("allow", "forbid")),
        "illegal_play": rng.choice(("reject", "penalize")),
        "agent_p_draws_from": rng.choice(("discard", "draw")),
        "hand_size": rng.randint(1, min(15, (deck - 1) // players)),
        "stacking": rng.choice(("off", "progressive", "plus4_on_plus2")),
        "seven_zero": rng.random() < 0.3,
        "jump_in": rng.random() < 0.3,
        "draw_until_playable": rng.random() < 0.3,
        "force_play": rng.random() < 0.3,
    }
    # Leave some options out, so that their defaults are exercised too.
    for name in list(values):
        if name != "target" and rng.random() < 0.3:
            del values[name]
    return Options.from_mapping(values)


def random_step(game: Game, rng: random.Random, eagerness: float = 0.3) -> tuple[int, Action]:
    """Pick a random legal action: sometimes an out-of-turn one (uno, catch, jump-in) from any
    seat that has one, else one of the seat on turn. Returns ``(seat, action)`` without applying."""
    if rng.random() < eagerness:
        others = [s for s in range(game.n) if s != game.turn and game.legal_actions(s)]
        if others:
            seat = rng.choice(others)
            return seat, rng.choice(game.legal_actions(seat))
    seat = game.turn
    return seat, rng.choice(game.legal_actions(seat))


def walk(game: Game, rng: random.Random, steps: int,
         step: Callable[[Game, random.Random], tuple[int, Action]] = random_step,
         host: Callable[[Game, random.Random], Action | None] | None = None) -> Iterator[tuple[int, Action]]:
    """Play up to ``steps`` random legal actions (``step`` picks each; from any seat by
    default), dealing new rounds as needed; yields each ``(seat, action)`` after it is applied.
    ``host``, when given, may answer a host's action instead (applied, yielded with seat -1)."""
    for _ in range(steps):
        if game.is_over:
            return
        if game.awaiting == "round_over":
            game.start_round()
            continue
        hosted = host(game, rng) if host is not None else None
        if hosted is not None:
            game.apply_host(hosted)
            yield -1, hosted
            continue
        seat, action = step(game, rng)
        game.apply(seat, action)
        yield seat, action


def agent_turns(env: Any, max_iter: int = 2**63) -> Iterator[tuple[str, int, dict[str, Any]]]:
    """The PettingZoo agent loop: ``(agent, seat, observation)`` for each live agent asked
    (the caller steps it); an agent already done is stepped with ``None`` here."""
    for agent in env.agent_iter(max_iter=max_iter):
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        yield agent, int(agent.removeprefix("player_")), obs


def _fields(text: str) -> set[str]:
    return set(re.findall(r"\{(\w+)\}", text))


def placeholder_errors(lang: str, catalog: Any, messages: Iterable[tuple[str | None, Any]]
                       ) -> tuple[list[Any], list[str]]:
    """Check ``messages`` (``(context, message)``; a message is text, or a tuple of plural
    forms) in a Babel ``catalog``: the messages without a translation, and what is wrong with
    the others (an empty translation, or one whose ``{placeholders}`` differ)."""
    missing: list[Any] = []
    wrong: list[str] = []
    for context, message in sorted(messages, key=repr):
        msgid = message[0] if isinstance(message, tuple) else message
        entry = catalog.get(msgid, context=context)
        if entry is None or entry.fuzzy:
            missing.append((context, message))
            continue
        strings = entry.string if isinstance(entry.string, tuple) else (entry.string,)
        if not all(strings):
            wrong.append(f"{lang}: empty translation of {message!r}")
        originals = message if isinstance(message, tuple) else (message,)
        want = set().union(*(_fields(m) for m in originals))
        wrong += [f"{lang}: {message!r} -> {s!r} changes the placeholders"
                  for s in strings if not isinstance(s, str) or _fields(s) != want]
    return missing, wrong


def play_args(**kw: object) -> argparse.Namespace:
    """``unokit play``'s arguments: its defaults, with ``kw`` set."""
    from unokit.commands import play

    parser = argparse.ArgumentParser()
    play.add_arguments(parser)
    ns = parser.parse_args([])
    for k, v in kw.items():
        setattr(ns, k, v)
    return ns


class Script:
    """A bot that plays the given actions on its turns, then its first legal action; it never
    acts out of turn."""

    name = "script"

    def __init__(self, *actions: str) -> None:
        self.actions = [parse_action(a) for a in actions]

    def act(self, obs: Observation) -> Action | None:
        if obs.turn != obs.seat:
            return None
        return self.actions.pop(0) if self.actions else obs.legal[0]


__all__ = [
    "COLORS",
    "NotationError",
    "Script",
    "agent_turns",
    "all_cards",
    "assert_whole_deck",
    "cards",
    "color",
    "draw_top_first",
    "hand",
    "legal",
    "placeholder_errors",
    "play",
    "play_args",
    "random_options",
    "random_step",
    "refused",
    "setup",
    "snapshot",
    "top",
    "walk",
]

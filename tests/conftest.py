"""Shared helpers for the rule tests.

``setup(...)`` builds a stacked round (``Game.from_setup``) with options given as keywords;
``refused(...)`` asserts that an action is refused and that the game did not change at all;
``snapshot(...)`` is the full state used for that comparison; ``random_options(...)`` draws a
random mix of RULES.md options from ``unokit.core.options.OPTION_SPECS`` with a ``random.Random``
(used by the soak and protocol tests), and ``option_maps(...)`` is the Hypothesis strategy of the
same (the property tests); ``random_step(...)`` and
``walk(...)`` play random legal actions; ``agent_turns(...)`` is the PettingZoo agent loop;
``placeholder_errors(...)`` checks a catalogue's translations against their messages.
"""

from __future__ import annotations

import argparse
import math
import random
import re
from collections import Counter
from collections.abc import Callable, Collection, Iterable, Iterator, Sequence
from typing import Any

import pytest
from hypothesis import strategies as st

from unokit import Game, IllegalActionError, NotationError, Options, action_str, card_str, edition_deck
from unokit.core.actions import Action, parse_action
from unokit.core.observation import Observation
from unokit.core.options import OPTION_SPECS, OptionSpec

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


def option_domain(spec: OptionSpec, players: int, edition: str) -> Sequence[Any]:
    """The values of ``spec`` that a match of ``players`` seats of ``edition`` can be played with:
    a choice's values (``partners`` only with 4, 6, 8 or 10 players), a bool's two, and every
    whole number within a number's bounds (``hand_size`` no more than the deck deals, keeping one
    card to turn up)."""
    if spec.kind == "choice":
        return tuple(v for v in spec.choices
                     if not (spec.name == "mode" and v == "partners" and players not in (4, 6, 8, 10)))
    if spec.kind == "bool":
        return (False, True)
    above, low, high = spec.exclusive_minimum, spec.minimum, spec.maximum
    assert high is not None and (low is not None or above is not None)
    least = math.floor(above) + 1 if above is not None else math.ceil(low or 0)
    if spec.name == "hand_size":
        high = min(high, (len(edition_deck(edition)) - 1) // players)
    return range(least, math.floor(high) + 1)


def _domains(players: int, edition: str, specs: Sequence[OptionSpec], only: Collection[str] | None,
             given: dict[str, Any]) -> dict[str, tuple[OptionSpec, Sequence[Any], bool]]:
    """``{name: (spec, values, fixed)}`` for the options to draw: each one's :func:`option_domain`,
    or what ``given`` says of it: a range or a tuple narrows its values, anything else is its value."""
    unknown = set(given) - {spec.name for spec in specs}
    assert not unknown, f"no such option: {sorted(unknown)}"
    domains: dict[str, tuple[OptionSpec, Sequence[Any], bool]] = {}
    for spec in specs:
        if only is not None and spec.name not in only:
            continue
        full = option_domain(spec, players, edition)
        if spec.name not in given:
            domains[spec.name] = (spec, full, False)
            continue
        wanted = given[spec.name]
        if isinstance(wanted, range) and isinstance(full, range):
            both = range(max(wanted.start, full.start), min(wanted.stop, full.stop))
            domains[spec.name] = (spec, both, False)
        elif isinstance(wanted, (range, tuple)):
            domains[spec.name] = (spec, tuple(v for v in wanted if v in full), False)
        else:
            domains[spec.name] = (spec, (wanted,), True)
    return domains


def random_option_values(rng: random.Random, players: int, edition: str, *,
                         specs: Sequence[OptionSpec] = OPTION_SPECS, **given: Any) -> dict[str, Any]:
    """A random ``{option: value}`` of every option of ``specs`` that ``players`` seats of
    ``edition`` can play (:func:`option_domain`); a bool keeps its default 7 times in 10. A keyword
    gives an option its value, or (a range or a tuple) the values to draw it from; an option named
    by a keyword is always there, each other one is left out 3 times in 10, so that the defaults
    are played too."""
    values: dict[str, Any] = {}
    for name, (spec, domain, fixed) in _domains(players, edition, specs, None, given).items():
        if fixed:
            values[name] = domain[0]
        elif spec.kind == "bool" and domain == (False, True):
            values[name] = rng.random() < (0.7 if spec.default else 0.3)
        elif domain:
            values[name] = rng.choice(domain)
    for name in list(values):
        if name not in given and rng.random() < 0.3:
            del values[name]
    return values


def random_options(rng: random.Random, players: int, edition: str, target: int | range = range(1, 201),
                   **given: Any) -> Options:
    """:func:`random_option_values` as :class:`Options`, to a ``target`` of at most 200 unless told."""
    return Options.from_mapping(random_option_values(rng, players, edition, target=target, **given))


def option_maps(players: int, edition: str, *, only: Collection[str] | None = None,
                required: Collection[str] = (), specs: Sequence[OptionSpec] = OPTION_SPECS,
                **given: Any) -> st.SearchStrategy[dict[str, Any]]:
    """The Hypothesis strategy of ``{option: value}`` for ``players`` seats of ``edition``: the
    options of ``specs`` (those named in ``only``, when given), each from its
    :func:`option_domain` or narrowed as in :func:`random_option_values`. An option in
    ``required`` is always there, any other one may be left out; one with no value left (partners
    for 5 players) is left out."""
    optional: dict[str, st.SearchStrategy[Any]] = {}
    for name, (_, domain, _) in _domains(players, edition, specs, only, given).items():
        if isinstance(domain, range) and domain:
            optional[name] = st.integers(domain.start, domain.stop - 1)
        elif domain:
            optional[name] = st.sampled_from(domain)
    missing = set(required) - set(optional)
    assert not missing, f"no value to draw for the required {sorted(missing)}"
    return st.fixed_dictionaries({name: optional.pop(name) for name in required}, optional=optional)


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
    "option_domain",
    "option_maps",
    "placeholder_errors",
    "play",
    "play_args",
    "random_option_values",
    "random_options",
    "random_step",
    "refused",
    "setup",
    "snapshot",
    "top",
    "walk",
]

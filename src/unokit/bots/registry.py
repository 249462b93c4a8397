"""The bot registry: build a bot by name, with its options checked against its option table.

>>> make_bot("heuristic", seed=1).name
'heuristic'
>>> make_bot("nobody")
Traceback (most recent call last):
...
unokit.core.errors.OptionError: unknown bot 'nobody' (bots: easy, hard, heuristic, normal, random, strong)
>>> make_bot("heuristic", forget_uno=5)
Traceback (most recent call last):
...
unokit.core.errors.OptionError: bot 'heuristic', option 'forget_uno': 5 is not a number from 0 to 1
>>> parse_bot_options(["strong.iterations=20", "heuristic.forget_uno=0.1"])
(('heuristic', (('forget_uno', 0.1),)), ('strong', (('iterations', 20),)))
"""

from __future__ import annotations

import functools
import inspect
import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from importlib.metadata import EntryPoint, entry_points
from typing import Any, Final

from ..core.errors import OptionError
from .base import Bot
from .heuristic import CHALLENGE_THRESHOLD, HeuristicBot
from .levels import MISTAKES, easy, hard, normal, strong_v1
from .random_bot import RandomBot
from .strong import (
    CONFIDENCE,
    DEFAULT_ITERATIONS,
    DEFAULT_ROLLOUTS,
    INFER_DEPTH,
    MAX_MS,
    PARTICLES,
    V1_PARTICLES,
    V1_ROLLOUTS,
    StrongBot,
)


@dataclass(frozen=True)
class BotOption:
    """One option a bot takes by name (``--bot-option bot.name=value``): its type and range.

    ``kind`` is ``bool``, ``int`` or ``float``; a number must lie in ``[low, high]`` (either
    bound ``None``: open), and above ``low`` when ``above_low`` is set. Floats must be finite.
    """

    name: str
    kind: type
    default: object
    low: float | None = None
    high: float | None = None
    above_low: bool = False

    def accepted(self) -> str:
        """What the option accepts, in words: ``a number from 0 to 1``, ``true or false``."""
        if self.kind is bool:
            return "true or false"
        noun = "a whole number" if self.kind is int else "a number"
        low, high = _num(self.low), _num(self.high)
        if self.low is not None and self.high is not None:
            return f"{noun} from {low} to {high}"
        if self.low is not None:
            return f"{noun} {'above' if self.above_low else 'of at least'} {low}"
        if self.high is not None:
            return f"{noun} of at most {high}"
        return noun

    def convert(self, bot: str, value: object) -> object:
        """``value`` (command-line text, or a Python value) as this option's type; raises
        :class:`~unokit.core.errors.OptionError` naming the bot, the option, the value and what
        the option accepts."""
        converted = self._convert(value)
        if converted is None:
            shown = repr(value) if isinstance(value, str) else str(value)
            raise OptionError(f"bot {bot!r}, option {self.name!r}: {shown} is not {self.accepted()}")
        return converted

    def _convert(self, value: object) -> object | None:
        if self.kind is bool:
            if isinstance(value, bool):
                return value
            if isinstance(value, str) and value.strip().lower() in ("true", "false"):
                return value.strip().lower() == "true"
            return None
        number: float | int
        if isinstance(value, bool):
            return None
        if isinstance(value, str):
            try:
                number = int(value) if self.kind is int else float(value)
            except ValueError:
                return None
        elif isinstance(value, int) or (isinstance(value, float) and self.kind is float):
            number = value
        else:
            return None
        if self.kind is float:
            number = float(number)
            if not math.isfinite(number):
                return None
        if self.low is not None and (number < self.low or (self.above_low and number == self.low)):
            return None
        if self.high is not None and number > self.high:
            return None
        return number


def _num(x: float | None) -> str:
    return "" if x is None else (str(int(x)) if float(x).is_integer() else f"{x:g}")


def _chance(name: str, default: float) -> BotOption:
    return BotOption(name, float, default, 0, 1)


PREFIX_GROUP: Final = "unokit.bot_prefixes"
"""The entry-point group of bot name prefixes: an entry ``NAME = "module:factory"`` makes every
bot name ``NAME:ARGUMENT`` a bot, ``factory(ARGUMENT, seed=...)``. unokit's own is ``policy``
(``policy:PATH``, a trained policy: ``unokit.envs.policy``, the ``train`` extra); the layer that
provides a bot registers it, so the registry knows no layer above it."""


@functools.cache
def _prefixes() -> dict[str, EntryPoint]:
    return {ep.name: ep for ep in entry_points(group=PREFIX_GROUP)}


def _prefixed(name: object) -> tuple[EntryPoint, str] | None:
    """The entry point and argument of a name ``PREFIX:ARGUMENT`` of a registered prefix."""
    if not isinstance(name, str):
        return None
    prefix, sep, argument = name.partition(":")
    ep = _prefixes().get(prefix) if sep and argument else None
    return None if ep is None else (ep, argument)


def _prefixed_bot(ep: EntryPoint, argument: str, seed: int | None = None) -> Bot:
    """The bot of ``PREFIX:ARGUMENT``, its module imported only when one is made."""
    bot: Bot = ep.load()(argument, seed=seed)
    return bot


UNLISTED: dict[str, Callable[..., Bot]] = {"strong-v1": strong_v1}
"""Bots that ``make_bot``, ``--bots`` and the arena accept by name but that are not offered to
players (:func:`bot_names` leaves them out): ``strong-v1``, the first version of the strong bot,
kept so that the new one can be measured against it."""


class _Bots(dict[str, Callable[..., Bot]]):
    """The registered bots, and the :data:`UNLISTED` ones and every name of a registered
    prefix (:data:`PREFIX_GROUP`, such as ``policy:PATH``) besides (not listed)."""

    def __contains__(self, name: object) -> bool:
        return super().__contains__(name) or name in UNLISTED or _prefixed(name) is not None

    def __getitem__(self, name: str) -> Callable[..., Bot]:
        if not super().__contains__(name):
            if name in UNLISTED:
                return UNLISTED[name]
            prefixed = _prefixed(name)
            if prefixed is not None:
                return functools.partial(_prefixed_bot, *prefixed)
        return super().__getitem__(name)


BOTS: dict[str, Callable[..., Bot]] = _Bots({
    "random": RandomBot,
    "heuristic": HeuristicBot,
    "strong": StrongBot,
    "easy": easy,
    "normal": normal,
    "hard": hard,
})
"""Bot factories by name; each takes ``seed=`` and the keyword options of :data:`BOT_OPTIONS`:
the bots and the difficulty levels for people (:data:`~unokit.bots.levels.LEVELS`: ``easy``,
``normal``, ``hard``, which is the ``strong`` bot under the level's name). ``strong-v1``
(:data:`UNLISTED`) and every name ``policy:PATH``, a trained policy (``docs/rl.md``), are in
``BOTS`` without being listed."""


def _search_options(rollouts: int, particles: int, exact_model: bool | None) -> tuple[BotOption, ...]:
    """The options of a searching bot (``strong``, ``hard``, ``strong-v1``) with its defaults."""
    return (
        BotOption("iterations", int, DEFAULT_ITERATIONS, 1),  # least determinizations a decision
        BotOption("rollouts", int, rollouts, 0),  # rollouts a decision
        BotOption("time_ms", float, None, 0, above_low=True),  # a time budget instead (ms)
        BotOption("max_ms", float, MAX_MS, 0),  # the time cap of iteration mode (ms; 0: none)
        BotOption("confidence", float, CONFIDENCE, 0),  # standard errors to beat the heuristic by
        BotOption("prune", float, 2.0, 0),  # drop candidates this many standard errors behind
        BotOption("points", float, 0.5, 0),  # the weight of points in a rollout's value
        BotOption("particles", int, particles, 1),  # distinct deals sampled a decision
        BotOption("infer_choices", bool, True),  # deal hidden cards to explain others' choices
        BotOption("infer_draws", bool, True),  # a seat that drew held no match
        BotOption("wild_colours", bool, True),  # search every colour for a wild card
        *((BotOption("exact_model", bool, exact_model),  # rollouts play the heuristic exactly
           BotOption("infer_depth", int, INFER_DEPTH, 0))  # kept draws back whose card is tried in turn
          if exact_model is not None else ()),
        _chance("forget_uno", 0.0),  # the chance it forgets to call UNO
    )


def _level_options(name: str) -> tuple[BotOption, ...]:
    """The options of a heuristic level: its mistake rates (defaults: :data:`MISTAKES`)."""
    m = MISTAKES[name]
    return (
        _chance("forget_uno", m.forget_uno),  # the chance it forgets to call UNO
        _chance("miss_catch", m.miss_catch),  # the chance it lets a missed UNO call go
        _chance("weak_colour", m.weak_colour),  # the chance it names a colour at random
        _chance("careless", m.careless),  # the chance it plays a random playable card
    )


BOT_OPTIONS: dict[str, tuple[BotOption, ...]] = {
    "random": (
        _chance("eagerness", 0.5),  # the chance it acts when it may act out of turn
    ),
    "heuristic": (
        _chance("forget_uno", 0.0),  # the chance it forgets to call UNO
        _chance("challenge_threshold", CHALLENGE_THRESHOLD),  # the bluff chance it challenges from
    ),
    "strong": _search_options(DEFAULT_ROLLOUTS, PARTICLES, True),
    "strong-v1": _search_options(V1_ROLLOUTS, V1_PARTICLES, None),
    "easy": _level_options("easy"),
    "normal": _level_options("normal"),
    "hard": _search_options(DEFAULT_ROLLOUTS, PARTICLES, True),
}
"""The options each bot takes by name (the command line's ``--bot-option bot.name=value``), with
their types and ranges; :func:`make_bot` and :func:`parse_bot_options` check values against them.
No bot takes the match's :class:`~unokit.core.options.Options`: they are public, and every bot reads
them from its observation (``obs.options``)."""


def bot_names() -> list[str]:
    """The registered bot names, sorted: the ones offered to players (not :data:`UNLISTED`)."""
    return sorted(BOTS)


def split_bot_names(spec: str) -> list[str]:
    """The names in a comma-separated list of bots, as ``--bots`` takes them: each trimmed,
    empty entries left out. Whether the names exist is :func:`make_bot`'s to say.

    >>> split_bot_names(" heuristic, strong,,")
    ['heuristic', 'strong']
    """
    return [n.strip() for n in spec.split(",") if n.strip()]


def check_bot_names(names: Iterable[str]) -> None:
    """Raise :class:`~unokit.core.errors.OptionError` for the first name that is not a bot."""
    for name in names:
        if name not in BOTS:
            raise OptionError(f"unknown bot {name!r} (bots: {', '.join(bot_names())})")


def bot_option(bot: str, name: str) -> BotOption:
    """The entry of option ``name`` in bot ``bot``'s table; an unknown bot or option raises
    :class:`~unokit.core.errors.OptionError` listing the bots or the bot's options."""
    check_bot_names([bot])
    for opt in BOT_OPTIONS.get(bot, ()):
        if opt.name == name:
            return opt
    known = ", ".join(o.name for o in BOT_OPTIONS.get(bot, ())) or "none"
    raise OptionError(f"bot {bot!r} has no option {name!r} (its options: {known})")


def parse_bot_options(items: Iterable[str]) -> tuple[tuple[str, tuple[tuple[str, Any], ...]], ...]:
    """``bot.name=value`` strings, checked and converted by the bots' option tables, as
    ``((bot, ((name, value), ...)), ...)`` sorted by bot then name (a later value for the same
    option replaces an earlier one). Raises :class:`~unokit.core.errors.OptionError` on the first bad
    item, naming it."""
    found: dict[str, dict[str, Any]] = {}
    for item in items:
        key, sep, raw = item.partition("=")
        bot, dot, name = key.strip().partition(".")
        if not sep or not dot or not bot or not name:
            raise OptionError(f"bot option {item!r} must be written as bot.name=value")
        found.setdefault(bot, {})[name] = bot_option(bot, name).convert(bot, raw.strip())
    return tuple((b, tuple(sorted(v.items()))) for b, v in sorted(found.items()))


def make_bot(name: str, seed: int | None = None, **kwargs: Any) -> Bot:
    """A new bot ``name`` seeded with ``seed``; ``kwargs`` go to its constructor.

    An unknown name, an option the bot does not take, or a value outside the option's range
    (:data:`BOT_OPTIONS`) raises :class:`~unokit.core.errors.OptionError`. ``None`` is passed on as is
    (the bot's default).
    """
    check_bot_names([name])
    factory = BOTS[name]
    table = {o.name: o for o in BOT_OPTIONS.get(name, ())}
    try:
        params = set(inspect.signature(factory).parameters)
    except (TypeError, ValueError):
        params = set()
    for key, value in list(kwargs.items()):
        if key in table:
            if value is not None:
                kwargs[key] = table[key].convert(name, value)
        elif params and key not in params:
            bot_option(name, key)  # raises: no such option
    try:
        return factory(seed=seed, **kwargs)
    except (TypeError, ValueError) as exc:
        raise OptionError(f"bot {name!r}: {exc}") from None

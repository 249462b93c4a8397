"""The bot registry: build a bot by name.

>>> make_bot("heuristic", seed=1).name
'heuristic'
>>> make_bot("nobody")
Traceback (most recent call last):
...
unokit.errors.OptionError: unknown bot 'nobody' (bots: heuristic, random, strong)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..errors import OptionError
from .base import Bot
from .heuristic import HeuristicBot
from .random_bot import RandomBot
from .strong import StrongBot

BOTS: dict[str, Callable[..., Bot]] = {
    "random": RandomBot,
    "heuristic": HeuristicBot,
    "strong": StrongBot,
}
"""Bot factories by name; each takes ``seed=`` and its own keyword options."""


def bot_names() -> list[str]:
    """The registered bot names, sorted."""
    return sorted(BOTS)


def split_bot_names(spec: str) -> list[str]:
    """The names in a comma-separated list of bots, as ``--bots`` takes them: each trimmed,
    empty entries left out. Whether the names exist is :func:`make_bot`'s to say.

    >>> split_bot_names(" heuristic, strong,,")
    ['heuristic', 'strong']
    """
    return [n.strip() for n in spec.split(",") if n.strip()]


def make_bot(name: str, seed: int | None = None, **kwargs: Any) -> Bot:
    """A new bot ``name`` seeded with ``seed``; ``kwargs`` go to its constructor.

    An unknown name, or an option the bot does not take, raises
    :class:`~unokit.errors.OptionError`.
    """
    factory = BOTS.get(name)
    if factory is None:
        raise OptionError(f"unknown bot {name!r} (bots: {', '.join(bot_names())})")
    try:
        return factory(seed=seed, **kwargs)
    except TypeError as exc:
        raise OptionError(f"bot {name!r}: {exc}") from None

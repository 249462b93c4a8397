"""Match options: RULES.md's *Options* and *House rules* tables, with their exact names and values.

>>> opts = Options.from_mapping({"target": "250", "stacking": "progressive"})
>>> opts.target, opts.stacking, opts.scoring
(250, 'progressive', 'standard')
>>> opts.changed()
{'target': 250, 'stacking': 'progressive'}
>>> Options.from_mapping({"stacking": "yes"})  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
unokit.core.errors.OptionError: option 'stacking': 'yes' is not a value (choose from off, ...)
"""

from __future__ import annotations

# mypyc: pure: read once per game, not at every step; its frozen dataclass pickles by default
import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final, Literal, get_args, get_origin, get_type_hints

from .errors import OptionError

# The values of each option that is a choice, each listed once, here: mypy checks a value
# written in code against them (``Options(stacking="progresive")`` is a type error), and
# :func:`_parse_value` checks a value read at run time against the same lists.
Scoring = Literal["standard", "alternative"]
"""``scoring``: E2 (who goes out scores the other hands) or E3 (everyone adds their own)."""
Mode = Literal["individual", "partners", "elimination"]
"""``mode``: every player for themselves, two-player teams, or the last player standing."""
WD4Bluffing = Literal["allow", "forbid"]
"""``wd4_bluffing``: an illegal Wild Draw Four may be played and challenged (P3), or is refused."""
IllegalPlay = Literal["reject", "penalize"]
"""``illegal_play``: a wrong card is refused (P5), or accepted with its penalty."""
AgentPDrawsFrom = Literal["discard", "draw"]
"""``agent_p_draws_from``: where the attacker answered by Agent P draws from (C6)."""
Stacking = Literal["off", "progressive", "plus4_on_plus2"]
"""``stacking``: the house rule of stacking draw cards, and which on which."""

_BOOLS: Final = ("two_handed_rules", "seven_zero", "jump_in", "draw_until_playable", "force_play")
_HAND_SIZES: Final = (1, 15)
"""The smallest and largest ``hand_size``."""
MAX_TARGET: Final = 100_000
"""The largest ``target``: RULES.md allows any positive number, but a match to more than
200 times the printed 500 would not end in any sitting (settled in docs/rules.md, "Scoring and matches")."""


@dataclass(frozen=True, slots=True)
class Options:
    """Every option of RULES.md with its default. Immutable; build one with :meth:`from_mapping`."""

    target: int | float = 500
    scoring: Scoring = "standard"
    mode: Mode = "individual"
    two_handed_rules: bool = True
    wd4_bluffing: WD4Bluffing = "allow"
    illegal_play: IllegalPlay = "reject"
    agent_p_draws_from: AgentPDrawsFrom = "discard"
    hand_size: int = 7
    stacking: Stacking = "off"
    seven_zero: bool = False
    jump_in: bool = False
    draw_until_playable: bool = False
    force_play: bool = False

    def __post_init__(self) -> None:
        """Every value is checked as :meth:`from_mapping` checks it, so a bad one fails here,
        naming the option, rather than later in a game. Text values are read as there."""
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            parsed = _parse_value(f.name, value)
            if parsed is not value:
                object.__setattr__(self, f.name, parsed)

    @classmethod
    def from_mapping(cls, values: Mapping[str, Any]) -> Options:
        """Options from ``{name: value}``; values may be typed or strings (``"true"``, ``"250"``).

        An unknown name or a bad value raises :class:`~unokit.core.errors.OptionError` naming it.
        """
        if not isinstance(values, Mapping):
            raise OptionError(f"options must be a mapping of names to values, not {type(values).__name__}")
        fields = {f.name for f in dataclasses.fields(cls)}
        parsed: dict[str, Any] = {}
        for name, value in values.items():
            if name not in fields:
                raise OptionError(
                    f"unknown option {name!r} (options: {', '.join(sorted(fields))})"
                )
            parsed[name] = _parse_value(name, value)
        return cls(**parsed)

    @classmethod
    def from_strings(cls, items: list[str]) -> Options:
        """Options from command-line ``key=value`` strings.

        >>> Options.from_strings(["seven_zero=true"]).seven_zero
        True
        """
        values: dict[str, str] = {}
        for item in items:
            name, sep, value = item.partition("=")
            if not sep or not name:
                raise OptionError(f"option {item!r} must be written as name=value")
            values[name.strip()] = value.strip()
        return cls.from_mapping(values)

    def changed(self) -> dict[str, Any]:
        """The options that differ from their defaults, as a plain dict (for records)."""
        default = Options()
        return {
            f.name: getattr(self, f.name)
            for f in dataclasses.fields(self)
            if getattr(self, f.name) != getattr(default, f.name)
        }

    def as_dict(self) -> dict[str, Any]:
        """Every option as a plain dict."""
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}


def _choice_table() -> dict[str, tuple[str, ...]]:
    """``{option: its values}`` for every field of :class:`Options` typed as a ``Literal``."""
    hints = get_type_hints(Options)
    table: dict[str, tuple[str, ...]] = {}
    for f in dataclasses.fields(Options):
        if get_origin(hints[f.name]) is Literal:
            table[f.name] = get_args(hints[f.name])
    return table


_CHOICES: Final = _choice_table()
"""The values of each choice option, read from the ``Literal`` types above."""


def _parse_value(name: str, value: Any) -> Any:
    if name in _CHOICES:
        choices = _CHOICES[name]
        if not isinstance(value, str) or value not in choices:
            raise OptionError(
                f"option {name!r}: {value!r} is not a value (choose from {', '.join(choices)})"
            )
        return value
    if name in _BOOLS:
        if isinstance(value, bool):
            return value
        if isinstance(value, str) and value.lower() in ("true", "false"):
            return value.lower() == "true"
        raise OptionError(f"option {name!r}: {value!r} is not a value (use true or false)")
    number: int | float
    if isinstance(value, bool):
        raise OptionError(f"option {name!r}: {value!r} is not a number")
    if isinstance(value, (int, float)):
        number = value
    elif isinstance(value, str):
        try:
            number = int(value)
        except ValueError:
            try:
                number = float(value) if name == "target" else int(value)
            except ValueError:
                raise OptionError(f"option {name!r}: {value!r} is not a number") from None
    else:
        raise OptionError(f"option {name!r}: {value!r} is not a number")
    if name == "hand_size" and not float(number).is_integer():
        raise OptionError(f"option 'hand_size': {value!r} is not a whole number")
    if isinstance(number, float) and number.is_integer():
        number = int(number)
    if name == "target":
        if not 0 < number <= MAX_TARGET:
            raise OptionError(
                f"option 'target': {value!r} is out of range (a positive number up to {MAX_TARGET:,})"
            )
    else:
        low, high = _HAND_SIZES
        if not low <= number <= high:
            raise OptionError(f"option {name!r}: {value!r} is out of range ({low} to {high})")
    return number

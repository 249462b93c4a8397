"""Match options: RULES.md's *Options* and *House rules* tables, with their exact names and values.

:data:`OPTION_SPECS` is the one description of every option (its kind, default, values and
meaning); :class:`Options` holds a match's values and checks them against it, and the web
server's model and configuration are built from it.

>>> opts = Options.from_mapping({"target": "250", "stacking": "progressive"})
>>> opts.target, opts.stacking, opts.scoring
(250, 'progressive', 'standard')
>>> opts.changed()
{'target': 250, 'stacking': 'progressive'}
>>> Options.from_mapping({"stacking": "yes"})  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
unokit.core.errors.OptionError: option 'stacking': 'yes' is not a value (choose from off, ...)
>>> option_spec("hand_size")
OptionSpec(name='hand_size', kind='int', default=7, description='cards dealt to each player', \
choices=(), minimum=1, exclusive_minimum=None, maximum=15, group='match', \
label='Cards dealt to each player', choice_labels=())
"""

from __future__ import annotations

# mypyc: pure: read once per game, not at every step; its frozen dataclass pickles by default
import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final, Literal, get_args

from .errors import OptionError

# The values of each option that is a choice, each listed once, here: mypy checks a value
# written in code against them (``Options(stacking="progresive")`` is a type error), and
# :data:`OPTION_SPECS` reads them for the check of a value read at run time.
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

OptionKind = Literal["choice", "bool", "int", "number"]
OptionGroup = Literal["match", "house"]
"""Where an option belongs: the match's options, or the house rules (RULES.md's two tables)."""
"""What an option's values are: one of its ``choices``, ``true``/``false``, a whole number, or
any number (whole or not), the last two within the option's bounds."""

MAX_TARGET: Final = 100_000
"""The largest ``target``: RULES.md allows any positive number, but a match to more than
200 times the printed 500 would not end in any sitting (settled in docs/rules.md, "Scoring and matches")."""


@dataclass(frozen=True, slots=True)
class OptionSpec:
    """One option: its name, its kind, its default and a one-line description; a choice's
    values (``choices``), or a number's bounds: at least ``minimum`` or more than
    ``exclusive_minimum``, and at most ``maximum``. For the new-room form: its ``group``
    (``match`` or ``house``), and the English message ids of its name (``label``) and of each
    choice's (``choice_labels``, in the order of ``choices``), which the catalogues translate.

    >>> option_spec("target").parse("1e3")
    1000
    """

    name: str
    kind: OptionKind
    default: str | bool | int | float
    description: str
    choices: tuple[str, ...] = ()
    minimum: int | float | None = None
    exclusive_minimum: int | float | None = None
    maximum: int | float | None = None
    group: OptionGroup = "match"
    label: str = ""
    choice_labels: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        """A spec is whole: a choice has values, a number has both its bounds, the default
        is one of its values."""
        numeric = self.kind in ("int", "number")
        if (self.kind == "choice") != bool(self.choices):
            raise ValueError(f"option {self.name!r}: a choice, and only a choice, lists its values")
        if self.choice_labels and len(self.choice_labels) != len(self.choices):
            raise ValueError(f"option {self.name!r}: one label for each of its values")
        one_low = (self.minimum is None) != (self.exclusive_minimum is None)
        if numeric != (self.maximum is not None and one_low):
            raise ValueError(f"option {self.name!r}: a number, and only a number, has a maximum "
                             "and one of minimum and exclusive_minimum")
        try:
            ok = self.parse(self.default) == self.default
        except OptionError:
            ok = False
        if not ok:
            raise ValueError(f"option {self.name!r}: the default {self.default!r} is not one of its values")

    def parse(self, value: Any) -> Any:
        """``value`` (typed, or a string as on the command line: ``"true"``, ``"250"``) as this
        option's value; :class:`~unokit.core.errors.OptionError`, naming the option, if it is not one."""
        name = self.name
        if self.kind == "choice":
            if not isinstance(value, str) or value not in self.choices:
                raise OptionError(
                    f"option {name!r}: {value!r} is not a value (choose from {', '.join(self.choices)})"
                )
            return value
        if self.kind == "bool":
            if isinstance(value, bool):
                return value
            if isinstance(value, str) and value.lower() in ("true", "false"):
                return value.lower() == "true"
            raise OptionError(f"option {name!r}: {value!r} is not a value (use true or false)")
        number = self._number(value)
        low, above, high = self.minimum, self.exclusive_minimum, self.maximum
        assert high is not None
        if (low is not None and number < low) or (above is not None and not number > above) \
                or not number <= high:
            raise OptionError(f"option {name!r}: {value!r} is out of range ({self.range_text()})")
        return number

    def range_text(self) -> str:
        """A number's bounds in words: ``1 to 15``, ``a positive number up to 100,000``."""
        if self.exclusive_minimum == 0:
            return f"a positive number up to {self.maximum:,}"
        if self.exclusive_minimum is not None:
            return f"more than {self.exclusive_minimum:,}, up to {self.maximum:,}"
        return f"{self.minimum:,} to {self.maximum:,}"

    def _number(self, value: Any) -> int | float:
        """``value`` as a number of this option's kind (a whole float as an int), before the bounds."""
        number: int | float
        if isinstance(value, bool):
            raise OptionError(f"option {self.name!r}: {value!r} is not a number")
        if isinstance(value, (int, float)):
            number = value
        elif isinstance(value, str):
            try:
                number = int(value)
            except ValueError:
                try:
                    number = float(value) if self.kind == "number" else int(value)
                except ValueError:
                    raise OptionError(f"option {self.name!r}: {value!r} is not a number") from None
        else:
            raise OptionError(f"option {self.name!r}: {value!r} is not a number")
        if self.kind == "int" and not float(number).is_integer():
            raise OptionError(f"option {self.name!r}: {value!r} is not a whole number")
        if isinstance(number, float) and number.is_integer():
            number = int(number)
        return number


def _choice(name: str, values: Any, description: str, label: str, labels: tuple[str, ...],
            group: OptionGroup = "match") -> OptionSpec:
    """A choice whose first value is its default, its values those of the ``Literal`` type
    ``values``, named ``label`` and each value by ``labels``."""
    choices: tuple[str, ...] = get_args(values)
    return OptionSpec(name, "choice", choices[0], description, choices=choices, group=group, label=label,
                      choice_labels=labels)


OPTION_SPECS: Final[tuple[OptionSpec, ...]] = (
    OptionSpec("target", "number", 500, "the score that wins the match (E4)",
               exclusive_minimum=0, maximum=MAX_TARGET, label="Target score"),
    _choice("scoring", Scoring, "standard: who goes out scores the other hands (E2); "
                                "alternative: everyone adds their own, lowest total wins (E3)",
            "Scoring", ("Standard: the winner scores the other hands", "Alternative: lowest total wins")),
    _choice("mode", Mode, "every player for themselves, two-player teams (4, 6, 8 or 10 players), "
                          "or the last player standing",
            "Mode", ("Individual", "Partners (4, 6, 8 or 10 players)", "Elimination (Challenge UNO)")),
    OptionSpec("two_handed_rules", "bool", True, "with 2 players, a Reverse acts as a Skip",
               label="Two-player rules (a Reverse acts as a Skip)"),
    _choice("wd4_bluffing", WD4Bluffing, "an illegal Wild Draw Four may be played and challenged (P3), "
                                         "or is refused",
            "Bluffing with a Wild Draw Four", ("Allowed, and it may be challenged", "Forbidden")),
    _choice("illegal_play", IllegalPlay, "a card that does not match is refused (P5), or kept with "
                                         "its penalty of two cards",
            "A card that does not match", ("Refused", "Kept, and its player draws two")),
    _choice("agent_p_draws_from", AgentPDrawsFrom, "where the attacker answered by Agent P draws from (C6)",
            "Agent P's attacker draws from", ("the discard pile", "the draw pile")),
    OptionSpec("hand_size", "int", 7, "cards dealt to each player", minimum=1, maximum=15,
               label="Cards dealt to each player"),
    _choice("stacking", Stacking, "a draw card may be answered with another, the total passing on: "
                                  "like on like (progressive), or also a Wild Draw Four on a Draw Two",
            "Stacking draw cards", ("Off", "Draw Two on Draw Two, Wild Draw Four on Wild Draw Four",
                                    "Also a Wild Draw Four on a Draw Two"), group="house"),
    OptionSpec("seven_zero", "bool", False, "a 7 swaps hands with a player of one's choice, a 0 passes "
                                            "every hand on",
               group="house", label="Seven-zero: a 7 swaps hands, a 0 passes them all on"),
    OptionSpec("jump_in", "bool", False, "out of turn, a card identical to the top card may be played",
               group="house", label="Jump in with an identical card"),
    OptionSpec("draw_until_playable", "bool", False, "a player who draws keeps drawing until they draw "
                                                     "a playable card",
               group="house", label="Draw until a playable card comes"),
    OptionSpec("force_play", "bool", False, "a playable drawn card must be played",
               group="house", label="A playable drawn card must be played"),
)
"""Every option of RULES.md's *Options* and *House rules* tables, in :class:`Options`' order."""

_SPECS: Final = {spec.name: spec for spec in OPTION_SPECS}


def option_spec(name: str) -> OptionSpec:
    """The spec of the option ``name``; :class:`~unokit.core.errors.OptionError` for an unknown one."""
    spec = _SPECS.get(name)
    if spec is None:
        raise OptionError(f"unknown option {name!r} (options: {', '.join(sorted(_SPECS))})")
    return spec

_DEFAULTS: Final[Mapping[str, Any]] = {spec.name: spec.default for spec in OPTION_SPECS}


@dataclass(frozen=True, slots=True)
class Options:
    """Every option of :data:`OPTION_SPECS`, with its default. Immutable; build one with
    :meth:`from_mapping`."""

    target: int | float = _DEFAULTS["target"]
    scoring: Scoring = _DEFAULTS["scoring"]
    mode: Mode = _DEFAULTS["mode"]
    two_handed_rules: bool = _DEFAULTS["two_handed_rules"]
    wd4_bluffing: WD4Bluffing = _DEFAULTS["wd4_bluffing"]
    illegal_play: IllegalPlay = _DEFAULTS["illegal_play"]
    agent_p_draws_from: AgentPDrawsFrom = _DEFAULTS["agent_p_draws_from"]
    hand_size: int = _DEFAULTS["hand_size"]
    stacking: Stacking = _DEFAULTS["stacking"]
    seven_zero: bool = _DEFAULTS["seven_zero"]
    jump_in: bool = _DEFAULTS["jump_in"]
    draw_until_playable: bool = _DEFAULTS["draw_until_playable"]
    force_play: bool = _DEFAULTS["force_play"]

    def __post_init__(self) -> None:
        """Every value is checked as :meth:`from_mapping` checks it, so a bad one fails here,
        naming the option, rather than later in a game. Text values are read as there."""
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            parsed = _SPECS[f.name].parse(value)
            if parsed is not value:
                object.__setattr__(self, f.name, parsed)

    @classmethod
    def from_mapping(cls, values: Mapping[str, Any]) -> Options:
        """Options from ``{name: value}``; values may be typed or strings (``"true"``, ``"250"``).

        An unknown name or a bad value raises :class:`~unokit.core.errors.OptionError` naming it.
        """
        if not isinstance(values, Mapping):
            raise OptionError(f"options must be a mapping of names to values, not {type(values).__name__}")
        return cls(**{name: option_spec(name).parse(value) for name, value in values.items()})

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
        return {spec.name: getattr(self, spec.name) for spec in OPTION_SPECS
                if getattr(self, spec.name) != spec.default}

    def as_dict(self) -> dict[str, Any]:
        """Every option as a plain dict."""
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}

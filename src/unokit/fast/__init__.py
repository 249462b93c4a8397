"""The native core: the rules state machine of :mod:`unokit.core` in C (``_core.c``).

:class:`FastGame` plays the same games as :class:`~unokit.core.game.Game`, number for number:
``FastGame.new`` deals what ``Game.new`` deals from the same seed, ``legal_actions`` lists the
same actions in the same order, ``step`` makes the same change (reshuffles included: the C core
runs Python's Mersenne Twister and ``random.shuffle``), and ``to_dict`` writes the engine's
position, which ``FastGame.from_dict`` and ``Game.from_dict`` both read. It builds no events,
and it covers every edition, option and house rule of the engine. Positions are read and
checked, and refusals explained, by the engine itself (:mod:`unokit.core.position`,
:func:`unokit.core.legality.reason`), so a refused action raises the engine's own error.

:func:`play` runs many games under a built-in policy without returning to Python between
steps, for benchmarks (``unokit bench --loop fast``).

The extension is built by ``pip install .`` where a C compiler works (``setup.py``); where it
is not built, :data:`AVAILABLE` is false, :data:`WHY` says why in one line, and the engine in
Python plays alone.

>>> from unokit import Game
>>> if AVAILABLE:
...     fast, game = FastGame.new("classic", 3, seed=5), Game.new("classic", 3, seed=5)
...     assert fast.to_dict() == game.to_dict()
...     assert fast.legal_actions(fast.turn) == game.legal_actions(game.turn)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Final

from ..core.actions import parse_action
from ..core.deal import check_hand_size
from ..core.editions import EDITIONS
from ..core.errors import OptionError, PositionError
from ..core.game import Game
from ..core.options import Options
from ..core.phases import AWAITING, GAME_OVER
from ..core.position import state_from_json, state_to_json
from ..core.rules import STACK_LEVELS
from ..core.state import FIELDS, State

__all__ = ["AVAILABLE", "POLICIES", "WHY", "FastGame", "play"]

try:
    from . import _core
except ImportError as exc:  # not built: no compiler, UNOKIT_COMPILE=0, or an editable install
    AVAILABLE: Final[bool] = False
    WHY: Final[str] = f"unokit.fast is unavailable: its C extension is not built ({exc})"
    _Base: Any = object
else:
    AVAILABLE = True  # type: ignore[misc]
    WHY = "unokit.fast: the native core is built"  # type: ignore[misc]
    _Base = _core.Core

_PRINTED: Final = tuple(EDITIONS[:3])
"""The editions the C core holds: the printed ones (``classic``, ``cars2``, ``phineas-ferb``)."""

POLICIES: Final = ("uniform", "playable-first")
"""The built-in policies of :func:`play`: uniformly random over the legal actions of the seat on
turn (``unokit.bench.engine_loop``'s), or RLCard's action space
(``unokit.bench.playable_first_loop``'s)."""


def _require() -> None:
    if not AVAILABLE:
        raise RuntimeError(WHY)


def _settings(edition: str, players: int, options: Options) -> tuple[int | float, ...]:
    """The rules as the C core reads them (``_core.c``'s ``configure``)."""
    if edition not in _PRINTED:
        raise OptionError(f"unokit.fast plays the printed editions only ({', '.join(_PRINTED)}), "
                          f"not {edition!r}")
    return (_PRINTED.index(edition), players, players // 2 if options.mode == "partners" else 0,
            STACK_LEVELS[options.stacking], options.wd4_bluffing == "allow",
            options.illegal_play == "penalize", options.seven_zero, options.jump_in,
            options.draw_until_playable, options.force_play, options.agent_p_draws_from == "discard",
            options.two_handed_rules, options.hand_size, options.scoring == "alternative",
            options.mode == "elimination", float(options.target))


class FastGame(_Base):  # type: ignore[misc]
    """A match on the native core: :class:`~unokit.core.game.Game`'s rules, fields and positions,
    without events. Build one with :meth:`new` or :meth:`from_dict`."""

    edition: str
    options: Options

    @classmethod
    def new(cls, edition: str = "classic", players: int = 4, options: Options | None = None,
            seed: int | None = None) -> FastGame:
        """The match ``Game.new(edition, players, options, seed)`` deals (the same checks and
        errors; a seed is drawn when none is given)."""
        _require()
        reference = Game(edition, players, options, seed)  # checks the arguments as Game.new does
        check_hand_size(reference)
        game = cls()
        game._settle(reference.edition, players, reference.options)
        game._deal_new(reference.seed)
        return game

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> FastGame:
        """The match of a position (``Game.to_dict``'s format); one
        :class:`~unokit.core.errors.PositionError` naming what is wrong, as ``Game.from_dict``."""
        _require()
        state = state_from_json(data)
        Game.from_state(state)  # the engine's consistency check
        return cls._from_state(state)

    @classmethod
    def from_game(cls, game: Game) -> FastGame:
        """The match ``game`` is in, on the native core (a stacked deal of ``Game.from_setup`` or
        a short deck of a conformance scenario too, which a position cannot hold)."""
        _require()
        return cls._from_state(game.state())

    @classmethod
    def _from_state(cls, state: State) -> FastGame:
        game = cls()
        try:
            game._settle(state.edition, state.n, state.options)
            game._load({name: getattr(state, name) for name, _, _ in FIELDS})
        except OptionError as exc:
            raise PositionError(str(exc)) from None
        except (ValueError, TypeError, OverflowError, KeyError) as exc:
            raise PositionError(f"unokit.fast cannot hold this position ({exc})") from None
        return game

    def _settle(self, edition: str, players: int, options: Options) -> None:
        self._configure(_settings(edition, players, options))
        self.edition = edition
        self.options = options

    def state(self) -> State:
        """A frozen snapshot of every field (:class:`~unokit.core.state.State`), as ``Game.state``."""
        return State(edition=self.edition, options=self.options, n=self.n, **self._fields())

    def to_dict(self) -> dict[str, Any]:
        """The match as the engine's JSON-ready position (``docs/records.md``)."""
        return state_to_json(self.state())

    def to_game(self) -> Game:
        """The same match as a Python :class:`~unokit.core.game.Game`."""
        game = Game(self.edition, self.n, self.options, 0)
        game._load({name: getattr(self.state(), name) for name, _, _ in FIELDS})
        return game

    @property
    def awaiting(self) -> str:
        """What the game waits for: ``play``, ``drawn``, ``respond``, ``color``, ``swap``,
        ``round_over`` or ``game_over``."""
        return AWAITING[self.phase]

    @property
    def is_over(self) -> bool:
        """Whether the match has ended."""
        return bool(self.phase == GAME_OVER)

    def _refuse(self, seat: Any, action: Any) -> None:
        """Raise what ``Game.step`` raises for this refused action (the C core calls it)."""
        self.to_game().step(seat, action)


def _refuse(game: FastGame, seat: Any, action: Any) -> None:
    game._refuse(seat, action)


if AVAILABLE:
    _core._hooks(parse_action, _refuse)


def play(games: int, seed: int = 0, players: int = 2, edition: str = "classic",
         options: Options | None = None, policy: str = "uniform", match: bool = False,
         progress: Callable[[int], None] | None = None, deals: str = "stream") -> tuple[int, int]:
    """Play ``games`` games on the native core under a built-in policy (:data:`POLICIES`) with no
    Python between the steps; returns ``(games, steps)``. The games are those of
    ``unokit.bench.engine_loop`` (``uniform``) or ``playable_first_loop`` (``playable-first``)
    with the same arguments, step for step."""
    _require()
    if policy not in POLICIES:
        raise ValueError(f"unknown policy {policy!r} (policies: {', '.join(POLICIES)})")
    if deals not in ("stream", "seeded"):
        raise ValueError(f"unknown deals {deals!r} (deals: stream, seeded)")
    opts = options if options is not None else Options()
    check_hand_size(Game(edition, players, opts, 0))
    result: tuple[int, int] = _core.batch(_settings(edition, players, opts), games, seed,
                                          policy == "playable-first", match, deals == "stream",
                                          progress)
    return result

"""The RL encoding: one seat's view of a game as a fixed-size ``float32`` vector, and its
legal actions as a mask over ``Discrete(176)``.

The layout is the same for every edition and depends only on the number of players
(:func:`layout`); ``docs/rl.md`` has the table. Every slice is public information or the seat's
own: the encoder reads only what :meth:`Game.observe <unokit.core.game.Game.observe>` would show
the seat (it can encode an :class:`~unokit.core.observation.Observation` itself, which is how a
trained policy plays as a bot), so two games that differ only in cards hidden from the seat
give equal vectors.

Actions are the engine's 175 (:mod:`unokit.core.actions`) plus :data:`NOTHING` (175), "nothing
now": legal only for a seat asked out of turn by the table (:mod:`unokit.core.table`), which may
catch a missed UNO call, call UNO or jump in, or let the moment pass.

>>> from unokit import Game
>>> enc = Encoder("classic", 2)
>>> game = Game.new("classic", 2, seed=3)
>>> vec = enc.encode(game, game.turn)
>>> vec.shape == (enc.size,), vec.dtype.name
(True, 'float32')
>>> int(vec[enc.slices["hand_sizes"]][0])  # the seat's own hand: seven cards
7
>>> mask = enc.mask(game, game.turn)
>>> sorted(int(a) for a in mask.nonzero()[0]) == sorted(game.legal_actions(game.turn))
True
"""

from __future__ import annotations

from array import array
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from ..core.actions import ACTION_CARD, ACTION_KIND, K_PLAY, N_ACTIONS, Action
from ..core.cards import N_CARDS, Card
from ..core.editions import EDITIONS, edition, edition_counts
from ..core.observation import Observation
from ..core.options import Options
from ..core.phases import AWAITING, COLOR, DECIDING, DRAWN, ROUND_OVER
from ..core.scoring import BLOCKED_AFTER

__all__ = ["ENCODING_VERSION", "NOTHING", "N_ENV_ACTIONS", "Encoder", "Slice", "layout"]

ENCODING_VERSION: Final = 1
"""The version of the vector's layout and meaning: a trained policy's settings record it
(:func:`unokit.envs.policy.save_settings`), and a policy trained on another version is refused."""

NOTHING: Final = N_ACTIONS
"""Action 175, "nothing now": a seat asked out of turn lets the moment pass."""
N_ENV_ACTIONS: Final = N_ACTIONS + 1
"""The environments' action space: ``Discrete(176)``."""

MAX_COUNT: Final = 4.0
"""The most copies of one face in any deck (the wild faces)."""
MAX_CARDS: Final = float(max(sum(edition_counts(e)) for e in EDITIONS))
"""The largest deck (112 cards): no hand or pile holds more."""
MAX_PENDING: Final = 64.0
"""A bound on a pending draw (stacked draw cards add up to 32 at most)."""

_INV_BLOCKED: Final = 1.0 / BLOCKED_AFTER
_STACKING: Final = ("off", "progressive", "plus4_on_plus2")
_MODES: Final = ("individual", "partners", "elimination")
_FLAGS: Final = ("seven_zero", "jump_in", "draw_until_playable", "force_play", "two_handed_rules")


@dataclass(frozen=True)
class Slice:
    """One part of the vector: its name, where it lies, its bounds and what it holds."""

    name: str
    start: int
    stop: int
    high: float
    doc: str

    @property
    def size(self) -> int:
        """How many entries it has."""
        return self.stop - self.start


def layout(players: int) -> tuple[Slice, ...]:
    """The slices of the vector for ``players`` seats, in order. "Relative" seats are
    counted from the seat observing: entry ``k`` is seat ``(seat + k) % players`` (entry 0
    the seat itself), in seat-number order, whatever the direction of play.

    >>> [s.name for s in layout(2)][:4]
    ['rules', 'hand', 'top', 'color']
    >>> layout(2)[-1].stop, layout(4)[-1].stop, layout(10)[-1].stop
    (327, 455, 839)
    """
    n = players
    parts: list[tuple[str, int, float, str]] = [
        ("rules", 3 + 3 + len(_MODES) + len(_FLAGS) + 4, 1.0,
         "constant for a match: the edition (one-hot: classic, cars2, phineas-ferb; its special "
         "card, Mater or Agent P, comes with it), stacking (one-hot: off, progressive, "
         "plus4_on_plus2), mode (one-hot: individual, partners, elimination), seven_zero, "
         "jump_in, draw_until_playable, force_play, two_handed_rules, wd4_bluffing allow, "
         "illegal_play penalize, agent_p_draws_from discard, scoring alternative"),
        ("hand", N_CARDS, MAX_COUNT, "the seat's hand: how many of each card face (56 faces, "
         "unokit.core.cards order: 52 coloured, W, W+4, WM, WP)"),
        ("top", N_CARDS, 1.0, "the top card of the discard pile, one-hot by face"),
        ("color", 4, 1.0, "the colour in play, one-hot R Y G B (none while a turned-up wild's "
         "colour is still to be named)"),
        ("phase", len(DECIDING) + 1, 1.0, "what the seat on turn is asked (one-hot: play, drawn, "
         "respond, color, swap; none once the round is over), then 1 if this seat is asked out "
         "of turn (it may answer nothing now, action 175)"),
        ("drawn", N_CARDS, 1.0, "the card this seat has just drawn and may play (phase drawn, "
         "its turn), one-hot by face"),
        ("pending", 1, MAX_PENDING, "the cards a draw card waiting for an answer would make the "
         "seat on turn draw (stacked total), 0 if none"),
        ("attacker", n, 1.0, "the relative seat that played that draw card, one-hot"),
        ("direction", 1, 1.0, "1 if play goes to the next seat number (relative seat 1), 0 if "
         "it goes the other way"),
        ("turn", n, 1.0, "the relative seat on turn, one-hot (entry 0: this seat)"),
        ("hand_sizes", n, MAX_CARDS, "every seat's number of cards, by relative seat"),
        ("eliminated", n, 1.0, "seats out of the match (mode elimination), by relative seat"),
        ("discard", N_CARDS, MAX_COUNT, "public card counting: how many of each face lie in the "
         "discard pile, every card played since the last reshuffle (T6) and the top card"),
        ("draw_pile", 1, MAX_CARDS, "cards left in the draw pile"),
        ("seen", (n - 1) * N_CARDS, MAX_COUNT, "the hands shown to this seat (a Mater peek, C5; "
         "the hand of a Wild Draw Four's player it challenged, P3), as they were when shown: "
         "for relative seats 1 … n-1, how many of each face"),
        ("shown", n - 1, 1.0, "1 for the relative seats 1 … n-1 whose hand this seat has been "
         "shown this round"),
        ("owed", n, 1.0, "seats down to one card that have not called UNO, by relative seat"),
        ("catchable", n, 1.0, "seats that may be caught for it now (P2), by relative seat"),
        ("scores", n, 1.0, "each relative seat's match score (its team's, with partners) over "
         "the target, capped at 1"),
        ("idle", 1, 1.0, "turns in a row begun with a draw or a wrong card, over the 200 that "
         "block a round"),
    ]
    out: list[Slice] = []
    start = 0
    for name, size, high, doc in parts:
        out.append(Slice(name, start, start + size, high, doc))
        start += size
    return tuple(out)


class _ObservedGame:
    """An :class:`~unokit.core.observation.Observation` read through the attributes of a
    :class:`~unokit.core.game.Game` that the encoder reads (other seats' hands are placeholders
    of the right length), so that one encoder serves both."""

    __slots__ = (
        "_legal",
        "_seat",
        "attacker",
        "color",
        "direction",
        "discard",
        "draw_pile",
        "drawn",
        "eliminated",
        "hands",
        "history",
        "idle_turns",
        "n",
        "owed",
        "pending",
        "phase",
        "scores",
        "seen",
        "turn",
        "window",
    )

    def __init__(self, obs: Observation) -> None:
        self._seat = obs.seat
        self._legal = obs.legal
        self.n = obs.players
        hands: list[Sequence[Card]] = [(-1,) * k for k in obs.hand_sizes]
        hands[obs.seat] = obs.hand
        self.hands = hands
        self.discard = list(obs.discard)
        self.draw_pile = (-1,) * obs.draw_size
        self.color = obs.color
        self.direction = obs.direction
        self.turn = obs.turn
        self.phase = AWAITING.index(obs.awaiting)
        self.drawn = obs.drawn
        self.pending = obs.pending
        self.attacker = obs.attacker
        self.owed = obs.owed
        self.window = obs.catchable
        self.scores = obs.scores
        self.eliminated = obs.eliminated
        seen: list[dict[int, tuple[Card, ...]]] = [{} for _ in range(obs.players)]
        seen[obs.seat] = obs.seen
        self.seen = seen
        self.idle_turns = obs.idle_turns
        self.history = list(obs.history)

    def legal_actions(self, seat: int) -> tuple[Action, ...]:
        return self._legal if seat == self._seat else ()


class Encoder:
    """Encodes one game's seats for an edition, a number of players and the match options.

    :meth:`encode` and :meth:`mask` read a :class:`~unokit.core.game.Game` directly (the fast path
    of the environments) or an :class:`~unokit.core.observation.Observation`
    (:meth:`encode_observation`, :meth:`mask_observation`): the same vector either way. Each
    call returns a new array. The encoder keeps a running count of the discard pile of the
    last game it encoded, so it costs the same however long the pile grows.
    """

    def __init__(self, edition_name: str, players: int,
                 options: Options | Mapping[str, Any] | None = None) -> None:
        """``options``: what the environments take, an :class:`~unokit.core.options.Options`,
        a plain mapping (``{"stacking": "progressive"}``) or ``None`` (the defaults)."""
        if options is None:
            opts = Options()
        elif isinstance(options, Options):
            opts = options
        else:
            opts = Options.from_mapping(options)
        self.edition = edition(edition_name).name
        self.players = players
        self.options = opts
        self.layout = layout(players)
        self.slices: dict[str, slice] = {s.name: slice(s.start, s.stop) for s in self.layout}
        self.size = self.layout[-1].stop
        self.low: npt.NDArray[np.float32] = np.zeros(self.size, dtype=np.float32)
        self.high: npt.NDArray[np.float32] = np.zeros(self.size, dtype=np.float32)
        for s in self.layout:
            self.high[s.start:s.stop] = s.high
        self._teams = players // 2 if opts.mode == "partners" else 0
        target = float(opts.target)
        self._inv_target = 1.0 / target
        # The offsets, read at every call.
        at = {s.name: s.start for s in self.layout}
        self._out = at["phase"] + len(DECIDING)
        self._seen_stop = self.slices["shown"].stop  # seen, then shown: one block
        self._seen_cache: list[tuple[dict[int, tuple[Card, ...]], array[float]] | None] = [None] * players
        self._dynamic = at["hand"]  # everything after the rules changes during play
        self._at = (self._dynamic, at["hand"], at["top"], at["color"], at["phase"], self._out,
                    at["drawn"], at["pending"], at["attacker"], at["direction"], at["turn"],
                    at["hand_sizes"], at["eliminated"], at["discard"], at["draw_pile"], at["seen"],
                    at["owed"], at["catchable"], at["idle"])
        self._at_seen = (at["seen"], at["shown"])
        self._at_scores = at["scores"]
        # The vector is built in an array.array (a Python write is half a numpy one), which a
        # numpy view copies out; the rules are written once.
        self._buf = array("f", bytes(4 * self.size))
        self._view: npt.NDArray[np.float32] = np.frombuffer(self._buf, dtype=np.float32)
        self._zeros = array("f", bytes(4 * (self.size - self._dynamic)))
        self._write_rules()
        self._mask = array("b", bytes(N_ENV_ACTIONS))
        self._mask_view: npt.NDArray[np.int8] = np.frombuffer(self._mask, dtype=np.int8)
        self._mask_zeros = array("b", bytes(N_ENV_ACTIONS))
        # rel[seat][t]: seat t counted from seat.
        self._rel = [[(t - seat) % players for t in range(players)] for seat in range(players)]
        # The running count of the discard pile (see _count_discard).
        self._disc = array("f", bytes(4 * N_CARDS))
        self._disc_list: list[Card] | None = None
        self._disc_len = 0
        self._hist: list[tuple[int, Action]] | None = None
        self._hist_len = 0
        ed = edition(self.edition)
        self._answer = ed.answer_card if (ed.answer_card is not None
                                          and opts.agent_p_draws_from == "discard") else -1

    def _write_rules(self) -> None:
        opts = self.options
        values = [float(self.edition == e) for e in EDITIONS]
        values += [float(opts.stacking == s) for s in _STACKING]
        values += [float(opts.mode == m) for m in _MODES]
        values += [float(bool(getattr(opts, f))) for f in _FLAGS]
        values += [float(opts.wd4_bluffing == "allow"), float(opts.illegal_play == "penalize"),
                   float(opts.agent_p_draws_from == "discard"), float(opts.scoring == "alternative")]
        rules = self.slices["rules"]
        assert len(values) == rules.stop - rules.start
        for i, v in enumerate(values):
            self._buf[rules.start + i] = v

    # ------------------------------------------------------------------ the vector

    def encode(self, game: Any, seat: int, out_of_turn: bool | None = None) -> npt.NDArray[np.float32]:
        """``seat``'s vector in ``game`` (a new ``float32`` array of :attr:`size`).

        ``out_of_turn`` says whether the seat is being asked out of turn (the table's
        out-of-turn poll); by default, whether it is not the seat on turn.
        """
        self._fill(game, seat, game.turn != seat if out_of_turn is None else out_of_turn)
        return self._view.copy()

    def encode_observation(self, obs: Observation, out_of_turn: bool | None = None
                           ) -> npt.NDArray[np.float32]:
        """:meth:`encode` from what the seat observes: the same vector."""
        return self.encode(_ObservedGame(obs), obs.seat, out_of_turn)

    def _fill(self, game: Any, seat: int, out_of_turn: bool) -> None:
        # The hot path of every environment step: offsets unpacked at once; the slices usually
        # empty skipped with one test each (the rare ones filled by a method of their own).
        (dyn, hand0, top0, color0, phase0, out0, drawn0, pending0, attacker0, direction0, turn0,
         sizes0, elim0, discard0, draw0, seen0, owed0, catch0, idle0) = self._at
        b = self._buf
        b[dyn:] = self._zeros
        rel = self._rel[seat]
        hands = game.hands
        for c in hands[seat]:
            b[hand0 + c] += 1.0
        discard: list[Card] = game.discard
        b[top0 + discard[-1]] = 1.0
        phase = game.phase
        turn = game.turn
        if phase < ROUND_OVER:
            b[phase0 + phase] = 1.0
            if phase != COLOR:
                b[color0 + game.color] = 1.0
            if phase == DRAWN and turn == seat and game.drawn >= 0:
                b[drawn0 + game.drawn] = 1.0
        if out_of_turn:
            b[out0] = 1.0
        pending = game.pending
        if pending:
            b[pending0] = pending
            if game.attacker >= 0:
                b[attacker0 + rel[game.attacker]] = 1.0
        if game.direction == 1:
            b[direction0] = 1.0
        b[turn0 + rel[turn]] = 1.0
        for t, h in enumerate(hands):
            b[sizes0 + rel[t]] = len(h)
        if True in game.eliminated:
            self._fill_seats(elim0, game.eliminated, rel)
        if discard is not self._disc_list or self._answer >= 0 or len(discard) < self._disc_len:
            self._count_discard(game, discard)
        else:  # the usual case, inlined: the cards played since the last call
            d = self._disc
            for i in range(self._disc_len, len(discard)):
                d[discard[i]] += 1.0
            self._disc_len = len(discard)
        b[discard0:discard0 + N_CARDS] = self._disc
        b[draw0] = len(game.draw_pile)
        seen = game.seen[seat]
        if seen:  # kept while what was shown does not change (usually the rest of the round)
            cached = self._seen_cache[seat]
            if cached is not None and cached[0] == seen:
                b[seen0:self._seen_stop] = cached[1]
            else:
                self._fill_seen(seen, seat, rel)
        if True in game.owed:
            self._fill_seats(owed0, game.owed, rel)
        for t in game.window:
            b[catch0 + rel[t]] = 1.0
        if any(game.scores):
            self._fill_scores(game.scores, rel)
        idle = game.idle_turns
        if idle:
            b[idle0] = idle * _INV_BLOCKED if idle < BLOCKED_AFTER else 1.0

    def _fill_seats(self, at: int, flags: list[bool], rel: list[int]) -> None:
        """A one-hot block of seats (eliminated, owing UNO), relative to the observer."""
        b = self._buf
        for t in range(self.players):
            if flags[t]:
                b[at + rel[t]] = 1.0

    def _fill_seen(self, seen: dict[int, tuple[Card, ...]], seat: int, rel: list[int]) -> None:
        """What the seat was shown. It changes seldom (a challenge, a Mater peek) and stays for
        the rest of the round: its block is kept, keyed by a copy of what was shown."""
        b = self._buf
        seen0, shown0 = self._at_seen
        for t, shown in seen.items():
            r = rel[t] - 1
            b[shown0 + r] = 1.0
            at = seen0 + r * N_CARDS
            for c in shown:
                b[at + c] += 1.0
        self._seen_cache[seat] = (dict(seen), b[seen0:self._seen_stop])

    def _fill_scores(self, scores: list[int], rel: list[int]) -> None:
        """The match scores over the target (capped at 1), each seat's side's."""
        b = self._buf
        at = self._at_scores
        inv = self._inv_target
        teams = self._teams
        for t in range(self.players):
            v = scores[t % teams if teams else t] * inv
            if v:
                b[at + rel[t]] = v if v < 1.0 else 1.0

    def _count_discard(self, game: Any, discard: list[Card]) -> None:
        """Bring the running count of the discard pile up to date: add the cards played since
        the last call when the pile has only grown (the usual case), count it afresh when it
        was replaced (a new round, a reshuffle) or cards were taken from under its top (Agent P
        answered with agent_p_draws_from discard)."""
        d = self._disc
        k = self._disc_len
        history: list[tuple[int, Action]] = game.history
        fresh = discard is not self._disc_list or len(discard) < k
        if not fresh and self._answer >= 0:
            if history is not self._hist:
                fresh = True
            else:
                answer = self._answer
                for i in range(self._hist_len, len(history)):
                    a = history[i][1]
                    if ACTION_KIND[a] == K_PLAY and ACTION_CARD[a] == answer:
                        fresh = True
                        break
        if fresh:
            d[:] = array("f", bytes(4 * N_CARDS))
            k = 0
        for i in range(k, len(discard)):
            d[discard[i]] += 1.0
        self._disc_list = discard
        self._disc_len = len(discard)
        self._hist = history
        self._hist_len = len(history)

    # ------------------------------------------------------------------ the mask

    def mask(self, game: Any, seat: int, out_of_turn: bool | None = None) -> npt.NDArray[np.int8]:
        """``seat``'s legal actions in ``game`` as a new ``int8`` array of 176: the engine's,
        and :data:`NOTHING` when the seat is asked out of turn (by default: when it is not the
        seat on turn and has anything to do)."""
        legal = game.legal_actions(seat)
        m = self._mask
        m[:] = self._mask_zeros
        for a in legal:
            m[a] = 1
        if (game.turn != seat and bool(legal)) if out_of_turn is None else out_of_turn:
            m[NOTHING] = 1
        return self._mask_view.copy()

    def mask_observation(self, obs: Observation, out_of_turn: bool | None = None) -> npt.NDArray[np.int8]:
        """:meth:`mask` from what the seat observes."""
        return self.mask(_ObservedGame(obs), obs.seat, out_of_turn)

    def describe(self) -> list[tuple[str, int, int, str]]:
        """``(name, start, stop, what it holds)`` for every slice: the table of ``docs/rl.md``."""
        return [(s.name, s.start, s.stop, s.doc) for s in self.layout]

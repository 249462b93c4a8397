"""Plain-English narration of a game, move by move (for ``unokit replay`` and ``unokit demo``).

>>> from unokit import Game
>>> g = Game.from_setup(hands=[["R1", "G2"], ["R5", "B7"]], discard="R3", draw=["Y1", "Y2"], dealer=1)
>>> before = Snapshot.of(g)
>>> g.apply(0, "R1")
>>> describe(before, g, 0, g.history[-1][1])
'seat 0 plays R1; seat 0 has one card left and did not call UNO'
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from .actions import (
    ACTION_ARG,
    ACTION_CARD,
    ACTION_COLOR,
    ACTION_KIND,
    ACTION_UNO,
    K_ACCEPT,
    K_CATCH,
    K_CHALLENGE,
    K_COLOR,
    K_DRAW,
    K_PASS,
    K_PENALIZE,
    K_PLAY,
    K_SWAP,
    K_UNO,
    Action,
)
from .cards import CARD_RANK, COLOR_NAMES, WILD, card_str
from .game import BLOCKED_AFTER, Game
from .record import replay


@dataclass(frozen=True)
class Snapshot:
    """The public facts narration compares before and after an action."""

    sizes: tuple[int, ...]
    direction: int
    eliminated: tuple[bool, ...]

    @classmethod
    def of(cls, game: Game) -> Snapshot:
        """Take the snapshot of ``game`` now."""
        return cls(tuple(game.hand_sizes()), game.direction, tuple(game.eliminated))


def describe(before: Snapshot, game: Game, seat: int, action: Action) -> str:
    """One sentence for ``seat``'s ``action``, with what it caused (draws, skips, round end)."""
    kind = ACTION_KIND[action]
    who = "the host" if seat < 0 else f"seat {seat}"
    if kind == K_PLAY:
        c = ACTION_CARD[action]
        text = f"{who} plays {card_str(c)}"
        if c >= WILD:
            text += f" and names {COLOR_NAMES[ACTION_COLOR[action]]}"
        if ACTION_UNO[action]:
            text += ' and calls "UNO!"'
    elif kind == K_DRAW:
        text = f"{who} draws"
    elif kind == K_PASS:
        text = f"{who} keeps the card and passes"
    elif kind == K_UNO:
        text = f'{who} calls "UNO!"'
    elif kind == K_CATCH:
        text = f"{who} catches seat {ACTION_ARG[action]} without an UNO call"
    elif kind == K_CHALLENGE:
        text = f"{who} challenges the Wild Draw Four"
    elif kind == K_ACCEPT:
        text = f"{who} accepts the draw"
    elif kind == K_COLOR:
        text = f"{who} names {COLOR_NAMES[ACTION_ARG[action]]}"
    elif kind == K_SWAP:
        text = f"{who} swaps hands with seat {ACTION_ARG[action]}"
    elif kind == K_PENALIZE:
        text = f"{who} penalizes seat {ACTION_ARG[action]} for suggestions"
    else:
        text = f"{who} acts"
    effects: list[str] = []
    after = game.hand_sizes()
    if kind == K_PLAY and seat >= 0 and after[seat] > before.sizes[seat]:
        # P5 with illegal_play: penalize: the card stayed in the hand.
        text = f"{who} plays {card_str(ACTION_CARD[action])}, a wrong card: it goes back to the hand"
    hands_moved = kind == K_SWAP or (
        kind == K_PLAY and game.options.seven_zero and CARD_RANK[ACTION_CARD[action]] == 0
    )
    if not hands_moved:
        for s, (b, a) in enumerate(zip(before.sizes, after, strict=True)):
            grew = a - b
            if grew > 0 and not (kind == K_DRAW and s == seat and grew == 1):
                effects.append(f"seat {s} draws {grew}")
    if game.direction != before.direction:
        effects.append("the direction reverses")
    if seat >= 0 and 0 <= seat < game.n and game.owed[seat] and kind == K_PLAY:
        effects.append(f"seat {seat} has one card left and did not call UNO")
    if game.phase >= 5:
        winner = game.round_winner
        side = f"team {winner}" if game.teams else f"seat {winner}"
        if game.blocked:
            effects.append(f"the round is blocked (no card played from a hand for {BLOCKED_AFTER} "
                           f"turns): {side} holds the fewest points and wins the round")
        else:
            effects.append(f"{side} wins the round")
        out = [s for s in range(game.n) if game.eliminated[s] and not before.eliminated[s]]
        if out:
            effects.append("out of the game: " + ", ".join(f"seat {s}" for s in out))
    return "; ".join([text, *effects])


def hands_line(game: Game) -> str:
    """Every hand, as ``0: R1 G2 | 1: W``."""
    return " | ".join(
        f"{s}: {' '.join(card_str(c) for c in h) or '-'}" for s, h in enumerate(game.hands)
    )


class _Narrator:
    """A :class:`~unokit.record.ReplayWatcher` that tells the game as it is replayed."""

    def __init__(self, emit: Callable[[str], None]) -> None:
        self.emit = emit
        self.move = 0
        self.before_move = Snapshot((), 1, ())

    def round_started(self, game: Game, r: int) -> None:
        emit = self.emit
        if r == 0:
            emit(f"unokit game: {game.edition}, {game.n} players, seed {game.seed}")
            changed = game.options.changed()
            if changed:
                emit("options: " + ", ".join(f"{k}={v}" for k, v in changed.items()))
        emit("")
        emit(f"== Round {r + 1}: dealer seat {game.dealer}; scores {list(game.rounds[r].scores)}")
        emit(f"   hands: {hands_line(game)}")
        emit(f"   turned up {card_str(game.top)} (colour {COLOR_NAMES[game.color]}); "
             f"seat {game.turn} to {game.awaiting}")
        self.move = 0

    def before(self, game: Game, seat: int, action: int) -> None:
        self.before_move = Snapshot.of(game)

    def after(self, game: Game, seat: int, action: int) -> None:
        self.move += 1
        self.emit(f"{self.move:5}. {describe(self.before_move, game, seat, action)}")
        self.emit(f"       hands: {hands_line(game)}")
        if game.phase >= 5:
            self.emit(f"   scores after round {game.round_no + 1}: {list(game.scores)}")


def narrate_record(data: object, emit: Callable[[str], None]) -> Game:
    """Replay a record, emitting a header per round and a line per move with the hands after it.

    Returns the final game. Raises :class:`~unokit.errors.RecordError` on a bad record (after
    telling the moves before the bad one).
    """
    final = replay(data, watcher=_Narrator(emit))
    if final.is_over:
        who = "team" if final.teams else "seat"
        emit("")
        emit(f"Winner: {', '.join(f'{who} {w}' for w in final.winners)}; final scores {list(final.scores)}")
    return final

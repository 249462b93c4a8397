"""Legality: what a seat may do now (:func:`legal`, the fast enumerator), and why anything
else is refused (:func:`reason`). Between them they are the one source of refusals:
:meth:`Game.verify <unokit.core.game.Game.verify>` gives :func:`reason` for every action that
:func:`legal` does not list, and nothing for one it lists (a property test ties the two).

T1 matching, T2 drawing and the drawn card, T3/T4 answering a draw card, T5 the Wild Draw
Four, P1 the UNO call with the play, P2 catching, C6 Agent P, and the house rules' plays
(stacking, jump-in, ``force_play``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from .actions import (
    ACCEPT,
    ACTION_ARG,
    ACTION_CARD,
    ACTION_KIND,
    ACTION_UNO,
    CATCH_BASE,
    CHALLENGE,
    COLOR_BASE,
    DRAW,
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
    PASS,
    SWAP_BASE,
    UNO,
    UNO_OFFSET,
    Action,
)
from .cards import (
    CARD_COLOR,
    CARD_RANK,
    DRAW_TWO,
    N_CARDS,
    WILD,
    WILD_DRAW_FOUR,
    WILD_DRAW_FOUR_RANK,
    Card,
    card_str,
)
from .phases import COLOR, DRAWN, GAME_OVER, PLAY, RESPOND, ROUND_OVER, SWAP

if TYPE_CHECKING:
    from .game import Game


def _playable_table() -> tuple[tuple[bool, ...], ...]:
    """``MATCHES[colour * 17 + top_rank][card]``: does ``card`` match (T1/T4) by colour, number,
    symbol, or as a wild? Wild Draw Four legality (T5) is checked separately."""
    rows: list[tuple[bool, ...]] = []
    for color in range(4):
        for top_rank in range(17):
            rows.append(
                tuple(
                    c >= WILD or CARD_COLOR[c] == color or CARD_RANK[c] == top_rank
                    for c in range(WILD + 4)
                )
            )
    return tuple(rows)


MATCHES: Final = _playable_table()
"""``MATCHES[colour * 17 + CARD_RANK[top]][card]``: whether ``card`` matches the top card ``top``
with ``colour`` in play, by colour, number, symbol, or as a wild (T1/T4; Wild Draw Four
legality, T5, is a separate test). Read-only; for fast policies such as the strong bot's rollouts."""


def _play_table(uno: bool) -> tuple[tuple[Action, ...], ...]:
    """``PLAYS[card]``: the actions that play ``card`` (a wild once per colour named);
    ``PLAYS_UNO[card]`` adds the same plays with an UNO call, as :func:`add_play` lists them."""
    rows: list[tuple[Action, ...]] = []
    for c in range(N_CARDS):
        base = (c,) if c < WILD else tuple(range(WILD + 4 * (c - WILD), WILD + 4 * (c - WILD) + 4))
        rows.append(base + tuple(a + UNO_OFFSET for a in base) if uno else base)
    return tuple(rows)


PLAYS: Final = _play_table(False)
PLAYS_UNO: Final = _play_table(True)


def legal(g: Game, seat: int) -> list[Action]:
    """Every action ``seat`` may take now, in a stable order: the seat on turn's decision
    (plays in hand order, then draw; the drawn card's plays, then pass; an answer to a draw
    card; a colour; a swap), or a jump-in, then UNO and catches, on turn or not."""
    phase = g.phase
    if phase >= ROUND_OVER or not 0 <= seat < g.n or g.eliminated[seat]:
        return []
    hand = g.hands[seat]
    out: list[Action] = []
    if seat == g.turn:
        if phase == PLAY:
            # The hot path (T1/T2/T5): each matching face once, in hand order, with its plays.
            match = MATCHES[g.color * 17 + CARD_RANK[g.discard[-1]]]
            plays = PLAYS_UNO if len(hand) == 2 else PLAYS
            done = 0
            for c in hand:
                if match[c]:
                    bit = 1 << c
                    if not done & bit:
                        done |= bit
                        out += plays[c]
            if done >> WILD_DRAW_FOUR & 1 and not (g.rules.bluffing or t5_ok(g, WILD_DRAW_FOUR, hand)):
                # wd4_bluffing: forbid: an illegal W+4 (T5) is not offered.
                out = [a for a in out if ACTION_CARD[a] != WILD_DRAW_FOUR]
            out.append(DRAW)
        elif phase == DRAWN:
            d = g.drawn
            if d >= 0 and MATCHES[g.color * 17 + CARD_RANK[g.discard[-1]]][d] and (
                    g.rules.bluffing or t5_ok(g, d, hand)):  # drawn_playable, inlined
                out += (PLAYS_UNO if len(hand) == 2 else PLAYS)[d]
                if not (g.rules.force_play and t5_ok(g, d, hand)):
                    out.append(PASS)
            else:
                out.append(PASS)
        elif phase == RESPOND:
            _respond_actions(g, out, hand)
        elif phase == COLOR:
            out.extend(range(COLOR_BASE, COLOR_BASE + 4))
        else:  # SWAP
            for t in range(g.n):
                if t != seat and not g.eliminated[t]:
                    out.append(SWAP_BASE + t)
    elif phase <= DRAWN and g.rules.jump_in:
        top = g.discard[-1]
        if top < WILD and top in hand:
            add_play(g, out, top, hand, len(hand) == 2)
    if g.owed[seat]:
        out.append(UNO)
    for t in g.window:
        if t != seat:
            out.append(CATCH_BASE + t)
    return out


def add_play(g: Game, out: list[Action], c: Card, hand: list[Card], uno: bool) -> None:
    """Add the plays of ``c`` (each colour named for a wild, and with the UNO call when
    ``uno``); none for a Wild Draw Four that T5 forbids under ``wd4_bluffing: forbid``."""
    if c < WILD:
        out.append(c)
        if uno:
            out.append(c + UNO_OFFSET)
        return
    if c == WILD_DRAW_FOUR and not g.rules.bluffing and not t5_ok(g, c, hand):
        return
    base = WILD + 4 * (c - WILD)
    out.extend(range(base, base + 4))
    if uno:
        out.extend(range(base + UNO_OFFSET, base + UNO_OFFSET + 4))


def t5_ok(g: Game, c: Card, hand: list[Card]) -> bool:
    """T5: a W+4 is legal only if the hand holds no other card of the colour in play."""
    if c != WILD_DRAW_FOUR:
        return True
    color = g.color
    for h in hand:  # noqa: SIM110 (a plain loop is faster here)
        if CARD_COLOR[h] == color:
            return False
    return True


def drawn_playable(g: Game, d: Card, hand: list[Card]) -> bool:
    """T2: whether the card just drawn may be played (T1, and T5 unless bluffing is allowed)."""
    if not MATCHES[g.color * 17 + CARD_RANK[g.discard[-1]]][d]:
        return False
    return g.rules.bluffing or t5_ok(g, d, hand)


def _respond_actions(g: Game, out: list[Action], hand: list[Card]) -> None:
    """T3/T4: accept; P3: challenge a Wild Draw Four; C6: Agent P; the house rule ``stacking``."""
    rules = g.rules
    out.append(ACCEPT)
    if g.pending_rank == WILD_DRAW_FOUR_RANK and rules.bluffing:
        out.append(CHALLENGE)
    uno = len(hand) == 2
    answer = rules.answer_card
    if answer >= 0 and answer in hand:
        add_play(g, out, answer, hand, uno)
    if rules.stack:
        if g.pending_rank == DRAW_TWO:
            done = 0
            for c in hand:
                if c < WILD and CARD_RANK[c] == DRAW_TWO and not done & (1 << c):
                    done |= 1 << c
                    add_play(g, out, c, hand, uno)
        if WILD_DRAW_FOUR in hand and (g.pending_rank == WILD_DRAW_FOUR_RANK or rules.stack == 2):
            add_play(g, out, WILD_DRAW_FOUR, hand, uno)


# ---------------------------------------------------------------------- why not


def reason(g: Game, seat: int, a: Action) -> str:
    """Why ``a`` is not legal for ``seat`` now (asked only of an action that :func:`legal`
    does not list)."""
    phase = g.phase
    if phase == GAME_OVER:
        return "the game is over"
    if phase == ROUND_OVER:
        return "the round is over; start the next round"
    if g.eliminated[seat]:
        return "that seat is out of the game"
    kind = ACTION_KIND[a]
    if kind in (K_UNO, K_CATCH, K_PENALIZE):
        return _out_of_turn_reason(g, seat, a)
    if kind == K_PLAY:
        c = ACTION_CARD[a]
        hand = g.hands[seat]
        if c not in hand:
            return f"seat {seat} holds no {card_str(c)}"
        if ACTION_UNO[a] and len(hand) != 2:
            return "UNO is called only with the play of the next-to-last card"
    if seat != g.turn:
        if kind == K_PLAY and g.rules.jump_in and phase <= DRAWN:
            return f"out of turn, only a card identical to {card_str(g.top)} may jump in"
        return f"it is seat {g.turn}'s turn ({g.awaiting})"
    if phase == COLOR:
        return "the colour of the turned-up wild must be named first (color R/Y/G/B)"
    if phase == SWAP:
        return "choose whom to swap hands with (swap N)"
    if phase == RESPOND:
        return _respond_reason(g, kind)
    return _turn_reason(g, a)


def _out_of_turn_reason(g: Game, seat: int, a: Action) -> str:
    """Why an UNO call, a catch or a penalty is refused."""
    kind = ACTION_KIND[a]
    if kind == K_UNO:
        held = len(g.hands[seat])
        if held != 1:
            return f"UNO is called with one card left, and seat {seat} holds {held}"
        return "UNO was already called, or is not owed"
    if kind == K_CATCH:
        t = ACTION_ARG[a]
        if t == seat:
            return "a player cannot catch themselves"
        if t >= g.n:
            return f"there is no seat {t}"
        if not g.owed[t]:
            return f"seat {t} owes no UNO call"
        return f"seat {t} can no longer be caught: the next player has begun their turn"
    return "only the host can give the suggestion penalty (P4)"


def _respond_reason(g: Game, kind: int) -> str:
    """Why the seat answering a draw card may not take an action of ``kind``."""
    if kind == K_CHALLENGE:
        if g.pending_rank != WILD_DRAW_FOUR_RANK:
            return "only a Wild Draw Four can be challenged"
        return "challenges are off (wd4_bluffing: forbid)"
    if kind == K_PLAY:
        return "a draw card waits for an answer: accept, challenge, or Agent P / stack"
    return "a draw card was played on you: accept it (or challenge / answer)"


def _turn_reason(g: Game, a: Action) -> str:
    """Why the seat on turn may not take ``a`` at a turn's play or after drawing."""
    kind = ACTION_KIND[a]
    if kind == K_ACCEPT:
        return "there is no draw card to accept"
    if kind == K_CHALLENGE:
        return "there is no Wild Draw Four to challenge"
    if kind in (K_COLOR, K_SWAP):
        return "there is no colour or swap to choose now"
    if g.phase == DRAWN:
        if kind == K_DRAW:
            return "you have drawn already: play the drawn card or pass"
        if kind == K_PASS:
            return "a playable drawn card must be played (force_play)"
        if ACTION_CARD[a] != g.drawn:
            return "after drawing, only the drawn card may be played"
        return f"the drawn {card_str(g.drawn)} does not match"
    if kind == K_PASS:
        return "you can pass only after drawing"
    c = ACTION_CARD[a]
    if c == WILD_DRAW_FOUR:
        return "you hold a card of the colour in play, so Wild Draw Four is illegal"
    return f"{card_str(c)} does not match {card_str(g.top)} (colour in play {'RYGB'[g.color]})"


__all__ = ["MATCHES", "PLAYS", "PLAYS_UNO", "add_play", "drawn_playable", "legal", "reason", "t5_ok"]

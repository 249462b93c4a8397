"""Draw cards: a Draw Two or Wild Draw Four played on the next seat (T3, T4), its answer
(accept, P3's challenge, C6's Agent P, the house rule ``stacking``), and going out on one (E1:
the next seat still draws)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .cards import CARD_COLOR, CARD_RANK, DRAW_TWO, WILD, WILD_DRAW_FOUR, WILD_DRAW_FOUR_RANK, Card
from .events import Accepted, AgentPAnswered, Challenged, DrawPending, Drew, Skipped
from .legality import t5_ok
from .phases import PLAY, RESPOND
from .piles import give
from .scoring import end_round
from .specials import peek
from .uno_calls import close_window, owe

if TYPE_CHECKING:
    from .game import Game


def attack(g: Game, seat: int, k: int, rank: int, bluff: bool) -> None:
    """``seat`` played a draw card of ``rank`` making the next seat draw ``k``: it waits for the
    answer when one is possible (a challenge, stacking, Agent P), else the next seat draws and
    is skipped."""
    victim = g.next_seat(seat)
    ev = g._events
    if g.rules.respond_all or (rank == WILD_DRAW_FOUR_RANK and g.rules.bluffing):
        g.phase = RESPOND
        g.pending = k
        g.pending_rank = rank
        g.attacker = seat
        g.bluff = bluff
        g.turn = victim
        if ev is not None:
            ev.append(DrawPending(victim, k, seat))
    else:
        give(g, victim, k, "draw_two" if rank == DRAW_TWO else "wild_draw_four")
        g.turn = g.next_seat(victim)
        if ev is not None:
            ev.append(Skipped(victim))


def end_respond(g: Game) -> None:
    """The draw card has been answered: no answer is pending any more."""
    g.phase = PLAY
    g.pending = 0
    g.pending_rank = -1
    g.attacker = -1
    g.bluff = False


def pending_reason(g: Game) -> str:
    """Why the seat answering a draw card draws (for its :class:`Drew` event)."""
    single = 4 if g.pending_rank == WILD_DRAW_FOUR_RANK else 2
    if g.pending > single:
        return "stack"
    return "wild_draw_four" if single == 4 else "draw_two"


def accept(g: Game, seat: int) -> None:
    """T3/T4: the seat answering a draw card takes the pending cards and is skipped."""
    close_window(g)
    k = g.pending
    ev = g._events
    if ev is not None:
        ev.append(Accepted(seat, k))
    give(g, seat, k, pending_reason(g))
    end_respond(g)
    g.turn = g.next_seat(seat)
    if ev is not None:
        ev.append(Skipped(seat))


def stack_on(g: Game, seat: int, c: Card, color: int, uno: bool) -> None:
    """House rule ``stacking``: add a draw card; the total passes on."""
    close_window(g)
    hand = g.hands[seat]
    bluff = c == WILD_DRAW_FOUR and not t5_ok(g, c, hand)
    hand.remove(c)
    g.discard.append(c)
    g.color = color if c >= WILD else CARD_COLOR[c]
    total = g.pending + (4 if c == WILD_DRAW_FOUR else 2)
    if not hand:
        g.pending = total
        go_out(g, seat, c, total)
        return
    if len(hand) == 1 and not uno:
        owe(g, seat)
    g.pending = total
    g.pending_rank = WILD_DRAW_FOUR_RANK if c == WILD_DRAW_FOUR else DRAW_TWO
    g.attacker = seat
    g.bluff = bluff
    g.turn = g.next_seat(seat)
    ev = g._events
    if ev is not None:
        ev.append(DrawPending(g.turn, total, seat))


def agent_p(g: Game, seat: int, color: int, uno: bool) -> None:
    """C6: answer a draw card with the edition's answer card (Agent P); the attacker draws instead."""
    close_window(g)
    hand = g.hands[seat]
    answer = g.rules.answer_card
    hand.remove(answer)
    g.discard.append(answer)
    g.color = color
    attacker, k = g.attacker, g.pending
    end_respond(g)
    ev = g._events
    if ev is not None:
        ev.append(AgentPAnswered(seat, attacker, k))
    if g.rules.agent_p_discard:
        _take_from_discard(g, attacker, k)
    else:
        give(g, attacker, k, "agent_p")
    if not hand:
        end_round(g, seat)
        return
    if len(hand) == 1 and not uno:
        owe(g, seat)
    g.turn = g.next_seat(seat)


def _take_from_discard(g: Game, attacker: int, k: int) -> None:
    """C6 with ``agent_p_draws_from: discard``: the attacker takes the cards under Agent P, from
    the draw pile for those the discard pile lacks."""
    under = g.discard
    taken: list[Card] = []
    while len(taken) < k and len(under) > 1:
        taken.append(under.pop(-2))
    if g.owed[attacker]:
        g.owed[attacker] = False
    if attacker in g.window:
        g.window.remove(attacker)
    g.hands[attacker].extend(taken)
    ev = g._events
    if ev is not None and taken:
        ev.append(Drew(attacker, len(taken), tuple(taken), "agent_p", "discard"))
    if len(taken) < k:
        give(g, attacker, k - len(taken), "agent_p")


def challenge(g: Game, seat: int) -> None:
    """P3: the W+4's player shows their hand; a bluffer draws instead, else +2 more."""
    close_window(g)
    attacker = g.attacker
    shown = tuple(g.hands[attacker])
    g.seen[seat][attacker] = shown
    k, bluff = g.pending, g.bluff
    end_respond(g)
    ev = g._events
    if ev is not None:
        ev.append(Challenged(seat, attacker, bluff, shown))
    if bluff:
        give(g, attacker, k, "challenge")
        g.turn = seat
    else:
        give(g, seat, k + 2, "challenge")
        g.turn = g.next_seat(seat)
        if ev is not None:
            ev.append(Skipped(seat))


def go_out(g: Game, seat: int, c: Card, stacked_total: int) -> None:
    """E1: ``seat`` played its last card ``c``: the round ends; a last Draw Two or Wild Draw
    Four (``stacked_total``: the stacked total it ended) still makes the next seat draw."""
    if c == WILD_DRAW_FOUR or (c < WILD and CARD_RANK[c] == DRAW_TWO):
        single = 4 if c == WILD_DRAW_FOUR else 2
        k = stacked_total or single
        reason = "stack" if stacked_total > single else ("wild_draw_four" if single == 4 else "draw_two")
        give(g, g.next_seat(seat), k, reason)
    elif c == g.rules.peek_card:
        peek(g, seat)
    end_round(g, seat)


__all__ = ["accept", "agent_p", "attack", "challenge", "end_respond", "go_out", "pending_reason", "stack_on"]

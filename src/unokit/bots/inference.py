"""What a seat can infer about the other seats' hidden hands from the choices they made.

The heuristic bot (:mod:`unokit.bots.heuristic`) is a fixed rule: given its hand and the
table, its choice is determined. So each of its choices says something about the hand it
held: a seat that played a Blue 7 on a Red 7 held at least as many blue cards as red ones;
a seat that played a wild held no matching coloured card, and names the colour it holds most
of; a seat that drew held nothing playable, and a seat that kept its drawn card could not
play it. The strong bot models every other seat as this rule and deals the hidden cards of
its determinizations so that they explain what each seat did (:func:`sample_hands`).

The evidence is read from the public history (:func:`evidence`): each other seat's latest
choices, and the cards it received unseen in between (a penalty, a Draw Two, an accepted draw
card). Going back in time, the seat's hand at each choice is its hand now plus the cards it
has played since, less the cards it has received since, so a hypothesis about its hand now
can be checked against its choices (:func:`violations`). Which cards a receipt brought is
unknown, so behind one only what holds whatever they were is checked (no more playable cards
than cards received). A seat's normal draw is no such receipt: whether it played the drawn card
tells which card it was, or (kept) that none of its cards could be played. A challenge or a
hand swap, whose outcome the history does not say, starts the seat's evidence afresh.

A seat that does not follow the heuristic (a person, the random bot) simply leaves some
choices unexplained: the sampler then prefers the hands that explain the most of them, which
costs accuracy but never consistency (the dealt hands always fit the public counts).

House rules that move cards between hands unseen or change what a choice means
(``seven_zero``, ``jump_in``, ``stacking``, ``draw_until_playable``, penalised wrong cards)
turn the inference off: :func:`evidence` returns ``None``.
"""

from __future__ import annotations

# mypyc: compile (a bot's decision runs the engine in a loop)
import random
from collections.abc import Sequence
from typing import Final

from ..core.actions import (
    ACTION_ARG,
    ACTION_CARD,
    ACTION_COLOR,
    ACTION_KIND,
    K_ACCEPT,
    K_CATCH,
    K_CHALLENGE,
    K_COLOR,
    K_DRAW,
    K_PLAY,
    K_SWAP,
    Action,
)
from ..core.cards import (
    AGENT_P,
    CARD_COLOR,
    CARD_RANK,
    DRAW_TWO,
    REVERSE,
    WILD,
    WILD_DRAW_FOUR,
    Card,
)
from ..core.editions import edition
from ..core.observation import Observation
from ..core.options import Options
from ..core.shuffles import randbelow, shuffle
from .heuristic import WILD_PREFERENCE, best_color, prefers

PLAYED: Final = 0
"""Evidence kind: ``(PLAYED, card, named colour, colour in play, rank on top, normal turn)``."""
DREW: Final = 1
"""Evidence kind: ``[DREW, colour in play, rank on top, drawn card played or -1]``."""
NAMED: Final = 2
"""Evidence kind: ``(NAMED, colour)``: a colour named for a turned-up wild."""
RECEIVED: Final = 3
"""Evidence kind: ``(RECEIVED, k)``: the seat received ``k`` cards unseen (a penalty, a draw card)."""

MAX_EVIDENCE: Final = 40
"""Only a seat's latest choices are checked (older ones cost time and say little more)."""


Evidence = list[list[int]]


def evidence(obs: Observation, options: Options | None = None) -> dict[int, Evidence] | None:
    """Each other seat's checkable choices (oldest first), or ``None`` when the house rules
    in play make the inference unsound (see the module docstring).

    The house rules are the match's, ``obs.options``; ``options`` asks instead what the choices
    would say under other rules."""
    if options is None:
        options = obs.options
    if (options.seven_zero or options.jump_in or options.stacking != "off"
            or options.draw_until_playable or options.illegal_play != "reject"):
        return None
    n = obs.players
    active = [s for s in range(n) if not obs.eliminated[s]]
    scan = _Scan(obs, options, len(active) == 2 and options.two_handed_rules)
    last_seat = -2
    last_kind = -1
    for seat, a in obs.history:
        kind = ACTION_KIND[a]
        if seat < 0:  # a host's penalty
            scan.windows[ACTION_ARG[a]].append([RECEIVED, 2])
            continue
        after_draw = last_seat == seat and last_kind == K_DRAW
        last_seat, last_kind = seat, kind
        scan.act(seat, a, kind, after_draw)
    out: dict[int, Evidence] = {}
    for t, win in scan.windows.items():
        if t != obs.seat and win and not obs.eliminated[t]:
            out[t] = win[-MAX_EVIDENCE:]
    return out


class _Scan:
    """The round's history read again, seat by seat: what each seat's choices were made on."""

    def __init__(self, obs: Observation, options: Options, two: bool) -> None:
        first = obs.discard[0] if obs.discard else -1
        self.obs = obs
        self.colour = CARD_COLOR[first] if 0 <= first < WILD else -1
        self.rank = CARD_RANK[first] if 0 <= first < WILD else -1
        self.two = two
        reverses = 0
        if not two:
            for seat, a in obs.history:
                if seat >= 0 and ACTION_KIND[a] == K_PLAY and ACTION_CARD[a] < WILD \
                        and CARD_RANK[ACTION_CARD[a]] == REVERSE:
                    reverses += 1
        self.direction = -obs.direction if reverses % 2 else obs.direction  # as the round began
        self.respond_all = edition(obs.edition).answers_draw_cards  # C6: Agent P may answer any draw card
        self.bluffing = options.wd4_bluffing == "allow"
        self.windows: dict[int, Evidence] = {t: [] for t in range(obs.players)}
        self.answering = False
        self.attacker = -1
        self.pending = 0

    def act(self, seat: int, a: Action, kind: int, after_draw: bool) -> None:
        """``seat`` took ``a`` (of ``kind``; ``after_draw``: right after its own draw)."""
        win = self.windows[seat]
        if kind == K_PLAY:
            self.played(seat, a, after_draw)
        elif kind == K_DRAW:
            win.append([DREW, self.colour, self.rank, -1])
        elif kind == K_COLOR:
            self.colour = ACTION_ARG[a]
            win.append([NAMED, self.colour])
        elif kind == K_ACCEPT:
            self.answering = False
            win.append([RECEIVED, self.pending])
        elif kind == K_CHALLENGE:
            self.answering = False
            self.windows[seat] = []
            if self.attacker >= 0:
                self.windows[self.attacker] = []
        elif kind == K_CATCH:
            self.windows[ACTION_ARG[a]].append([RECEIVED, 2])
        elif kind == K_SWAP:
            self.windows[seat] = []
            self.windows[ACTION_ARG[a]] = []

    def played(self, seat: int, a: Action, after_draw: bool) -> None:
        """``seat`` played the card of ``a``: what it was played on, and what it does next."""
        win = self.windows[seat]
        c = ACTION_CARD[a]
        if after_draw and win and win[-1][0] == DREW:
            win[-1][3] = c
        normal = int(not after_draw and not self.answering)  # at a turn's play, not a draw's or an answer's
        win.append([PLAYED, c, ACTION_COLOR[a], self.colour, self.rank, normal])
        if self.answering:
            self.answering = False
            if c == AGENT_P and self.attacker >= 0:
                self.windows[self.attacker].append([RECEIVED, self.pending])
        if c < WILD:
            self.colour, self.rank = CARD_COLOR[c], CARD_RANK[c]
        else:
            self.colour, self.rank = ACTION_COLOR[a], -1
        if c == WILD_DRAW_FOUR or (c < WILD and CARD_RANK[c] == DRAW_TWO):
            self.pending = 4 if c == WILD_DRAW_FOUR else 2
            if self.respond_all or (c == WILD_DRAW_FOUR and self.bluffing):
                self.answering = True
                self.attacker = seat
            else:
                self.windows[self.obs.next_seat(seat, self.direction)].append([RECEIVED, self.pending])
        elif c < WILD and CARD_RANK[c] == REVERSE and not self.two:
            self.direction = -self.direction


def violations(hand: Sequence[Card], events: Evidence, depth: int = 1, limit: int = 1 << 30) -> int:
    """How many of a seat's choices (``events``, from :func:`evidence`) the heuristic would
    not have made holding ``hand`` now (0: the hand explains them all).

    Going back in time, the hand at each choice is the hand now plus the cards played since,
    less the cards received since. Which cards a kept draw or a penalty brought is unknown:
    behind the latest kept draw, the older choices are checked without each card in turn and
    the best explanation counts (for ``depth`` such draws); behind more of them, only what
    still holds whichever cards were received is checked (no more cards that could be played
    than cards received since). Counting stops past ``limit``: a result above it is a lower
    bound."""
    return _violations(list(hand), events, len(events) - 1, depth, 0, limit)


def _violations(h: list[Card], events: Evidence, start: int, depth: int, slack: int, limit: int) -> int:
    """:func:`violations` from ``events[start]`` back, stopping once more than ``limit``."""
    bad = 0
    for i in range(start, -1, -1):
        if bad > limit:
            return bad
        ev = events[i]
        kind = ev[0]
        if kind == PLAYED:
            h.append(ev[1])
            bad += _unexplained_play(h, ev, slack)
        elif kind == DREW:
            col, rk, played = ev[1], ev[2], ev[3]
            if played >= 0:
                h.remove(played)
            playable = 0
            for x in h:
                if x >= WILD or CARD_COLOR[x] == col or CARD_RANK[x] == rk:
                    playable += 1
            if playable > slack:
                bad += 1
            if played < 0:
                if depth > 0 and not slack and i > 0:
                    best = -1
                    tried = 0
                    for x in h:
                        if (tried >> x) & 1:
                            continue
                        tried |= 1 << x
                        rest = list(h)
                        rest.remove(x)
                        v = _violations(rest, events, i - 1, depth - 1, 0,
                                        limit - bad if best < 0 else min(limit - bad, best - 1))
                        if best < 0 or v < best:
                            best = v
                            if v == 0:
                                break
                    return bad + best
                slack += 1
        elif kind == RECEIVED:
            slack += ev[1]
        elif not slack and best_color(h) != ev[1]:  # NAMED
            bad += 1
        if slack >= len(h):
            break  # every card may be one received since: nothing older can be checked
    return bad


def _unexplained_play(h: list[Card], ev: list[int], slack: int) -> int:
    """How many of the heuristic's rules the play ``ev`` breaks for the hand ``h`` it was
    played from (``h`` holds the card): a wild named in another colour than the hand's best,
    a wild while a coloured card matched or a wild played before the ones it prefers, a
    coloured card the play rule would not choose (:func:`~.heuristic.prefers`); 0 or 1 each."""
    c, named, col, rk, normal = ev[1], ev[2], ev[3], ev[4], ev[5]
    bad = 0
    if c >= WILD:
        if not slack and best_color(h) != named:
            bad += 1
        if normal:
            order = WILD_PREFERENCE[c]
            matching = 0
            for x in h:
                if x < WILD:
                    if CARD_COLOR[x] == col or CARD_RANK[x] == rk:
                        matching += 1
                elif not slack and WILD_PREFERENCE[x] < order:
                    bad += 1
                    break
            if matching > slack:
                bad += 1
    elif normal and not slack:
        count = [0, 0, 0, 0]
        for x in h:
            if x < WILD:
                count[CARD_COLOR[x]] += 1
        cc = count[CARD_COLOR[c]]
        calm = True  # the choice the rule makes when the next seat is not close to out
        danger = True  # ... and when it is (attack cards first)
        for x in h:
            if x >= WILD or x == c or not (CARD_COLOR[x] == col or CARD_RANK[x] == rk):
                continue
            cx = count[CARD_COLOR[x]]
            if prefers(x, cx, c, cc, False):
                calm = False
            if prefers(x, cx, c, cc, True):
                danger = False
            if not calm and not danger:
                bad += 1
                break
    return bad


def sample_hands(sizes: dict[int, int], fixed: dict[int, list[Card]], pool: list[Card],
                 evid: dict[int, Evidence], rng: random.Random, steps: int = 30,
                 depth: int = 1) -> dict[int, list[Card]]:
    """Hands for the seats of ``sizes`` that explain their choices as well as possible.

    Each seat gets its ``fixed`` cards (known to the sampling seat) and random cards from
    ``pool`` (which loses them); then a local search swaps one random card with a random card
    of the pool, keeping the swap unless it leaves more of the seat's choices (``evid``)
    unexplained, until all are explained or after ``steps`` tries per random card. ``pool``
    should be shuffled. ``depth``: how many kept draws back each card is tried in turn
    (:func:`violations`).
    """
    hands: dict[int, list[Card]] = {}
    order = list(sizes)
    shuffle(rng, order)
    for t in order:
        hand = list(fixed.get(t, ()))[:sizes[t]]
        k = len(hand)
        need = sizes[t] - k
        if need > 0:
            hand.extend(pool[-need:])
            del pool[-need:]
        events = evid.get(t)
        if events and need > 0 and pool:
            bad = violations(hand, events, depth)
            tries = steps * need + 4
            while bad and tries > 0:
                tries -= 1
                i = k + randbelow(rng, need)
                j = randbelow(rng, len(pool))
                hand[i], pool[j] = pool[j], hand[i]
                new = violations(hand, events, depth, limit=bad)
                if new <= bad:
                    bad = new
                else:
                    hand[i], pool[j] = pool[j], hand[i]
        hands[t] = hand
    return hands


__all__ = ["DREW", "MAX_EVIDENCE", "NAMED", "PLAYED", "RECEIVED", "evidence", "sample_hands", "violations"]

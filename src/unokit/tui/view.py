"""What the terminal game shows, as Rich text: the table, the hand, the hands seen, the status
line, the key bar and the score table, drawn from the human seat's observation and the
session's log (never from the other seats' hands or the game's hidden state).

:class:`View` holds the few things of the screen's own (the card selected, a wild card whose
colour is asked, an UNO call armed, a message, the highlight of the last play) and the
terminal's size; it needs no Textual, so that what is shown can be checked without a terminal.
:meth:`View.frame` builds every panel of one refresh at once, as a :class:`Frame`: each piece
once, the layout fitted from those very pieces.

The table lists the players one a line when there is room, and turns into a grid of a column
per player when there is not (many players, a small terminal), so that the newest moves and
the key bar stay on screen. The key bar shows the keys that do something now, and ``?``,
``s``, ``q`` and Esc always.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

from rich import box
from rich.cells import cell_len
from rich.table import Table
from rich.text import Text

from ..core.actions import (
    ACCEPT,
    ACTION_ARG,
    ACTION_CARD,
    ACTION_KIND,
    CHALLENGE,
    DRAW,
    K_PLAY,
    K_SWAP,
    PASS,
    UNO,
)
from ..core.cards import WILD_DRAW_FOUR, Card, card_str
from ..core.observation import Observation
from ..core.phases import AWAITING, COLOR, DRAWN, GAME_OVER, PLAY, RESPOND, ROUND_OVER, SWAP
from .render import chip, color_chip, hand_text, is_bluff, play_order, sorted_hand
from .session import Session

A_PLAY, A_DRAWN, A_RESPOND, A_COLOR, A_SWAP = (AWAITING[p] for p in (PLAY, DRAWN, RESPOND, COLOR, SWAP))
A_ROUND_OVER, A_GAME_OVER = AWAITING[ROUND_OVER], AWAITING[GAME_OVER]
"""What the game waits for (``Observation.awaiting``)."""

LOG_ROWS = 5
"""The fewest rows the move log keeps (its border and three lines): the table is drawn as a grid
when a line per player would leave it less."""
GRID_ROWS = 3
"""The rows of the table's grid (players, cards, scores)."""
TURN_STYLE = "bold reverse"
"""The seat on turn: reversed, with ``▶``."""
PLAYED_STYLE = "bold black on yellow"
"""The seat that just played, and its card, for a moment."""


def rows_of(text: Text | str, width: int) -> int:
    """How many rows ``text`` takes at ``width`` (wrapped)."""
    plain = text.plain if isinstance(text, Text) else text
    return sum(max(1, math.ceil(cell_len(line) / max(1, width))) for line in plain.split("\n"))


@dataclass(frozen=True)
class Frame:
    """What the screen shows at one refresh, every panel at once (:meth:`View.frame`): each
    piece is built once, and the layout is fitted from those very pieces."""

    mode: str
    """The table as a ``"list"`` (a line per player) or a ``"grid"`` (a column per player)."""
    legend: bool
    """Whether the hand shows its legend (left out when the screen is short of rows)."""
    table_title: str
    table: Text | Table
    hand: Text
    seen: Text
    status: Text
    keys: Text


@dataclass(frozen=True)
class _Hand:
    """The human's hand at one version of the game: its cards in display order, those that may
    be played now, and those of them that would be a bluff."""

    version: int
    cards: tuple[Card, ...]
    playable: frozenset[Card]
    bluffs: frozenset[Card]


class View:
    """What the human sees of ``session``, on a terminal of ``width`` by ``height`` cells.

    The screen's own state: ``cursor`` (the selected card, an index into :meth:`hand`),
    ``choosing_color`` (the wild card whose colour is asked, -1 if none), ``uno_armed``
    (UNO is called with the next play), ``status_message`` (a short message above the status)
    and ``flash_until`` (until when, by ``time.monotonic()``, the last play stays highlighted;
    each new play is highlighted for ``flash`` seconds by :meth:`follow`).
    """

    def __init__(self, session: Session, flash: float = 2.0, width: int = 80, height: int = 24) -> None:
        self.session = session
        self.tr = session.tr
        self.flash = flash
        self.width = width
        self.height = height
        self.cursor = 0
        self.choosing_color: Card = -1
        self.uno_armed = False
        self.status_message = ""
        self.flash_until = 0.0
        self._flash_plays = -1
        self._cursor_version = -1
        self._hand: _Hand | None = None

    def obs(self) -> Observation:
        """What the human seat may know now: everything shown comes from it."""
        return self.session.observe()

    def follow(self) -> bool:
        """Bring the screen's own state up to the game: the cursor stays on the hand, goes to a
        card just drawn, and at a new decision to the first playable card; a new play starts
        its highlight. Returns whether a new play began to be highlighted (the screen is to be
        redrawn when its highlight ends)."""
        s = self.session
        obs = self.obs()
        hand = self.hand()
        if hand:
            self.cursor = max(0, min(self.cursor, len(hand) - 1))
        if obs.awaiting == A_DRAWN and obs.turn == s.human and obs.drawn in hand:
            self.cursor = hand.index(obs.drawn)
        elif obs.turn == s.human and self._cursor_version != s.version:
            # A new decision: start on the first playable card.
            playable = self.playable()
            if hand and hand[self.cursor] not in playable:
                first = [i for i, c in enumerate(hand) if c in playable]
                if first:
                    self.cursor = first[0]
        self._cursor_version = s.version
        if s.plays != self._flash_plays and s.last_play is not None:
            self._flash_plays = s.plays
            self.flash_until = time.monotonic() + self.flash
            return True
        return False

    def hand(self) -> list[Card]:
        """The human's hand in display order."""
        return list(self._cards().cards)

    def playable(self) -> set[Card]:
        """The cards of the hand that may be played now."""
        return set(self._cards().playable)

    def as_bluffs(self) -> set[Card]:
        """The cards of the hand that may be played now, but as a bluff (a Wild Draw Four while
        holding a card of the colour in play: it can be challenged)."""
        return set(self._cards().bluffs)

    def _cards(self) -> _Hand:
        """The hand, its playable cards and its bluffs, worked out once per version of the game."""
        version = self.session.version
        if self._hand is None or self._hand.version != version:
            obs = self.obs()
            playable = frozenset(ACTION_CARD[a] for a in obs.legal if ACTION_KIND[a] == K_PLAY)
            self._hand = _Hand(version, tuple(sorted_hand(obs.hand)), playable,
                               frozenset(c for c in playable if is_bluff(c, obs.hand, obs.color)))
        return self._hand

    def flashing(self) -> tuple[int, Card] | None:
        """The last play, while it is highlighted on the table (a moment after it was made)."""
        last = self.session.last_play
        if last is None or time.monotonic() >= self.flash_until:
            return None
        return last

    # ------------------------------------------------------------------ the table

    def inner_width(self) -> int:
        """The width inside the panels' borders and padding."""
        return max(20, self.width - 4)

    def frame(self) -> Frame:
        """Everything the screen shows now, each piece built once: the layout is fitted from
        the very hand, status, key bar and table lines that are then shown."""
        full, short = self.hand_views()
        status, keys, info = self.status_text(), self.keys_text(), self.info_lines(self.inner_width())
        mode, legend = self._fit(full, status, keys, info)
        return Frame(mode, legend, self.table_title(mode), self.table_text(mode, info),
                     full if legend else short, self.seen_text(), status, keys)

    def table_mode(self) -> str:
        """``"list"`` (a line per player) when that leaves the move log its rows, else ``"grid"``
        (a column per player)."""
        return self.layout()[0]

    def layout(self) -> tuple[str, bool]:
        """How the screen fits the terminal: the table as a ``"list"`` or a ``"grid"``, and
        whether the hand has room for its legend. The move log keeps :data:`LOG_ROWS` rows or
        more when it can: a line per player when they fit, else the grid, and when even that
        leaves too few, the hand without its legend."""
        full, _short = self.hand_views()
        return self._fit(full, self.status_text(), self.keys_text(), self.info_lines(self.inner_width()))

    def _fit(self, full_hand: Text, status: Text, keys: Text, info: list[Text]) -> tuple[str, bool]:
        """:meth:`layout` from the hand with its legend, the status, the key bar and the table's
        lines under the players."""
        width = self.inner_width()
        hand = rows_of(full_hand, width) + 2
        footer = rows_of(status, self.width - 2) + rows_of(keys, self.width - 2)
        info_rows = sum(rows_of(line, width) for line in info)
        room = self.height - hand - footer - LOG_ROWS - 2 - info_rows
        if self.obs().players <= max(room, GRID_ROWS):
            return "list", True
        return "grid", room >= GRID_ROWS

    def label(self, seat: int) -> str:
        """A player's name on the table: ``(you)`` for the human, the kind of bot for a bot."""
        s, tr = self.session, self.tr
        name = s.name(seat)
        if seat == s.human:
            return name + " " + tr._("(you)")
        kind = s.bot_kind(seat)
        return f"{name} ({kind})" if kind else name

    def table_title(self, mode: str | None = None) -> str:
        """The table's title: with the grid, the kinds of bot (the list names them per player).
        ``mode``: the table's (by default :meth:`table_mode`)."""
        tr, s = self.tr, self.session
        title = tr._("Table")
        if (mode or self.table_mode()) == "list":
            return title
        kinds = [s.bot_kind(i) for i in range(self.obs().players) if i != s.human]
        kinds = [k for k in kinds if k]
        if kinds and all(k == kinds[0] for k in kinds):
            return title + " · " + tr._("opponents: {kinds}").format(kinds=kinds[0])
        if kinds:
            return title + " · " + tr._("opponents: {kinds}").format(kinds=", ".join(
                f"{i + 1} {s.bot_kind(i)}" for i in range(self.obs().players) if i != s.human))
        return title

    def table_text(self, mode: str | None = None, info: list[Text] | None = None) -> Text | Table:
        """The players (a line each, or a grid), then the discard pile and the direction.
        ``mode`` and ``info``: the table's mode and the lines under the players, when known
        (by default :meth:`table_mode` and :meth:`info_lines`)."""
        if info is None:
            info = self.info_lines(self.inner_width())
        if (mode or self.table_mode()) == "list":
            out = self.seat_lines()
            for line in info:
                out.append("\n")
                out.append_text(line)
            return out
        grid = self.seat_grid()
        body = Table.grid()
        body.add_column()
        body.add_row(grid)
        for line in info:
            body.add_row(line)
        return body

    def flags(self, seat: int) -> Text:
        """``UNO!`` for a player with one card, or the UNO call it owes (to call, or to catch)."""
        s, tr, obs = self.session, self.tr, self.obs()
        out = Text()
        if obs.eliminated[seat]:
            return out
        if obs.hand_sizes[seat] == 1 and not obs.owed[seat]:
            out.append("UNO!", style="bold magenta")
        elif obs.owed[seat] and seat != s.human:
            out.append(tr._("no UNO call! (c: catch)"), style="bold red")
        elif obs.owed[seat]:
            out.append(tr._("call UNO! (u)"), style="bold red")
        return out

    def seat_lines(self) -> Text:
        """A line per player: ``▶`` and reversed on turn (highlighted a moment after it played,
        with the card), its cards, its score and its flags."""
        s, tr, obs = self.session, self.tr, self.obs()
        over = obs.awaiting in (A_ROUND_OVER, A_GAME_OVER)
        flash = self.flashing()
        labels = [self.label(i) for i in range(obs.players)]
        width = max(cell_len(label) for label in labels) + 1
        counts = [tr._("out of the game") if obs.eliminated[i] else
                  tr.ngettext("{n} card", "{n} cards", obs.hand_sizes[i]).format(n=obs.hand_sizes[i])
                  for i in range(obs.players)]
        count_width = max(cell_len(c) for c in counts) + 2
        out = Text()
        for i in range(obs.players):
            if i:
                out.append("\n")
            on_turn = i == obs.turn and not over
            played = flash is not None and flash[0] == i
            head = Text(("▶ " if on_turn else "  ") + labels[i].ljust(width + len(labels[i])
                                                                      - cell_len(labels[i])))
            if on_turn:
                head.stylize(TURN_STYLE)
            elif played:
                head.stylize(PLAYED_STYLE)
            out.append_text(head)
            out.append(" " + counts[i].ljust(count_width), style="dim" if obs.eliminated[i] else "")
            out.append(tr._("score {points}").format(points=_num(obs.scores[s.side_of(i)])), style="dim")
            flags = self.flags(i)
            if flags.plain:
                out.append("  ")
                out.append_text(flags)
            if played and flash is not None:
                out.append("  ← ", style="bold")
                out.append_text(chip(flash[1]))
        return out

    def seat_grid(self) -> Table:
        """A column per player: its number (``▶`` and reversed on turn, highlighted a moment
        after it played), its cards (and ``UNO!``, or ``UNO?`` for a call missed), its score."""
        s, tr, obs = self.session, self.tr, self.obs()
        over = obs.awaiting in (A_ROUND_OVER, A_GAME_OVER)
        flash = self.flashing()
        grid = Table.grid(padding=(0, 2))
        grid.add_column(style="dim")
        for _ in range(obs.players):
            grid.add_column(justify="center", min_width=2)
        names: list[Text] = [Text(tr._("Player"))]
        cards: list[Text] = [Text(tr._("Cards"))]
        scores: list[Text] = [Text(tr._("Score"))]
        for i in range(obs.players):
            on_turn = i == obs.turn and not over
            label = str(i + 1) + (" " + tr._("(you)") if i == s.human else "")
            name = Text(("▶" if on_turn else "") + label, style="bold" if i == s.human else "")
            if on_turn:
                name.stylize(TURN_STYLE)
            elif flash is not None and flash[0] == i:
                name.stylize(PLAYED_STYLE)
            names.append(name)
            count = Text("—", style="dim") if obs.eliminated[i] else Text(str(obs.hand_sizes[i]))
            if not obs.eliminated[i] and obs.hand_sizes[i] == 1 and not obs.owed[i]:
                count.append(" UNO!", style="bold magenta")
            elif obs.owed[i]:
                count.append(" UNO?", style="bold red")
            cards.append(count)
            scores.append(Text(_num(obs.scores[s.side_of(i)]), style="dim"))
        for row in (names, cards, scores):
            grid.add_row(*row)
        return grid

    def info_lines(self, width: int) -> list[Text]:
        """The discard pile (and who played it), the colour in play, the direction and order of
        play, the draw pile and the cards to draw: as many to a line as fit ``width``. The order
        names the players when it fits on a line, else numbers them."""
        s, tr, obs = self.session, self.tr, self.obs()
        discard = Text(tr._("Discard pile: "))
        top = chip(obs.top)
        flash = self.flashing()
        if flash is not None:
            top.stylize("reverse")
        discard.append_text(top)
        discard.append(" " + s.card(obs.top))
        by = Text()
        if s.last_play is not None:
            by = Text(tr.agree(tr._("(played by {who})").format(who=s.name(s.last_play[0]))),
                      style=PLAYED_STYLE if flash is not None else "dim")
        color = Text(tr._("Colour in play: "))
        if obs.awaiting == A_COLOR:
            color.append(tr._("to be chosen"))
        else:
            color.append_text(color_chip(obs.color, tr.color(obs.color)))
        order = play_order(obs, s.human)
        arrow = "↻" if obs.direction == 1 else "↺"
        way = tr._("left") if obs.direction == 1 else tr._("right")
        direction = Text(tr._("Direction: {way} {arrow} ({order})").format(
            way=way, arrow=arrow, order=" → ".join(s.name(i) for i in order)))
        if cell_len(direction.plain) > width:
            direction = Text(tr._("Direction: {way} {arrow} (players {order})").format(
                way=way, arrow=arrow, order="→".join(str(i + 1) for i in order)))
        pieces = [(discard, ""), (by, " "), (color, "    "), (direction, "    "), (Text(tr.ngettext(
            "Draw pile: {n} card", "Draw pile: {n} cards", obs.draw_size).format(n=obs.draw_size)), "    ")]
        if obs.pending and obs.awaiting == A_RESPOND:
            pieces.append((Text(tr._("Cards to draw: {n}").format(n=obs.pending), style="bold red"), "    "))
        lines = [Text()]
        for piece, gap in pieces:
            if not piece.plain:
                continue
            line = lines[-1]
            if line.plain and cell_len(line.plain) + len(gap) + cell_len(piece.plain) > width:
                lines.append(Text())
                line = lines[-1]
            if line.plain:
                line.append(gap)
            line.append_text(piece)
        return lines

    # ------------------------------------------------------------------ the hand, the seen hands

    def hand_view(self, legend: bool | None = None) -> Text:
        """The hand: its cards in rows that fit, their marks, the legend (by default left out
        when the screen is short of rows: see :meth:`layout`), and the selected card in words."""
        if legend is None:
            legend = self.layout()[1]
        full, short = self.hand_views()
        return full if legend else short

    def hand_views(self) -> tuple[Text, Text]:
        """:meth:`hand_view` with its legend and without it, built at once."""
        tr, obs = self.tr, self.obs()
        hand = self._cards()
        if not hand.cards:
            return Text(tr._("(no cards)")), Text(tr._("(no cards)"))
        playable, bluffs = set(hand.playable), set(hand.bluffs)
        words = tr._("• playable   ▲ selected")
        if bluffs:
            words += "   " + tr._("! a bluff")
        words += "   " + tr._("R red · Y yellow · G green · B blue")
        full = hand_text(list(hand.cards), self.cursor, playable, words, self.inner_width(), bluffs)
        short = Text("\n").join(full.split("\n")[:-1])
        c = hand.cards[self.cursor]
        selected = Text("\n")
        if c in bluffs:
            state = tr._("playable, but a bluff: you hold a card of the colour in play ({color}), so it "
                         "can be challenged").format(
                color=tr.color(obs.color))
        elif c in playable:
            state = tr._("playable")
        else:
            state = tr._("not playable now")
        selected.append(tr._("Selected: {card} ({code}), {state}").format(
            card=self.session.card(c), code=card_str(c), state=state),
            style="bold red" if c in bluffs else "")
        if self.uno_armed:
            selected.append("   " + tr._("UNO will be called with your next play."), style="bold magenta")
        full.append_text(selected)
        short.append_text(selected)
        return full, short

    def seen_text(self) -> Text:
        """The hands shown to you this round: when each was seen, the cards of it not played
        since, and how many it has drawn since."""
        s, tr = self.session, self.tr
        out = Text()
        for seat, seen in s.seen_hands().items():
            if out.plain:
                out.append("\n")
            out.append(tr._("{who}, seen in round {round}, move {move}:").format(
                who=s.name(seat), round=seen.round_no + 1, move=seen.move) + "\n", style="bold")
            cards = " ".join(card_str(c) for c in sorted_hand(seen.cards))
            out.append(cards or "—")
            if seen.drawn:
                out.append("  " + tr.ngettext("+{n} card drawn since", "+{n} cards drawn since",
                                              seen.drawn).format(n=seen.drawn), style="dim")
        return out

    # ------------------------------------------------------------------ the status and the keys

    def status_text(self) -> Text:
        """The status line: the message, then what the game waits for and what to do about it."""
        s, tr, obs = self.session, self.tr, self.obs()
        out = Text()
        if self.status_message:
            out.append(self.status_message + "\n", style="italic")
        if self.choosing_color >= 0:
            out.append(tr._("Choose the colour for {card}: r red, y yellow, g green, b blue.").format(
                card=s.card(self.choosing_color)), style="bold")
            return out
        awaiting = obs.awaiting
        if awaiting == A_GAME_OVER:
            out.append(s.winner_text(), style="bold")
        elif awaiting == A_ROUND_OVER:
            out.append(tr._("The round is over."), style="bold")
        elif obs.turn != s.human:
            out.append(tr.agree(tr._("Waiting for {who}…").format(who=s.name(obs.turn))))
        elif awaiting == A_PLAY:
            out.append(tr._("Your turn: play a matching card, or draw."), style="bold")
        elif awaiting == A_DRAWN:
            if obs.drawn >= 0:
                out.append(tr._("You drew {card}.").format(card=s.card(obs.drawn)) + " ", style="bold")
            if any(ACTION_KIND[a] == K_PLAY for a in obs.legal):
                out.append(tr._("Play it (Enter) or keep it and pass (p)."), style="bold")
            else:
                out.append(tr._("It cannot be played: pass (p)."), style="bold")
        elif awaiting == A_RESPOND:
            out.append(tr.agree(tr._("{who} played {card} on you: {n} cards to draw.").format(
                who=s.name(obs.attacker), card=s.card(obs.top), n=obs.pending)) + " ", style="bold")
            replaced = s.teller.replaced
            if obs.top == WILD_DRAW_FOUR and replaced >= 0:
                out.append(tr._("The colour before it was {color}.").format(color=tr.color(replaced)) + " ",
                           style="bold")
            out.append(self.respond_hint())
        elif awaiting == A_COLOR:
            out.append(tr._("The first card is a wild card: choose the colour (r, y, g, b)."),
                       style="bold")
        elif awaiting == A_SWAP:
            out.append(tr._("Choose whom to swap hands with: press their player number."),
                       style="bold")
        if obs.owed[s.human] and UNO in obs.legal:
            out.append("\n" + tr._("You have one card left: press u to call UNO!"), style="bold red")
        catch = s.catchable()
        if catch:
            out.append("\n" + tr.agree(tr._("{who} did not call UNO: press c to catch!").format(
                who=s.name(catch[0]))), style="bold red")
        return out

    def respond_hint(self) -> str:
        """The ways to answer a draw card played on you."""
        legal = self.session.human_legal()
        tr = self.tr
        parts = []
        if ACCEPT in legal:
            parts.append(tr._("a: accept"))
        if CHALLENGE in legal:
            parts.append(tr._("x: challenge"))
        if any(ACTION_KIND[a] == K_PLAY for a in legal):
            parts.append(tr._("Enter: answer with the selected card"))
        return ", ".join(parts)

    def key_items(self) -> list[tuple[str, str]]:
        """The keys that do something now, with what they do: exactly the legal moves (and
        the card keys to choose them), then ``?``, ``s``, ``q`` and Esc, always."""
        s, tr, obs = self.session, self.tr, self.obs()
        legal = set(s.human_legal())
        items: list[tuple[str, str]] = []
        mine = obs.turn == s.human and obs.awaiting not in (A_ROUND_OVER, A_GAME_OVER)
        if self.choosing_color >= 0 or (mine and obs.awaiting == A_COLOR):
            items.append(("r y g b", tr._("choose the colour")))
        elif mine and obs.awaiting == A_SWAP:
            seats = sorted(ACTION_ARG[a] for a in legal if ACTION_KIND[a] == K_SWAP)
            items.append((" ".join(str((t + 1) % 10) for t in seats), tr._("swap hands with that player")))
        else:
            cards = self._cards()
            hand, plays = cards.cards, cards.playable
            if len(hand) > 1 and plays:
                items.append(("←/→", tr._("choose a card")))
            if plays:
                if not mine:
                    items.append(("Enter", tr._("jump in")))
                elif obs.awaiting == A_RESPOND:
                    items.append(("Enter", tr._("answer")))
                else:
                    items.append(("Enter", tr._("play")))
            if DRAW in legal:
                items.append(("d", tr._("draw")))
            if PASS in legal:
                items.append(("p", tr._("pass")))
            if ACCEPT in legal:
                items.append(("a", tr._("accept")))
            if CHALLENGE in legal:
                items.append(("x", tr._("challenge")))
            if UNO in legal or (mine and len(obs.hand) == 2 and plays):
                items.append(("u", "UNO"))
            if s.catchable():
                items.append(("c", tr._("catch")))
        items += [("?", tr._("rules")), ("s", tr._("save")), ("q", tr._("quit")), ("Esc", tr._("cancel"))]
        return items

    def keys_text(self) -> Text:
        """The key bar: :meth:`key_items` on a line."""
        out = Text()
        for key, what in self.key_items():
            if out.plain:
                out.append("  ")
            out.append(key, style="bold")
            out.append(" " + what)
        return out


    def score_table(self) -> Table:
        """Each player's (or team's) cards and points left in hand, what the round gave, and
        the total and target."""
        s, tr, obs = self.session, self.tr, self.obs()
        table = Table(expand=True, box=box.SIMPLE_HEAD, show_edge=False)
        table.add_column(tr._("Player"))
        table.add_column(tr._("Cards left"), justify="right")
        table.add_column(tr._("Points in hand"), justify="right")
        table.add_column(tr._("This round"), justify="right")
        table.add_column(tr._("Total"), justify="right")
        end, before = s.round_end, s.scores_before
        for side in range(len(obs.scores)):
            seats = [i for i in range(obs.players) if s.side_of(i) == side]
            left = sum(obs.hand_sizes[i] for i in seats)
            points = "—" if end is None else _num(sum(end.points[i] for i in seats))
            gained = "—"
            if before is not None and len(before) == len(obs.scores):
                diff = obs.scores[side] - before[side]
                gained = f"+{_num(diff)}" if diff > 0 else _num(diff)
            mark = " ★" if side == s.round_winner else ""
            table.add_row(s.side_name(side) + mark, str(left), points, gained, _num(obs.scores[side]),
                          style="bold" if mark else "")
        table.caption = tr._("Target: {target} points").format(target=_num(obs.options.target))
        return table


def _num(x: int | float) -> str:
    return str(int(x)) if float(x).is_integer() else f"{x:g}"


__all__ = ["GRID_ROWS", "LOG_ROWS", "PLAYED_STYLE", "TURN_STYLE", "Frame", "View", "rows_of"]

"""The Textual app of ``unokit play``: the table, your hand, the move log, keyboard play.

All game logic lives in :class:`~unokit.tui.session.Session`; this module only draws it
and turns keys into actions. It draws from the human seat's observation
(:meth:`Session.observe <unokit.tui.session.Session.observe>`) and the session's log, told
from the events: never from the other seats' hands or the game's hidden state.

The screen fits the terminal: the table lists the players one a line when there is room, and
turns into a grid of a column per player when there is not (many players, a small terminal),
so that the newest moves and the key bar stay on screen. The key bar shows the keys that do
something now, and ``?``, ``s``, ``q`` and Esc always.
"""

from __future__ import annotations

import json
import math
import shlex
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, ClassVar

from rich import box
from rich.cells import cell_len
from rich.table import Table
from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Markdown, RichLog, Static

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
    UNO_OFFSET,
    Action,
    catch_action,
    color_action,
    play_action,
    swap_action,
)
from ..core.cards import AGENT_P, WILD, WILD_DRAW_FOUR, Card, card_str
from ..core.editions import edition
from ..core.observation import Observation
from ..core.phases import AWAITING, COLOR, DRAWN, GAME_OVER, PLAY, RESPOND, ROUND_OVER, SWAP
from ..i18n import Translator
from .help import help_text
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


class HelpScreen(ModalScreen[None]):
    """The rules of the edition, from the same Markdown as the docs."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q,question_mark,f1", "close", show=False),
    ]
    DEFAULT_CSS = """
    HelpScreen { align: center middle; }
    HelpScreen > VerticalScroll { width: 90%; height: 90%; border: thick $accent; background: $surface; }
    """

    def __init__(self, markdown: str, hint: str) -> None:
        super().__init__()
        self.markdown = markdown
        self.hint = hint

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help"):
            yield Static(self.hint, id="help-hint")
            yield Markdown(self.markdown)

    def action_close(self) -> None:
        self.dismiss(None)


class AskScreen(ModalScreen[str]):
    """A question with one key per answer (``{"s": "save", "q": "quit", "escape": ""}``): the
    screen closes with the answer of the key pressed. Keys not listed do nothing."""

    DEFAULT_CSS = """
    AskScreen { align: center middle; }
    AskScreen > Vertical { width: 72; max-width: 100%; height: auto; border: thick $warning;
                           background: $surface; padding: 1 2; }
    """

    def __init__(self, question: str, hint: str, answers: dict[str, str]) -> None:
        super().__init__()
        self.question = question
        self.hint = hint
        self.answers = answers

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(Text(self.question, style="bold"), id="ask-question")
            yield Static(self.hint, id="ask-hint")

    def on_key(self, event: events.Key) -> None:
        event.stop()
        event.prevent_default()
        if event.key in self.answers:
            self.dismiss(self.answers[event.key])


class ScoreScreen(ModalScreen[str]):
    """The score table between rounds, and the winner at the end."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter,space,n", "next", show=False),
        Binding("s", "save", show=False),
        Binding("q", "quit_game", show=False),
        Binding("escape", "close", show=False),
        Binding("question_mark,f1,h", "help", show=False),
    ]
    DEFAULT_CSS = """
    ScoreScreen { align: center middle; }
    ScoreScreen > Vertical { width: 76; max-width: 100%; height: auto; max-height: 100%;
                             border: thick $accent; background: $surface; padding: 0 1; }
    """

    def __init__(self, body: Table, title: str, hint: str, final: bool) -> None:
        super().__init__()
        self.body = body
        self.title_text = title
        self.hint = hint
        self.final = final

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(Text(self.title_text, style="bold"), id="score-title")
            yield Static(self.body, id="score-table")
            yield Static(self.hint, id="score-hint")

    def show_note(self, note: str) -> None:
        """A message above the keys (saved, could not save)."""
        self.query_one("#score-hint", Static).update((note + "\n" if note else "") + self.hint)

    def action_next(self) -> None:
        if not self.final:
            self.dismiss("next")

    def action_save(self) -> None:
        app = self.app
        if isinstance(app, UnoApp):
            app.action_save()

    def action_quit_game(self) -> None:
        app = self.app
        if isinstance(app, UnoApp):
            app.action_request_quit()
        else:
            app.exit()

    def action_help(self) -> None:
        app = self.app
        if isinstance(app, UnoApp):
            app.action_help()

    def action_close(self) -> None:
        if self.final:
            self.dismiss("close")


class MoveLog(RichLog):
    """The move log: its lines are wrapped again when its width changes, and its newest line
    stays in view whenever its size changes (a resized terminal, a status line grown to two)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(wrap=True, min_width=10, **kwargs)
        self.source: list[str] = []
        self._width = 0

    def add(self, line: str) -> None:
        """Write ``line`` at the bottom and keep it in view."""
        self.source.append(line)
        self.write(line, scroll_end=True)

    def on_resize(self, event: events.Resize) -> None:
        width = event.size.width
        if self._size_known and width != self._width:
            self.clear()
            for line in self.source:
                self.write(line, scroll_end=False)
        self._width = width
        self.call_after_refresh(self.scroll_end, animate=False)


class UnoApp(App[None]):
    """``unokit play``: one human (seat 0) against bots."""

    TITLE = "unokit"
    ENABLE_COMMAND_PALETTE = False
    CSS = """
    #table { height: auto; border: round $primary; padding: 0 1; }
    #hand { height: auto; border: round $secondary; padding: 0 1; }
    #bottom { height: 1fr; }
    #log { width: 2fr; border: round $primary; }
    #seen { width: 1fr; max-width: 40; height: 1fr; border: round $primary; padding: 0 1; }
    #footer { dock: bottom; height: auto; }
    #status { height: auto; padding: 0 1; background: $boost; }
    #keys { height: auto; padding: 0 1; color: $text-muted; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+q,ctrl+c", "request_quit", show=False, priority=True),
        Binding("left", "move(-1)", show=False),
        Binding("right", "move(1)", show=False),
        Binding("home", "move_to(0)", show=False),
        Binding("end", "move_to(-1)", show=False),
        Binding("enter,space", "play", show=False),
        Binding("d", "draw", show=False),
        Binding("p", "pass_turn", show=False),
        Binding("u", "uno", show=False),
        Binding("c", "catch", show=False),
        Binding("x", "challenge", show=False),
        Binding("a", "accept", show=False),
        Binding("r", "color(0)", show=False),
        Binding("y", "color(1)", show=False),
        Binding("g", "color(2)", show=False),
        Binding("b", "color(3)", show=False),
        Binding("escape", "cancel", show=False),
        *(Binding(str(k), f"swap({k})", show=False) for k in range(10)),
        Binding("question_mark,f1,h", "help", show=False),
        Binding("s", "save", show=False),
        Binding("q", "request_quit", show=False),
    ]

    def __init__(self, session: Session, delay: float = 0.8, save_path: str | Path = "unokit-game.json",
                 bot_names: list[str] | None = None, resumed: str | Path | None = None,
                 flash: float = 2.0) -> None:
        super().__init__()
        self.session = session
        self.tr: Translator = session.tr
        self.delay = delay
        self.save_path = Path(save_path)
        self.bot_names = bot_names or []
        self.flash = flash
        """How long (seconds) the last play stays highlighted on the table."""
        self.cursor = 0
        self.choosing_color: Card = -1
        self.uno_armed = False
        self.status_message = ""
        self._logged = 0
        self._timer_set = False
        self._cursor_version = -1
        self._screen_for: tuple[int, str] | None = None
        self._saved_version = -1
        self._saved_to: Path | None = None
        self._own_files: set[Path] = set()
        """The files this game may overwrite without asking: the one it was resumed from, and
        those it saved to."""
        if resumed is not None:  # saved as it stands, until it changes
            self._own_files.add(Path(resumed).resolve())
            self._saved_to = Path(resumed)
            self._saved_version = session.version
        self._flash_plays = -1
        self._flash_until = 0.0
        self._asking = False
        self._on_screen = False
        self.decisions: set[str] = set()
        """Kinds of decision the human has made (``play``, ``draw``, ``pass``, ``color``, ``uno``,
        ``catch``, ``challenge``, ``agent_p``, ``swap``, ``accept``): the tests read this."""

    # ------------------------------------------------------------------ layout

    def compose(self) -> ComposeResult:
        yield Static(id="table")
        yield Static(id="hand")
        with Horizontal(id="bottom"):
            log = MoveLog(id="log")
            log.can_focus = False
            yield log
            yield Static(id="seen")
        with Vertical(id="footer"):
            yield Static(id="status")
            yield Static(id="keys")

    def on_mount(self) -> None:
        tr = self.tr
        self._on_screen = True
        self.title = f"{edition(self.obs().edition).title} — unokit"
        self.query_one("#hand", Static).border_title = tr._("Your hand")
        self.query_one("#log", RichLog).border_title = tr._("Moves")
        self.query_one("#seen", Static).border_title = tr._("Hands you have seen")
        self.refresh_view()
        self.schedule()

    def on_resize(self, event: events.Resize) -> None:
        # The layout follows the terminal's size (the app takes the new size after this handler).
        self.call_later(self.refresh_view)

    # ------------------------------------------------------------------ the bot clock

    def schedule(self) -> None:
        """Let the bots move after the delay, or show the scores when a round is over."""
        obs = self.obs()
        if obs.awaiting in (A_ROUND_OVER, A_GAME_OVER):
            self._show_scores()
            return
        if self._timer_set or not self.session.bots_to_move():
            return
        wait = self.delay
        if self.session.catchable():
            wait *= 3  # a bot forgot UNO: leave the human time to catch it
        self._timer_set = True
        if wait > 0:
            self.set_timer(wait, self._tick)
        else:
            self.call_later(self._tick)

    def _tick(self) -> None:
        self._timer_set = False
        if self._asking:  # a question is up (quit? overwrite?): the game waits for the answer
            self.set_timer(max(self.delay, 0.1), self.schedule)
            return
        self.session.bot_step()
        self.refresh_view()
        self.schedule()

    # ------------------------------------------------------------------ drawing

    def obs(self) -> Observation:
        """What the human seat may know now: everything drawn comes from it."""
        return self.session.observe()

    def refresh_view(self) -> None:
        """Redraw every panel from the session."""
        if not self._on_screen:
            return
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
            self._flash_until = time.monotonic() + self.flash
            if self.flash > 0:
                self.set_timer(self.flash + 0.05, self.refresh_view)
        log = self.query_one("#log", MoveLog)
        for line in s.log[self._logged:]:
            log.add(line)
        self._logged = len(s.log)
        seen = self.seen_text()
        seen_panel = self.query_one("#seen", Static)
        seen_panel.display = bool(seen.plain)
        seen_panel.update(seen)
        status, keys = self.status_text(), self.keys_text()
        self.query_one("#status", Static).update(status)
        self.query_one("#keys", Static).update(keys)
        self.query_one("#hand", Static).update(self.hand_view())
        table = self.query_one("#table", Static)
        table.border_title = self.table_title()
        table.update(self.table_text())

    def hand(self) -> list[Card]:
        """The human's hand in display order."""
        return sorted_hand(self.obs().hand)

    def playable(self) -> set[Card]:
        """The cards of the hand that may be played now."""
        return {ACTION_CARD[a] for a in self.session.human_legal() if ACTION_KIND[a] == K_PLAY}

    def as_bluffs(self) -> set[Card]:
        """The cards of the hand that may be played now, but as a bluff (a Wild Draw Four while
        holding a card of the colour in play: it can be challenged)."""
        obs = self.obs()
        return {c for c in self.playable() if is_bluff(c, obs.hand, obs.color)}

    def flashing(self) -> tuple[int, Card] | None:
        """The last play, while it is highlighted on the table (a moment after it was made)."""
        last = self.session.last_play
        if last is None or time.monotonic() >= self._flash_until:
            return None
        return last

    # ------------------------------------------------------------------ the table

    def _inner_width(self) -> int:
        return max(20, self.size.width - 4)

    def _lines(self, text: Text | str, width: int) -> int:
        """How many rows ``text`` takes at ``width`` (wrapped)."""
        plain = text.plain if isinstance(text, Text) else text
        return sum(max(1, math.ceil(cell_len(line) / max(1, width))) for line in plain.split("\n"))

    def table_mode(self) -> str:
        """``"list"`` (a line per player) when that leaves the move log its rows, else ``"grid"``
        (a column per player)."""
        return self.layout()[0]

    def layout(self) -> tuple[str, bool]:
        """How the screen fits the terminal: the table as a ``"list"`` or a ``"grid"``, and
        whether the hand has room for its legend. The move log keeps :data:`LOG_ROWS` rows or
        more when it can: a line per player when they fit, else the grid, and when even that
        leaves too few, the hand without its legend."""
        obs = self.obs()
        width = self._inner_width()
        hand = self._lines(self.hand_view(legend=True), width) + 2
        footer = self._lines(self.status_text(), self.size.width - 2) + self._lines(
            self.keys_text(), self.size.width - 2)
        info = sum(self._lines(line, width) for line in self._info_lines(width))
        room = self.size.height - hand - footer - LOG_ROWS - 2 - info
        if obs.players <= max(room, GRID_ROWS):
            return "list", True
        return "grid", room >= GRID_ROWS

    def _label(self, seat: int) -> str:
        s, tr = self.session, self.tr
        name = s.name(seat)
        if seat == s.human:
            return name + " " + tr._("(you)")
        kind = s.bot_kind(seat)
        return f"{name} ({kind})" if kind else name

    def table_title(self) -> str:
        """The table's title: with the grid, the kinds of bot (the list names them per player)."""
        tr, s = self.tr, self.session
        title = tr._("Table")
        if not self._on_screen or self.table_mode() == "list":
            return title
        kinds = [s.bot_kind(i) for i in range(self.obs().players) if i != s.human]
        kinds = [k for k in kinds if k]
        if kinds and all(k == kinds[0] for k in kinds):
            return title + " · " + tr._("opponents: {kinds}").format(kinds=kinds[0])
        if kinds:
            return title + " · " + tr._("opponents: {kinds}").format(kinds=", ".join(
                f"{i + 1} {s.bot_kind(i)}" for i in range(self.obs().players) if i != s.human))
        return title

    def table_text(self) -> Text | Table:
        """The players (a line each, or a grid), then the discard pile and the direction."""
        width = self._inner_width()
        info = self._info_lines(width)
        if self.table_mode() == "list":
            out = self._seat_lines()
            for line in info:
                out.append("\n")
                out.append_text(line)
            return out
        grid = self._seat_grid()
        body = Table.grid()
        body.add_column()
        body.add_row(grid)
        for line in info:
            body.add_row(line)
        return body

    def _flags(self, seat: int) -> Text:
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

    def _seat_lines(self) -> Text:
        s, tr, obs = self.session, self.tr, self.obs()
        over = obs.awaiting in (A_ROUND_OVER, A_GAME_OVER)
        flash = self.flashing()
        labels = [self._label(i) for i in range(obs.players)]
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
            flags = self._flags(i)
            if flags.plain:
                out.append("  ")
                out.append_text(flags)
            if played and flash is not None:
                out.append("  ← ", style="bold")
                out.append_text(chip(flash[1]))
        return out

    def _seat_grid(self) -> Table:
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

    def _info_lines(self, width: int) -> list[Text]:
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
        """The hand: its cards in rows that fit, their marks, the legend (left out when the
        screen is short of rows: see :meth:`layout`), and the selected card in words."""
        hand = self.hand()
        tr, obs = self.tr, self.obs()
        if not hand:
            return Text(tr._("(no cards)"))
        if legend is None:
            legend = self.layout()[1]
        playable, bluffs = self.playable(), self.as_bluffs()
        words = tr._("• playable   ▲ selected")
        if bluffs:
            words += "   " + tr._("! a bluff")
        words += "   " + tr._("R red · Y yellow · G green · B blue")
        text = hand_text(hand, self.cursor, playable, words, self._inner_width(), bluffs)
        if not legend:
            text = Text("\n").join(text.split("\n")[:-1])
        c = hand[self.cursor]
        text.append("\n")
        if c in bluffs:
            state = tr._("playable, but a bluff: you hold a card of the colour in play ({color}), so it "
                         "can be challenged").format(
                color=tr.color(obs.color))
        elif c in playable:
            state = tr._("playable")
        else:
            state = tr._("not playable now")
        text.append(tr._("Selected: {card} ({code}), {state}").format(
            card=self.session.card(c), code=card_str(c), state=state),
            style="bold red" if c in bluffs else "")
        if self.uno_armed:
            text.append("   " + tr._("UNO will be called with your next play."), style="bold magenta")
        return text

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
            out.append(self._respond_hint())
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

    def _respond_hint(self) -> str:
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
            hand = self.hand()
            plays = self.playable()
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
        out = Text()
        for key, what in self.key_items():
            if out.plain:
                out.append("  ")
            out.append(key, style="bold")
            out.append(" " + what)
        return out

    # ------------------------------------------------------------------ acting

    def _do(self, action: Action, kind: str) -> bool:
        """Apply a human action; on success note the decision, refresh, and let bots go on."""
        s = self.session
        if action not in s.human_legal():
            self.note(self.tr._("You cannot do that now."))
            return False
        s.act(action)
        self.decisions.add(kind)
        if ACTION_KIND[action] == K_PLAY and action >= UNO_OFFSET and action < 2 * UNO_OFFSET:
            self.decisions.add("uno")
        self.status_message = ""
        self.uno_armed = False
        self.refresh_view()
        self.schedule()
        return True

    def note(self, message: str) -> None:
        """Show a short message in the status line (and on the score table, when it is up)."""
        self.status_message = message
        for screen in self.screen_stack:
            if isinstance(screen, ScoreScreen):
                screen.show_note(message)
        self.refresh_view()

    def action_move(self, step: int) -> None:
        hand = self.hand()
        if hand and self.choosing_color < 0:
            self.cursor = (self.cursor + step) % len(hand)
            self.refresh_view()

    def action_move_to(self, index: int) -> None:
        hand = self.hand()
        if hand and self.choosing_color < 0:
            self.cursor = index % len(hand)
            self.refresh_view()

    def action_play(self) -> None:
        if self._screen_for is not None:
            return
        hand = self.hand()
        if not hand:
            return
        c = hand[self.cursor]
        s = self.session
        if c not in self.playable():
            self.note(self.tr._("{card} cannot be played now.").format(card=s.card(c)))
            return
        if c >= WILD:
            self.choosing_color = c
            self.refresh_view()
            return
        self._play(c, -1)

    def _play(self, c: Card, color: int) -> None:
        obs = self.obs()
        uno = self.uno_armed and len(obs.hand) == 2
        action = play_action(c, color, uno=uno)
        responding = obs.awaiting == A_RESPOND and obs.turn == self.session.human
        kind = "agent_p" if responding and c == AGENT_P else "play"
        self._do(action, kind)

    def action_color(self, color: int) -> None:
        if self.choosing_color >= 0:
            c = self.choosing_color
            self.choosing_color = -1
            self._play(c, color)
            self.decisions.add("color")
        elif self.obs().awaiting == A_COLOR:
            self._do(color_action(color), "color")
        else:
            self.note(self.tr._("There is no colour to choose now."))

    def action_cancel(self) -> None:
        """Esc: put back the wild card whose colour was asked, forget an UNO call armed, and
        clear the message."""
        self.choosing_color = -1
        self.uno_armed = False
        self.status_message = ""
        self.refresh_view()

    def action_draw(self) -> None:
        self._do(DRAW, "draw")

    def action_pass_turn(self) -> None:
        self._do(PASS, "pass")

    def action_accept(self) -> None:
        self._do(ACCEPT, "accept")

    def action_challenge(self) -> None:
        self._do(CHALLENGE, "challenge")

    def action_uno(self) -> None:
        s = self.session
        if UNO in s.human_legal():
            self._do(UNO, "uno")
            return
        obs = self.obs()
        if obs.turn == s.human and len(obs.hand) == 2 and obs.awaiting in (A_PLAY, A_DRAWN, A_RESPOND):
            self.uno_armed = not self.uno_armed
            self.refresh_view()
            return
        self.note(self.tr._("UNO is called when you play your next-to-last card."))

    def action_catch(self) -> None:
        catch = self.session.catchable()
        if not catch:
            self.note(self.tr._("Nobody can be caught now."))
            return
        self._do(catch_action(catch[0]), "catch")

    def action_swap(self, number: int) -> None:
        obs = self.obs()
        seat = (number or 10) - 1
        if obs.awaiting != A_SWAP or obs.turn != self.session.human:
            return
        self._do(swap_action(seat), "swap")

    def action_help(self) -> None:
        if isinstance(self.screen, HelpScreen):
            return
        self.push_screen(HelpScreen(help_text(self.obs().edition, self.tr.lang),
                                    self.tr._("Esc: back to the game")))

    # ------------------------------------------------------------------ saving and quitting

    def _ask(self, question: str, hint: str, answers: dict[str, str],
             then: Callable[[str | None], None]) -> None:
        """Put a question up; the game waits until it is answered."""
        self._asking = True

        def answered(answer: str | None) -> None:
            self._asking = False
            then(answer)

        self.push_screen(AskScreen(question, hint, answers), answered)

    def shown_path(self, path: Path | None = None) -> str:
        """The save file as the player may type it: as given when it is in the current folder,
        else in full."""
        full = (path or self.save_path).resolve()
        return full.name if full.parent == Path.cwd().resolve() else str(full)

    def _holds_another_game(self, path: Path) -> bool:
        """Whether ``path`` is a file that is not a save of this game (another game's save, or
        anything else): it is not overwritten without asking."""
        if not path.exists() or path.resolve() in self._own_files:
            return False
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return True
        mine = self.session.record()
        if not isinstance(data, dict) or not isinstance(data.get("rounds"), list) or not data["rounds"]:
            return True
        same = all(data.get(k) == mine.get(k) for k in ("format", "edition", "players", "seed", "options"))
        first, ours = data["rounds"][0], mine["rounds"][0]
        if not isinstance(first, dict):
            return True
        deal = ("dealer", "deck", "hands", "discard", "draw")
        return not (same and all(first.get(k) == ours.get(k) for k in deal))

    def action_save(self) -> None:
        """``s``: save the game; a file that holds another game is overwritten only when the
        player says so."""
        if self._asking:
            return
        path = self.save_path
        if self._holds_another_game(path):
            tr = self.tr
            self._ask(tr._("{path} holds another game. Overwrite it?").format(path=self.shown_path()),
                      tr._("y: overwrite it   n or Esc: keep it (start the game with --save FILE to "
                           "save elsewhere)"),
                      {"y": "yes", "n": "", "escape": ""}, self._overwrite_answered)
            return
        self._save_now()

    def _overwrite_answered(self, answer: str | None) -> None:
        if answer == "yes":
            self._save_now()
        else:
            self.note(self.tr._("Not saved: {path} keeps the other game.").format(path=self.shown_path()))

    def _save_now(self) -> bool:
        tr = self.tr
        try:
            self.save(self.save_path)
        except OSError as exc:
            self.note(tr._("Could not save the game: {error}").format(error=exc.strerror or exc))
            return False
        self._saved_version = self.session.version
        self._saved_to = self.save_path
        self._own_files.add(self.save_path.resolve())
        self.note(self.saved_text())
        return True

    def saved_text(self, path: Path | None = None) -> str:
        """Where the game was saved (``path``, by default the save file), and how to go on with
        it (the file in full once: in the command when it is not in the current folder)."""
        tr = self.tr
        path = path or self.save_path
        shown = self.shown_path(path)
        full = str(path.resolve())
        text = tr._("Game saved.") if shown == full else tr._("Game saved to {path}.").format(path=full)
        if self.obs().awaiting == A_GAME_OVER:
            then = tr._("Watch it again with: unokit replay {file}")
        else:
            then = tr._("Resume it with: unokit play --resume {file}")
        return text + " " + then.format(file=shlex.quote(shown))

    def farewell(self) -> str:
        """What to say once the app has closed: where the game is saved, or that it is not."""
        tr = self.tr
        if self._saved_to is not None and self._saved_version == self.session.version:
            return self.saved_text(self._saved_to)
        if self._saved_to is not None:
            return tr._("The moves since the last save are not saved (the save is {path}).").format(
                path=str(self._saved_to.resolve()))
        return tr._("The game was not saved.")

    def action_request_quit(self) -> None:
        """``q``, Ctrl+Q and Ctrl+C: quit at once when the game is saved as it stands; otherwise
        ask first (save and quit, quit, or go on), so that no key loses the match."""
        screen = self.screen
        if isinstance(screen, AskScreen):
            if "quit" in screen.answers.values():
                screen.dismiss("quit")  # asked already: a second quit key quits
            return
        if self._saved_version == self.session.version:
            self.exit()
            return
        tr = self.tr

        def then(answer: str | None) -> None:
            if answer == "quit":
                self.exit()
            elif answer == "save":
                if self._holds_another_game(self.save_path):
                    self.action_save()  # asks first; quitting waits for another key
                elif self._save_now():
                    self.exit()

        self._ask(tr._("Quit without saving? The game has changed since it was last saved."),
                  tr._("s: save and quit   q: quit without saving   Esc: go on playing"),
                  {"s": "save", "q": "quit", "ctrl+q": "quit", "ctrl+c": "quit", "escape": "", "n": ""},
                  then)

    def save(self, path: Path) -> None:
        """Write the game record (plus the bots' names) to ``path``."""
        data: dict[str, Any] = self.session.record()
        data["play"] = {"bots": self.bot_names, "human": self.session.human}
        path.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")

    # ------------------------------------------------------------------ between rounds

    def _show_scores(self) -> None:
        obs = self.obs()
        key = (obs.round_no, obs.awaiting)
        if self._screen_for == key:
            return
        self._screen_for = key
        tr = self.tr
        final = obs.awaiting == A_GAME_OVER
        if final:
            title = self.session.winner_text()
            hint = tr._("s: save the whole game   q: quit   Esc: look at the table")
        else:
            title = tr._("Scores after round {n}").format(n=obs.round_no + 1)
            hint = tr._("Enter: next round   s: save   q: quit")
        self.push_screen(ScoreScreen(self.score_table(), title, hint, final), self._after_scores)

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

    def _after_scores(self, result: str | None) -> None:
        if result == "next" and self.obs().awaiting == A_ROUND_OVER:
            self.session.next_round()
            self._screen_for = None
            self.cursor = 0
            self.status_message = ""
            self.refresh_view()
            self.schedule()
        else:
            self.refresh_view()


def _num(x: int | float) -> str:
    return str(int(x)) if float(x).is_integer() else f"{x:g}"


__all__ = ["AskScreen", "HelpScreen", "MoveLog", "ScoreScreen", "UnoApp"]

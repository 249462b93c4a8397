"""The Textual app of ``unokit play``: the panels of the screen, keyboard play, the bot clock,
the screens between rounds, saving and quitting.

All game logic lives in :class:`~unokit.tui.session.Session`; what is shown is drawn by
:class:`~unokit.tui.view.View`, from the human seat's observation and the session's log (never
from the other seats' hands or the game's hidden state); the save file is
:class:`~unokit.tui.saving.SaveFile`'s. This module puts the view on the screen and turns keys
into actions.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import ClassVar

from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widgets import RichLog, Static

from ..core.actions import (
    ACCEPT,
    CHALLENGE,
    DRAW,
    PASS,
    UNO,
    Action,
    catch_action,
    color_action,
    play_action,
    swap_action,
)
from ..core.cards import WILD, Card
from ..core.editions import edition
from ..text.help import help_text
from .saving import DEFAULT_SAVE, Question, SaveFile
from .screens import AskScreen, HelpScreen, ScoreKeys, ScoreScreen
from .session import Session
from .view import A_COLOR, A_DRAWN, A_GAME_OVER, A_PLAY, A_RESPOND, A_ROUND_OVER, A_SWAP, Frame, View
from .widgets import MoveLog


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
    def __init__(self, session: Session, delay: float = 0.8, save_path: str | Path = DEFAULT_SAVE,
                 bot_names: list[str] | None = None, resumed: str | Path | None = None,
                 flash: float = 2.0) -> None:
        super().__init__()
        self.session = session
        self.tr = session.tr
        self.delay = delay
        self.view = View(session, flash)
        """What is shown (``flash``: how long, in seconds, the last play stays highlighted)."""
        self.saves = SaveFile(session, save_path, bot_names, resumed)
        self._logged = 0
        self._timer_set = False
        self._screen_for: tuple[int, str] | None = None
        self._asking = False
        self._on_screen = False

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
        self.title = f"{edition(self.view.obs().edition).title} — unokit"
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
        obs = self.view.obs()
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

    def refresh_view(self) -> None:
        """Redraw every panel from the session: the view's frame, built once, and the new lines
        of the move log."""
        if not self._on_screen:
            return
        view = self.view
        view.width, view.height = self.size.width, self.size.height
        if view.follow() and view.flash > 0:  # a new play: redraw when its highlight ends
            self.set_timer(view.flash + 0.05, self.refresh_view)
        log = self.query_one("#log", MoveLog)
        for line in self.session.log[self._logged:]:
            log.add(line)
        self._logged = len(self.session.log)
        self._show(view.frame())

    def _show(self, frame: Frame) -> None:
        """Put ``frame`` on the panels."""
        seen_panel = self.query_one("#seen", Static)
        seen_panel.display = bool(frame.seen.plain)
        seen_panel.update(frame.seen)
        self.query_one("#status", Static).update(frame.status)
        self.query_one("#keys", Static).update(frame.keys)
        self.query_one("#hand", Static).update(frame.hand)
        table = self.query_one("#table", Static)
        table.border_title = frame.table_title
        table.update(frame.table)

    # ------------------------------------------------------------------ acting

    def _do(self, action: Action) -> bool:
        """Apply a human action; on success refresh, and let bots go on."""
        s = self.session
        if action not in s.human_legal():
            self.note(self.tr._("You cannot do that now."))
            return False
        s.act(action)
        self.view.status_message = ""
        self.view.uno_armed = False
        self.refresh_view()
        self.schedule()
        return True

    def note(self, message: str) -> None:
        """Show a short message in the status line (and on the score table, when it is up)."""
        self.view.status_message = message
        for screen in self.screen_stack:
            if isinstance(screen, ScoreScreen):
                screen.show_note(message)
        self.refresh_view()

    def action_move(self, step: int) -> None:
        view = self.view
        hand = view.hand()
        if hand and view.choosing_color < 0:
            view.cursor = (view.cursor + step) % len(hand)
            self.refresh_view()

    def action_move_to(self, index: int) -> None:
        view = self.view
        hand = view.hand()
        if hand and view.choosing_color < 0:
            view.cursor = index % len(hand)
            self.refresh_view()

    def action_play(self) -> None:
        if self._screen_for is not None:
            return
        view = self.view
        hand = view.hand()
        if not hand:
            return
        c = hand[view.cursor]
        if c not in view.playable():
            self.note(self.tr._("{card} cannot be played now.").format(card=self.session.card(c)))
            return
        if c >= WILD:
            view.choosing_color = c
            self.refresh_view()
            return
        self._play(c, -1)

    def _play(self, c: Card, color: int) -> None:
        uno = self.view.uno_armed and len(self.view.obs().hand) == 2
        self._do(play_action(c, color, uno=uno))

    def action_color(self, color: int) -> None:
        view = self.view
        if view.choosing_color >= 0:
            c = view.choosing_color
            view.choosing_color = -1
            self._play(c, color)
        elif view.obs().awaiting == A_COLOR:
            self._do(color_action(color))
        else:
            self.note(self.tr._("There is no colour to choose now."))

    def action_cancel(self) -> None:
        """Esc: put back the wild card whose colour was asked, forget an UNO call armed, and
        clear the message."""
        self.view.choosing_color = -1
        self.view.uno_armed = False
        self.view.status_message = ""
        self.refresh_view()

    def action_draw(self) -> None:
        self._do(DRAW)

    def action_pass_turn(self) -> None:
        self._do(PASS)

    def action_accept(self) -> None:
        self._do(ACCEPT)

    def action_challenge(self) -> None:
        self._do(CHALLENGE)

    def action_uno(self) -> None:
        s = self.session
        if UNO in s.human_legal():
            self._do(UNO)
            return
        obs = self.view.obs()
        if obs.turn == s.human and len(obs.hand) == 2 and obs.awaiting in (A_PLAY, A_DRAWN, A_RESPOND):
            self.view.uno_armed = not self.view.uno_armed
            self.refresh_view()
            return
        self.note(self.tr._("UNO is called when you play your next-to-last card."))

    def action_catch(self) -> None:
        catch = self.session.catchable()
        if not catch:
            self.note(self.tr._("Nobody can be caught now."))
            return
        self._do(catch_action(catch[0]))

    def action_swap(self, number: int) -> None:
        obs = self.view.obs()
        seat = (number or 10) - 1
        if obs.awaiting != A_SWAP or obs.turn != self.session.human:
            return
        self._do(swap_action(seat))

    def action_help(self) -> None:
        if isinstance(self.screen, HelpScreen):
            return
        self.push_screen(HelpScreen(help_text(self.view.obs().edition, self.tr.lang),
                                    self.tr._("Esc: back to the game")))

    # ------------------------------------------------------------------ saving and quitting

    def _ask(self, question: Question, then: Callable[[str | None], None]) -> None:
        """Put a question up; the game waits until it is answered."""
        self._asking = True

        def answered(answer: str | None) -> None:
            self._asking = False
            then(answer)

        self.push_screen(AskScreen(question.text, question.hint, question.answers), answered)

    def action_save(self) -> None:
        """``s``: save the game; a file that holds another game is overwritten only when the
        player says so."""
        if self._asking:
            return
        question = self.saves.overwrite_question()
        if question is None:
            self._save_now()
        else:
            self._ask(question, self._overwrite_answered)

    def _overwrite_answered(self, answer: str | None) -> None:
        if answer == "yes":
            self._save_now()
        else:
            self.note(self.saves.kept_text())

    def _save_now(self) -> bool:
        saved, message = self.saves.save_and_tell()
        self.note(message)
        return saved

    def farewell(self) -> str:
        """What to say once the app has closed: where the game is saved, or that it is not."""
        return self.saves.farewell()

    def action_request_quit(self) -> None:
        """``q``, Ctrl+Q and Ctrl+C: quit at once when the game is saved as it stands; otherwise
        ask first (save and quit, quit, or go on), so that no key loses the match."""
        screen = self.screen
        if isinstance(screen, AskScreen):
            if "quit" in screen.answers.values():
                screen.dismiss("quit")  # asked already: a second quit key quits
            return
        question = self.saves.quit_question()
        if question is None:
            self.exit()
            return

        def then(answer: str | None) -> None:
            if answer == "quit":
                self.exit()
            elif answer == "save":
                if self.saves.holds_another_game():
                    self.action_save()  # asks first; quitting waits for another key
                elif self._save_now():
                    self.exit()

        self._ask(question, then)

    # ------------------------------------------------------------------ between rounds

    def _show_scores(self) -> None:
        obs = self.view.obs()
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
        keys = ScoreKeys(save=self.action_save, quit=self.action_request_quit, help=self.action_help)
        self.push_screen(ScoreScreen(self.view.score_table(), title, hint, final, keys), self._after_scores)

    def _after_scores(self, result: str | None) -> None:
        if result == "next" and self.view.obs().awaiting == A_ROUND_OVER:
            self.session.next_round()
            self._screen_for = None
            self.view.cursor = 0
            self.view.status_message = ""
            self.refresh_view()
            self.schedule()
        else:
            self.refresh_view()


__all__ = ["UnoApp"]

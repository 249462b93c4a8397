"""The Textual app of ``unokit play``: the table, your hand, the move log, keyboard play.

All game logic lives in :class:`~unokit.tui.session.Session`; this module only draws it
and turns keys into actions. It draws from the human seat's observation
(:meth:`Session.observe <unokit.tui.session.Session.observe>`) and the session's log, told
from the events: never from the other seats' hands or the game's hidden state.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, ClassVar

from rich.table import Table
from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Markdown, RichLog, Static

from ..actions import (
    ACCEPT,
    ACTION_CARD,
    ACTION_KIND,
    CHALLENGE,
    DRAW,
    K_PLAY,
    PASS,
    UNO,
    UNO_OFFSET,
    Action,
    catch_action,
    color_action,
    play_action,
    swap_action,
)
from ..cards import AGENT_P, WILD, Card, card_str
from ..editions import edition
from ..i18n import Translator
from ..observation import Observation
from ..phases import AWAITING, COLOR, DRAWN, GAME_OVER, PLAY, RESPOND, ROUND_OVER, SWAP
from .help import help_text
from .render import chip, color_chip, hand_text, play_order, sorted_hand
from .session import Session

A_PLAY, A_DRAWN, A_RESPOND, A_COLOR, A_SWAP = (AWAITING[p] for p in (PLAY, DRAWN, RESPOND, COLOR, SWAP))
A_ROUND_OVER, A_GAME_OVER = AWAITING[ROUND_OVER], AWAITING[GAME_OVER]
"""What the game waits for (``Observation.awaiting``)."""

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


class ScoreScreen(ModalScreen[str]):
    """The score table between rounds, and the winner at the end."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter,space,n", "next", show=False),
        Binding("s", "save", show=False),
        Binding("q", "quit_game", show=False),
        Binding("escape", "close", show=False),
    ]
    DEFAULT_CSS = """
    ScoreScreen { align: center middle; }
    ScoreScreen > Vertical { width: 70; height: auto; border: thick $accent; background: $surface;
                             padding: 1 2; }
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

    def action_next(self) -> None:
        if not self.final:
            self.dismiss("next")

    def action_save(self) -> None:
        app = self.app
        if isinstance(app, UnoApp):
            app.action_save()
            self.query_one("#score-hint", Static).update(app.status_message + "\n" + self.hint)

    def action_quit_game(self) -> None:
        app = self.app
        if not isinstance(app, UnoApp):
            app.exit()
            return
        app.action_request_quit()
        if app.quit_armed:
            self.query_one("#score-hint", Static).update(app.status_message + "\n" + self.hint)

    def action_close(self) -> None:
        if self.final:
            self.dismiss("close")


class UnoApp(App[None]):
    """``unokit play``: one human (seat 0) against bots."""

    TITLE = "unokit"
    CSS = """
    #table { height: auto; border: round $primary; padding: 0 1; }
    #hand { height: auto; border: round $secondary; padding: 0 1; }
    #bottom { height: 1fr; }
    #log { width: 2fr; border: round $primary; }
    #seen { width: 1fr; height: 1fr; border: round $primary; padding: 0 1; }
    #status { height: auto; padding: 0 1; background: $boost; }
    #keys { height: auto; padding: 0 1; color: $text-muted; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
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
                 bot_names: list[str] | None = None) -> None:
        super().__init__()
        self.session = session
        self.tr: Translator = session.tr
        self.delay = delay
        self.save_path = Path(save_path)
        self.bot_names = bot_names or []
        self.cursor = 0
        self.choosing_color: Card = -1
        self.uno_armed = False
        self.status_message = ""
        self.peek_lines: list[str] = []
        self._logged = 0
        self._timer_set = False
        self._cursor_version = -1
        self._screen_for: tuple[int, str] | None = None
        self.quit_armed = False
        self._saved_version = -1
        self.decisions: set[str] = set()
        """Kinds of decision the human has made (``play``, ``draw``, ``pass``, ``color``, ``uno``,
        ``catch``, ``challenge``, ``agent_p``, ``swap``, ``accept``): the tests read this."""

    # ------------------------------------------------------------------ layout

    def compose(self) -> ComposeResult:
        yield Static(id="table")
        yield Static(id="hand")
        with Horizontal(id="bottom"):
            log = RichLog(id="log", wrap=True, min_width=20)
            log.can_focus = False
            yield log
            yield Static(id="seen")
        yield Static(id="status")
        yield Static(id="keys")

    def on_mount(self) -> None:
        tr = self.tr
        self.title = f"{edition(self.obs().edition).title} — unokit"
        self.query_one("#table", Static).border_title = tr._("Table")
        self.query_one("#hand", Static).border_title = tr._("Your hand")
        self.query_one("#log", RichLog).border_title = tr._("Moves")
        self.query_one("#seen", Static).border_title = tr._("Hands you have seen")
        self.refresh_view()
        self.schedule()

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
        self.session.bot_step()
        self.refresh_view()
        self.schedule()

    # ------------------------------------------------------------------ drawing

    def obs(self) -> Observation:
        """What the human seat may know now: everything drawn comes from it."""
        return self.session.observe()

    def refresh_view(self) -> None:
        """Redraw every panel from the session."""
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
        self.query_one("#table", Static).update(self.table_text())
        self.query_one("#hand", Static).update(self.hand_view())
        log = self.query_one("#log", RichLog)
        for line in s.log[self._logged:]:
            log.write(line)
        self._logged = len(s.log)
        for seat, cards in s.new_peeks().items():
            self.peek_lines.append(self.tr._("{who}: {cards}").format(
                who=s.name(seat), cards=" ".join(card_str(c) for c in sorted_hand(cards)) or "—"))
        self.peek_lines = self.peek_lines[-12:]
        self.query_one("#seen", Static).update("\n".join(self.peek_lines))
        self.query_one("#status", Static).update(self.status_text())
        self.query_one("#keys", Static).update(self.keys_text())

    def hand(self) -> list[Card]:
        """The human's hand in display order."""
        return sorted_hand(self.obs().hand)

    def playable(self) -> set[Card]:
        """The cards of the hand that may be played now."""
        return {ACTION_CARD[a] for a in self.session.human_legal() if ACTION_KIND[a] == K_PLAY}

    def table_text(self) -> Text:
        s, tr, obs = self.session, self.tr, self.obs()
        out = Text()
        labels = []
        over = obs.awaiting in (A_ROUND_OVER, A_GAME_OVER)
        for i in range(obs.players):
            name = s.name(i)
            if i == s.human:
                name += " " + tr._("(you)")
            elif s.bot_kinds[i]:
                name += f" ({s.bot_kinds[i]})"
            labels.append(name)
        width = max(len(label) for label in labels) + 2
        for i in range(obs.players):
            name = labels[i]
            turn = "▶ " if i == obs.turn and not over else "  "
            out.append(turn, style="bold")
            out.append(name.ljust(width), style="bold" if i == obs.turn else "")
            if obs.eliminated[i]:
                out.append(tr._("out of the game"), style="dim")
            else:
                n = obs.hand_sizes[i]
                out.append(tr.ngettext("{n} card", "{n} cards", n).format(n=n).ljust(10))
                if n == 1 and not obs.owed[i]:
                    out.append(" UNO!", style="bold magenta")
                if obs.owed[i] and i != s.human:
                    out.append(" " + tr._("no UNO call! (c: catch)"), style="bold red")
                elif obs.owed[i]:
                    out.append(" " + tr._("call UNO! (u)"), style="bold red")
            side = s.side_of(i)
            out.append("  " + tr._("score {points}").format(points=_num(obs.scores[side])), style="dim")
            out.append("\n")
        out.append(tr._("Discard pile: "))
        out.append_text(chip(obs.top))
        out.append(" " + s.card(obs.top))
        out.append("    " + tr._("Colour in play: "))
        if obs.awaiting == A_COLOR:
            out.append(tr._("to be chosen"))
        else:
            out.append_text(color_chip(obs.color, tr.color(obs.color)))
        out.append("\n")
        order = play_order(obs, s.human)
        arrow = "↻" if obs.direction == 1 else "↺"
        way = tr._("left") if obs.direction == 1 else tr._("right")
        out.append(tr._("Direction: {way} {arrow} ({order})").format(
            way=way, arrow=arrow, order=" → ".join(s.name(i) for i in order)))
        out.append("    " + tr.ngettext("Draw pile: {n} card", "Draw pile: {n} cards",
                                        obs.draw_size).format(n=obs.draw_size))
        if obs.pending and obs.awaiting == A_RESPOND:
            out.append("    " + tr._("Cards to draw: {n}").format(n=obs.pending), style="bold red")
        return out

    def hand_view(self) -> Text:
        hand = self.hand()
        tr = self.tr
        if not hand:
            return Text(tr._("(no cards)"))
        legend = tr._("• playable   ▲ selected")
        text = hand_text(hand, self.cursor, self.playable(), legend)
        c = hand[self.cursor]
        text.append("\n")
        state = tr._("playable") if c in self.playable() else tr._("not playable now")
        text.append(tr._("Selected: {card} ({code}), {state}").format(
            card=self.session.card(c), code=card_str(c), state=state))
        if self.uno_armed:
            text.append("   " + tr._("UNO will be called with your next play."), style="bold magenta")
        return text

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
            out.append(tr._("Waiting for {who}…").format(who=s.name(obs.turn)))
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
            out.append(tr._("{who} played {card} on you: {n} cards to draw.").format(
                who=s.name(obs.attacker), card=s.card(obs.top), n=obs.pending) + " ", style="bold")
            out.append(self._respond_hint())
        elif awaiting == A_COLOR:
            out.append(tr._("The first card is a wild card: choose the colour (r, y, g, b)."),
                       style="bold")
        elif awaiting == A_SWAP:
            out.append(tr._("Choose whom to swap hands with: press their player number."),
                       style="bold")
        catch = s.catchable()
        if catch:
            out.append("\n" + tr._("{who} did not call UNO: press c to catch!").format(
                who=s.name(catch[0])), style="bold red")
        return out

    def _respond_hint(self) -> str:
        legal = self.session.human_legal()
        tr = self.tr
        parts = [tr._("a: accept")]
        if CHALLENGE in legal:
            parts.append(tr._("x: challenge"))
        if any(ACTION_KIND[a] == K_PLAY and ACTION_CARD[a] >= WILD for a in legal) or any(
                ACTION_KIND[a] == K_PLAY for a in legal):
            parts.append(tr._("Enter: answer with the selected card"))
        return ", ".join(parts)

    def keys_text(self) -> str:
        tr = self.tr
        keys = [tr._("←/→ choose a card"), tr._("Enter play"), tr._("d draw"), tr._("p pass"),
                tr._("u UNO"), tr._("c catch")]
        if self.obs().awaiting == A_RESPOND:
            keys += [tr._("a accept"), tr._("x challenge")]
        keys += [tr._("? rules"), tr._("s save"), tr._("q quit")]
        return "  ".join(keys)

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
        self.quit_armed = False
        self.refresh_view()
        self.schedule()
        return True

    def note(self, message: str) -> None:
        """Show a short message in the status line."""
        self.status_message = message
        self.quit_armed = False
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
        if self.choosing_color >= 0:
            self.choosing_color = -1
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
        self.push_screen(HelpScreen(help_text(self.obs().edition, self.tr.lang),
                                    self.tr._("Esc: back to the game")))

    def action_save(self) -> None:
        try:
            self.save(self.save_path)
        except OSError as exc:
            self.note(self.tr._("Could not save the game: {error}").format(error=exc.strerror or exc))
            return
        self._saved_version = self.session.version
        self.note(self.tr._("Game saved to {path}.").format(path=self.save_path))

    def action_request_quit(self) -> None:
        """``q``: quit at once when the game is saved as it stands; otherwise ask for a second
        ``q`` (a move of yours in between cancels it), so that one stray key does not lose the match."""
        if self.quit_armed or self._saved_version == self.session.version:
            self.quit_armed = False
            self.exit()
            return
        self.note(self.tr._("Quit without saving? Press q again to quit, or s to save first."))
        self.quit_armed = True

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
        """Each player's (or team's) total and target."""
        s, tr, obs = self.session, self.tr, self.obs()
        table = Table(expand=True)
        table.add_column(tr._("Player"))
        table.add_column(tr._("Cards left"), justify="right")
        table.add_column(tr._("Total"), justify="right")
        for side in range(len(obs.scores)):
            seats = [i for i in range(obs.players) if s.side_of(i) == side]
            left = sum(obs.hand_sizes[i] for i in seats)
            mark = " ★" if side == s.round_winner else ""
            table.add_row(s.side_name(side) + mark, str(left), _num(obs.scores[side]))
        table.caption = tr._("Target: {target} points").format(target=_num(obs.options.target))
        return table

    def _after_scores(self, result: str | None) -> None:
        if result == "next" and self.obs().awaiting == A_ROUND_OVER:
            self.session.next_round()
            self._screen_for = None
            self.cursor = 0
            self.peek_lines = []
            self.refresh_view()
            self.schedule()
        else:
            self.refresh_view()


def _num(x: int | float) -> str:
    return str(int(x)) if float(x).is_integer() else f"{x:g}"


__all__ = ["HelpScreen", "ScoreScreen", "UnoApp"]

"""The screens put up over the terminal game: the rules, a question, the scores between rounds."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import ClassVar

from rich.table import Table
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Markdown, Static


@dataclass(frozen=True)
class ScoreKeys:
    """What the score table's keys do in the game behind it: ``s`` saves, ``q`` quits (asking
    first when the game is not saved), ``?`` shows the rules."""

    save: Callable[[], None]
    quit: Callable[[], None]
    help: Callable[[], None]


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

    def __init__(self, body: Table, title: str, hint: str, final: bool, keys: ScoreKeys) -> None:
        super().__init__()
        self.body = body
        self.title_text = title
        self.hint = hint
        self.final = final
        self.keys = keys

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
        self.keys.save()

    def action_quit_game(self) -> None:
        self.keys.quit()

    def action_help(self) -> None:
        self.keys.help()

    def action_close(self) -> None:
        if self.final:
            self.dismiss("close")


__all__ = ["AskScreen", "HelpScreen", "ScoreKeys", "ScoreScreen"]

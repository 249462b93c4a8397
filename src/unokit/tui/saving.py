"""The save file of ``unokit play``: where the game is saved, whether a file may be overwritten
without asking, whether quitting loses moves, and what to tell and ask the player about it (in
the player's language).

A file this game was resumed from or saved to is its own; any other file that exists is
overwritten only when the player says so, unless it holds a save of this very game (the same
edition, players, seed, options and first deal: an older save of it).
"""

from __future__ import annotations

import json
import shlex
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..core.errors import RecordError
from ..core.phases import AWAITING, GAME_OVER
from ..core.record import read_record, same_game
from .session import Session

DEFAULT_SAVE = "unokit-game.json"
"""The save file when none is given."""


@dataclass(frozen=True)
class Question:
    """A question to put to the player before saving or quitting: its words, the hint of its
    keys, and the answer each key gives (``""``: no)."""

    text: str
    hint: str
    answers: dict[str, str]


class SaveFile:
    """The save file ``path`` of ``session``'s game, with ``bot_names`` (the bots' names as
    given, saved with the record so that ``--resume`` seats the same bots). ``resumed``: the
    file the game was resumed from, which holds it as it stands until it changes."""

    def __init__(self, session: Session, path: str | Path = DEFAULT_SAVE,
                 bot_names: list[str] | None = None, resumed: str | Path | None = None) -> None:
        self.session = session
        self.path = Path(path)
        self.bot_names = bot_names or []
        self.saved_version = -1
        """The game's version when it was last saved (-1: not saved)."""
        self.saved_to: Path | None = None
        """Where it was last saved (or resumed from)."""
        self.own_files: set[Path] = set()
        """The files this game may overwrite without asking: the one it was resumed from, and
        those it saved to."""
        if resumed is not None:  # saved as it stands, until it changes
            self.own_files.add(Path(resumed).resolve())
            self.saved_to = Path(resumed)
            self.saved_version = session.version

    def is_saved(self) -> bool:
        """Whether the game is saved as it stands."""
        return self.saved_version == self.session.version

    def holds_another_game(self, path: Path | None = None) -> bool:
        """Whether ``path`` (by default the save file) is a file that is not a save of this game
        (another game's save, or anything else): it is not overwritten without asking."""
        path = path or self.path
        if not path.exists() or path.resolve() in self.own_files:
            return False
        try:
            data = read_record(path)
        except (OSError, RecordError):
            return True
        return not same_game(data, self.session.record())

    def overwrite_question(self) -> Question | None:
        """What to ask before saving, when the save file holds another game (``y`` answers
        ``"yes"``); None when it may be written without asking."""
        if not self.holds_another_game():
            return None
        tr = self.session.tr
        return Question(tr._("{path} holds another game. Overwrite it?").format(path=self.shown_path()),
                        tr._("y: overwrite it   n or Esc: keep it (start the game with --save FILE to "
                             "save elsewhere)"),
                        {"y": "yes", "n": "", "escape": ""})

    def kept_text(self) -> str:
        """What to say when the player keeps the other game's file."""
        return self.session.tr._("Not saved: {path} keeps the other game.").format(path=self.shown_path())

    def quit_question(self) -> Question | None:
        """What to ask before quitting, when the game has changed since it was saved (``s``
        answers ``"save"``, ``q``, Ctrl+Q and Ctrl+C ``"quit"``); None when nothing would be
        lost."""
        if self.is_saved():
            return None
        tr = self.session.tr
        return Question(tr._("Quit without saving? The game has changed since it was last saved."),
                        tr._("s: save and quit   q: quit without saving   Esc: go on playing"),
                        {"s": "save", "q": "quit", "ctrl+q": "quit", "ctrl+c": "quit", "escape": "", "n": ""})

    def save_and_tell(self) -> tuple[bool, str]:
        """:meth:`save`; whether the game is saved, and what to tell the player: where it is
        saved and how to go on (:meth:`saved_text`), or why it could not be."""
        try:
            self.save()
        except OSError as exc:
            return False, self.session.tr._("Could not save the game: {error}").format(
                error=exc.strerror or exc)
        return True, self.saved_text()

    def write(self, path: Path | None = None) -> None:
        """Write the game record (plus the bots' names) to ``path`` (by default the save file);
        raises ``OSError`` when it cannot."""
        data: dict[str, Any] = self.session.record()
        data["play"] = {"bots": self.bot_names, "human": self.session.human}
        (path or self.path).write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")

    def save(self) -> None:
        """Save the game to the save file, which is then its own; raises ``OSError`` when it
        cannot (and nothing is counted as saved)."""
        self.write(self.path)
        self.saved_version = self.session.version
        self.saved_to = self.path
        self.own_files.add(self.path.resolve())

    def shown_path(self, path: Path | None = None) -> str:
        """The save file as the player may type it: as given when it is in the current folder,
        else in full."""
        full = (path or self.path).resolve()
        return full.name if full.parent == Path.cwd().resolve() else str(full)

    def saved_text(self, path: Path | None = None) -> str:
        """Where the game was saved (``path``, by default the save file), and how to go on with
        it (the file in full once: in the command when it is not in the current folder)."""
        tr = self.session.tr
        path = path or self.path
        shown = self.shown_path(path)
        full = str(path.resolve())
        text = tr._("Game saved.") if shown == full else tr._("Game saved to {path}.").format(path=full)
        if self.session.observe().awaiting == AWAITING[GAME_OVER]:
            then = tr._("Watch it again with: unokit replay {file}")
        else:
            then = tr._("Resume it with: unokit play --resume {file}")
        return text + " " + then.format(file=shlex.quote(shown))

    def farewell(self) -> str:
        """What to say once the game has closed: where it is saved, or that it is not."""
        tr = self.session.tr
        if self.saved_to is not None and self.is_saved():
            return self.saved_text(self.saved_to)
        if self.saved_to is not None:
            return tr._("The moves since the last save are not saved (the save is {path}).").format(
                path=str(self.saved_to.resolve()))
        return tr._("The game was not saved.")


__all__ = ["DEFAULT_SAVE", "Question", "SaveFile"]

"""The save file of ``unokit play`` without a terminal (:class:`unokit.tui.saving.SaveFile`):
which files are overwritten without asking, and what the player is told."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from unokit import Game
from unokit.bots.registry import make_bot
from unokit.core.record import load_game
from unokit.text.i18n import translator
from unokit.tui.saving import SaveFile
from unokit.tui.session import Session


def _session(seed: int, lang: str = "en") -> Session:
    return Session(Game.new("classic", 2, seed=seed), [None, make_bot("random", seed=1)], translator(lang))


def test_a_save_holds_the_record_and_the_bots(tmp_path: Path) -> None:
    session = _session(4)
    saves = SaveFile(session, tmp_path / "g.json", bot_names=["random"])
    assert not saves.is_saved() and saves.farewell() == "The game was not saved."
    saves.save()
    assert saves.is_saved()
    data = json.loads((tmp_path / "g.json").read_text())
    assert data["play"] == {"bots": ["random"], "human": 0}
    assert load_game(tmp_path / "g.json").hands == session.game.hands
    # Not in the current folder: the file is named in full, once, in the command.
    assert saves.farewell() == f"Game saved. Resume it with: unokit play --resume {tmp_path / 'g.json'}"
    session.act(session.human_legal()[0])
    assert not saves.is_saved()
    assert saves.farewell() == (f"The moves since the last save are not saved (the save is "
                                f"{tmp_path / 'g.json'}).")


def test_a_file_in_the_current_folder_is_named_as_given(tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    saves = SaveFile(_session(4, "fr"))
    assert saves.shown_path() == "unokit-game.json"
    assert saves.saved_text() == (f"Partie sauvegardée dans {tmp_path / 'unokit-game.json'}. "
                                  "Pour la reprendre : unokit play --resume unokit-game.json")


def test_only_another_games_file_is_kept_without_asking(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    saves = SaveFile(_session(4), path)
    assert not saves.holds_another_game()  # no file yet
    path.write_text("not a game")
    assert saves.holds_another_game()
    SaveFile(_session(5), path).write()
    assert saves.holds_another_game()  # another seed: another game
    SaveFile(_session(4), path).write()
    assert not saves.holds_another_game()  # an older save of this game


def test_the_file_resumed_from_is_saved_as_it_stands(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    path.write_text("{}")
    session = _session(4)
    saves = SaveFile(session, tmp_path / "other.json", resumed=path)
    assert saves.is_saved() and not saves.holds_another_game(path)
    assert saves.farewell() == f"Game saved. Resume it with: unokit play --resume {path}"


def test_quitting_asks_only_when_moves_would_be_lost(tmp_path: Path) -> None:
    session = _session(4)
    saves = SaveFile(session, tmp_path / "g.json")
    question = saves.quit_question()
    assert question is not None and question.text.startswith("Quit without saving?")
    assert question.answers["s"] == "save" and question.answers["ctrl+c"] == "quit"
    assert question.answers["escape"] == ""
    assert saves.save_and_tell() == (True, saves.saved_text())
    assert saves.quit_question() is None
    session.act(session.human_legal()[0])
    assert saves.quit_question() is not None


def test_another_games_file_is_asked_about_and_kept(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    saves = SaveFile(_session(4), path)
    assert saves.overwrite_question() is None
    SaveFile(_session(5), path).write()
    question = saves.overwrite_question()
    assert question is not None and question.text == f"{path} holds another game. Overwrite it?"
    assert question.answers == {"y": "yes", "n": "", "escape": ""}
    assert saves.kept_text() == f"Not saved: {path} keeps the other game."


def test_a_save_that_cannot_be_written_says_why(tmp_path: Path) -> None:
    saves = SaveFile(_session(4, "fr"), tmp_path / "no such folder" / "g.json")
    saved, message = saves.save_and_tell()
    assert not saved and not saves.is_saved()
    prefix = "Impossible de sauvegarder la partie : "
    assert message.startswith(prefix) and len(message) > len(prefix)  # and the system's reason

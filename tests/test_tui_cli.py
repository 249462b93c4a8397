"""``unokit play``: bad input gives one clear error line and exit status 2, never a traceback;
a saved game resumes."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from conftest import play_args as args
from unokit.cli import main
from unokit.commands import play
from unokit.core.record import write_record


def run_cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    status = main(["play", *argv])
    err = capsys.readouterr().err
    return status, err


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["--option", "nonsense=1"], "unknown option 'nonsense'"),
        (["--option", "target"], "name=value"),
        (["--players", "1"], "--players must be 2 to 10, not 1"),
        (["--players", "11"], "--players must be 2 to 10, not 11"),
        (["--bots", "random,nobody"], "unknown bot 'nobody'"),
        (["--players", "4", "--bots", "random,strong"], "2 bots, but there are 3 opponents"),
        (["--lang", "de"], "unknown language 'de'"),
        (["--option", "mode=partners", "--players", "3"], "partners"),
    ],
)
def test_bad_input_is_one_clear_error(capsys: pytest.CaptureFixture[str], argv: list[str],
                                      words: str) -> None:
    status, err = run_cli(capsys, *argv, "--lang", argv[-1] if argv[0] == "--lang" else "en")
    assert status == 2
    assert err.count("\n") == 1 and err.startswith("unokit: error: ") and words in err
    assert "Traceback" not in err


def test_errors_are_translated(capsys: pytest.CaptureFixture[str]) -> None:
    status, err = run_cli(capsys, "--players", "12", "--lang", "fr")
    assert status == 2 and "--players doit être de 2 à 10, pas 12" in err


@pytest.mark.parametrize("content", ["{not json", '{"format": "unokit-record", "version": 1}',
                                     '{"format": "unokit-record", "version": 1, "edition": "classic", '
                                     '"players": 2, "seed": 1, "rounds": [{"dealer": 0, "deck": ["R1"]}]}'])
def test_corrupt_save_file(tmp_path: Path, capsys: pytest.CaptureFixture[str], content: str) -> None:
    bad = tmp_path / "save.json"
    bad.write_text(content)
    status, err = run_cli(capsys, "--resume", str(bad), "--lang", "en")
    assert status == 2 and err.startswith("unokit: error: ") and str(bad) in err
    assert err.count("\n") == 1


def test_missing_save_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, err = run_cli(capsys, "--resume", str(tmp_path / "nope.json"), "--lang", "en")
    assert status == 2 and err.startswith("unokit: error: ") and "Traceback" not in err


def test_no_traceback_from_the_real_command() -> None:
    proc = subprocess.run([sys.executable, "-m", "unokit", "play", "--players", "0", "--lang", "en"],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2
    assert proc.stderr.strip() == "unokit: error: --players must be 2 to 10, not 0"



def test_new_match_and_resume(tmp_path: Path) -> None:
    (session, names), tr = play.build(args(edition="cars2", bots="random,strong", seed=4, lang="pt",
                                           option=["target=200"]))
    game = session.game
    assert game.n == 3 and game.edition == "cars2" and game.options.target == 200
    assert names == ["random", "strong"] and tr.lang == "pt"
    # Play a little, save, and resume: the same state, the same bots.
    for _ in range(20):
        if session.waiting_for_human():
            session.act(session.human_legal()[0])
        else:
            session.bot_step()
    from unokit.tui.saving import SaveFile

    path = tmp_path / "save.json"
    SaveFile(session, path, bot_names=names).save()
    (again, names2), _ = play.build(args(resume=str(path), lang="en"))
    assert names2 == ["random", "strong"]
    assert again.game.hands == game.hands and again.game.history == game.history
    # A plain record (without the play section) resumes too, with the default bots.
    write_record(game, tmp_path / "plain.json")
    (third, names3), _ = play.build(args(resume=str(tmp_path / "plain.json"), lang="en"))
    assert names3 == ["heuristic", "heuristic"] and third.game.hands == game.hands

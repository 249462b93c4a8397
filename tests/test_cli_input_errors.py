"""Bad input to the commands gives one clear ``unokit: error: ...`` line and a non-zero exit,
checked before anything is printed or played; nothing the user typed is dropped silently."""

from __future__ import annotations

import asyncio
import inspect
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from unokit.bots.registry import BOT_OPTIONS, BOTS, make_bot, parse_bot_options
from unokit.cli import main
from unokit.core.errors import OptionError

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(autouse=True)
def app_started(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """The terminal game never really starts here: ``UnoApp.run`` only records that it was called
    (so that a check missing makes a test fail instead of hanging on a game nobody plays)."""
    started: list[bool] = []
    try:
        from unokit.tui.app import UnoApp
    except ImportError:
        return started
    monkeypatch.setattr(UnoApp, "run", lambda self, *a, **k: started.append(True))
    return started


def one_error(capsys: pytest.CaptureFixture[str], argv: list[str]) -> str:
    """Run ``unokit argv``, expect exit 2 with nothing on stdout and one error line; return it."""
    status = main(argv)
    out, err = capsys.readouterr()
    assert status == 2, (argv, out, err)
    assert out == "", (argv, out)
    assert err.count("\n") == 1 and err.startswith("unokit: error: "), (argv, err)
    assert "Traceback" not in err
    return err


# ---------------------------------------------------------------- 1. repeated --options


def test_arena_repeated_options_and_bot_options_accumulate(capsys: pytest.CaptureFixture[str]) -> None:
    status = main(["arena", "--bots", "heuristic,random", "--games", "2", "--jobs", "1", "--json",
                   "--options", "target=50", "--options", "stacking=progressive",
                   "--bot-option", "heuristic.forget_uno=0.1", "--bot-option", "random.eagerness=0.2",
                   "random.eagerness=0.25"])
    assert status == 0
    config = json.loads(capsys.readouterr().out)["config"]
    assert config["options"] == {"target": 50, "stacking": "progressive"}
    assert config["bot_options"] == {"heuristic": {"forget_uno": 0.1}, "random": {"eagerness": 0.25}}


def test_tournament_repeated_options_accumulate(monkeypatch: pytest.MonkeyPatch,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    from unokit.commands import tournament

    seen: dict[str, Any] = {}

    class Standings:
        def format(self) -> str:
            return "standings"

    def fake(bots: list[str], **kwargs: Any) -> Standings:
        seen.update(kwargs)
        return Standings()

    monkeypatch.setattr(tournament, "play_tournament", fake)
    assert main(["tournament", "--players", "4", "--options", "target=50",
                 "--options", "stacking=progressive", "--quiet"]) == 0
    assert seen["options"].target == 50 and seen["options"].stacking == "progressive"
    capsys.readouterr()


# ---------------------------------------------------------------- 2. bot options


@pytest.mark.parametrize(
    ("item", "words"),
    [
        ("strong.iterations=-5",
         "bot 'strong', option 'iterations': '-5' is not a whole number of at least 1"),
        ("strong.iterations=abc", "bot 'strong', option 'iterations': 'abc' is not a whole number"),
        ("strong.iterations=2.5", "'2.5' is not a whole number"),
        ("heuristic.forget_uno=abc",
         "bot 'heuristic', option 'forget_uno': 'abc' is not a number from 0 to 1"),
        ("heuristic.forget_uno=5", "option 'forget_uno': '5' is not a number from 0 to 1"),
        ("strong.max_ms=-1", "bot 'strong', option 'max_ms': '-1' is not a number of at least 0"),
        ("strong.max_ms=nan", "option 'max_ms': 'nan' is not"),
        ("strong.time_ms=0", "option 'time_ms': '0' is not a number above 0"),
        ("strong.infer_draws=maybe", "option 'infer_draws': 'maybe' is not true or false"),
        ("random.x=1", "bot 'random' has no option 'x' (its options: eagerness)"),
        ("strong.bogus=1", "bot 'strong' has no option 'bogus' (its options: iterations, rollouts"),
        ("nobody.x=1", "unknown bot 'nobody' (bots: easy, hard, heuristic, normal, random, strong)"),
        ("iterations=3", "must be written as bot.name=value"),
        ("heuristic.challenge_threshold", "must be written as bot.name=value"),
    ],
)
def test_arena_bad_bot_option_is_one_clear_error(capsys: pytest.CaptureFixture[str], item: str,
                                                 words: str) -> None:
    err = one_error(capsys, ["arena", "--bots", "random,heuristic,strong", "--games", "1",
                             "--no-progress", "--bot-option", item])
    assert words in err, err


def test_arena_bot_option_for_a_bot_that_does_not_play(capsys: pytest.CaptureFixture[str]) -> None:
    err = one_error(capsys, ["arena", "--bots", "random,heuristic", "--games", "1",
                             "--bot-option", "strong.iterations=3"])
    assert "bot 'strong' does not play in this arena" in err


def test_bot_options_are_converted_by_the_table() -> None:
    assert parse_bot_options(["strong.iterations=20", "strong.max_ms=0", "strong.wild_colours=False",
                              "heuristic.forget_uno=0.1"]) == (
        ("heuristic", (("forget_uno", 0.1),)),
        ("strong", (("iterations", 20), ("max_ms", 0.0), ("wild_colours", False))),
    )


def test_make_bot_checks_values_against_the_table() -> None:
    with pytest.raises(OptionError,
                       match="bot 'heuristic', option 'forget_uno': 5 is not a number from 0 to 1"):
        make_bot("heuristic", forget_uno=5)
    with pytest.raises(OptionError, match="'iterations': 0 is not a whole number of at least 1"):
        make_bot("strong", iterations=0)
    with pytest.raises(OptionError, match=r"bot 'random' has no option 'x' \(its options: eagerness\)"):
        make_bot("random", x=1)
    assert make_bot("strong", seed=1, iterations=None, max_ms=0).iterations >= 1  # type: ignore[attr-defined]


@pytest.mark.parametrize("name", sorted(BOTS))
def test_option_tables_match_the_constructors(name: str) -> None:
    params = inspect.signature(BOTS[name]).parameters
    table = {o.name: o for o in BOT_OPTIONS[name]}
    assert set(table) == set(params) - {"seed", "options"}
    for opt in table.values():
        assert params[opt.name].default in (opt.default, None), opt.name
        if opt.default is not None:
            assert opt.convert(name, opt.default) == opt.default  # the default is accepted


# ---------------------------------------------------------------- 3. numbers


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["bench", "--seconds", "inf"], "--seconds must be a finite number of seconds above 0, not inf"),
        (["bench", "--seconds", "nan"], "--seconds must be a finite number of seconds above 0, not nan"),
        (["bench", "--seconds", "-1"], "--seconds must be a finite number of seconds above 0"),
        (["bench", "--seconds", "0"], "--seconds must be a finite number of seconds above 0"),
        (["bench", "--games", "0"], "--games must be at least 1, not 0"),
        (["bench", "--games", "2", "--jobs", "-3"], "--jobs must be at least 1, not -3"),
        (["arena", "--bots", "random", "--games", "0"], "--games must be at least 1, not 0"),
        (["arena", "--bots", "random", "--games", "1", "--jobs", "0"], "--jobs must be at least 1, not 0"),
        (["arena", "--bots", "random", "--games", "1", "--players", "11"], "players must be 2 to 10"),
        (["arena", "--bots", "random", "--games", "1", "--edition", "nope"], "unknown edition 'nope'"),
        (["arena", "--bots", ",", "--games", "1"], "--bots needs at least one bot name"),
        (["play", "--delay", "inf", "--lang", "en"], "--delay must be a finite number of seconds"),
        (["play", "--delay", "nan", "--lang", "en"], "--delay must be a finite number of seconds"),
    ],
)
def test_numbers_must_be_finite_and_in_range(capsys: pytest.CaptureFixture[str], argv: list[str],
                                             words: str) -> None:
    assert words in one_error(capsys, argv)


# ---------------------------------------------------------------- 4. tournament


@pytest.mark.parametrize(
    ("extra", "words"),
    [
        (["--bots", "heuristic,nobody"], "unknown bot 'nobody'"),
        (["--options", "zz=1"], "unknown option 'zz'"),
        (["--options", "target=abc"], "target"),
        (["--edition", "nope"], "unknown edition 'nope'"),
        (["--players", "6"], "players"),
    ],
)
def test_tournament_checks_everything_before_printing(capsys: pytest.CaptureFixture[str],
                                                      extra: list[str], words: str) -> None:
    assert words in one_error(capsys, ["tournament", "--players", "4", *extra])


# ---------------------------------------------------------------- 5. play --save


def test_play_save_folder_must_exist(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    missing = tmp_path / "no" / "such" / "x.json"
    err = one_error(capsys, ["play", "--save", str(missing), "--lang", "en"])
    assert f"--save {missing}: the folder {missing.parent} does not exist" in err
    err = one_error(capsys, ["play", "--save", str(tmp_path), "--lang", "en"])
    assert f"--save {tmp_path}: this is a folder, not a file" in err


@pytest.mark.skipif(os.name != "posix" or os.geteuid() == 0, reason="needs a user that permissions stop")
def test_play_save_folder_must_be_writable(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "ro"
    folder.mkdir()
    folder.chmod(0o555)
    try:
        err = one_error(capsys, ["play", "--save", str(folder / "x.json"), "--lang", "en"])
    finally:
        folder.chmod(0o755)
    assert "cannot write there" in err


def test_demo_save_folder_is_checked_before_playing(tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    missing = tmp_path / "nope" / "x.json"
    assert "does not exist" in one_error(capsys, ["demo", "--save", str(missing)])


# ---------------------------------------------------------------- 6. demo --lang and main.sh


def test_demo_takes_lang(capsys: pytest.CaptureFixture[str]) -> None:
    """``demo --lang`` tells the match in that language, in the words of the terminal game."""
    assert main(["demo", "--players", "2", "--option", "target=30", "--lang", "es"]) == 0
    out, err = capsys.readouterr()
    assert err == "" and "gana el juego" in out and "Jugador 1" in out and "Winner:" not in out
    assert out.splitlines()[0] == "Juego de unokit: classic, 2 jugadores, semilla 1"
    assert main(["demo", "--players", "2", "--option", "target=30", "--lang", "el"]) == 0
    greek = capsys.readouterr().out
    assert "κέρδισε το παιχνίδι" in greek and "Παίκτης 1" in greek
    assert "του Παίκτης" not in greek and "τον Παίκτης" not in greek  # the genitive, the accusative
    assert main(["demo", "--players", "2", "--option", "target=30"]) == 0  # the record's words
    english = capsys.readouterr().out
    assert "Winner: Player" in english and "seat" not in english
    assert "unknown language 'de'" in one_error(capsys, ["demo", "--lang", "de"])


def test_main_sh_play_without_a_terminal_plays_the_demo(tmp_path: Path) -> None:
    """scripts/main.sh play with the README's play arguments, stdin not a terminal: a demo, with
    the play-only flags left out and said so (setup.sh and the venv stubbed)."""
    (tmp_path / "scripts").mkdir()
    shutil.copy(ROOT / "scripts" / "main.sh", tmp_path / "scripts" / "main.sh")
    setup = tmp_path / "scripts" / "setup.sh"
    setup.write_text("#!/bin/sh\nexit 0\n")
    unokit = tmp_path / ".venv" / "bin" / "unokit"
    unokit.parent.mkdir(parents=True)
    unokit.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m unokit "$@"\n')
    for f in (setup, unokit):
        f.chmod(0o755)
    proc = subprocess.run(
        ["bash", str(tmp_path / "scripts" / "main.sh"), "play", "--edition", "phineas-ferb", "--players", "3",
         "--bots", "heuristic,random", "--lang", "es", "--save", "game.json", "--delay=0",
         "--forget-uno", "0.1", "--option", "target=60"],
        stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "gana el juego" in proc.stdout  # told in Spanish (--lang es)
    assert "--save game.json --delay=0 --forget-uno 0.1" in proc.stderr
    assert "usage:" not in proc.stderr and "Traceback" not in proc.stderr
    assert not (tmp_path / "game.json").exists()


# ---------------------------------------------------------------- 7. play needs a terminal


class _Tty:
    def __init__(self, tty: bool) -> None:
        self.tty = tty

    def isatty(self) -> bool:
        return self.tty

    def write(self, text: str) -> int:
        return len(text)

    def flush(self) -> None:
        pass


@pytest.mark.parametrize(("stdin", "stdout"), [(False, True), (True, False), (False, False)])
def test_play_refuses_without_a_terminal(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
                                         app_started: list[bool], stdin: bool, stdout: bool) -> None:
    pytest.importorskip("textual")
    monkeypatch.setattr(sys, "stdin", _Tty(stdin))
    if not stdout:
        err = one_error(capsys, ["play", "--lang", "en", "--seed", "1"])
    else:
        monkeypatch.setattr(sys, "stdout", _Tty(stdout))
        status = main(["play", "--lang", "en", "--seed", "1"])
        err = capsys.readouterr().err
        assert status == 2 and err.count("\n") == 1
    assert "unokit play needs a terminal" in err and "unokit demo" in err
    assert not app_started


def test_play_starts_with_a_terminal(monkeypatch: pytest.MonkeyPatch, app_started: list[bool]) -> None:
    pytest.importorskip("textual")
    monkeypatch.setattr(sys, "stdin", _Tty(True))
    monkeypatch.setattr(sys, "stdout", _Tty(True))
    assert main(["play", "--lang", "en", "--seed", "1"]) == 0 and app_started


# ---------------------------------------------------------------- 8. every way out asks first


def _app_logging_exits(game: Any, tmp_path: Path, lang: str = "en") -> tuple[Any, list[bool]]:
    """The terminal game of ``game`` (the human at seat 0, a random bot at 1), saving to
    ``tmp_path / "g.json"``, whose ``exit`` only logs a call."""
    from unokit.text.i18n import translator
    from unokit.tui.app import UnoApp
    from unokit.tui.session import Session

    session = Session(game, [None, make_bot("random", seed=1)], translator(lang))
    app = UnoApp(session, delay=0, save_path=tmp_path / "g.json")
    exits: list[bool] = []
    app.exit = lambda *a, **k: exits.append(True)
    return app, exits


def _question(app: Any) -> str:
    from textual.widgets import Static

    from unokit.tui.screens import AskScreen

    assert isinstance(app.screen, AskScreen), app.screen
    return str(app.screen.query_one("#ask-question", Static).render()) + " / " + str(
        app.screen.query_one("#ask-hint", Static).render())


@pytest.mark.parametrize("key", ["q", "ctrl+q", "ctrl+c"])
def test_every_way_out_asks_before_quitting_an_unsaved_game(tmp_path: Path, key: str) -> None:
    pytest.importorskip("textual")
    from unokit import Game
    from unokit.tui.screens import AskScreen

    app, exits = _app_logging_exits(Game.new("classic", 2, seed=3), tmp_path)

    async def scenario() -> None:
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            await pilot.press(key)
            await pilot.pause()
            assert not exits and "Quit without saving?" in _question(app)
            await pilot.press("escape")  # go on playing
            await pilot.pause()
            assert not exits and not isinstance(app.screen, AskScreen)
            await pilot.press(key)
            await pilot.pause()
            await pilot.press(key)  # the same key again: quit
            await pilot.pause()
            assert exits == [True]
            # s in the question saves, then quits; saved as it stands, the key quits at once.
            exits.clear()
            await pilot.press(key)
            await pilot.pause()
            await pilot.press("s")
            await pilot.pause()
            assert exits == [True] and (tmp_path / "g.json").exists()
            exits.clear()
            await pilot.press(key)
            await pilot.pause()
            assert exits == [True] and not isinstance(app.screen, AskScreen)

    asyncio.run(scenario())
    assert "Resume it with: unokit play --resume" in app.farewell()


def test_the_question_is_in_the_players_language(tmp_path: Path) -> None:
    pytest.importorskip("textual")
    from unokit import Game

    app, exits = _app_logging_exits(Game.new("classic", 2, seed=3), tmp_path, "el")

    async def scenario() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await pilot.press("ctrl+c")
            await pilot.pause()
            text = _question(app)
            assert "Έξοδος χωρίς αποθήκευση;" in text and "Esc: συνέχεια" in text and not exits
            await pilot.press("q")
            await pilot.pause()
            assert exits == [True]

    asyncio.run(scenario())
    assert app.farewell() == "Το παιχνίδι δεν αποθηκεύτηκε."


def test_q_asks_on_the_score_screen_too(tmp_path: Path) -> None:
    pytest.importorskip("textual")
    from unokit import Game
    from unokit.tui.screens import ScoreScreen

    game = Game.from_setup(hands=[["R1"], ["R5", "B7"]], discard="R3", draw=["Y1", "Y2", "G7"], dealer=1)
    app, exits = _app_logging_exits(game, tmp_path)

    async def scenario() -> None:
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            await pilot.press("enter")  # plays R1, the last card: the round is over
            for _ in range(50):
                if isinstance(app.screen, ScoreScreen):
                    break
                await pilot.pause()
            assert isinstance(app.screen, ScoreScreen)
            for key in ("q", "ctrl+q"):
                await pilot.press(key)
                await pilot.pause()
                assert not exits and "Quit without saving?" in _question(app)
                await pilot.press("escape")
                await pilot.pause()
                assert isinstance(app.screen, ScoreScreen)
            await pilot.press("ctrl+c")
            await pilot.pause()
            await pilot.press("q")
            await pilot.pause()
            assert exits == [True]

    asyncio.run(scenario())


# ---------------------------------------------------------------- 9. argparse's errors, words


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["play", "--edition", "foo"], "argument --edition: invalid choice: 'foo'"),
        (["play", "--seed", "abc"], "argument --seed: invalid int value: 'abc'"),
        (["play", "--players"], "argument --players: expected one argument"),
        (["demo", "--players", "x"], "argument --players: invalid int value: 'x'"),
        (["replay"], "the following arguments are required: file"),
        (["arena", "--games", "many"], "argument --games: invalid int value: 'many'"),
        (["bench", "--nope"], "unrecognized arguments: --nope"),
        (["nothing"], "argument COMMAND: invalid choice: 'nothing'"),
    ],
)
def test_argparse_errors_are_one_line(capsys: pytest.CaptureFixture[str], argv: list[str],
                                      words: str) -> None:
    with pytest.raises(SystemExit) as info:
        main(argv)
    out, err = capsys.readouterr()
    assert info.value.code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("unokit: error: ") and words in err, err
    assert "usage:" not in err
    command = argv[0] if argv[0] != "nothing" else ""
    assert err.rstrip().endswith(f"(see: unokit {command} --help)".replace("  ", " ")), err


def test_one_opponent_is_singular(capsys: pytest.CaptureFixture[str]) -> None:
    err = one_error(capsys, ["play", "--players", "2", "--bots", "random,heuristic", "--lang", "en"])
    assert "--bots names 2 bots, but there is 1 opponent" in err
    err = one_error(capsys, ["play", "--players", "2", "--bots", "random,heuristic", "--lang", "es"])
    assert "--bots nombra 2 bots, pero hay 1 rival" in err


@pytest.mark.parametrize("content", ["{not json", '{"format": "unokit-record", "version": 1}', "[]"])
def test_replay_names_the_file_in_its_error(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                            content: str) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(content)
    err = one_error(capsys, ["replay", str(bad)])
    assert err.count(str(bad)) == 1, err


def test_main_sh_starts_the_web_server_with_its_arguments(tmp_path: Path) -> None:
    """scripts/main.sh with no 'play' starts `unokit serve`, passing the arguments on (the venv
    stubbed: the stub prints what it was asked to run)."""
    (tmp_path / "scripts").mkdir()
    shutil.copy(ROOT / "scripts" / "main.sh", tmp_path / "scripts" / "main.sh")
    setup = tmp_path / "scripts" / "setup.sh"
    setup.write_text('#!/bin/sh\necho "setup $1" >&2\n')
    unokit = tmp_path / ".venv" / "bin" / "unokit"
    unokit.parent.mkdir(parents=True)
    unokit.write_text('#!/bin/sh\necho "unokit $*"\n')
    for f in (setup, unokit):
        f.chmod(0o755)
    proc = subprocess.run(["bash", str(tmp_path / "scripts" / "main.sh"), "--port", "8123", "--open"],
                          stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=60, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "unokit serve --port 8123 --open"
    assert "setup web,play" in proc.stderr

"""The arena: seat rotation, reproducibility, statistics, parallel runs, reports, CLI."""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

import pytest

from unokit.arena import (
    ArenaConfig,
    GameResult,
    _chunks,
    format_summary,
    game_seed,
    play_game,
    run_arena,
    seating,
    summarize,
    write_report,
)
from unokit.cli import main
from unokit.commands.arena import played_line
from unokit.core.errors import OptionError, UnoError
from unokit.core.options import Options
from unokit.core.record import load_game


def _config(**kw: object) -> ArenaConfig:
    base: dict[str, object] = {"bots": ("heuristic", "random"), "games": 6, "players": 2,
                               "options": Options(target=60), "seed": 3}
    base.update(kw)
    return ArenaConfig(**base)  # type: ignore[arg-type]


def test_lineup_fills_with_the_last_bot() -> None:
    cfg = _config(bots=("strong", "heuristic"), players=4)
    assert cfg.lineup() == ["strong", "heuristic", "heuristic", "heuristic"]
    with pytest.raises(OptionError, match="unknown bot"):
        _config(bots=("nobody",)).lineup()
    with pytest.raises(OptionError, match="do not fit"):
        _config(bots=("random",) * 3).lineup()


def test_seats_rotate_within_a_block_sharing_one_seed() -> None:
    lineup = ["a", "b", "b", "b"]
    seats = [seating(lineup, i) for i in range(4)]
    for s in range(4):
        assert sorted(row[s] for row in seats) == ["a", "b", "b", "b"]
    assert {game_seed(5, i, 4) for i in range(4)} == {game_seed(5, 0, 4)}
    assert game_seed(5, 4, 4) != game_seed(5, 0, 4)


def test_games_are_reproducible_and_parallel_matches_serial() -> None:
    cfg = _config()
    serial = run_arena(cfg, jobs=1)
    parallel = run_arena(cfg, jobs=2)
    assert serial == parallel
    again, _ = play_game(cfg, 4)
    assert again == serial[4]
    only = run_arena(cfg, indices=[2])
    assert only == [serial[2]]


def test_summary_on_known_results() -> None:
    cfg = _config(bots=("heuristic", "random"))
    results = [
        GameResult(0, 1, ["heuristic", "random"], [0], [1.0, 0.0], 1, 10, 0, [[50.0, 0.0]]),
        GameResult(1, 1, ["random", "heuristic"], [1], [0.0, 1.0], 2, 20, 1, [[0.0, 30.0], [0.0, 10.0]]),
        GameResult(2, 2, ["heuristic", "random"], [1], [0.0, 1.0], 1, 30, 0, [[0.0, 40.0]]),
        GameResult(3, 2, ["random", "heuristic"], [1], [0.0, 1.0], 1, 40, 1, [[0.0, 20.0]]),
    ]
    s = summarize(cfg, results)
    h, r = s["bots"]["heuristic"], s["bots"]["random"]
    assert (h["wins"], h["entries"], h["win_rate"]) == (3.0, 4, 0.75)
    assert r["win_rate"] == 0.25
    assert h["points_per_round"] == pytest.approx((50 + 30 + 10 + 20) / 5)
    assert r["points_per_round"] == pytest.approx(40 / 5)
    # 3 : 1 plus one virtual draw -> 3.5 : 1.5.
    assert h["elo"] - r["elo"] == pytest.approx(400 * math.log10(3.5 / 1.5), abs=1e-6)
    assert s["first_player"]["win_rate"] == 0.75
    assert s["seat_win_rate"] == [0.25, 0.75]
    assert s["rounds_per_game"] == {"1": 3, "2": 1}
    assert s["actions_per_game_mean"] == 25
    assert "heuristic" in format_summary(s)


def test_report_and_records(tmp_path: Path) -> None:
    cfg = _config(games=2)
    results = run_arena(cfg, record_dir=tmp_path / "rec")
    summary = summarize(cfg, results)
    written = write_report(summary, results, tmp_path / "rep")
    data = json.loads((tmp_path / "rep" / "results.json").read_text())
    assert data["summary"]["games"] == 2 and len(data["results"]) == 2
    pytest.importorskip("matplotlib")
    names = {p.name for p in written}
    assert names >= {"results.json", "win_rate.png", "game_length.png", "first_player.png"}
    replayed = load_game(tmp_path / "rec" / "game-000001.json")
    _, game = play_game(cfg, 1)
    assert replayed.scores == game.scores and replayed.winners == game.winners


def test_cli_arena(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["arena", "--bots", "heuristic,random", "--games", "4", "--options", "target=50",
                 "--jobs", "1", "--json"])
    assert code == 0
    out = json.loads(capsys.readouterr().out)
    assert out["games"] == 4 and out["config"]["options"] == {"target": 50}
    code = main(["arena", "--bots", "strong,heuristic", "--players", "3", "--games", "1",
                 "--options", "target=30", "--bot-option", "strong.rollouts=4", "--no-progress"])
    assert code == 0
    text = capsys.readouterr().out
    assert "strong" in text
    played = (r"^played 1 game in \d+\.\d\d s: [\d,.]+ games/s "
              r"\(1 process, (pure Python|compiled \(mypyc\)) engine\)$")
    assert re.search(played, text, re.M), text


def test_played_line() -> None:
    line = played_line(50, 0.5, 2, "process")
    assert line.startswith("played 50 games in 0.50 s: 100.0 games/s (2 processes, "), line
    assert "(on Ray, " in played_line(1_200, 2.0, 2, "ray")
    assert "too fast to time" in played_line(3, 0.0, 1, "process")
    assert "(1 process, " in played_line(1, 0.1, 2, "process")  # one game is played in-process


def test_cli_arena_errors(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["arena", "--bots", "nobody", "--games", "1"]) != 0
    assert "unknown bot" in capsys.readouterr().err


def test_cli_arena_checks_its_arguments_before_playing(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    a_file = tmp_path / "results.txt"
    a_file.write_text("keep me\n", encoding="utf-8")
    cases = [
        (["--jobs", "0"], "--jobs must be at least 1"),
        (["--game", "1", "--game", "3"], "--game 3: a series of 3 games has games 0 to 2"),
        (["--game", "-1"], "--game -1: a series of 3 games"),
        (["--report", str(a_file)], f"--report {a_file}: a file, not a folder"),
        (["--record", str(a_file)], f"--record {a_file}: a file, not a folder"),
        (["--report", str(a_file / "sub")], f"--report {a_file / 'sub'}: "),
    ]
    for extra, message in cases:
        code = main(["arena", "--bots", "random,random", "--games", "3", "--no-progress", *extra])
        out, err = capsys.readouterr()
        assert code == 2 and out == "", (extra, out)  # nothing played, nothing printed
        assert err.count("unokit: error:") == 1 and message in err, (extra, err)
    assert a_file.read_text(encoding="utf-8") == "keep me\n"


def test_ray_backend() -> None:
    pytest.importorskip("ray")
    cfg = _config(games=2)
    assert run_arena(cfg, backend="ray", jobs=2) == run_arena(cfg)


def test_ray_backend_missing_is_a_clear_error() -> None:
    try:
        import ray  # noqa: F401
    except ImportError:
        with pytest.raises(UnoError, match="ray"):
            run_arena(_config(games=1), backend="ray")
    else:
        pytest.skip("ray is installed")


@pytest.mark.parametrize(("games", "jobs"), [(0, 2), (1, 2), (7, 2), (1000, 2), (333, 3), (10, 1)])
def test_chunks_cover_every_game_once_largest_first(games: int, jobs: int) -> None:
    # Guided scheduling: every index once and in order, at most 50 a chunk, never growing, and a
    # last chunk small enough that the workers finish together.
    indices = list(range(100, 100 + games))
    chunks = _chunks(indices, jobs)
    assert [i for c in chunks for i in c] == indices
    sizes = [len(c) for c in chunks]
    assert all(1 <= s <= 50 for s in sizes)
    assert sizes == sorted(sizes, reverse=True)
    if games >= 16 * jobs:
        assert sizes[-1] == 1 and len(chunks) < games


def test_held_out_seeds_are_named_in_the_summary() -> None:
    from unokit.arena import HELD_OUT, held_out

    assert HELD_OUT == 10**6 and held_out(10**6) and not held_out(10**6 - 1)
    development = "(development: held-out seeds are 1,000,000 and above)"
    for seed, word in ((10**6 + 7, "(held-out)"), (7, development)):
        cfg = _config(games=2, seed=seed)
        summary = summarize(cfg, run_arena(cfg))
        assert summary["config"]["held_out"] is held_out(seed)
        assert f"seed {seed} {word}" in format_summary(summary).splitlines()[0]


def test_searching_bots_report_their_work_and_the_time_cap() -> None:
    cfg = _config(bots=("strong", "heuristic"), games=2, options=Options(target=1),
                  bot_options=(("strong", (("max_ms", 0.0), ("rollouts", 8))),))
    results = run_arena(cfg)
    assert all(r.bot_stats[r.seats.index("strong")]["searched"] >= 1 for r in results)
    assert all(r.bot_stats[r.seats.index("heuristic")] == {} for r in results)
    summary = summarize(cfg, results)
    work = summary["bots"]["strong"]["search"]
    assert work["capped"] == 0 and work["capped_rate"] == 0 and work["mean_ms"] > 0
    assert "search" not in summary["bots"]["heuristic"]
    assert re.search(r"^strong: [\d,]+ searched decisions, \d+\.\d ms each on average; the time cap "
                     r"bound on 0 \(0\.00%\)$", format_summary(summary), re.M)
    # A cap of a microsecond binds on every searched decision that has a budget to spend.
    tight = _config(bots=("strong", "heuristic"), games=1, options=Options(target=1),
                    bot_options=(("strong", (("max_ms", 0.001), ("rollouts", 400))),))
    work = summarize(tight, run_arena(tight))["bots"]["strong"]["search"]
    assert work["capped"] == work["searched"] > 0


def test_elo_can_be_anchored(capsys: pytest.CaptureFixture[str]) -> None:
    cfg = _config(games=4)
    summary = summarize(cfg, run_arena(cfg), elo_anchor=("random", 1000.0))
    assert summary["bots"]["random"]["elo"] == pytest.approx(1000.0)
    assert summary["bots"]["heuristic"]["elo"] > 1000
    assert main(["arena", "--bots", "heuristic,random", "--games", "2", "--jobs", "1", "--json",
                 "--elo-anchor", "random=1000"]) == 0
    assert json.loads(capsys.readouterr().out)["bots"]["random"]["elo"] == pytest.approx(1000.0)
    for bad in ("random", "random=x", "strong=1000"):
        assert main(["arena", "--bots", "heuristic,random", "--games", "1", "--elo-anchor", bad]) != 0
        assert "--elo-anchor" in capsys.readouterr().err


def test_levels_and_the_previous_strong_bot_play_in_the_arena() -> None:
    cfg = _config(bots=("hard", "strong-v1", "easy", "normal"), players=4, games=4, options=Options(target=1),
                  bot_options=(("hard", (("rollouts", 6), ("max_ms", 0.0))),
                               ("strong-v1", (("rollouts", 6), ("max_ms", 0.0)))))
    summary = summarize(cfg, run_arena(cfg))
    assert set(summary["bots"]) == {"hard", "strong-v1", "easy", "normal"}
    assert "search" in summary["bots"]["hard"] and "search" in summary["bots"]["strong-v1"]

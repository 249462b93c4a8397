"""Partner-rotation tournaments (M3): the schedule, and playing it."""

from __future__ import annotations

from itertools import combinations

import pytest

from unokit.cli import main
from unokit.core.errors import OptionError
from unokit.tournament import Standings, check_schedule, one_factorization, play_tournament, schedule


@pytest.mark.parametrize(("players", "hands", "tables"), [(4, 12, 1), (8, 28, 2), (12, 44, 3)])
def test_schedule_every_pair_partners_four_hands(players: int, hands: int, tables: int) -> None:
    sched = schedule(players)
    assert len(sched) == hands
    assert all(len(h) == tables for h in sched)
    check_schedule(sched, players)
    count = dict.fromkeys(combinations(range(players), 2), 0)
    for h in sched:
        seated = [p for table in h for pair in table for p in pair]
        assert sorted(seated) == list(range(players))  # everyone plays, nobody at two tables
        for table in h:
            for a, b in table:
                count[(min(a, b), max(a, b))] += 1
    assert set(count.values()) == {4}


def test_opponents_vary_at_eight_players() -> None:
    meetings: dict[tuple[int, int], int] = {}
    for h in schedule(8):
        for (a, b), (c, d) in h:
            for x in (a, b):
                for y in (c, d):
                    key = (min(x, y), max(x, y))
                    meetings[key] = meetings.get(key, 0) + 1
    assert len(meetings) == 28  # every pair also meets as opponents


def test_check_schedule_catches_bad_schedules() -> None:
    sched = schedule(4)
    with pytest.raises(OptionError, match="partnered"):
        check_schedule(sched[:-1], 4)
    clash = [[((0, 1), (2, 3)), ((0, 2), (1, 3))]]
    with pytest.raises(OptionError, match="two tables"):
        check_schedule(clash, 4, hands_per_pair=1)


def test_bad_player_counts() -> None:
    with pytest.raises(OptionError):
        schedule(6)
    with pytest.raises(OptionError):
        one_factorization(5)


def test_play_tournament_keeps_points_by_partnership() -> None:
    hands: list[tuple[int, list[float]]] = []
    st = play_tournament(["heuristic", "random", "heuristic", "random"], seed=2,
                         on_hand=lambda h, table, pts: hands.append((h, pts)))
    assert len(hands) == 12 and st.hands_played == 12
    total = sum(sum(p) for _, p in hands)
    assert sum(st.totals) == pytest.approx(2 * total)  # both partners keep the points
    for p in range(4):
        assert sum(st.by_partner[p].values()) == pytest.approx(st.totals[p])
        assert set(st.by_partner[p]) <= set(range(4)) - {p}
    assert st.ranking()[0] == max(range(4), key=lambda p: (st.totals[p], -p))
    again = play_tournament(["heuristic", "random", "heuristic", "random"], seed=2)
    assert again.totals == st.totals


def test_cli_tournament(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tournament", "--players", "8", "--schedule-only"]) == 0
    out = capsys.readouterr().out
    assert "28 hands at 2 tables" in out and "hand 28:" in out
    assert main(["tournament", "--players", "4", "--bots", "heuristic,random", "--quiet"]) == 0
    assert "P1 (heuristic)" in capsys.readouterr().out


def test_M3_tied_highest_totals_share_the_win() -> None:
    st = Standings(["Ann", "Bo", "Cy", "Di"], [120.0, 80.0, 120.0, 80.0],
                   [{1: 120.0}, {0: 80.0}, {3: 120.0}, {2: 80.0}])
    assert st.winners() == [0, 2]
    assert [st.rank(p) for p in range(4)] == [1, 3, 1, 3]
    lines = st.format().splitlines()
    assert [line.split()[:2] for line in lines[1:5]] == [["1", "Ann"], ["1", "Cy"], ["3", "Bo"], ["3", "Di"]]
    assert lines[-1] == "winners, tied on 120: Ann, Cy"


def test_M3_a_single_highest_total_wins_alone() -> None:
    st = Standings(["Ann", "Bo", "Cy"], [90.0, 130.0, 90.0], [{}, {}, {}])
    assert st.winners() == [1]
    assert [st.rank(p) for p in range(3)] == [2, 1, 2]
    assert st.format().splitlines()[-1] == "winner: Bo"
    assert Standings([], [], []).winners() == []
    played = play_tournament(["heuristic", "random", "heuristic", "random"], seed=2)
    assert played.winners() == [p for p in range(4) if played.totals[p] == max(played.totals)]

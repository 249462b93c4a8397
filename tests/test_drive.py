"""The one loop around the table (``unokit.core.drive``) and its one policy for a player that
answers nothing or an illegal action, checked on the loop itself and on every caller of it.

The policy: a legal action is taken; nothing or an illegal action from a seat asked out of
turn declines; from the seat on turn (which must act) it is replaced by the seat's first legal
action. The contract test plays the same seeded, misbehaving players through each caller (the
bot driver with the arena and the tournament above it, the terminal game's session, the
Gymnasium and PettingZoo environments) and through the loop itself, and through the web
server's room and its driver: every caller must come to the same game.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from pathlib import Path

import pytest

from conftest import agent_turns, random_options, setup
from unokit import EDITIONS, Game, IllegalActionError, Options
from unokit.bots import play_round
from unokit.core.actions import N_ACTIONS, Action
from unokit.core.drive import WAIT, Decision, Step, drive, fallback, next_decision, settle, take
from unokit.core.observation import Observation
from unokit.core.table import Table
from unokit.server.rooms import Room
from unokit.server.store import RoomData
from unokit.text.i18n import translator
from unokit.tui.session import Session


class Misbehaving:
    """A seeded player that answers a legal action, nothing, or an illegal action."""

    name = "misbehaving"

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def seed(self, n: int) -> None:
        """The environments' seeding protocol (``unokit.envs.seeding``): this player keeps
        its own generator, so that every caller meets the same answers as the reference."""

    def act(self, obs: Observation) -> Action | None:
        roll = self.rng.random()
        if roll < 0.2:
            return None
        if roll < 0.4:
            return next(a for a in range(N_ACTIONS) if a not in obs.legal)
        return self.rng.choice(obs.legal) if obs.legal else None


# ------------------------------------------------------------------ the policy


def _table() -> Table:
    return Table(setup([["R1", "R2"], ["R3", "B1", "B2"], ["G1", "G2", "G3"]], "R4", ["Y8"], dealer=2))


def test_a_legal_answer_is_taken_as_it_is() -> None:
    table = _table()
    decision = next_decision(table)
    assert decision == Decision(0, True, table.game.version)
    assert settle(table, decision, 2) == (2, False)  # R2


@pytest.mark.parametrize("answer", [None, 136 + 1, 999])  # nothing, pass (illegal now), no action
def test_nothing_or_an_illegal_action_on_turn_is_the_first_legal_action(answer: Action | None) -> None:
    table = _table()
    decision = next_decision(table)
    assert decision is not None and decision.must
    assert settle(table, decision, answer) == (table.game.legal_actions(0)[0], True)
    step = take(table, decision, answer)
    assert step.action == fallback(table.game, 0) or step.replaced


@pytest.mark.parametrize("answer", [None, 136, 999])
def test_nothing_or_an_illegal_action_out_of_turn_declines(answer: Action | None) -> None:
    table = _table()
    table.act(0, "R1")  # seat 0 forgets UNO: seat 2, then seat 0, are asked out of turn
    decision = next_decision(table)
    assert decision is not None and decision.seat == 2 and not decision.must
    assert settle(table, decision, answer) == (None, answer is not None)
    step = take(table, decision, answer)
    assert step.action is None and step.events == ()
    assert table.waiting_on() == (0, 1)


def test_a_stale_decision_is_refused() -> None:
    table = _table()
    decision = next_decision(table)
    assert decision is not None
    table.act(0, "R1")
    with pytest.raises(IllegalActionError, match="moved on"):
        settle(table, decision, 3)


def test_drive_stops_at_wait_and_at_the_end_of_the_round() -> None:
    table = _table()
    asked: list[int] = []

    def ask(d: Decision) -> Action | None:
        asked.append(d.seat)
        return WAIT if d.seat == 1 else None

    assert drive(table, ask) == 3  # seat 0 on turn (replaced: R1), seats 2 and 0 decline; seat 1 waits
    assert asked == [0, 2, 0, 1]
    game = setup([["R1"], ["R3", "B1"]], "R4", ["Y8"], dealer=1, target=500)
    assert drive(Table(game), lambda d: None) == 1 and game.awaiting == "round_over"


def test_drive_takes_one_ask_a_seat() -> None:
    table = _table()
    asked: list[int] = []

    def answer(d: Decision) -> Action | None:
        asked.append(d.seat)
        return None

    assert drive(table, [answer, None, answer]) == 3  # as above: seat 1 is played from outside
    assert asked == [0, 2, 0] and table.next_seat() == 1


def test_drive_can_be_bounded() -> None:
    table = Table(Game.new("classic", 3, seed=1))
    with pytest.raises(RuntimeError, match="within 5 decisions"):
        drive(table, lambda d: None, max_steps=5)


# ------------------------------------------------------------------ the contract, for every caller


def _reference(game: Game, players: list[Misbehaving]) -> Game:
    """The round played by the loop itself. Seat 0 is the terminal's person in the caller
    below: asked out of turn, it lets the chance pass (the terminal declines for a person who
    has not acted by the bots' next step)."""

    def answer(d: Decision) -> Action | None:
        if d.seat == 0 and not d.must:
            return None
        return players[d.seat].act(game.observe(d.seat))

    drive(Table(game), answer)
    return game


def _person_passes(players: list[Misbehaving]) -> list[Misbehaving]:
    """The players, seat 0 letting out-of-turn chances pass (as in :func:`_reference`)."""

    class Person(Misbehaving):
        def act(self, obs: Observation) -> Action | None:
            return super().act(obs) if obs.turn == 0 and obs.awaiting in _DECIDING else None

    person = Person(0)
    person.rng = players[0].rng
    return [person, *players[1:]]


_DECIDING = ("play", "drawn", "respond", "color", "swap")


def _driver(game: Game, players: list[Misbehaving]) -> Game:
    play_round(game, _person_passes(players))
    return game


def _driver_with_events(game: Game, players: list[Misbehaving]) -> Game:
    seen: list[int] = []
    play_round(game, _person_passes(players), on_events=lambda g, seat, action, events: seen.append(action))
    assert seen == [a for s, a in game.history if s >= 0]
    return game


def _terminal(game: Game, players: list[Misbehaving]) -> Game:
    """The terminal game's session, its person at seat 0 answering on turn as the misbehaving
    player would, through the keys the terminal offers (a person's illegal key is refused and
    asked again, so the answer is settled by the same policy before it is sent), and letting
    every out-of-turn chance pass."""
    session = Session(game, [None, *players[1:]], translator("en"))
    table = session.table
    for _ in range(100_000):
        if game.awaiting in ("round_over", "game_over"):
            return game
        decision = next_decision(table)
        if decision is not None and decision.seat == 0 and decision.must:
            action, _ = settle(table, decision, players[0].act(game.observe(0)))
            assert action is not None
            session.act(action)
        else:
            session.bot_step()
    raise AssertionError("the round did not end")


def _answer(game: Game, seat: int, player: Misbehaving) -> int:
    """An agent's action for the RL environments (whose agents are the caller's, checked
    against the mask): the misbehaving player's answer settled as the policy says, and
    "nothing now" for seat 0 out of turn."""
    from unokit.envs.encoding import NOTHING

    must = seat == game.turn
    if seat == 0 and not must:
        return NOTHING
    answer = player.act(game.observe(seat))
    if answer is not None and answer in game.legal_actions(seat):
        return answer
    return fallback(game, seat) if must else NOTHING


def _gymnasium(game: Game, players: list[Misbehaving]) -> Game:
    """The Gymnasium environment, its learning seat 0 answering as the person does, the
    misbehaving players as its opponents (settled by the environment's loop)."""
    pytest.importorskip("gymnasium")
    from unokit.envs.gymnasium import UnoEnv

    env = UnoEnv(game.edition, game.n, opponents=players[1:], options=game.options)
    env.reset(seed=0, options={"position": game.to_dict()})
    done = False
    while not done:
        _, _, done, _, info = env.step(_answer(env.game, 0, players[0]))
        assert not info.get("illegal_action")
    played: Game = env.game
    return played


def _pettingzoo(game: Game, players: list[Misbehaving]) -> Game:
    """The PettingZoo environment, every seat an agent answering as its player does."""
    pytest.importorskip("pettingzoo")
    from unokit.envs.pettingzoo import raw_env

    env = raw_env(game.edition, game.n, options=game.options)
    env.reset(seed=0, options={"position": game.to_dict()})
    for _, seat, _ in agent_turns(env):
        env.step(_answer(env.game, seat, players[seat]))
    played: Game = env.game
    return played


CALLERS: dict[str, Callable[[Game, list[Misbehaving]], Game]] = {
    "bot driver (arena, tournament)": _driver,
    "bot driver with events": _driver_with_events,
    "terminal session": _terminal,
    "Gymnasium environment": _gymnasium,
    "PettingZoo environment": _pettingzoo,
}


def _case(seed: int) -> tuple[str, int, Options, Game]:
    """A seed's edition, players and options, and the round the loop itself plays with them."""
    rng = random.Random(seed)
    edition = EDITIONS[seed % len(EDITIONS)]
    players = rng.randint(2, 6)
    options = random_options(rng, players, edition, target=50)
    reference = _reference(Game.new(edition, players, options, seed=seed),
                           [Misbehaving(seed * 10 + s) for s in range(players)])
    return edition, players, options, reference


@pytest.mark.parametrize("caller", list(CALLERS))
@pytest.mark.parametrize("seed", range(12))
def test_every_caller_settles_a_misbehaving_player_as_the_loop_does(caller: str, seed: int) -> None:
    edition, players, options, reference = _case(seed)
    game = CALLERS[caller](Game.new(edition, players, options, seed=seed),
                           [Misbehaving(seed * 10 + s) for s in range(players)])
    assert game.awaiting in ("round_over", "game_over")
    assert game.state() == reference.state()


class _SeatsPlayer:
    """A server bot that answers as the misbehaving player of the seat it is asked for."""

    def __init__(self, players: list[Misbehaving]) -> None:
        self.players = players

    def act(self, obs: Observation) -> Action | None:
        return self.players[obs.seat].act(obs)


async def _server_round(edition: str, options: Options, seed: int, players: list[Misbehaving],
                        tmp_path: Path) -> Game:
    """The web server's room, its bots the misbehaving players and its host (seat 0) away (so
    that a bot plays for them, letting out-of-turn chances pass), driven by the room's own
    driver until the round is over."""
    from unokit.server import driver, security
    from unokit.server.rooms import Rooms, Seat, Settings
    from unokit.server.store import Store

    rooms = Rooms(Store(f"sqlite:///{tmp_path / 'rooms.db'}"))
    n = len(players)
    settings = Settings(edition, n, ["human"] + ["misbehaving"] * (n - 1), options, 0.0, 0.0, "misbehaving",
                        seed, fixed_seed=True, reaction=0.0)  # the bot for the host away at once
    token = security.new_token()
    seats = [Seat(0, "human", "Ana", None, security.token_hash(token), away=True),
             *(Seat(i, "bot", None, "misbehaving") for i in range(1, n))]
    room = Room(rooms, "ROOMCODE", settings, seats, 0)
    rooms.store.create_room(RoomData("ROOMCODE", "lobby", settings.to_json(), 0, [s.data() for s in seats]))
    rooms.rooms[room.code] = room
    seated = _person_passes(players)
    original = driver.room_bot
    driver.room_bot = lambda name, seed, forget_uno: _SeatsPlayer(seated)  # type: ignore[assignment,misc]
    try:
        await room.start(token)
        async with asyncio.timeout(60):
            while room.status == "playing":
                await asyncio.sleep(0.005)
    finally:
        driver.room_bot = original
        rooms.stop()
        rooms.store.close()
    assert room.game is not None
    return room.game


@pytest.mark.parametrize("seed", range(6))
def test_the_web_servers_room_settles_a_misbehaving_player_as_the_loop_does(
        seed: int, tmp_path: Path) -> None:
    edition, players, options, reference = _case(seed)
    misbehaving = [Misbehaving(seed * 10 + s) for s in range(players)]
    game = asyncio.run(_server_round(edition, options, seed, misbehaving, tmp_path))
    assert game.awaiting in ("round_over", "game_over")
    assert game.state() == reference.state()


def test_a_step_records_what_was_replaced() -> None:
    table = _table()
    steps: list[Step] = []
    drive(table, lambda d: 999, on_step=steps.append, until=lambda s: s.decision.must)
    assert [(s.decision.seat, s.action, s.replaced) for s in steps] == [(0, table.game.history[0][1], True)]


@pytest.mark.parametrize("seed", range(6))
def test_drive_settles_alike_with_and_without_steps(seed: int) -> None:
    """The loop's plain path (no step asked for) applies the same policy as its full one."""
    games = [Game.new(EDITIONS[seed % 3], 2 + seed % 4, random_options(random.Random(seed), 2 + seed % 4,
                                                                         EDITIONS[seed % 3]), seed=seed)
             for _ in range(2)]
    for game, on_step in zip(games, (None, lambda step: None), strict=True):
        players = [Misbehaving(seed * 10 + s) for s in range(game.n)]
        drive(Table(game), lambda d, g=game, p=players: p[d.seat].act(g.observe(d.seat)), on_step=on_step)
    assert games[0].awaiting in ("round_over", "game_over")
    assert games[0].state() == games[1].state()

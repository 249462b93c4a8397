"""Narration formats events: every event type has words (the record's, and the player's in
every language), the replay's hands are the events' cards folded in order, and nothing that
draws the terminal game reads the game's hidden state."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from unokit import Game, Options
from unokit.bots import RandomBot, play_round
from unokit.core.cards import parse_card
from unokit.core.events import (
    EVENT_TYPES,
    Accepted,
    AgentPAnswered,
    Caught,
    Challenged,
    ColorNamed,
    DirectionChanged,
    DrawPending,
    Drew,
    Event,
    GameEnded,
    HandsRotated,
    HandsSwapped,
    HostPenalty,
    Passed,
    Peeked,
    Played,
    Reshuffled,
    RoundEnded,
    RoundStarted,
    Skipped,
    TurnedUp,
    UnoCalled,
    UnoMissed,
    WrongCard,
)
from unokit.narrate import Narrator, Teller, describe
from unokit.text.i18n import LANGUAGES, translator

SRC = Path(__file__).resolve().parent.parent / "src" / "unokit"


def cards(*names: str) -> tuple[int, ...]:
    return tuple(parse_card(n) for n in names)


R5, G2, W, WD4, WP = cards("R5", "G2", "W", "W+4", "WP")

SAMPLES: list[Event] = [
    RoundStarted(0, 2, (7, 7, 7), (cards("R1", "R2", "R3", "G1", "G2", "G3", "B1"), None, None)),
    TurnedUp(parse_card("R+2")),
    TurnedUp(WD4, returned=True),
    TurnedUp(W),
    Played(0, R5, 0),
    Played(0, W, 2, uno=True),
    Played(1, R5, 0, jump_in=True),
    Played(1, W, 3, jump_in=True),
    WrongCard(0, G2),
    Drew(1, 2, None, "first_card"),
    Drew(0, 1, cards("Y1"), "turn"),
    Drew(0, 3, None, "turn"),
    Drew(0, 2, cards("R7", "B4"), "agent_p", "discard"),
    Reshuffled(40),
    Passed(0),
    Skipped(1),
    DirectionChanged(-1),
    ColorNamed(0, 3),
    DrawPending(1, 4, 0),
    Accepted(1, 4),
    Challenged(1, 0, True, None),
    Challenged(1, 0, False, cards("R1", "Y2")),
    AgentPAnswered(1, 0, 2),
    UnoCalled(0),
    UnoMissed(0),
    Caught(1, 0),
    HostPenalty(2),
    Peeked(0, None),
    HandsSwapped(0, 1, None),
    HandsRotated(1, (None, None, None)),
    RoundEnded(0, (0, 12, 30), (42, 0, 0), (False, False, False)),
    RoundEnded(2, (20, 12, 3), (42, 0, 32), (False, True, False), blocked=True),
    GameEnded((0,)),
    GameEnded((0, 2)),
]


def test_the_samples_cover_every_event_type() -> None:
    assert {type(e) for e in SAMPLES} == set(EVENT_TYPES)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_event_has_the_players_words(lang: str) -> None:
    tr, en = translator(lang), translator("en")
    for e in SAMPLES:
        for seat in (None, 0, 1):
            seen = e.seen_by(seat)
            lines = Teller(tr, "phineas-ferb", 3, scores=(0, 0, 0), eliminated=(False,) * 3).tell(seen)
            assert lines and all(lines), (lang, e)
            if lang != "en":  # in the language, not English
                english = Teller(en, "phineas-ferb", 3, scores=(0, 0, 0), eliminated=(False,) * 3).tell(seen)
                assert all(a != b for a, b in zip(lines, english, strict=True)), (lang, lines)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_event_is_told_to_its_viewer_with_the_names(lang: str) -> None:
    """Told with display names, a seat without one as ``Player {n}``, and to the viewer in the
    second person: a line about the viewer names nobody, and differs from the others' line."""
    tr = translator(lang)
    names = ["<b>x</b>", "Ana", None]
    player_3 = tr._("Player {n}").format(n=3)
    for e in SAMPLES:
        for viewer in (0, 1, 2):
            seen = e.seen_by(viewer)
            teller = Teller(tr, "phineas-ferb", 3, scores=(0, 0, 0), eliminated=(False,) * 3,
                            names=names, viewer=viewer)
            spectator = Teller(tr, "phineas-ferb", 3, scores=(0, 0, 0), eliminated=(False,) * 3,
                               names=names)
            lines, others = teller.tell(seen), spectator.tell(seen)
            assert len(lines) == len(others) and all(lines), (lang, e)
            own = [*names[:2], player_3][viewer]
            for line, other in zip(lines, others, strict=True):
                if own in other and (not isinstance(e, GameEnded) or e.winners == (viewer,)):
                    assert own not in line and line != other, (lang, e, viewer, line)


def test_the_viewer_is_you_and_the_others_have_their_names() -> None:
    teller = Teller(translator("en"), "classic", 3, names=["Ana", None, "<img src=x onerror=alert(1)>"],
                    viewer=1)
    told = teller.tell_all([
        RoundStarted(0, 0, (7, 7, 7), (None, (), None)), Played(0, R5, 0), Drew(1, 2, None, "turn"),
        Caught(2, 1), Caught(1, 0), HandsSwapped(2, 1, None), Challenged(2, 1, True, None), GameEnded((1,)),
        GameEnded((2,)),
    ])
    assert told == [
        "Round 1: Ana deals.", "Ana plays red 5.", "You draw 2 cards.",
        "<img src=x onerror=alert(1)> catches you without an UNO call.", "You catch Ana without an UNO call.",
        "<img src=x onerror=alert(1)> swaps hands with you.",
        "<img src=x onerror=alert(1)> challenges your Wild Draw Four: it was a bluff!",
        "You won the game!", "<img src=x onerror=alert(1)> won the game!"]
    assert teller.name(1) == "Player 2" and teller.viewer == 1
    teller.viewer = None
    assert teller.tell(Drew(1, 1, None, "turn")) == ["Player 2 draws a card."]


def test_every_event_has_the_records_words() -> None:
    for e in SAMPLES:
        assert describe(e), e
        assert describe(e.seen_by(None), teams=2), e


def test_the_players_words_say_what_happened() -> None:
    teller = Teller(translator("en"), "phineas-ferb", 3, scores=(0, 0, 0), eliminated=(False,) * 3)
    told = teller.tell_all([
        RoundStarted(0, 2, (7, 7, 7), ((), None, None)), TurnedUp(parse_card("R+2")),
        Drew(0, 2, None, "first_card"), Skipped(0),
        DrawPending(2, 2, 1), Played(2, WP, 1), AgentPAnswered(2, 1, 2), Drew(1, 2, None, "agent_p"),
        Played(0, G2, 2, uno=True), UnoMissed(1),
        RoundEnded(0, (0, 12, 30), (42, 0, 0), (False, True, False)),
    ])
    assert told == [
        "Round 1: Player 3 deals.", "The first card is red Draw Two.",
        "Player 1 draws 2 cards.", "Player 1 is skipped.",
        "Player 3 must take 2 cards, or answer.",
        "Player 3 answers with Agent P and names yellow: Player 2 takes the cards.",
        "Player 2 draws 2 cards.",
        "Player 1 plays green 2.", "Player 1 calls UNO!",
        "Player 2 has one card left and did not call UNO.",
        "Player 1 went out: the round is over.", "Player 1 scores 42 points.", "Player 2 is out of the game.",
    ]
    wild = Teller(translator("en"), "classic", 3).tell_all([RoundStarted(1, 2, (7, 7, 7), ((), None, None)),
                                                            TurnedUp(W)])
    assert wild == ["Round 2: Player 3 deals.", "The first card is Wild.", "Player 1 chooses the colour."]


MATCHES = [
    ("classic", 4, {"target": 150}),
    ("phineas-ferb", 3, {"seven_zero": True, "jump_in": True, "target": 150}),
    ("cars2", 4, {"stacking": "progressive", "mode": "partners", "target": 150}),
    ("classic", 3, {"mode": "elimination", "draw_until_playable": True, "target": 60}),
    ("phineas-ferb", 2, {"agent_p_draws_from": "draw", "target": 100, "seven_zero": True}),
]


@pytest.mark.parametrize(("edition", "players", "options"), MATCHES)
def test_real_games_are_told_and_the_hands_follow_the_events(edition: str, players: int,
                                                              options: dict[str, object]) -> None:
    """Whole random matches: every event gets words (a seat's, and a spectator's), and the
    replay's hands, folded from the events, are the game's after every move."""
    game = Game.new(edition, players, Options.from_mapping(options), seed=7)
    bots = [RandomBot(seed=s) for s in range(players)]
    lines: list[str] = []
    narrator = Narrator(lines.append)
    tellers = [Teller(translator("el"), edition, players) for _ in range(players)]
    seen_types: set[type[Event]] = set()

    def told(events: tuple[Event, ...]) -> None:
        for e in events:
            seen_types.add(type(e))
            assert describe(e.seen_by(None))
            for seat, teller in enumerate(tellers):
                assert all(teller.tell(e.seen_by(seat)))

    narrator.begin(game)
    opening = game.opening_events()
    told(opening)
    narrator.round_started(opening, game.turn, game.awaiting)
    for _ in range(200):
        def step(g: Game, seat: int, action: int, events: tuple[Event, ...]) -> None:
            told(events)
            narrator.action(events)
            assert narrator.hands == g.hands

        play_round(game, bots, on_events=step)
        if game.is_over:
            break
        events = game.start_round()
        told(events)
        narrator.round_started(events, game.turn, game.awaiting)
        assert narrator.hands == game.hands
    assert game.is_over and lines[-1].startswith("Winner: ")
    assert {RoundStarted, TurnedUp, Played, Drew, RoundEnded, GameEnded} <= seen_types


def test_the_host_penalty_is_told() -> None:
    game = Game.from_setup(hands=[["R1", "G2"], ["R5", "B7"]], discard="R3", draw=["Y1", "Y2"], dealer=1)
    events = game.apply_host("penalize 1")
    told = "; ".join(describe(e) for e in events)
    assert told == "the host penalizes Player 2 for suggestions; Player 2 draws 2"
    assert Teller(translator("en"), "classic", 2).tell_all(events) == [
        "The host gives Player 2 the penalty for suggestions.", "Player 2 draws 2 cards."]


def test_the_terminal_game_draws_from_the_observation_only() -> None:
    """No code of the terminal game or the narrator reads another seat's hand or the game's
    hidden state (the bluff, the pending draw card's rank, the phase)."""
    hidden = re.compile(r"\.bluff\b|\.pending_rank|game\.hands|g\.hands|\.phase\b")
    paths = [*sorted((SRC / "tui").glob("*.py")), SRC / "narrate.py"]
    found = [f"{p.name}:{i}: {line.strip()}" for p in paths
             for i, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1) if hidden.search(line)]
    assert not found, found


def test_a_wild_draw_four_is_told_with_the_colour_it_replaced() -> None:
    teller = Teller(translator("en"), "classic", 3)
    told = teller.tell_all([
        RoundStarted(0, 2, (7, 7, 7), ((), None, None)), TurnedUp(parse_card("Y5")),
        Played(0, WD4, 2), DrawPending(1, 4, 0),
    ])
    assert told[2] == "Player 1 plays Wild Draw Four on yellow and names green."
    assert teller.replaced == 1 and teller.color == 2
    # After a wild's colour was named, the colour named is the one replaced.
    told = teller.tell_all([Accepted(1, 4), Played(2, W, 3), Played(0, WD4, 0)])
    assert told == ["Player 2 takes the cards.", "Player 3 plays Wild and names blue.",
                    "Player 1 plays Wild Draw Four on blue and names red."]
    greek = Teller(translator("el"), "classic", 3).tell_all([
        RoundStarted(0, 2, (7, 7, 7), ((), None, None)), TurnedUp(parse_card("Y5")), Played(0, WD4, 2)])
    assert greek[-1] == "Ο Παίκτης 1 ρίχνει Μπαλαντέρ Πάρε Τέσσερις πάνω στο κίτρινο και διαλέγει πράσινο."


def test_greek_declines_the_players_name() -> None:
    """``του Παίκτη 2`` (genitive) and ``τον Παίκτη 2`` (accusative), never ``του Παίκτης 2``."""
    teller = Teller(translator("el"), "classic", 4, teams=2)
    assert teller.tell(Challenged(0, 1, True, None)) == [
        "Ο Παίκτης 1 αμφισβητεί το Μπαλαντέρ Πάρε Τέσσερις του Παίκτη 2: ήταν μπλόφα!"]
    assert teller.tell(Caught(0, 9 % 4)) == ["Ο Παίκτης 1 τσακώνει τον Παίκτη 2 χωρίς «UNO!»."]
    assert teller.tell(HandsSwapped(2, 3, None)) == ["Ο Παίκτης 3 αλλάζει χέρι με τον Παίκτη 4."]
    assert teller.tell(HostPenalty(2)) == ["Ο οικοδεσπότης τιμωρεί τον Παίκτη 3 επειδή έδωσε συμβουλές."]
    for lang in LANGUAGES:
        for e in SAMPLES:
            for line in Teller(translator(lang), "classic", 3).tell(e):
                assert not re.search(r"\b(του|τον|στον) Παίκτης\b", line), line


def test_the_records_words_number_the_players_from_one() -> None:
    game = Game.new("classic", 3, Options.from_mapping({"target": 30}), seed=4)
    lines: list[str] = []
    narrator = Narrator(lines.append)
    narrator.begin(game)
    narrator.round_started(game.opening_events(), game.turn, game.awaiting)
    bots = [RandomBot(seed=s) for s in range(3)]
    play_round(game, bots, on_events=lambda g, s, a, events: narrator.action(events))
    text = "\n".join(lines)
    assert "seat" not in text
    assert lines[3] == "== Round 1: dealer Player 2; scores: Player 1 0, Player 2 0, Player 3 0"
    assert lines[4].startswith("   hands: Player 1: ") and " | Player 3: " in lines[4]
    assert lines[5].endswith("; Player 1 to play")
    assert describe(GameEnded((1,))) == "Winner: Player 2"
    assert describe(GameEnded((0,)), teams=2) == "Winner: Team 1"
    assert describe(RoundEnded(3, (0, 0, 0, 0), (0, 0), (False,) * 4), teams=2) == "Team 2 wins the round"


@pytest.mark.parametrize(("lang", "words"), [
    ("es", ["Juego de unokit: classic, 3 jugadores, semilla 4", "== Mano 1: reparte Jugador 2.",
            "manos: Jugador 1: "]),
    ("el", ["Παιχνίδι unokit: classic, 3 παίκτες, σπόρος 4", "== Γύρος 1: μοιράζει ο Παίκτης 2.",
            "χέρια: Παίκτης 1: "]),
])
def test_the_narrator_tells_a_match_in_the_players_language(lang: str, words: list[str]) -> None:
    game = Game.new("classic", 3, Options.from_mapping({"target": 30}), seed=4)
    lines: list[str] = []
    narrator = Narrator(lines.append, translator(lang))
    narrator.begin(game)
    narrator.round_started(game.opening_events(), game.turn, game.awaiting)
    bots = [RandomBot(seed=s) for s in range(3)]
    for _ in range(50):
        play_round(game, bots, on_events=lambda g, s, a, events: narrator.action(events))
        if game.is_over:
            break
        narrator.round_started(game.start_round(), game.turn, game.awaiting)
    text = "\n".join(lines)
    assert all(w in text for w in words), text[:500]
    english = Teller(translator("en"), "classic", 3)
    assert not any(w in text for w in ("Winner", "seat", "plays", english.name(0)))
    assert lines[-1].startswith(Teller(translator(lang), "classic", 3).winner_text(game.winners))

"""A round that cannot end is blocked (docs/rules.md, "A round that cannot end"):
after BLOCKED_AFTER turns in a row that begin with a draw (T2) or a wrong card (P5), with no
card played from a hand, the side holding the fewest points wins it (E1 scoring)."""

from __future__ import annotations

import pytest

from unokit import Game, Options
from unokit.core.cards import CARD_POINTS, card_str
from unokit.core.phases import ROUND_OVER
from unokit.core.record import record_of, replay
from unokit.core.scoring import BLOCKED_AFTER
from unokit.narrate import narrate_record
from unokit.text.help import help_path
from unokit.text.i18n import LANGUAGES

FORCED = Options(draw_until_playable=True, force_play=True)


def points(game: Game, seat: int) -> int:
    return sum(CARD_POINTS[c] for c in game.hands[seat])


def play_out(game: Game, limit: int = 10 * BLOCKED_AFTER) -> int:
    """Play the only on-turn action each time (these setups leave no choice); return the steps."""
    steps = 0
    while game.phase < ROUND_OVER:
        legal = [a for a in game.legal_actions(game.turn)]
        assert len(legal) == 1, (steps, game.observe(game.turn).legal_text())
        game.apply(game.turn, legal[0])
        steps += 1
        assert steps < limit, "the round did not end"
    return steps


def deadlock(**options: object) -> Game:
    """T6: every card in a hand, nothing playable, nothing to draw: draw nothing, pass, for ever."""
    return Game.from_setup(hands=[["G8", "Y3"], ["G7", "Y2"]], discard="R5", draw=[], dealer=1,
                           options=Options(**options))  # type: ignore[arg-type]


def test_T6_a_deadlock_with_nothing_to_draw_is_blocked_after_the_limit() -> None:
    game = deadlock()
    for _ in range(BLOCKED_AFTER - 1):  # draw nothing, pass: 199 turns, the round goes on
        game.apply(game.turn, "draw")
        game.apply(game.turn, "pass")
    assert game.awaiting == "play" and game.idle_turns == BLOCKED_AFTER - 1 and not game.blocked
    before = [points(game, s) for s in range(2)]
    drawer = game.turn
    game.apply(drawer, "draw")  # the 200th: the round ends
    assert game.blocked and game.awaiting == "round_over" and game.idle_turns == BLOCKED_AFTER
    winner = min(range(2), key=lambda s: before[s])  # G7 Y2 against G8 Y3
    assert game.round_winner == winner
    assert game.scores[winner] == before[1 - winner]  # E2: the other hand's points
    assert game.scores[1 - winner] == 0


def test_E1_forced_draws_and_plays_going_round_are_blocked() -> None:
    # draw_until_playable + force_play: each player holds nothing for R5 / B5, draws the one
    # other 5 (T6 brings it back each time) and must play it: no choice, for ever.
    game = Game.from_setup(hands=[["G8", "Y3"], ["G7", "Y2"]], discard="R5", draw=["B5"], dealer=1,
                           options=FORCED)
    steps = play_out(game)
    assert steps == 2 * BLOCKED_AFTER - 1  # draw + forced play each turn; the 200th draw ends it
    assert game.blocked and game.idle_turns == BLOCKED_AFTER
    drawer = (BLOCKED_AFTER - 1) % 2  # seat 0 drew first
    assert len(game.hands[drawer]) == 3  # the drawn 5 counts in the hand
    want = min(range(2), key=lambda s: (points(game, s), len(game.hands[s])))
    assert game.round_winner == want and game.scores[want] == points(game, 1 - want)


def test_E1_blocked_ties_go_to_fewer_cards_then_turn_order_from_the_drawer() -> None:
    # Equal points and cards: the first in turn order from the seat that made the 200th draw.
    game = Game.from_setup(hands=[["G8", "Y3"], ["G9", "Y2"]], discard="R5", draw=[], dealer=1)
    for _ in range(BLOCKED_AFTER - 1):
        game.apply(game.turn, "draw")
        game.apply(game.turn, "pass")
    drawer = game.turn
    game.apply(drawer, "draw")
    assert points(game, 0) == points(game, 1) and game.round_winner == drawer
    # Fewer cards beat turn order: same points (11), seat 1 holds three cards.
    game = Game.from_setup(hands=[["G8", "Y3"], ["G6", "Y2", "G3"]], discard="R5", draw=[], dealer=1)
    for _ in range(BLOCKED_AFTER - 1):
        game.apply(game.turn, "draw")
        game.apply(game.turn, "pass")
    game.apply(game.turn, "draw")
    assert points(game, 0) == points(game, 1) and game.round_winner == 0


def test_M2_a_blocked_round_goes_to_the_team_with_the_fewest_points() -> None:
    hands = [["G8", "Y9"], ["G1", "Y1"], ["G2", "Y2"], ["G9", "Y7"]]  # team 0: seats 0, 2 (21)
    game = Game.from_setup(hands=hands, discard="R5", draw=[], dealer=3,  # team 1: 1, 3 (18)
                           options=Options(mode="partners"))
    while game.phase < ROUND_OVER:
        game.apply(game.turn, "draw")
        if game.phase < ROUND_OVER:
            game.apply(game.turn, "pass")
    assert game.blocked and game.round_winner == 1
    assert game.scores == [0, 8 + 9 + 2 + 2]  # team 1 scores team 0's hands


def test_E1_a_play_from_the_hand_starts_the_count_again_and_the_drawn_card_does_not() -> None:
    game = Game.from_setup(hands=[["R1", "G8"], ["Y3", "B4"]], discard="R5",
                           draw=["G1", "Y9", "R7", "B2"], dealer=1)
    game.apply(0, "draw")  # G1: not playable
    game.apply(0, "pass")
    assert game.idle_turns == 1
    game.apply(1, "draw")  # Y9
    game.apply(1, "pass")
    game.apply(0, "draw")  # R7: playable; playing the card just drawn is not from the hand
    game.apply(0, "R7")
    assert game.idle_turns == 3
    game.apply(1, "draw")  # B2
    game.apply(1, "pass")
    game.apply(0, "R1")  # a card from the hand
    assert game.idle_turns == 0


def test_P5_wrong_cards_count_as_turns_without_a_play() -> None:
    game = deadlock(illegal_play="penalize")
    game.apply(0, "G8")  # a wrong card: kept, draws 2 (there are none), next player
    assert game.idle_turns == 1 and game.turn == 1
    while game.phase < ROUND_OVER:
        game.apply(game.turn, "Y2" if game.turn == 1 and game.idle_turns % 2 else "draw")
        if game.awaiting == "drawn":
            game.apply(game.turn, "pass")
    assert game.blocked and game.idle_turns == BLOCKED_AFTER


def test_copy_and_record_carry_the_count() -> None:
    game = Game.from_setup(hands=[["G8", "Y3"], ["G7", "Y2"]], discard="R5", draw=["B5"], dealer=1,
                           options=FORCED)
    for _ in range(150):
        game.apply(game.turn, game.legal_actions(game.turn)[0])
    twin = game.copy()
    assert twin.idle_turns == game.idle_turns > 0
    play_out(game)
    play_out(twin)
    assert twin.blocked and twin.scores == game.scores and twin.history == game.history
    again = replay(record_of(game))
    assert again.blocked and again.idle_turns == BLOCKED_AFTER and again.scores == game.scores


def test_the_narration_says_the_round_was_blocked() -> None:
    game = deadlock()
    play = [a for _ in range(BLOCKED_AFTER) for a in ("draw", "pass")][:-1]
    for a in play:
        game.apply(game.turn, a)
    lines: list[str] = []
    narrate_record(record_of(game), lines.append)
    text = "\n".join(lines)
    assert f"the round is blocked (no card played from a hand for {BLOCKED_AFTER} turns)" in text
    assert f"Player {game.round_winner + 1} holds the fewest points and wins the round" in text


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_rules_help_gives_the_limit(lang: str) -> None:
    assert str(BLOCKED_AFTER) in help_path("classic", lang, "rules").read_text(encoding="utf-8")


def test_the_terminal_game_says_the_round_was_blocked_in_the_players_language() -> None:
    from unokit.bots.registry import make_bot
    from unokit.text.i18n import translator
    from unokit.tui.session import Session

    game = deadlock()
    tr = translator("es")
    session = Session(game, [None, make_bot("random", seed=1)], tr, bot_kinds=["", "random"])
    for _ in range(4 * BLOCKED_AFTER):
        if game.phase >= ROUND_OVER:
            break
        if game.turn == session.human:
            session.act(game.legal_actions(session.human)[0])  # draw, then pass
        else:
            session.bot_step()
    assert game.blocked
    said = tr._("No card has been played from a hand for {turns} turns: the round is blocked. "
                "{who} holds the fewest points and wins it.").format(
        turns=BLOCKED_AFTER, who=session.side_name(game.round_winner))
    assert said.startswith("Nadie ha jugado") and said in session.log


def _drawing_round() -> Game:
    """Two players holding only greens on R0, the draw pile red numbers: every turn draws a
    red and plays it (the drawn card, so the count goes on), while the draw pile has cards."""
    reds = [f"R{r}" for r in range(1, 10)] * 2
    return Game.from_setup(hands=[["G1", "G2", "G3"], ["G4", "G5", "G6"]], discard="R0", draw=reds,
                           dealer=1, seed=3)


def _play_drawn_reds(game: Game, fast: bool) -> int:
    """Draw, then play the drawn red, until the round ends; return the turns played."""
    turns = 0
    while game.phase < ROUND_OVER:
        seat = game.turn
        (game.step if fast else game.apply)(seat, "draw")
        turns += 1
        if game.phase >= ROUND_OVER:
            break
        drawn = game.drawn
        assert drawn >= 0 and drawn in game.hands[seat]
        action = card_str(drawn)
        (game.step if fast else game.apply)(seat, action)
        assert turns <= BLOCKED_AFTER
    return turns


def test_E1_a_round_stepped_without_events_is_blocked_on_the_same_turn_as_with_them() -> None:
    """``Game.step`` (no events, its own fast path while the draw pile has cards) blocks the
    round at the BLOCKED_AFTER-th turn in a row begun with a draw, as ``Game.apply`` does."""
    slow, fast = _drawing_round(), _drawing_round()
    assert _play_drawn_reds(slow, fast=False) == BLOCKED_AFTER
    assert _play_drawn_reds(fast, fast=True) == BLOCKED_AFTER
    assert slow.blocked and fast.blocked
    assert fast.state() == slow.state()
    assert fast.draw_pile, "the fast path was taken: the draw pile still had cards"

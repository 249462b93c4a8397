"""The edition records (``unokit.core.editions``): each deck and rule as RULES.md gives it, and an
edition added by its record alone (``register_edition``) plays its rules."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from unokit.core.cards import AGENT_P, CARD_RANK, MATER, N_CARDS, WILD, WILD_DRAW_FOUR
from unokit.core.editions import (
    EDITIONS,
    RECORDS,
    Edition,
    check_edition,
    deck_counts,
    edition,
    edition_counts,
    edition_deck,
    register_edition,
)
from unokit.core.errors import OptionError
from unokit.text.i18n import dynamic_messages


def test_one_record_per_edition_name() -> None:
    assert tuple(RECORDS)[:3] == EDITIONS == ("classic", "cars2", "phineas-ferb")
    assert all(edition(name).name == name for name in EDITIONS)


@pytest.mark.parametrize(("name", "special", "rules", "peek", "answer"), [
    ("classic", None, (), None, None),
    ("cars2", MATER, ("C5",), MATER, None),
    ("phineas-ferb", AGENT_P, ("C6",), None, AGENT_P),
])
def test_each_record(name: str, special: int | None, rules: tuple[str, ...], peek: int | None,
                     answer: int | None) -> None:
    e = edition(name)
    assert (e.special, e.rules, e.peek_card, e.answer_card) == (special, rules, peek, answer)
    assert e.answers_draw_cards == (name == "phineas-ferb")  # C6: Agent P answers any draw card
    assert len(e.counts) == N_CARDS
    assert (e.counts[WILD], e.counts[WILD_DRAW_FOUR]) == (4, 4)
    assert sum(e.counts) == len(edition_deck(name)) == (108 if special is None else 112)
    if special is not None:
        assert e.counts[special] == 4 and e.special_name
        assert [c for c in range(WILD, N_CARDS) if e.counts[c]] == [WILD, WILD_DRAW_FOUR, special]
        assert (name, e.special_name) in dynamic_messages()  # the catalogues translate it
    # The deck is face by face, as it always was: seeded games deal the same cards.
    assert list(edition_deck(name)) == sorted(edition_deck(name))
    assert edition_counts(name) == list(e.counts) and edition_counts(name) is not edition_counts(name)


def test_an_unknown_edition_is_one_clear_error() -> None:
    for lookup in (edition, check_edition, edition_deck, edition_counts):
        with pytest.raises(OptionError, match=r"edition 'uno' \(choose from classic, cars2, phineas-ferb\)"):
            lookup("uno")


def test_special_card_ranks_name_their_cards() -> None:
    # The translations find a special card's name by its rank, as for every other card.
    specials = {e.special: e.special_name for e in RECORDS.values() if e.special is not None}
    assert len({CARD_RANK[c] for c in specials}) == len(specials)


# ------------------------------------------------------------------ an edition added by its record


@pytest.fixture
def spy_edition() -> Iterator[Edition]:
    """A test-only edition: the classic deck plus four Mater cards and four Agent P cards, so that
    both special rules (C5 and C6) are in one game; added by its record alone, and removed after."""
    record = register_edition(Edition(
        name="spy-test", title="UNO Spy (test)", counts=deck_counts({WILD: 4, WILD_DRAW_FOUR: 4, MATER: 4,
                                                                     AGENT_P: 4}),
        special=MATER, rules=("C5", "C6"), peek_card=MATER, answer_card=AGENT_P))
    yield record
    del RECORDS[record.name]


def test_an_edition_added_by_its_record_is_played_by_its_rules(spy_edition: Edition) -> None:
    """No code but the record: the engine deals its deck, and plays its peek and its answer."""
    from collections import Counter

    from unokit import Game
    from unokit.bots import RandomBot, play_match
    from unokit.core.events import AgentPAnswered, Peeked

    assert len(edition_deck("spy-test")) == 116
    seen: Counter[str] = Counter()
    for seed in range(12):
        game = Game.new("spy-test", 3, seed=seed)
        play_match(game, [RandomBot(seed=seed * 3 + s) for s in range(3)],
                   on_events=lambda g, seat, a, events: seen.update(type(e).__name__ for e in events))
        assert game.is_over
        assert Counter(c for h in game.hands for c in h) + Counter(game.draw_pile) + Counter(game.discard) \
            == Counter(edition_deck("spy-test"))
    assert seen[Peeked.__name__] and seen[AgentPAnswered.__name__]


def test_a_record_that_makes_no_edition_is_refused(spy_edition: Edition) -> None:
    with pytest.raises(OptionError, match="exists already"):
        register_edition(spy_edition)
    with pytest.raises(OptionError, match="must be a wild face its deck holds"):
        register_edition(Edition(name="bad", title="Bad", counts=deck_counts({WILD: 4}), peek_card=MATER))
    assert "bad" not in RECORDS

"""The edition records (``unokit.core.editions``): each deck and rule as RULES.md gives it, and the
names that ``unokit.core.cards`` still exports for older callers agree with them."""

from __future__ import annotations

import pytest

from unokit.core import cards
from unokit.core.cards import AGENT_P, CARD_RANK, MATER, N_CARDS, WILD, WILD_DRAW_FOUR
from unokit.core.editions import EDITIONS, RECORDS, edition, edition_counts, edition_deck
from unokit.core.errors import OptionError
from unokit.i18n import dynamic_messages


def test_one_record_per_edition_name() -> None:
    assert tuple(RECORDS) == EDITIONS == cards.EDITIONS == ("classic", "cars2", "phineas-ferb")
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


def test_the_names_in_cards_are_those_of_editions() -> None:
    for name in EDITIONS:
        assert cards.check_edition(name) == name
        assert cards.edition_deck(name) == edition_deck(name)
        assert cards.edition_counts(name) == edition_counts(name)
    for lookup in (edition, cards.check_edition, cards.edition_deck, cards.edition_counts):
        with pytest.raises(OptionError, match=r"edition 'uno' \(choose from classic, cars2, phineas-ferb\)"):
            lookup("uno")


def test_special_card_ranks_name_their_cards() -> None:
    # The translations find a special card's name by its rank, as for every other card.
    specials = {e.special: e.special_name for e in RECORDS.values() if e.special is not None}
    assert len({CARD_RANK[c] for c in specials}) == len(specials)

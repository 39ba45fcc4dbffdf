"""A score sheet of a game with jokers and two decks: copies counted, jokers valued as ``"joker"``.

No preset deals such a deck yet, so the club rulebook is given one, as a two-deck pesten table holds.
"""

import msgspec
import pytest

from service.domain.cards import RANKS, deck_cards, mask_of, parse_card
from service.domain.errors import RuleError
from service.domain.presets import CLUB, MAU_MAU_150
from service.domain.rulebook import Rulebook, rulebook
from service.domain.scoresheet import RoundEntry, card_values, values_of

JOKER_POINTS = 50


def two_decks(decks: int = 2) -> Rulebook:
    book = Rulebook(msgspec.structs.replace(CLUB, card_points={**CLUB.card_points, "joker": JOKER_POINTS}))
    book.deck = deck_cards(RANKS, 2, decks)
    book.deck_mask = mask_of(book.deck)
    return book


def entry(*hands: str) -> RoundEntry:
    return RoundEntry(winner=0, hands=tuple(tuple(parse_card(c) for c in hand.split()) for hand in hands))


def refusal(book: Rulebook, found: RoundEntry) -> str:
    with pytest.raises(RuleError) as refused:
        values_of(book, 3, found)
    return refused.value.code


def test_a_joker_left_in_hand_scores_the_rulesets_joker_value():
    assert values_of(two_decks(), 3, entry("", "X1 7D", "X2.2")) == [0, JOKER_POINTS + 7, JOKER_POINTS]


def test_both_copies_of_a_card_may_be_written_with_or_without_the_mark():
    assert values_of(two_decks(), 3, entry("", "7D 7D", "QS QS.2")) == [0, 14, 20]


def test_a_card_entered_more_often_than_the_decks_hold_it_is_refused():
    assert refusal(two_decks(), entry("", "7D 7D", "7D.2")) == "card_entered_twice"
    assert refusal(two_decks(1), entry("", "7D", "7D")) == "card_entered_twice"


def test_four_jokers_may_be_left_of_two_decks_but_not_five():
    assert values_of(two_decks(), 3, entry("", "X1 X1", "X2 X2")) == [0, 2 * JOKER_POINTS, 2 * JOKER_POINTS]
    assert refusal(two_decks(), entry("", "X1 X1 X2", "X2 X2.2")) == "card_entered_twice"


def test_a_second_decks_card_at_a_one_deck_table_is_not_in_its_deck():
    assert refusal(two_decks(1), entry("", "7D.2", "7D")) == "card_not_in_deck"


def test_the_points_of_two_decks_are_bounded_by_both_decks_less_the_cheapest_card():
    book = two_decks()
    most = 2 * (sum(CLUB.card_points[r] for r in RANKS) * 4 + 2 * JOKER_POINTS) - 2
    assert values_of(book, 3, RoundEntry(winner=0, points=(0, most - 7, 7))) == [0, most - 7, 7]
    assert refusal(book, RoundEntry(winner=0, points=(0, most - 6, 7))) == "impossible_points"


def test_the_card_values_a_sheet_prints_end_with_the_joker_when_the_deck_holds_one():
    values = card_values(two_decks())
    assert values[-1] == ("joker", JOKER_POINTS)
    assert values[:-1] == [(rank, CLUB.card_points[rank]) for rank in RANKS]


def test_the_card_values_of_a_deck_without_jokers_are_its_ranks_only():
    assert card_values(rulebook(MAU_MAU_150)) == [
        (rank, MAU_MAU_150.card_points[rank]) for rank in MAU_MAU_150.ranks
    ]

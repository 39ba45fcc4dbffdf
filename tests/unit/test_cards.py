"""Cards as ints, their text form, and hands as bitmasks."""

import pytest

from service.domain.cards import (
    FULL_DECK,
    RANKS,
    SUITS,
    card,
    cards_in,
    format_card,
    format_cards,
    format_suit,
    mask_of,
    parse_card,
    parse_rank,
    parse_suit,
    rank_of,
    suit_of,
)
from service.domain.errors import RuleError


def test_the_standard_deck_has_52_cards_of_13_ranks_in_4_suits():
    assert len(FULL_DECK) == 52
    assert RANKS == ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
    assert SUITS == ("C", "D", "H", "S")
    assert {format_card(c) for c in FULL_DECK} == {r + s for r in RANKS for s in SUITS}


def test_a_card_is_its_suit_times_13_plus_its_rank():
    assert parse_card("2C") == 0
    assert parse_card("AC") == 12
    assert parse_card("2D") == 13
    assert parse_card("10H") == 2 * 13 + 8
    assert parse_card("AS") == 51
    assert (rank_of(parse_card("QS")), suit_of(parse_card("QS"))) == (10, 3)
    assert card("J", "D") == parse_card("JD")


def test_every_card_reads_back_from_its_text_form():
    for c in FULL_DECK:
        assert parse_card(format_card(c)) == c


def test_card_text_ignores_case_and_surrounding_spaces():
    assert parse_card("10h") == parse_card("10H")
    assert parse_card(" qs ") == parse_card("QS")


@pytest.mark.parametrize("text", ["1H", "11C", "JX", "H10", "", "10", "T H", "1OH"])
def test_text_that_is_not_a_card_is_a_malformed_card_error(text):
    with pytest.raises(RuleError) as refused:
        parse_card(text)
    assert refused.value.code == "malformed_card"


@pytest.mark.parametrize("value", [None, 7, b"7H"])
def test_a_non_string_is_a_malformed_card_error(value):
    with pytest.raises(RuleError) as refused:
        parse_card(value)
    assert refused.value.code == "malformed_card"


def test_suits_read_from_their_letter_or_their_name():
    assert [parse_suit(s) for s in "CDHS"] == [0, 1, 2, 3]
    assert [parse_suit(s) for s in ("clubs", "Diamonds", "HEARTS", " spades ")] == [0, 1, 2, 3]
    assert [format_suit(s) for s in range(4)] == ["C", "D", "H", "S"]


@pytest.mark.parametrize("text", ["X", "club", "", "5", None])
def test_an_unknown_suit_is_a_malformed_suit_error(text):
    with pytest.raises(RuleError) as refused:
        parse_suit(text)
    assert refused.value.code == "malformed_suit"


def test_ranks_read_from_their_text():
    assert [parse_rank(r) for r in RANKS] == list(range(13))


@pytest.mark.parametrize("text", ["1", "11", "T", "j", ""])
def test_an_unknown_rank_is_a_malformed_rank_error(text):
    with pytest.raises(RuleError) as refused:
        parse_rank(text)
    assert refused.value.code == "malformed_rank"


def test_a_hand_is_a_bitmask_listed_lowest_card_first():
    hand = mask_of([parse_card("AS"), parse_card("2C"), parse_card("10H")])
    assert hand == 1 << 51 | 1 << 0 | 1 << 34
    assert list(cards_in(hand)) == [0, 34, 51]
    assert format_cards(hand) == ["2C", "10H", "AS"]
    assert format_cards([51, 0]) == ["AS", "2C"]
    assert list(cards_in(0)) == []

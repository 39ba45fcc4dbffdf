"""Cards as ints, their text form, and hands as bitmasks."""

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from service.domain.cards import (
    CARD_BITS,
    CARD_COUNT,
    CARD_PATTERN,
    FULL_DECK,
    JOKER,
    JOKER_RANK,
    JOKER_SUIT,
    RANKS,
    SUITS,
    alike,
    card,
    cards_in,
    copy_of,
    deck_cards,
    format_card,
    format_cards,
    format_suit,
    in_hand,
    is_joker,
    mask_of,
    parse_card,
    parse_rank,
    parse_suit,
    rank_name,
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


def test_the_card_universe_is_two_decks_of_52_cards_and_2_jokers():
    assert CARD_COUNT == 108
    assert len(CARD_BITS) == CARD_COUNT
    assert all(CARD_BITS[c] == 1 << c for c in range(CARD_COUNT))
    assert [c for c in range(CARD_COUNT) if is_joker(c)] == [52, 53, 106, 107]


def test_the_first_decks_cards_keep_their_ids_and_texts():
    assert [format_card(c) for c in FULL_DECK] == [r + s for s in SUITS for r in RANKS]
    assert all(copy_of(c) == 0 for c in FULL_DECK)


def test_a_second_deck_card_is_54_above_its_first_deck_twin_and_carries_the_mark():
    seven = parse_card("7D")
    assert parse_card("7D.2") == seven + 54
    assert format_card(seven + 54) == "7D.2"
    twin = seven + 54
    assert (rank_of(twin), suit_of(twin), copy_of(twin)) == (rank_of(seven), suit_of(seven), 1)


def test_jokers_are_written_x1_and_x2_with_rank_13_no_suit_and_the_rank_name_joker():
    assert format_cards([52, 53, 106, 107]) == ["X1", "X2", "X1.2", "X2.2"]
    assert {(rank_of(c), suit_of(c)) for c in (52, 53, 106, 107)} == {(JOKER_RANK, JOKER_SUIT)}
    assert (JOKER_RANK, JOKER_SUIT) == (13, 4)
    assert rank_name(107) == JOKER == "joker"
    assert rank_name(parse_card("QS.2")) == "Q"
    assert parse_rank("joker") == JOKER_RANK


def test_a_bare_x_is_the_first_joker_of_its_deck():
    assert parse_card("x") == 52
    assert parse_card(" X.2 ") == 106


@given(st.integers(min_value=0, max_value=CARD_COUNT - 1))
def test_every_card_of_both_decks_reads_back_from_its_text_in_any_case(c):
    text = format_card(c)
    assert parse_card(text) == c
    assert parse_card(f" {text.lower()} ") == c
    assert re.fullmatch(CARD_PATTERN, text)
    assert re.fullmatch(CARD_PATTERN, text.lower())


@given(st.integers(min_value=0, max_value=CARD_COUNT - 1), st.integers(min_value=0, max_value=CARD_COUNT - 1))
def test_different_cards_have_different_texts(a, b):
    assert (format_card(a) == format_card(b)) == (a == b)


@pytest.mark.parametrize("text", ["X3", "X0", "XX", "7D.1", "7D.3", "7D2", "7D..2", "X1.2.2", ".2", "JOKER"])
def test_a_joker_or_copy_mark_that_is_not_written_so_is_a_malformed_card_error(text):
    assert not re.fullmatch(CARD_PATTERN, text)
    with pytest.raises(RuleError) as refused:
        parse_card(text)
    assert refused.value.code == "malformed_card"


def test_a_hand_of_both_decks_lists_and_formats_every_card():
    hand = mask_of([107, 0, 60, 52])
    assert list(cards_in(hand)) == [0, 52, 60, 107]
    assert format_cards(hand) == ["2C", "X1", "8C.2", "X2.2"]


def test_a_deck_is_its_ranks_in_every_suit_then_its_jokers_once_per_deck():
    piquet = ("7", "8", "9", "10", "J", "Q", "K", "A")
    one = deck_cards(piquet, 0, 1)
    assert len(one) == 32
    assert sorted(format_cards(one)) == sorted(r + s for r in piquet for s in SUITS)
    assert deck_cards(piquet, 1, 1) == (*one, 52)
    assert deck_cards(RANKS, 2, 1) == tuple(range(54))
    assert deck_cards(RANKS, 2, 2) == tuple(range(CARD_COUNT))
    assert deck_cards(piquet, 1, 2) == (*one, 52, *(c + 54 for c in one), 106)


@pytest.mark.parametrize(("jokers", "decks"), [(3, 1), (-1, 1), (0, 0), (0, 3)])
def test_a_deck_of_impossible_jokers_or_decks_is_refused(jokers, decks):
    with pytest.raises(ValueError):
        deck_cards(RANKS, jokers, decks)


def test_a_deck_of_an_unknown_rank_is_refused():
    with pytest.raises(ValueError):
        deck_cards(("7", "1"), 0, 1)


def test_a_card_named_in_a_hand_that_holds_it_is_that_card():
    hand = mask_of([parse_card("7D"), parse_card("7D.2")])
    assert in_hand(parse_card("7D.2"), hand) == parse_card("7D.2")
    assert in_hand(parse_card("7D"), hand) == parse_card("7D")


def test_a_card_named_without_its_copy_mark_is_the_copy_held():
    hand = mask_of([parse_card("7D.2"), parse_card("AS")])
    assert in_hand(parse_card("7D"), hand) == parse_card("7D.2")
    assert in_hand(parse_card("AS.2"), hand) == parse_card("AS")


def test_a_joker_named_is_whichever_joker_is_held():
    assert in_hand(parse_card("X"), mask_of([parse_card("X2.2")])) == parse_card("X2.2")
    assert in_hand(parse_card("X2"), mask_of([parse_card("X1"), parse_card("X2.2")])) == parse_card("X1")


def test_a_card_held_in_no_copy_is_named_as_it_is_for_the_engine_to_refuse():
    hand = mask_of([parse_card("7H"), parse_card("X1")])
    assert in_hand(parse_card("7D"), hand) == parse_card("7D")
    assert in_hand(parse_card("7D.2"), 0) == parse_card("7D.2")


def test_a_card_is_alike_its_copies_and_a_joker_every_joker():
    assert list(cards_in(alike(parse_card("7D.2")))) == [parse_card("7D"), parse_card("7D.2")]
    assert list(cards_in(alike(parse_card("X1")))) == [52, 53, 106, 107]

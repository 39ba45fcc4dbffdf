"""A move names a card; the application plays the copy the seat holds (``as_held``)."""

from service.application.games import as_held
from service.domain.cards import CARD_BITS, mask_of, parse_card
from service.domain.commands import DrawCard, PlayCard
from service.domain.state import State
from tests.unit.scenario import Game


def dealt(seat_hand: tuple[str, ...]) -> State:
    # the engine deals no second deck yet: the hand is set as a two-deck deal would leave it
    s = Game(seats=3, dealer=0, hands={1: "2D 3D 4D 6C 9S"}, starter="5H").s
    s.hands[1] = mask_of(parse_card(c) for c in seat_hand)
    return s


def test_a_card_named_without_its_mark_is_played_as_the_second_decks_copy_held():
    s = dealt(("7D.2", "AS"))
    played = as_held(PlayCard(1, parse_card("7D"), call=1), s)
    assert played == PlayCard(1, parse_card("7D.2"), call=1)


def test_a_card_held_as_named_is_played_as_named():
    s = dealt(("7D", "7D.2"))
    assert as_held(PlayCard(1, parse_card("7D.2")), s) == PlayCard(1, parse_card("7D.2"))
    assert as_held(PlayCard(1, parse_card("7D")), s) == PlayCard(1, parse_card("7D"))


def test_any_joker_named_is_the_joker_held():
    s = dealt(("X2.2", "AS"))
    assert as_held(PlayCard(1, parse_card("X"), suit=2), s) == PlayCard(1, parse_card("X2.2"), suit=2)


def test_after_a_draw_the_drawn_copy_is_the_one_played():
    s = dealt(("7D", "7D.2", "AS"))
    s.drawn = parse_card("7D.2")
    assert s.turn == 1 and s.hands[1] & CARD_BITS[s.drawn]
    assert as_held(PlayCard(1, parse_card("7D")), s) == PlayCard(1, parse_card("7D.2"))


def test_a_card_held_in_no_copy_is_left_for_the_engine_to_refuse():
    s = dealt(("7H", "AS"))
    assert as_held(PlayCard(1, parse_card("7D.2")), s) == PlayCard(1, parse_card("7D.2"))


def test_a_seat_that_is_not_at_the_table_or_a_move_that_is_no_play_is_left_as_it_is():
    s = dealt(("7D.2",))
    assert as_held(PlayCard(5, parse_card("7D")), s) == PlayCard(5, parse_card("7D"))
    assert as_held(DrawCard(1), s) == DrawCard(1)

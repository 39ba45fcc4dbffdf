"""Actions as small ints cover every card of both decks, jokers included, without overlapping."""

from service.domain.actions import CHALLENGE, DRAW, KEEP, NAME_SUIT, WILD_PLAY, play_action
from service.domain.cards import CARD_COUNT, SUITS, format_card, format_suit, parse_card
from service.projections.render import LEGAL_MOVES, LegalMove

PLAYS = [(c, suit) for c in range(CARD_COUNT) for suit in (-1, *range(len(SUITS)))]


def test_every_play_of_every_card_has_its_own_action_below_the_other_moves():
    actions = [play_action(c, suit) for c, suit in PLAYS]
    assert len(set(actions)) == len(PLAYS)
    assert max(actions) < DRAW
    assert max(play_action(c) for c in range(CARD_COUNT)) < WILD_PLAY
    assert {DRAW, KEEP, CHALLENGE, NAME_SUIT}.isdisjoint(actions)


def test_every_play_of_every_card_is_shown_as_the_card_and_suit_it_plays():
    for c, suit in PLAYS:
        named = format_suit(suit) if suit >= 0 else None
        assert LEGAL_MOVES[play_action(c, suit)] == LegalMove(kind="play", card=format_card(c), suit=named)


def test_a_joker_of_the_second_deck_played_as_a_wild_card_is_shown_with_its_suit():
    action = play_action(parse_card("X2.2"), 3)
    assert LEGAL_MOVES[action] == LegalMove(kind="play", card="X2.2", suit="S")

"""101's redeal: a hand dealt four cards of one rank annuls the deal; the same dealer deals again
from the next shuffle, which comes from outside like every deal. Nothing else moves."""

import msgspec

from service.domain.cards import format_cards
from service.domain.commands import DealRound
from service.domain.dealing import dealt_hands
from service.domain.engine import fold
from service.domain.events import DealAnnulled, RoundDealt
from service.domain.rulebook import rulebook
from service.domain.state import DEAL, PLAY
from tests.unit.round_rulesets import club_101
from tests.unit.scenario import Game, deck_order

FOUR = club_101(hand_size=4)
FOUR_DECK = rulebook(FOUR).deck


def test_four_of_a_kind_in_a_hand_at_the_deal_annuls_it_and_nothing_moves():
    game = Game(FOUR, seats=3, dealer=0, deal=False)
    before = fold(game.events)
    events = game.deal(hands={2: "7C 7D 7H 7S"}, starter="KC")
    [annulled] = events
    assert isinstance(annulled, DealAnnulled)
    assert (annulled.round_no, annulled.dealer, annulled.seat, annulled.rank) == (1, 0, 2, "7")
    # the annulled deal keeps its deck, to be committed to and revealed as any deal's
    hands = dealt_hands(3, 0, annulled.deck, (4, 4, 4))
    assert format_cards(hands[2]) == ["7C", "7D", "7H", "7S"] and len(annulled.deck) == len(
        set(annulled.deck)
    )
    assert game.s == before
    assert game.s.phase == DEAL


def test_the_same_dealer_deals_again_after_an_annulled_deal():
    game = Game(FOUR, seats=3, dealer=1, deal=False)
    game.deal(hands={0: "AC AD AH AS"}, starter="KC")
    events = game.deal(hands={0: "AC AD AH 9S"}, starter="KC")
    dealt = events[0]
    assert isinstance(dealt, RoundDealt)
    assert (dealt.round_no, dealt.dealer) == (1, 1)
    assert game.s.phase == PLAY


def test_three_of_a_kind_is_dealt_as_it_falls():
    game = Game(FOUR, seats=3, dealer=0, hands={1: "7C 7D 7H 8S"}, starter="KC")
    assert isinstance(game.events[-1], RoundDealt)


def test_four_of_a_kind_left_in_the_stock_annuls_nothing():
    game = Game(FOUR, seats=2, dealer=0, hands={0: "8C 9C 10C KD"}, starter="KC", stock="7C 7D 7H 7S")
    assert isinstance(game.events[-1], RoundDealt)


def test_the_first_hand_holding_four_of_a_kind_is_named():
    game = Game(FOUR, seats=3, dealer=2, deal=False)
    events = game.deal(hands={0: "AC AD AH AS", 1: "6C 6D 6H 6S"}, starter="KC")
    assert [(e.round_no, e.dealer, e.seat, e.rank) for e in events] == [(1, 2, 0, "A")]  # type: ignore[attr-defined]


def test_without_the_redeal_rule_four_of_a_kind_is_played():
    rules = msgspec.structs.replace(FOUR, redeal_four_of_a_kind=False)
    game = Game(rules, seats=3, dealer=0, deal=False)
    deck = deck_order(rules, 3, 0, {2: "7C 7D 7H 7S"}, "KC")
    assert isinstance(game.do(DealRound(deck))[0], RoundDealt)

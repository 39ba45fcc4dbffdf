"""The `faraon` preset (variants.md): as prsi, deal 5; the jack of leaves (J♠) cancels a 7's debt."""

from service.domain.actions import DRAW, play_action
from service.domain.cards import parse_card
from service.domain.commands import PlayCard
from service.domain.events import CardPlayed, CardsDrawn
from service.domain.legal import legal_actions
from service.domain.ruleset_options import ruleset
from tests.unit.scenario import Game

FARAON = ruleset("faraon")


def act(card: str, suit: int = -1) -> int:
    return play_action(parse_card(card), suit)


def test_five_cards_are_dealt_from_32():
    assert (FARAON.hand_size, len(FARAON.ranks)) == (5, 8)


def test_the_jack_of_spades_cancels_a_pending_seven_debt():
    game = Game(FARAON, seats=3, dealer=0, hands={1: "7H 9C 10C KC 8C", 2: "JS 8D 9D 10D KD"}, starter="9H")
    game.play(1, "7H")
    assert legal_actions(game.s, 2) == (act("JS"), DRAW)
    (played,) = game.play(2, "JS")
    assert isinstance(played, CardPlayed) and (played.debt, played.turn) == (0, 0)
    assert game.s.follow >> parse_card("9S") & 1  # the next player follows the jack of spades


def test_the_jack_of_spades_is_ordinary_with_no_debt_pending():
    game = Game(FARAON, seats=3, dealer=0, hands={1: "JS 9C 10C KC 8C"}, starter="9H")
    assert game.refuse(PlayCard(1, parse_card("JS"))) == "card_does_not_match"


def test_other_jacks_do_not_cancel_a_debt():
    game = Game(FARAON, seats=3, dealer=0, hands={1: "7H 9C 10C KC 8C", 2: "JD 8D 9D 10D KD"}, starter="9H")
    game.play(1, "7H")
    assert legal_actions(game.s, 2) == (DRAW,)


def test_an_ober_is_wild_and_an_ace_skips_as_in_prsi():
    game = Game(FARAON, seats=3, dealer=0, hands={1: "AH QC 10C KC 8C"}, starter="9H")
    (played,) = game.play(1, "AH")
    assert isinstance(played, CardPlayed) and played.turn == 0
    assert FARAON.effects["Q"].wild


def test_a_seven_draws_3_and_a_chain_of_sevens_owes_3_6_9_12():
    game = Game(
        FARAON,
        seats=4,
        dealer=0,
        hands={1: "7H 9C 10C KC 8C", 2: "7C 8D 9D 10D KD", 3: "7D 8H AD 10H KH", 0: "7S 8S 9S 10S KS"},
        starter="9H",
    )
    debts = [game.play(seat, card)[0].debt for seat, card in ((1, "7H"), (2, "7C"), (3, "7D"), (0, "7S"))]
    assert debts == [3, 6, 9, 12]


def test_the_player_who_draws_a_sevens_debt_draws_3_and_loses_the_turn():
    game = Game(FARAON, seats=3, dealer=0, hands={1: "7H 9C 10C KC 8C", 2: "8D 9D 10D KD QD"}, starter="9H")
    game.play(1, "7H")
    (drawn,) = game.draw(2)
    assert isinstance(drawn, CardsDrawn) and (len(drawn.cards), drawn.turn) == (3, 0)


def test_with_the_king_of_spades_the_seven_of_spades_still_draws_3():
    rules = ruleset("faraon", king_of_spades=True)
    game = Game(rules, seats=3, dealer=0, hands={1: "7S 9C 10C KC 8C", 2: "KS 8D 9D 10D QD"}, starter="9S")
    (played,) = game.play(1, "7S")
    assert isinstance(played, CardPlayed) and played.debt == 3
    (answered,) = game.play(2, "KS")
    assert isinstance(answered, CardPlayed) and answered.debt == 7


def test_a_queen_is_wild_on_an_ace_and_on_a_drawn_seven_unlike_in_prsi():
    game = Game(FARAON, seats=3, dealer=0, hands={1: "AH 9C 10C KC 8C", 0: "QC 8D 9D 10D KD"}, starter="9H")
    game.play(1, "AH")
    assert act("QC", 3) in legal_actions(game.s, 0)
    hands = {1: "7H 9C 10C KC 8C", 0: "QC 8D 9D 10D KD"}
    seven = Game(FARAON, seats=3, dealer=0, hands=hands, starter="9H", stock="8S 9S 10S")
    seven.play(1, "7H")
    seven.draw(2)
    assert (seven.s.turn, seven.top()) == (0, "7H")
    assert act("QC", 3) in legal_actions(seven.s, 0)

"""The `faraon` preset (variants.md): as prsi, deal 5; the jack of leaves (J♠) cancels a 7's debt."""

from service.domain.actions import DRAW, play_action
from service.domain.cards import parse_card
from service.domain.commands import PlayCard
from service.domain.engine import legal_actions
from service.domain.events import CardPlayed
from service.domain.rulesets import ruleset
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

"""The `prsi` preset (variants.md): 32 cards, deal 4; A skips, 7 draws 2, Q wild, J ordinary."""

from service.domain.actions import DRAW, play_action
from service.domain.cards import parse_card
from service.domain.commands import PlayCard
from service.domain.events import CardPlayed, CardsDrawn
from service.domain.legal import call_due, legal_actions
from service.domain.rulebook import NO_CALL
from service.domain.ruleset_options import ruleset
from service.domain.state import EFFECT, PLAY
from tests.unit.scenario import Game

PRSI = ruleset("prsi")


def act(card: str, suit: int = -1) -> int:
    return play_action(parse_card(card), suit)


def test_four_cards_are_dealt_from_32():
    assert PRSI.hand_size == 4
    assert len(PRSI.ranks) == 8


def test_an_ace_skips_the_next_player():
    game = Game(PRSI, seats=3, dealer=0, hands={1: "AH 9C 10C KC"}, starter="9H")
    (played,) = game.play(1, "AH")
    assert isinstance(played, CardPlayed) and (played.skipped, played.turn) == (2, 0)


def test_a_seven_draws_2_unless_answered_by_a_seven_and_the_drawer_may_not_play_that_turn():
    game = Game(PRSI, seats=3, dealer=0, hands={1: "7H 9C 10C KC", 2: "7C 8D 9D QD"}, starter="9H")
    game.play(1, "7H")
    assert legal_actions(game.s, 2) == (act("7C"), DRAW)
    game.play(2, "7C")
    assert (game.s.debt, game.s.turn) == (4, 0)
    (drawn,) = game.draw(0)
    assert isinstance(drawn, CardsDrawn) and (len(drawn.cards), drawn.turn) == (4, 1)


def test_an_ober_is_wild_but_not_on_a_pending_seven():
    game = Game(PRSI, seats=3, dealer=0, hands={1: "7H 9C 10C KC", 2: "QC 8D 9D 10D"}, starter="9H")
    game.play(1, "7H")
    assert legal_actions(game.s, 2) == (DRAW,)
    assert game.refuse(PlayCard(2, parse_card("QC"), 0)) == "debt_pending"


def test_an_ober_may_not_be_played_on_an_ace_even_once_its_skip_is_done():
    game = Game(PRSI, seats=3, dealer=0, hands={1: "AH 9C 10C KC", 0: "QC QH 9D 10D"}, starter="9H")
    game.play(1, "AH")
    assert legal_actions(game.s, 0) == (DRAW,)  # not even the queen of the ace's suit
    assert game.refuse(PlayCard(0, parse_card("QC"), 3)) == "card_does_not_match"
    assert game.refuse(PlayCard(0, parse_card("QH"), 3)) == "card_does_not_match"


def test_an_ober_may_not_be_played_on_a_seven_whose_debt_is_drawn():
    hands = {1: "7H 9C 10C KC", 2: "8D 9D 10D KD", 0: "QC QH 9S 10S"}
    game = Game(PRSI, seats=3, dealer=0, hands=hands, starter="9H", stock="8S 8C")
    game.play(1, "7H")
    game.draw(2)
    assert (game.s.turn, game.s.debt, game.top()) == (0, 0, "7H")
    assert legal_actions(game.s, 0) == (DRAW,)
    assert game.refuse(PlayCard(0, parse_card("QH"), 0)) == "card_does_not_match"


def test_an_ober_is_wild_on_any_card_that_is_not_a_seven_or_an_ace():
    for starter in ("9H", "8D", "10C", "JC", "KS"):
        game = Game(PRSI, seats=2, dealer=0, hands={1: "QC 8S 9S 10S"}, starter=starter)
        assert act("QC", 1) in legal_actions(game.s, 1), starter


def test_a_jack_has_no_power_and_must_match():
    game = Game(PRSI, seats=2, dealer=0, hands={1: "JC 9C 10C KC"}, starter="9H")
    assert game.refuse(PlayCard(1, parse_card("JC"))) == "card_does_not_match"


def test_no_call_is_required():
    game = Game(ruleset("prsi", hand_size=1), seats=2, dealer=0, hands={1: "9S"}, starter="9H")
    assert call_due(game.s, 1, parse_card("9S")) == NO_CALL


def test_with_king_of_spades_it_draws_4_answered_only_by_the_seven_of_spades():
    rules = ruleset("prsi", king_of_spades=True)
    game = Game(rules, seats=3, dealer=0, hands={1: "KS 9C 10C KC", 2: "7S 7D 9D 10D"}, starter="9S")
    game.play(1, "KS")
    assert game.s.debt == 4
    assert legal_actions(game.s, 2) == (act("7S"), DRAW)
    game.play(2, "7S")
    assert game.s.debt == 6


def test_with_king_of_spades_it_may_answer_a_pending_seven_of_spades():
    rules = ruleset("prsi", king_of_spades=True)
    game = Game(rules, seats=3, dealer=0, hands={1: "7S 9C 10C KC", 2: "KS 8D 9D 10D"}, starter="9S")
    game.play(1, "7S")
    game.play(2, "KS")
    assert (game.s.debt, game.s.turn) == (6, 0)


def test_with_ten_of_hearts_every_other_player_draws_1_and_its_player_plays_again():
    rules = ruleset("prsi", ten_of_hearts=True)
    game = Game(rules, seats=3, dealer=0, hands={1: "10H 9C 10C KC"}, starter="9H", stock="8D 8S")
    played, first, second = game.play(1, "10H")
    assert isinstance(played, CardPlayed) and played.turn == 1
    assert isinstance(first, CardsDrawn) and (first.seat, first.reason) == (2, EFFECT)
    assert isinstance(second, CardsDrawn) and second.seat == 0
    assert "8D" in game.hand(2) and "8S" in game.hand(0)
    assert (game.s.turn, game.s.phase) == (1, PLAY)


def test_ten_of_hearts_is_an_ordinary_card_without_the_option():
    game = Game(PRSI, seats=3, dealer=0, hands={1: "10H 9C 10C KC"}, starter="9H")
    (played,) = game.play(1, "10H")
    assert isinstance(played, CardPlayed) and played.turn == 2

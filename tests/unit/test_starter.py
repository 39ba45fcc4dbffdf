"""Section 2: the starter acts as if the dealer had played it."""

from service.domain.actions import DRAW, NAME_SUIT, play_action
from service.domain.cards import parse_card
from service.domain.commands import DrawCard, NameSuit, PlayCard
from service.domain.events import CardsDrawn, RoundDealt, SuitNamed
from service.domain.legal import legal_actions
from service.domain.state import DEBT, NAMING_SUIT, PLAY
from tests.unit.scenario import Game


def test_a_seven_starter_gives_the_first_player_a_debt_of_2_as_if_the_dealer_had_played_it():
    game = Game(seats=3, dealer=0, hands={1: "2D 3D 4D 5D 6D"}, starter="7H", stock="KC QC 9S")
    dealt = game.of_type(RoundDealt)[0]
    assert (dealt.turn, dealt.debt) == (1, 2)
    assert (game.s.turn, game.s.debt) == (1, 2)
    assert legal_actions(game.s, 1) == (DRAW,)
    game.draw(1)
    assert game.hand(1) == {"2D", "3D", "4D", "5D", "6D", "KC", "QC"}
    assert game.of_type(CardsDrawn)[-1].reason == DEBT
    assert (game.s.turn, game.s.debt) == (2, 0)


def test_the_first_player_may_answer_a_seven_starter_with_a_seven():
    game = Game(seats=3, dealer=0, hands={1: "7C 3D 4D 5D 6D"}, starter="7H")
    assert legal_actions(game.s, 1) == (play_action(parse_card("7C")), DRAW)
    game.play(1, "7C")
    assert (game.s.turn, game.s.debt) == (2, 4)


def test_an_eight_starter_skips_the_first_player_as_if_the_dealer_had_played_it():
    game = Game(seats=4, dealer=0, hands={1: "8C 3D 4D 5D 6D"}, starter="8H")
    assert game.s.turn == 2
    assert game.of_type(RoundDealt)[0].turn == 2
    assert game.refuse(PlayCard(1, parse_card("8C"))) == "not_your_turn"


def test_an_eight_starter_with_2_players_lets_the_dealer_play_first():
    game = Game(seats=2, dealer=1, starter="8H")
    assert game.s.turn == 1
    game2 = Game(seats=2, dealer=0, starter="8H")
    assert game2.s.turn == 0


def test_a_jack_starter_makes_the_dealer_name_the_suit_before_anyone_plays():
    game = Game(seats=3, dealer=0, hands={1: "5H 5C 2D 3D 4D"}, starter="JH")
    assert game.s.phase == NAMING_SUIT
    assert game.s.turn == 1
    assert legal_actions(game.s, 0) == tuple(NAME_SUIT + suit for suit in range(4))
    assert legal_actions(game.s, 1) == ()
    assert game.refuse(PlayCard(1, parse_card("5H"))) == "suit_not_named"
    assert game.refuse(DrawCard(1)) == "suit_not_named"
    assert game.refuse(NameSuit(1, 0)) == "not_your_turn"
    game.name(0, "C")
    assert game.of_type(SuitNamed) == [SuitNamed(0, 0)]
    assert (game.s.phase, game.s.turn, game.s.named_suit) == (PLAY, 1, 0)


def test_after_a_jack_starter_the_first_player_follows_the_named_suit_not_the_jacks_suit():
    game = Game(seats=3, dealer=0, hands={1: "5H 5C 2D 3D 4D"}, starter="JH")
    game.name(0, "C")
    assert game.refuse(PlayCard(1, parse_card("5H"))) == "card_does_not_match"
    game.play(1, "5C")
    assert game.s.turn == 2


def test_the_dealer_may_name_the_jack_starters_own_suit():
    game = Game(seats=2, dealer=0, hands={1: "5H 5C 2D 3D 4D"}, starter="JH")
    game.name(0, "H")
    assert game.refuse(PlayCard(1, parse_card("5C"))) == "card_does_not_match"
    game.play(1, "5H")


def test_any_other_starter_only_sets_the_suit_and_rank_to_match():
    game = Game(seats=3, dealer=2, hands={0: "QD 9S 2C 3C 4C"}, starter="QH")
    dealt = game.of_type(RoundDealt)[0]
    assert (dealt.turn, dealt.debt, dealt.direction, dealt.phase) == (0, 0, 1, PLAY)
    assert game.s.named_suit == -1
    assert game.refuse(PlayCard(0, parse_card("9S"))) == "card_does_not_match"
    game.play(0, "QD")  # the rank of the starter


def test_an_ace_or_king_starter_has_no_power():
    for starter in ("AS", "KS", "2S"):
        game = Game(seats=4, dealer=0, starter=starter)
        assert (game.s.turn, game.s.debt, game.s.direction) == (1, 0, 1)

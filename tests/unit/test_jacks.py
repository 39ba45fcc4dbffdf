"""Section 3: jacks are wild, name a suit, and the named suit must be followed."""

import pytest

from service.domain.cards import parse_card
from service.domain.commands import PlayCard
from service.domain.events import CardPlayed
from tests.unit.scenario import Game


@pytest.mark.parametrize("starter", ["5H", "KS", "2C", "AD", "QH"])
def test_a_jack_may_be_played_on_any_ordinary_top_card(starter):
    game = Game(seats=2, dealer=0, hands={1: "JC 3D 4D 6D 9D"}, starter=starter)
    game.play(1, "JC", named="D")
    assert game.s.named_suit == 1


def test_a_jack_may_be_played_on_another_jack():
    game = Game(seats=3, dealer=0, hands={1: "JC 3D 4D 6D 9D", 2: "JH 2S 3S 4S 6S"}, starter="5H")
    game.play(1, "JC", named="D")
    game.play(2, "JH", named="S")
    assert (game.top(), game.s.named_suit) == ("JH", 3)


def test_a_jack_may_name_its_own_suit_or_the_suit_already_named():
    game = Game(seats=3, dealer=0, hands={1: "JC 3D 4D 6D 9D", 2: "JH 2S 3S 4S 6S"}, starter="5H")
    game.play(1, "JC", named="C")
    game.play(2, "JH", named="C")
    assert game.s.named_suit == 0


def test_the_example_jack_of_diamonds_names_clubs_and_a_diamond_is_not_enough():
    game = Game(
        seats=3,
        dealer=0,
        hands={1: "JD 2H 3H 4H 6H", 2: "9D 5D 9C JS 2S"},
        starter="5H",
    )
    game.play(1, "JD", named="C")
    assert game.refuse(PlayCard(2, parse_card("9D"))) == "card_does_not_match"
    assert game.refuse(PlayCard(2, parse_card("5D"))) == "card_does_not_match"
    game.play(2, "9C")
    assert game.top() == "9C"


def test_after_a_jack_another_jack_follows_the_named_suit_too():
    game = Game(seats=3, dealer=0, hands={1: "JD 2H 3H 4H 6H", 2: "9D 5D JS 2S 3S"}, starter="5H")
    game.play(1, "JD", named="C")
    game.play(2, "JS", named="H")
    assert game.s.named_suit == 2


def test_the_printed_suit_and_rank_of_the_jack_do_not_matter_after_it_is_played():
    # after J♦ names hearts, a diamond (the jack's printed suit, and the suit under it) does
    # not match: only hearts and jacks do
    game = Game(seats=3, dealer=0, hands={1: "JD 2C 3C 4C 6C", 2: "9D 9H 2S 3S 4S"}, starter="5D")
    game.play(1, "JD", named="H")
    assert game.refuse(PlayCard(2, parse_card("9D"))) == "card_does_not_match"
    game.play(2, "9H")


def test_after_the_named_suit_is_followed_the_next_player_matches_the_new_top_card():
    game = Game(
        seats=3,
        dealer=0,
        hands={0: "9S 2D 3D 4D 6D", 1: "JD 2H 3H 4H 6H", 2: "9C 5C 2S 3S 4S"},
        starter="5H",
    )
    game.play(1, "JD", named="C")
    game.play(2, "9C")
    assert game.s.named_suit == -1
    game.play(0, "9S")  # the rank of 9♣, no longer the named suit


def test_a_jack_must_name_a_suit():
    game = Game(seats=2, dealer=0, hands={1: "JD 2C 3C 4C 6C"}, starter="5H")
    assert game.refuse(PlayCard(1, parse_card("JD"))) == "suit_required"
    assert game.refuse(PlayCard(1, parse_card("JD"), 4)) == "suit_required"


def test_an_ordinary_card_may_not_name_a_suit():
    game = Game(seats=2, dealer=0, hands={1: "9H 2C 3C 4C 6C"}, starter="5H")
    assert game.refuse(PlayCard(1, parse_card("9H"), 0)) == "suit_not_allowed"


def test_the_named_suit_is_recorded_with_the_play():
    game = Game(seats=2, dealer=0, hands={1: "JD 2C 3C 4C 6C"}, starter="5H")
    (played,) = game.play(1, "JD", named="S")
    assert isinstance(played, CardPlayed)
    assert (played.card, played.suit) == (parse_card("JD"), 3)

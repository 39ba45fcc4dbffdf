"""Section 3: a normal turn is one play or one draw; matching rank or suit."""

from service.domain.actions import DRAW, KEEP, WILD_PLAY, play_action
from service.domain.cards import parse_card
from service.domain.commands import DrawCard, KeepCard, PlayCard
from service.domain.events import CardKept, CardPlayed, CardsDrawn
from service.domain.legal import legal_actions
from service.domain.ruleset_options import ruleset
from service.domain.state import DRAWN, PLAY, TURN
from tests.unit.scenario import Game


def act(card: str) -> int:
    return play_action(parse_card(card))


def test_a_card_of_the_same_suit_as_the_top_card_may_be_played():
    game = Game(seats=2, dealer=0, hands={1: "9H 2C 3C 4C 6C"}, starter="5H")
    game.play(1, "9H")
    assert game.top() == "9H"
    assert "9H" not in game.hand(1)


def test_a_card_of_the_same_rank_as_the_top_card_may_be_played():
    game = Game(seats=2, dealer=0, hands={1: "5C 2D 3D 4D 6D"}, starter="5H")
    game.play(1, "5C")
    assert game.top() == "5C"


def test_a_card_of_another_rank_and_suit_is_refused():
    game = Game(seats=2, dealer=0, hands={1: "9C 5C 3D 4D 6D"}, starter="5H")
    assert game.refuse(PlayCard(1, parse_card("9C"))) == "card_does_not_match"


def test_aces_and_kings_are_ordinary_cards():
    game = Game(seats=3, dealer=0, hands={1: "AH 2D 3D 4D 6D", 2: "KH 2C 3C 4C 6C"}, starter="5H")
    game.play(1, "AH")
    assert game.s.turn == 2
    game.play(2, "KH")
    assert game.s.turn == 0


def test_play_goes_clockwise_one_card_per_turn():
    game = Game(
        seats=3,
        dealer=0,
        hands={0: "5S 9D 3D 4D 6D", 1: "9H 5D 2S 3S 4S", 2: "9S 2C 3C 4C 6C"},
        starter="5H",
    )
    game.play(1, "9H")
    assert game.s.turn == 2
    assert game.refuse(PlayCard(1, parse_card("5D"))) == "not_your_turn"
    game.play(2, "9S")
    assert game.s.turn == 0
    game.play(0, "5S")
    assert game.s.turn == 1


def test_a_player_cannot_play_a_card_they_do_not_hold():
    game = Game(seats=2, dealer=0, hands={1: "2D 3D 4D 6D 7D"}, starter="5H")
    assert game.refuse(PlayCard(1, parse_card("9H"))) == "card_not_in_hand"


def test_legal_actions_are_exactly_the_playable_cards_of_the_player_on_turn():
    game = Game(seats=2, dealer=0, hands={1: "9H 5C JS 3D 4D"}, starter="5H")
    jack_plays = tuple(WILD_PLAY + parse_card("JS") * 4 + suit for suit in range(4))
    assert set(legal_actions(game.s, 1)) == {act("9H"), act("5C"), *jack_plays}
    assert legal_actions(game.s, 0) == ()


def test_a_player_with_no_playable_card_draws_the_top_card_of_the_stock():
    game = Game(seats=2, dealer=0, hands={1: "2C 3C 4C 6C 7C"}, starter="5H", stock="KD QD")
    assert legal_actions(game.s, 1) == (DRAW,)
    (drawn,) = game.draw(1)
    assert drawn == CardsDrawn(1, (parse_card("KD"),), TURN, 0, PLAY)
    assert "KD" in game.hand(1)
    assert game.stock_top_first()[0] == "QD"


def test_a_drawn_card_that_cannot_be_played_ends_the_turn_at_once():
    game = Game(seats=2, dealer=0, hands={1: "2C 3C 4C 6C 7C"}, starter="5H", stock="KD QD")
    game.draw(1)
    assert (game.s.turn, game.s.phase) == (0, PLAY)
    assert game.refuse(KeepCard(1)) == "nothing_to_keep"
    assert game.refuse(PlayCard(1, parse_card("KD"))) == "not_your_turn"


def test_a_drawn_card_that_is_playable_may_be_played_at_once():
    game = Game(seats=2, dealer=0, hands={1: "2C 3C 4C 6C 7C"}, starter="5H", stock="KH QD")
    game.draw(1)
    assert (game.s.turn, game.s.phase, game.s.drawn) == (1, DRAWN, parse_card("KH"))
    assert legal_actions(game.s, 1) == (act("KH"), KEEP)
    game.play(1, "KH")
    assert game.top() == "KH"
    assert (game.s.turn, game.s.phase) == (0, PLAY)


def test_a_drawn_card_that_is_playable_may_be_kept_instead_and_the_turn_ends():
    game = Game(seats=2, dealer=0, hands={1: "2C 3C 4C 6C 7C"}, starter="5H", stock="KH QD")
    game.draw(1)
    (kept,) = game.keep(1)
    assert kept == CardKept(1, 0)
    assert "KH" in game.hand(1)
    assert (game.s.turn, game.s.phase, game.s.drawn) == (0, PLAY, -1)
    assert game.top() == "5H"


def test_no_other_card_may_be_played_after_drawing():
    rules = ruleset("club", voluntary_draw=True)
    game = Game(rules, seats=2, dealer=0, hands={1: "9H 3C 4C 6C 7C"}, starter="5H", stock="KH QD")
    game.draw(1)
    assert game.refuse(PlayCard(1, parse_card("9H"))) == "only_drawn_card"
    assert game.refuse(DrawCard(1)) == "already_drew"
    game.play(1, "KH")


def test_a_player_draws_only_one_card_per_turn():
    game = Game(seats=2, dealer=0, hands={1: "2C 3C 4C 6C 7C"}, starter="5H", stock="KH QD")
    game.draw(1)
    assert game.refuse(DrawCard(1)) == "already_drew"
    assert game.refuse(PlayCard(1, parse_card("2C"))) == "only_drawn_card"


def test_drawing_while_holding_a_playable_card_is_refused_when_voluntary_draw_is_off():
    game = Game(seats=2, dealer=0, hands={1: "9H 3C 4C 6C 7C"}, starter="5H")
    assert game.rules.voluntary_draw is False
    assert DRAW not in legal_actions(game.s, 1)
    assert game.refuse(DrawCard(1)) == "draw_not_allowed"


def test_drawing_while_holding_a_playable_card_is_allowed_when_voluntary_draw_is_on():
    rules = ruleset("club", voluntary_draw=True)
    game = Game(rules, seats=2, dealer=0, hands={1: "9H 3C 4C 6C 7C"}, starter="5H", stock="2D QD")
    assert legal_actions(game.s, 1) == (act("9H"), DRAW)
    game.draw(1)
    assert "2D" in game.hand(1) and "9H" in game.hand(1)
    assert game.s.turn == 0


def test_a_drawn_jack_may_be_played_at_once_naming_a_suit():
    game = Game(seats=2, dealer=0, hands={1: "2C 3C 4C 6C 7C"}, starter="5H", stock="JD QD")
    game.draw(1)
    assert legal_actions(game.s, 1) == (*(WILD_PLAY + parse_card("JD") * 4 + s for s in range(4)), KEEP)
    (played,) = game.play(1, "JD", named="S")
    assert isinstance(played, CardPlayed) and played.suit == 3
    assert game.s.named_suit == 3

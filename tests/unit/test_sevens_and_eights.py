"""Section 4: sevens stack a draw debt, eights skip."""

from service.domain.actions import DRAW, play_action
from service.domain.cards import parse_card
from service.domain.commands import PlayCard
from service.domain.events import CardPlayed, CardsDrawn
from service.domain.legal import legal_actions
from service.domain.state import DEBT, PLAY
from tests.unit.scenario import Game, cards


def act(card: str) -> int:
    return play_action(parse_card(card))


def chain_example() -> Game:
    """club.md's example: A, B, C, D are seats 0-3; D deals, so A plays first."""
    return Game(
        seats=4,
        dealer=3,
        hands={
            0: "7H 9S 2C 3C 4C",  # A
            1: "7C 2D 3D 4D 6D",  # B
            2: "7S 2H 3H 4H 6H",  # C
            3: "JD 8S 5S 6S 10C",  # D: no 7
        },
        starter="5H",
        stock="KC QC KD QD 10D 9D 2S 3S",
    )


def test_the_example_seven_chain_adds_two_per_seven_and_never_doubles():
    game = chain_example()
    game.play(0, "7H")
    assert (game.s.turn, game.s.debt) == (1, 2)
    game.play(1, "7C")
    assert (game.s.turn, game.s.debt) == (2, 4)
    game.play(2, "7S")
    assert (game.s.turn, game.s.debt) == (3, 6)  # 6, not 8


def test_in_the_example_d_may_not_escape_the_debt_with_a_jack_or_an_eight():
    game = chain_example()
    game.play(0, "7H")
    game.play(1, "7C")
    game.play(2, "7S")
    assert legal_actions(game.s, 3) == (DRAW,)
    assert game.refuse(PlayCard(3, parse_card("JD"), 1)) == "debt_pending"
    assert game.refuse(PlayCard(3, parse_card("8S"))) == "debt_pending"
    assert game.refuse(PlayCard(3, parse_card("5S"))) == "debt_pending"


def test_in_the_example_d_draws_6_without_playing_and_then_a_plays_normally_on_the_seven_of_spades():
    game = chain_example()
    game.play(0, "7H")
    game.play(1, "7C")
    game.play(2, "7S")
    (drawn,) = game.draw(3)
    assert drawn == CardsDrawn(3, tuple(cards("KC QC KD QD 10D 9D")), DEBT, 0, PLAY)
    assert len(game.hand(3)) == 11
    assert (game.s.turn, game.s.debt, game.top()) == (0, 0, "7S")
    assert game.refuse(PlayCard(3, parse_card("KC"))) == "not_your_turn"
    game.play(0, "9S")  # the suit of 7♠, an ordinary top card now
    assert (game.s.turn, game.s.debt) == (1, 0)


def test_the_example_is_four_separate_turns():
    game = chain_example()
    turns = []
    for seat, card in ((0, "7H"), (1, "7C"), (2, "7S")):
        turns.append(game.s.turn)
        game.play(seat, card)
    turns.append(game.s.turn)
    game.draw(3)
    turns.append(game.s.turn)
    assert turns == [0, 1, 2, 3, 0]


def test_a_seven_gives_the_next_player_a_debt_of_2_which_they_draw_and_their_turn_ends():
    game = Game(
        seats=3, dealer=0, hands={1: "7H 2C 3C 4C 6C", 2: "2D 3D 4D 6D 9D"}, starter="5H", stock="KS QS"
    )
    game.play(1, "7H")
    assert (game.s.turn, game.s.debt) == (2, 2)
    game.draw(2)
    assert {"KS", "QS"} <= game.hand(2)
    assert (game.s.turn, game.s.debt, game.s.phase) == (0, 0, PLAY)


def test_any_seven_answers_a_debt_whatever_its_suit():
    game = Game(seats=3, dealer=0, hands={1: "7H 2C 3C 4C 6C", 2: "7S 2D 3D 4D 6D"}, starter="5H")
    game.play(1, "7H")
    assert legal_actions(game.s, 2) == (act("7S"), DRAW)
    game.play(2, "7S")
    assert game.s.debt == 4


def test_a_seven_answers_a_debt_even_of_a_suit_named_before_the_chain():
    game = Game(
        seats=4,
        dealer=0,
        hands={1: "JC 2D 3D 4D 6D", 2: "7C 2H 3H 4H 6H", 3: "7D 2S 3S 4S 6S"},
        starter="5H",
    )
    game.play(1, "JC", named="C")
    game.play(2, "7C")
    game.play(3, "7D")
    assert game.s.debt == 4


def test_all_four_sevens_in_a_chain_make_a_debt_of_8_which_the_fifth_player_draws():
    game = Game(seats=6, dealer=5, hands={0: "7H", 1: "7C", 2: "7S", 3: "7D"}, starter="5H")
    for seat, card in enumerate(("7H", "7C", "7S", "7D")):
        game.play(seat, card)
    assert game.s.debt == 8
    stock_before = game.stock_top_first()
    game.draw(4)
    assert game.hand(4) >= set(stock_before[:8])
    assert len(game.hand(4)) == 13


def test_cards_drawn_to_pay_a_debt_may_not_be_played_in_that_turn():
    game = Game(
        seats=3, dealer=0, hands={1: "7H 2C 3C 4C 6C", 2: "2D 3D 4D 6D 9D"}, starter="5H", stock="7S 8H"
    )
    game.play(1, "7H")
    game.draw(2)
    assert {"7S", "8H"} <= game.hand(2)
    assert game.s.turn == 0
    assert game.refuse(PlayCard(2, parse_card("7S"))) == "not_your_turn"
    assert game.refuse(PlayCard(2, parse_card("8H"))) == "not_your_turn"


def test_a_player_facing_a_debt_may_draw_it_even_while_holding_a_seven():
    # Reading: "may play any 7 ... otherwise they draw": answering is a choice, drawing the debt
    # is always allowed (voluntary_draw concerns ordinary turns)
    game = Game(seats=3, dealer=0, hands={1: "7H 2C 3C 4C 6C", 2: "7S 2D 3D 4D 6D"}, starter="5H")
    game.play(1, "7H")
    game.draw(2)
    assert game.s.turn == 0 and len(game.hand(2)) == 7


def test_after_the_debt_is_paid_the_last_seven_is_an_ordinary_top_card():
    game = Game(
        seats=3,
        dealer=0,
        hands={0: "7C 2S 3S 4S 6S", 1: "7H 2C 3C 4C 6C", 2: "9D 3D 4D 6D 10D"},
        starter="5H",
    )
    game.play(1, "7H")
    game.draw(2)
    assert game.refuse(PlayCard(0, parse_card("2S"))) == "card_does_not_match"
    game.play(0, "7C")  # the rank of 7♥: a new seven, a new debt
    assert (game.s.turn, game.s.debt) == (1, 2)


def test_an_eight_skips_the_next_player():
    game = Game(seats=3, dealer=0, hands={1: "8H 2C 3C 4C 6C"}, starter="5H")
    (played,) = game.play(1, "8H")
    assert isinstance(played, CardPlayed)
    assert played.skipped == 2
    assert game.s.turn == 0


def test_an_eight_skips_counting_from_the_player_of_the_eight():
    game = Game(seats=4, dealer=0, hands={2: "8H 2C 3C 4C 6C", 1: "9H 2D 3D 4D 6D"}, starter="5H")
    game.play(1, "9H")
    game.play(2, "8H")
    assert game.s.turn == 0


def test_with_2_players_the_player_of_an_eight_plays_again():
    game = Game(seats=2, dealer=0, hands={1: "8H 8C 2C 3C 4C"}, starter="5H")
    game.play(1, "8H")
    assert game.s.turn == 1
    game.play(1, "8C")
    assert game.s.turn == 1
    game.play(1, "2C")
    assert game.s.turn == 0


def test_an_ordinary_card_has_no_effect_on_the_next_player():
    game = Game(seats=3, dealer=0, hands={1: "9H 2C 3C 4C 6C"}, starter="5H")
    (played,) = game.play(1, "9H")
    assert (played.turn, played.debt, played.skipped) == (2, 0, -1)

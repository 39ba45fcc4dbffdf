"""Section 5: the stock runs out: recycle the discards, or stop the round with no winner.

Six players with 8 cards each leave a stock of 3 cards, so a few draws empty it.
"""

from service.domain.actions import DRAW
from service.domain.cards import format_card, parse_card
from service.domain.chance import Shuffler
from service.domain.commands import Challenge, DrawCard, KeepCard, PlayCard, RecycleStock
from service.domain.events import (
    CardsDrawn,
    MissedCallChallenged,
    RoundEnded,
    StockRanOut,
    StockRecycled,
)
from service.domain.legal import legal_actions
from service.domain.rulebook import rulebook
from service.domain.ruleset_options import ruleset
from service.domain.state import DEAL, DEBT, DRAWN, PENALTY, PLAY, RECYCLE, TURN, PendingDraw
from tests.unit.scenario import Game, cards, mask, small_deck_club

SIX_BY_EIGHT = ruleset("club", hand_size=8)
SIX_BY_EIGHT_VOLUNTARY = ruleset("club", hand_size=8, voluntary_draw=True)


def draw_in_turn(game: Game, *seats: int) -> None:
    """Each seat draws one card on its turn, keeping it if it could be played."""
    for seat in seats:
        assert game.s.turn == seat
        game.draw(seat)
        if game.s.phase == DRAWN:
            game.keep(seat)


def discards_then_empty_stock() -> Game:
    game = Game(
        SIX_BY_EIGHT_VOLUNTARY,
        seats=6,
        dealer=0,
        hands={1: "6H", 2: "9H", 3: "10H", 4: "QH"},
        starter="5H",
        stock="2S 3S 4S",
    )
    for seat, card in ((1, "6H"), (2, "9H"), (3, "10H"), (4, "QH")):
        game.play(seat, card)
    draw_in_turn(game, 5, 0, 1)
    assert game.s.stock == []
    return game


def test_the_six_by_eight_deal_leaves_a_stock_of_three():
    game = Game(SIX_BY_EIGHT, seats=6, dealer=0)
    assert len(game.s.stock) == 3


def test_a_draw_from_an_empty_stock_waits_for_the_discards_under_the_top_card_to_be_shuffled():
    game = discards_then_empty_stock()
    hand_before = game.hand(2)
    (ran_out,) = game.draw(2)
    assert ran_out == StockRanOut(2, 1, TURN)
    assert game.s.phase == RECYCLE
    assert game.s.pending == PendingDraw(2, 1, TURN, PLAY)
    assert game.hand(2) == hand_before  # nothing moved yet
    assert game.s.discard == cards("5H 6H 9H 10H QH")


def test_while_the_stock_is_recycled_nobody_may_play_draw_or_challenge():
    game = discards_then_empty_stock()
    game.draw(2)
    assert legal_actions(game.s, 2) == ()
    assert game.refuse(PlayCard(2, parse_card("10H"))) == "awaiting_shuffle"
    assert game.refuse(DrawCard(2)) == "awaiting_shuffle"
    assert game.refuse(KeepCard(2)) == "awaiting_shuffle"
    assert game.refuse(Challenge(3)) == "awaiting_shuffle"


def test_the_recycle_keeps_the_top_card_and_records_the_new_stock_order():
    game = discards_then_empty_stock()
    game.draw(2)
    events = game.recycle("10H 5H 9H 6H")
    assert events[0] == StockRecycled(tuple(cards("10H 5H 9H 6H")))
    assert events[1] == CardsDrawn(2, (parse_card("10H"),), TURN, 2, DRAWN)  # a heart on Q♥: playable
    assert game.s.discard == cards("QH")
    assert game.stock_top_first() == ["5H", "9H", "6H"]
    assert "10H" in game.hand(2)


def test_the_recycle_must_be_exactly_the_discards_under_the_top_card():
    game = discards_then_empty_stock()
    game.draw(2)
    for wrong in ("10H 5H 9H", "10H 5H 9H 6H QH", "10H 5H 9H 2C", "10H 5H 9H 6H 6H", ""):
        assert game.refuse(RecycleStock(tuple(cards(wrong)))) == "invalid_recycle"


def test_a_recycle_is_refused_when_no_draw_is_waiting_for_it():
    game = discards_then_empty_stock()
    assert game.refuse(RecycleStock(tuple(cards("5H 6H 9H 10H")))) == "no_shuffle_due"


def test_the_shuffler_answers_a_recycle_with_a_seeded_order_of_the_discards_under_the_top():
    game = discards_then_empty_stock()
    game.draw(2)
    command = Shuffler(4).outcome(game.s)
    assert isinstance(command, RecycleStock)
    assert sorted(command.order) == sorted(cards("5H 6H 9H 10H"))
    assert Shuffler(4).outcome(game.s) == command
    game.do(command)
    assert game.s.phase in (PLAY, DRAWN)


def test_the_named_suit_stays_as_it_was_after_a_recycle():
    game = Game(
        SIX_BY_EIGHT_VOLUNTARY,
        seats=6,
        dealer=0,
        hands={1: "JH", 0: "9H 2D 3D 4D 6D 9D 10D QD"},
        starter="5H",
        stock="2S 3S 4S",
    )
    game.play(1, "JH", named="C")
    draw_in_turn(game, 2, 3, 4)
    game.draw(5)
    assert game.s.phase == RECYCLE
    game.recycle("5H")
    assert game.top() == "JH"
    assert game.s.named_suit == 0
    assert game.s.follow == rulebook(game.rules).follows_named_suit[0]
    assert game.s.turn == 0
    assert game.refuse(PlayCard(0, parse_card("9H"))) == "card_does_not_match"


def test_a_pending_debt_stays_as_it_was_while_the_stock_is_recycled():
    game = Game(
        SIX_BY_EIGHT,
        seats=6,
        dealer=0,
        hands={1: "7C", 2: "2D 3D 4D 6D 9D 10D QD KD"},
        starter="7H",
        stock="2S 3S 4S",
    )
    game.play(1, "7C")
    assert game.s.debt == 4
    (ran_out,) = game.draw(2)
    assert ran_out == StockRanOut(2, 4, DEBT)
    assert game.s.debt == 4
    events = game.recycle("7H")
    assert events[1] == CardsDrawn(2, tuple(cards("2S 3S 4S 7H")), DEBT, 3, PLAY)
    assert game.s.debt == 0
    assert len(game.hand(2)) == 12
    assert game.s.discard == cards("7C")
    assert game.s.stock == []


def six_debt_for_seat_three() -> Game:
    """Seat 3 faces a debt of 6 with 3 cards in the stock and 2 discards under the top."""
    game = Game(
        SIX_BY_EIGHT,
        seats=6,
        dealer=0,
        hands={1: "7C", 2: "7D", 3: "2D 3D 4D 6D 9D 10D QD KD"},
        starter="7H",
        stock="2S 3S 4S",
    )
    game.play(1, "7C")
    game.play(2, "7D")
    return game


def test_a_debt_that_cannot_be_drawn_even_after_recycling_ends_the_round_with_no_winner_and_no_card_moves():
    game = six_debt_for_seat_three()
    hands_before = list(game.s.hands)
    stock_before = list(game.s.stock)
    events = game.draw(3)  # a debt of 6; 3 in the stock and 2 discards under the top
    assert [type(e) for e in events] == [RoundEnded]
    (ended,) = events
    assert (ended.winner, ended.reason) == (-1, "stock_exhausted")
    # no card of the impossible draw moves
    assert game.s.hands == hands_before
    assert game.s.stock == stock_before
    assert game.s.phase == DEAL


def test_after_an_exhausted_stock_every_player_scores_their_whole_hand_even_the_one_with_fewest_cards():
    game = six_debt_for_seat_three()
    game.draw(3)
    ended = game.round_end()
    book = rulebook(game.rules)
    assert ended.points == tuple(book.hand_points(hand) for hand in game.s.hands)
    assert ended.points[3] == 2 + 3 + 4 + 6 + 9 + 10 + 10 + 10
    assert [len(game.hand(seat)) for seat in range(6)] == [8, 7, 7, 8, 8, 8]
    assert all(points > 0 for points in ended.points)
    assert ended.totals == ended.points


def test_a_turn_draw_with_no_card_left_anywhere_ends_the_round_with_no_winner():
    game = Game(
        SIX_BY_EIGHT_VOLUNTARY,
        seats=6,
        dealer=0,
        hands={4: "2C 3C 4C 6C 9C 10C QC KC"},
        starter="5H",
        stock="2S 3S 4S",
    )
    draw_in_turn(game, 1, 2, 3)
    assert game.s.stock == [] and game.s.discard == cards("5H")
    assert legal_actions(game.s, 4) == (DRAW,)
    (ended,) = game.draw(4)
    assert (ended.winner, ended.reason) == (-1, "stock_exhausted")
    assert len(game.hand(4)) == 8


def test_a_voluntary_draw_with_no_card_left_anywhere_is_refused():
    game = Game(
        SIX_BY_EIGHT_VOLUNTARY,
        seats=6,
        dealer=0,
        hands={4: "9H 3C 4C 6C 9C 10C QC KC"},
        starter="5H",
        stock="2S 3S 4S",
    )
    draw_in_turn(game, 1, 2, 3)
    assert DRAW not in legal_actions(game.s, 4)
    assert game.refuse(DrawCard(4)) == "stock_exhausted"
    game.play(4, "9H")


# A smaller deck reaches the last corner: a penalty draw when almost every card is in hands.
EIGHT_CARDS = small_deck_club(("5", "7"), hand_size=3)


def penalty_corner() -> Game:
    """club with 5s and 7s only: seat 1 goes down to one card without saying "Mau"."""
    game = Game(
        EIGHT_CARDS, seats=2, dealer=0, hands={1: "5S 7D 7C", 0: "5D 5H 7H"}, starter="5C", stock="7S"
    )
    assert game.s.hands[1] == mask("5S 7D 7C")
    return game


def test_a_penalty_draw_waits_for_a_recycle_too_and_then_play_goes_on():
    game = penalty_corner()
    game.play(1, "5S")
    game.play(0, "5D")
    game.play(1, "7D")  # one card left, no "Mau"; a debt of 2 for seat 0
    events = game.challenge(0)
    assert events == [MissedCallChallenged(0, 1, 1), StockRanOut(1, 2, PENALTY)]
    assert game.s.pending == PendingDraw(1, 2, PENALTY, PLAY)
    events = game.recycle("5D 5S 5C")
    assert events[1] == CardsDrawn(1, tuple(cards("7S 5D")), PENALTY, 0, PLAY)
    assert game.hand(1) == {"7C", "7S", "5D"}
    assert (game.s.turn, game.s.debt, game.s.phase) == (0, 2, PLAY)


def test_a_penalty_draw_that_cannot_be_made_ends_the_round_with_no_winner_and_no_card_moves():
    game = penalty_corner()
    game.play(1, "7C")  # a debt of 2 for seat 0, who draws it: the stock and the recycle
    game.draw(0)
    game.recycle("5C")
    assert game.s.stock == [] and game.s.discard == cards("7C")
    game.play(1, "7D")  # one card left (5S), no "Mau"
    hands_before = list(game.s.hands)
    events = game.challenge(0)
    assert [type(e) for e in events] == [MissedCallChallenged, RoundEnded]
    ended = events[1]
    assert (ended.winner, ended.reason) == (-1, "stock_exhausted")
    assert game.s.hands == hands_before  # no penalty card moved
    assert ended.points == (5 + 5 + 7 + 7 + 5, 5)


# The jacks alone go round: every other card is in a hand, and each player draws a jack and names
# a suit the other lacks.
NINES_TENS_JACKS = small_deck_club(("9", "10", "J"), hand_size=4)


def test_in_club_cards_that_only_go_round_are_recycled_again_and_again_as_the_rules_say():
    hands = {1: "9C 10C 9D 10D", 0: "9H 10H 9S 10S"}
    game = Game(NINES_TENS_JACKS, seats=2, dealer=0, hands=hands, starter="JH", stock="JC JD JS")
    game.name(0, "H")
    for _lap in range(3):
        for seat in (1, 0, 1, 0):
            if not game.s.stock:
                assert [type(e) for e in game.draw(seat)] == [StockRanOut]
                game.recycle([format_card(c) for c in game.s.discard[:-1]])
            else:
                game.draw(seat)
            game.play(seat, format_card(game.s.drawn), "C" if seat else "H")
        assert (game.s.hands, game.s.phase) == ([mask(hands[0]), mask(hands[1])], PLAY)
    assert not game.of_type(RoundEnded)

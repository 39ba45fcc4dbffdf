"""Section 6: "Mau" and "Mau Mau", the challenge window and its penalty."""

import pytest

from service.domain.actions import CHALLENGE
from service.domain.cards import parse_card
from service.domain.commands import Challenge, PlayCard
from service.domain.events import CardPlayed, CardsDrawn, MissedCallChallenged, RoundEnded, SkipTaken
from service.domain.legal import legal_actions
from service.domain.rulebook import MAU, MAU_MAU, NO_CALL
from service.domain.ruleset_options import ruleset
from service.domain.state import DEAL, DRAWN, PENALTY, PLAY
from tests.unit.scenario import Game, cards

TWO_CARDS = ruleset("club", hand_size=2)
ONE_CARD = ruleset("club", hand_size=1)


def down_to_one(call: int = NO_CALL, rules=TWO_CARDS) -> Game:
    """Three players; seat 1 plays 9♥ and keeps 4♣, saying ``call``."""
    game = Game(
        rules,
        seats=3,
        dealer=0,
        hands={0: "2S 3D", 1: "9H 4C", 2: "9S 2D"},
        starter="5H",
        stock="KD QD KC QC 6S",
    )
    game.play(1, "9H", call=call)
    return game


def going_out(
    call: int = NO_CALL, card: str = "9H", seat2: str = "2C", stock: str = "KD QD KC", named: int = -1
) -> Game:
    """Three players with one card each; seat 1 plays its only card, saying ``call``."""
    game = Game(ONE_CARD, seats=3, dealer=0, hands={0: "2S", 1: card, 2: seat2}, starter="5H", stock=stock)
    game.play(1, card, named=named, call=call)
    return game


# ---- "Mau"


def test_a_play_leaving_one_card_with_mau_said_owes_nothing():
    game = down_to_one(MAU)
    played = game.of_type(CardPlayed)[-1]
    assert (played.call, played.missed) == (MAU, NO_CALL)
    assert game.s.missed is None
    assert CHALLENGE not in legal_actions(game.s, 2)
    assert game.refuse(Challenge(2)) == "nothing_to_challenge"


def test_a_play_leaving_one_card_without_mau_opens_a_challenge_window():
    game = down_to_one(NO_CALL)
    played = game.of_type(CardPlayed)[-1]
    assert (played.call, played.missed) == (NO_CALL, MAU)
    assert game.s.missed == (1, MAU)
    assert CHALLENGE in legal_actions(game.s, 2)
    assert legal_actions(game.s, 0) == (CHALLENGE,)
    assert CHALLENGE not in legal_actions(game.s, 1)


def test_any_other_player_may_challenge_and_the_offender_draws_two_penalty_cards():
    game = down_to_one(NO_CALL)
    events = game.challenge(0)  # not the next player: any other player may
    assert events == [
        MissedCallChallenged(0, 1, MAU),
        CardsDrawn(1, tuple(cards("KD QD")), PENALTY, 2, PLAY),
    ]
    assert game.hand(1) == {"4C", "KD", "QD"}
    assert game.s.missed is None
    assert (game.s.turn, game.s.phase) == (2, PLAY)  # play goes on
    assert game.refuse(Challenge(2)) == "nothing_to_challenge"  # one challenge per miss


def test_the_offender_cannot_challenge_their_own_call():
    game = down_to_one(NO_CALL)
    assert game.refuse(Challenge(1)) == "cannot_challenge_self"


def test_a_challenge_when_no_call_was_missed_is_refused_and_changes_nothing():
    game = down_to_one(MAU)
    hand = game.hand(2)
    assert game.refuse(Challenge(2)) == "nothing_to_challenge"
    assert game.hand(2) == hand  # no penalty for a wrong challenge


def test_a_challenge_is_allowed_while_the_next_player_has_drawn_and_not_yet_played():
    game = Game(
        TWO_CARDS,
        seats=3,
        dealer=0,
        hands={0: "2S 3D", 1: "9H 4C", 2: "2C 3C"},
        starter="5H",
        stock="KH QD KC",
    )
    game.play(1, "9H")
    game.draw(2)  # K♥ is playable: the turn is not complete
    assert game.s.phase == DRAWN
    events = game.challenge(0)
    assert events[1] == CardsDrawn(1, tuple(cards("QD KC")), PENALTY, 2, DRAWN)
    assert (game.s.phase, game.s.drawn) == (DRAWN, parse_card("KH"))
    game.play(2, "KH")


def test_the_window_closes_when_the_next_player_has_played():
    game = down_to_one(NO_CALL)
    game.play(2, "9S", call=MAU)
    assert game.s.missed is None
    assert game.refuse(Challenge(0)) == "nothing_to_challenge"


def test_the_window_closes_when_the_next_player_has_drawn_a_card_they_cannot_play():
    game = Game(
        TWO_CARDS, seats=3, dealer=0, hands={0: "2S 3D", 1: "9H 4C", 2: "2C 3C"}, starter="5H", stock="KD"
    )
    game.play(1, "9H")
    game.draw(2)
    assert game.refuse(Challenge(0)) == "nothing_to_challenge"


def test_the_window_closes_when_the_next_player_keeps_the_card_they_drew():
    game = Game(
        TWO_CARDS, seats=3, dealer=0, hands={0: "2S 3D", 1: "9H 4C", 2: "2C 3C"}, starter="5H", stock="KH"
    )
    game.play(1, "9H")
    game.draw(2)
    assert game.s.missed == (1, MAU)  # still open while the drawn card may be played
    game.keep(2)
    assert game.refuse(Challenge(0)) == "nothing_to_challenge"


def test_the_window_closes_when_the_next_player_has_drawn_their_debt():
    game = Game(
        TWO_CARDS, seats=3, dealer=0, hands={0: "2S 3D", 1: "7H 4C", 2: "2C 3C"}, starter="5H", stock="KD QD"
    )
    game.play(1, "7H")
    assert game.s.missed == (1, MAU)
    game.draw(2)
    assert game.refuse(Challenge(0)) == "nothing_to_challenge"


def test_the_call_is_part_of_the_play_event():
    game = down_to_one(MAU)
    (played,) = [e for e in game.events if isinstance(e, CardPlayed)]
    assert played.call == MAU


def test_mau_is_due_after_playing_the_card_just_drawn_when_one_card_is_left():
    game = Game(ONE_CARD, seats=2, dealer=0, hands={1: "2C", 0: "3C"}, starter="5H", stock="9H")
    game.draw(1)
    assert game.refuse(PlayCard(1, parse_card("9H"), -1, MAU_MAU)) == "call_not_due"
    game.play(1, "9H")
    assert game.s.missed == (1, MAU)


# ---- calls that are not due


def test_mau_mau_said_when_mau_is_due_is_refused():
    game = Game(TWO_CARDS, seats=3, dealer=0, hands={1: "9H 4C"}, starter="5H")
    assert game.refuse(PlayCard(1, parse_card("9H"), -1, MAU_MAU)) == "call_not_due"


@pytest.mark.parametrize("call", [MAU, MAU_MAU, 7])
def test_a_call_said_when_none_is_due_is_refused(call):
    game = Game(seats=3, dealer=0, hands={1: "9H 4C 2D 3D 6D"}, starter="5H")
    assert game.refuse(PlayCard(1, parse_card("9H"), -1, call)) == "call_not_due"


# ---- "Mau Mau"


def test_a_correctly_announced_last_card_wins_the_round_at_once():
    game = going_out(MAU_MAU)
    ended = game.round_end()
    assert (ended.winner, ended.reason) == (1, "went_out")
    assert ended.points == (2, 0, 2)
    assert game.s.phase == DEAL


def test_a_last_seven_announced_wins_at_once_and_its_debt_is_not_collected():
    game = going_out(MAU_MAU, card="7H", seat2="2C")
    ended = game.round_end()
    assert ended.winner == 1
    assert not game.of_type(CardsDrawn)
    assert game.hand(2) == {"2C"}
    assert game.s.debt == 0


def test_a_last_eight_announced_wins_at_once_and_skips_nobody():
    game = going_out(MAU_MAU, card="8H")
    assert game.round_end().winner == 1
    assert game.s.phase == DEAL
    assert game.refuse(PlayCard(0, parse_card("2S"))) == "round_not_dealt"


def test_a_last_jack_announced_wins_at_once():
    game = going_out(MAU_MAU, card="JS", named=0)
    assert game.round_end().winner == 1


def test_going_out_without_mau_mau_does_not_win_at_once():
    game = going_out(NO_CALL)
    played = game.of_type(CardPlayed)[-1]
    assert played.missed == MAU_MAU
    assert not game.of_type(RoundEnded)
    assert game.s.missed == (1, MAU_MAU)
    assert game.s.hands[1] == 0
    assert game.s.turn == 2


def test_a_challenged_missed_mau_mau_makes_the_offender_draw_two_and_the_round_continues():
    game = going_out(NO_CALL, seat2="9S", stock="KD QD KC")
    game.challenge(2)
    assert game.hand(1) == {"KD", "QD"}
    assert game.s.turn == 2
    game.play(2, "9S", call=MAU_MAU)  # seat 2 goes out instead
    assert game.round_end().winner == 2


def _plays_the_drawn_card(game: Game) -> None:
    game.draw(2)
    game.play(2, "KH", call=MAU)


def _keeps_the_drawn_card(game: Game) -> None:
    game.draw(2)
    game.keep(2)


def _draws(game: Game) -> None:
    game.draw(2)


@pytest.mark.parametrize(
    ("card", "stock", "completes_the_turn"),
    [
        ("9H", "KH QD", _plays_the_drawn_card),
        ("9H", "KH QD", _keeps_the_drawn_card),
        ("9H", "KD QD", _draws),  # K♦ cannot be played: the turn ends with the draw
        ("7H", "KD QD", _draws),  # the debt of the last 7
    ],
    ids=["plays", "keeps", "draws", "draws_the_debt"],
)
def test_an_unchallenged_missed_mau_mau_wins_when_the_next_players_turn_is_complete(
    card, stock, completes_the_turn
):
    game = going_out(NO_CALL, card=card, seat2="2C", stock=stock)
    completes_the_turn(game)
    ended = game.round_end()
    assert (ended.winner, ended.reason) == (1, "window_closed")
    assert ended.points[1] == 0
    assert ended.points[2] == sum(game.rules.card_points[name[:-1]] for name in game.hand(2))
    assert game.s.phase == DEAL


def test_before_the_next_player_completes_their_turn_the_missed_mau_mau_has_not_won():
    game = going_out(NO_CALL, seat2="2C", stock="KH QD KC")
    game.draw(2)
    assert game.s.phase == DRAWN
    assert not game.of_type(RoundEnded)
    game.challenge(0)
    assert game.hand(1) == {"QD", "KC"}
    game.play(2, "KH", call=MAU)
    assert not game.of_type(RoundEnded)


def test_mau_said_instead_of_mau_mau_counts_as_a_missed_mau_mau():
    game = going_out(MAU)
    played = game.of_type(CardPlayed)[-1]
    assert (played.call, played.missed) == (MAU, MAU_MAU)
    assert not game.of_type(RoundEnded)
    assert game.s.missed == (1, MAU_MAU)
    game.challenge(0)
    assert len(game.hand(1)) == 2


def test_if_the_closer_of_the_window_goes_out_correctly_during_it_the_closer_wins():
    game = going_out(NO_CALL, seat2="9S")
    game.play(2, "9S", call=MAU_MAU)
    ended = game.round_end()
    assert (ended.winner, ended.reason) == (2, "went_out")


def test_if_the_next_player_also_goes_out_without_mau_mau_the_first_offender_wins_as_the_window_closes():
    game = going_out(NO_CALL, seat2="9S")
    game.play(2, "9S")
    ended = game.round_end()
    assert (ended.winner, ended.reason) == (1, "window_closed")


def test_a_player_who_went_out_without_mau_mau_is_passed_over_when_their_eight_would_let_them_play_again():
    # Reading: with 2 players an 8 lets its player play again, but an empty-handed player who
    # awaits the challenge window is passed over, so the other player's turn closes the window.
    game = Game(ONE_CARD, seats=2, dealer=0, hands={0: "2C", 1: "8H"}, starter="5H", stock="KD QD")
    game.play(1, "8H")
    assert game.s.turn == 0
    assert game.s.missed == (1, MAU_MAU)
    game.draw(0)
    ended = game.round_end()
    assert (ended.winner, ended.reason) == (1, "window_closed")


STACK_EIGHTS_ONE_CARD = ruleset("classic", stack_eights=True, going_out_call=True, hand_size=1)


def test_a_waiting_skip_taken_after_a_last_eight_without_mau_mau_closes_the_window_and_the_eight_wins():
    # the skip taker's turn is complete: the empty-handed player wins then, and never moves again
    game = Game(
        STACK_EIGHTS_ONE_CARD, seats=2, dealer=0, hands={0: "9C", 1: "8H"}, starter="9H", stock="JD QD"
    )
    game.play(1, "8H")
    assert (game.s.skip_due, game.s.missed) == (True, (1, MAU_MAU))
    events = game.draw(0)
    assert isinstance(events[0], SkipTaken)
    ended = game.round_end()
    assert (ended.winner, ended.reason, ended.points) == (1, "window_closed", (9, 0))
    assert game.s.phase == DEAL


def test_a_waiting_skip_taken_closes_the_window_of_a_missed_mau():
    game = Game(
        ruleset("classic", stack_eights=True, hand_size=2),
        seats=3,
        dealer=0,
        hands={0: "9S 10S", 1: "8H 9C", 2: "10D KD"},
        starter="9H",
        stock="JD QD",
    )
    game.play(1, "8H")  # one card left, no "Mau"
    assert game.s.missed == (1, MAU)
    game.draw(2)  # takes the skip: the next player's turn is complete
    assert game.s.missed is None
    assert game.refuse(Challenge(0)) == "nothing_to_challenge"


def test_with_2_players_a_missed_mau_on_an_eight_stays_open_while_its_player_plays_again():
    game = Game(TWO_CARDS, seats=2, dealer=0, hands={0: "2C 3C", 1: "8H 9H"}, starter="5H", stock="KD QD")
    game.play(1, "8H")  # one card left, no "Mau"; seat 1 plays again
    assert (game.s.turn, game.s.missed) == (1, (1, MAU))
    assert legal_actions(game.s, 0) == (CHALLENGE,)
    game.challenge(0)
    assert game.hand(1) == {"9H", "KD", "QD"}
    assert game.s.turn == 1


def test_with_2_players_the_eights_player_closes_the_window_of_their_own_missed_mau():
    game = Game(TWO_CARDS, seats=2, dealer=0, hands={0: "2C 3C", 1: "8H 9H"}, starter="5H", stock="KD QD")
    game.play(1, "8H")
    game.play(1, "9H", call=MAU_MAU)  # goes out correctly during the window: wins
    assert game.round_end().winner == 1


def test_after_an_eight_the_window_lasts_until_the_turn_of_the_player_who_moves_next():
    # Reading: the skipped player has no turn; the window closes when the player after them is done
    game = Game(
        TWO_CARDS,
        seats=3,
        dealer=0,
        hands={0: "2H 3D", 1: "8H 4C", 2: "2C 3C"},
        starter="5H",
        stock="KD QD KS QS",
    )
    game.play(1, "8H")
    assert (game.s.turn, game.s.missed) == (0, (1, MAU))
    game.play(0, "2H", call=MAU)
    assert game.refuse(Challenge(2)) == "nothing_to_challenge"


@pytest.mark.parametrize("penalty", [0, 1, 3, 10])
def test_the_call_penalty_option_sets_how_many_cards_a_successful_challenge_costs(penalty):
    rules = ruleset("club", hand_size=2, call_penalty=penalty)
    game = down_to_one(NO_CALL, rules=rules)
    stock = game.stock_top_first()
    events = game.challenge(0)
    assert events[0] == MissedCallChallenged(0, 1, MAU)
    assert len(game.hand(1)) == 1 + penalty
    assert game.hand(1) >= set(stock[:penalty])
    if penalty == 0:
        assert len(events) == 1


def test_a_missed_call_costs_cards_never_points():
    game = down_to_one(NO_CALL)
    game.challenge(2)
    assert game.s.totals == [0, 0, 0]
    assert all(not isinstance(e, RoundEnded) for e in game.events)


def test_the_seat_recorded_as_skipped_is_never_the_seat_that_moves_next():
    # 2 players, the last card is an 8 played without "Mau Mau": the offender is passed over, so
    # the opponent moves next; the play event must not also say the opponent lost its turn.
    game = Game(ONE_CARD, seats=2, dealer=0, hands={0: "2C", 1: "8H"}, starter="5H", stock="KD QD")
    (played,) = game.play(1, "8H")
    assert played.turn == 0
    assert played.skipped != played.turn
    assert played.skipped == -1

"""The `classic` preset (variants.md): 32 cards; 7 draws 2, 8 skips, J wild, an ace is covered."""

import pytest

from service.domain.actions import DRAW, KEEP, play_action
from service.domain.cards import format_cards, parse_card
from service.domain.commands import PlayCard, StartMatch
from service.domain.engine import decide
from service.domain.errors import RuleError
from service.domain.events import CardPlayed, CardsDrawn, MatchStarted, SkipTaken
from service.domain.legal import call_due, legal_actions
from service.domain.rulebook import MAU_MAU, NO_CALL, rulebook
from service.domain.ruleset_options import ruleset
from service.domain.state import DEBT, PLAY, TURN, State
from tests.unit.scenario import Game

CLASSIC = ruleset("classic")


def act(card: str, suit: int = -1) -> int:
    return play_action(parse_card(card), suit)


def test_the_deck_is_the_32_cards_from_7_to_ace_for_2_to_5_players():
    deck = rulebook(CLASSIC).deck
    assert {name[:-1] for name in format_cards(deck)} == {"7", "8", "9", "10", "J", "Q", "K", "A"}
    assert len(deck) == 32
    assert (CLASSIC.min_players, CLASSIC.max_players, CLASSIC.hand_size) == (2, 5, 5)


def test_a_seven_makes_the_next_player_draw_2_and_another_seven_does_not_answer_it():
    game = Game(CLASSIC, seats=3, dealer=0, hands={1: "7H 8C 9C 10C KC", 2: "7C 8D 9D 10D KD"}, starter="9H")
    game.play(1, "7H")
    assert game.s.debt == 2
    assert legal_actions(game.s, 2) == (DRAW,)
    assert game.refuse(PlayCard(2, parse_card("7C"))) == "debt_pending"
    (drawn,) = game.draw(2)
    assert isinstance(drawn, CardsDrawn) and (len(drawn.cards), drawn.reason) == (2, DEBT)
    assert (game.s.turn, game.s.debt) == (2, 0)


def test_the_drawer_of_a_sevens_debt_may_then_play_a_card_that_fits_the_seven():
    hands = {1: "7H 8C 9C 10C KC", 2: "7C 8D 9D 10D QH"}
    game = Game(CLASSIC, seats=3, dealer=0, hands=hands, starter="9H", stock="8S 9S")
    game.play(1, "7H")
    (drawn,) = game.draw(2)
    assert isinstance(drawn, CardsDrawn) and (drawn.turn, drawn.phase) == (2, PLAY)
    assert set(legal_actions(game.s, 2)) == {act("7C"), act("QH")}  # a seven, a heart; no draw
    assert game.refuse(PlayCard(2, parse_card("9S"))) == "card_does_not_match"
    (played,) = game.play(2, "QH")
    assert isinstance(played, CardPlayed) and played.turn == 0


def test_the_drawer_of_a_sevens_debt_with_nothing_that_fits_draws_1_as_any_turn_and_may_keep_it():
    hands = {1: "7H 8C 9C 10C KC", 2: "8D 9D 10D KD AD"}
    game = Game(CLASSIC, seats=3, dealer=0, hands=hands, starter="9H", stock="8S 9S 7S")
    game.play(1, "7H")
    game.draw(2)
    assert legal_actions(game.s, 2) == (DRAW,)
    (drawn,) = game.draw(2)
    assert isinstance(drawn, CardsDrawn) and drawn.cards == (parse_card("7S"),) and drawn.reason == TURN
    assert legal_actions(game.s, 2) == (act("7S"), KEEP)
    game.keep(2)
    assert game.s.turn == 0


def test_a_starting_seven_makes_the_first_player_draw_2_and_then_play():
    game = Game(CLASSIC, seats=3, dealer=0, hands={1: "9H 8C 9C 10C KC"}, starter="7H")
    assert (game.s.turn, game.s.debt) == (1, 2)
    game.draw(1)
    assert (game.s.turn, game.s.debt) == (1, 0)
    assert act("9H") in legal_actions(game.s, 1)


def test_with_stack_sevens_a_seven_passes_the_debt_on_growing_by_2():
    rules = ruleset("classic", stack_sevens=True)
    game = Game(rules, seats=3, dealer=0, hands={1: "7H 8C 9C 10C KC", 2: "7C 8D 9D 10D KD"}, starter="9H")
    game.play(1, "7H")
    assert legal_actions(game.s, 2) == (act("7C"), DRAW)
    (played,) = game.play(2, "7C")
    assert isinstance(played, CardPlayed) and (played.debt, played.turn) == (4, 0)


def test_an_eight_skips_the_next_player():
    game = Game(CLASSIC, seats=3, dealer=0, hands={1: "8H 9C 10C KC QC"}, starter="9H")
    (played,) = game.play(1, "8H")
    assert isinstance(played, CardPlayed) and (played.skipped, played.turn) == (2, 0)


def test_a_jack_is_wild_and_names_the_suit():
    game = Game(CLASSIC, seats=2, dealer=0, hands={1: "JC 9C 10C KC QC"}, starter="9H")
    game.play(1, "JC", "S")
    assert game.s.named_suit == 3
    assert game.s.turn == 0


def test_an_ace_keeps_the_turn_with_its_player_who_covers_it_with_a_matching_card():
    game = Game(CLASSIC, seats=3, dealer=0, hands={1: "AH KH 9C 10C QC"}, starter="9H")
    (played,) = game.play(1, "AH")
    assert isinstance(played, CardPlayed) and played.turn == 1
    assert set(legal_actions(game.s, 1)) == {act("KH")}
    game.play(1, "KH")
    assert game.s.turn == 2


def test_a_player_who_cannot_cover_the_ace_draws_1_and_the_turn_passes():
    game = Game(CLASSIC, seats=3, dealer=0, hands={1: "AH 9C 10C QC KC"}, starter="9H", stock="8D")
    game.play(1, "AH")
    assert legal_actions(game.s, 1) == (DRAW,)
    (drawn,) = game.draw(1)
    assert isinstance(drawn, CardsDrawn) and drawn.turn == 2 and game.s.phase == PLAY


def test_an_ace_may_not_be_the_last_card_so_its_holder_draws_instead():
    game = Game(ruleset("classic", hand_size=1), seats=2, dealer=0, hands={1: "AH"}, starter="9H", stock="KD")
    assert legal_actions(game.s, 1) == (DRAW,)
    assert game.refuse(PlayCard(1, parse_card("AH"), -1, MAU_MAU)) == "cannot_go_out"
    game.draw(1)
    assert game.hand(1) == {"AH", "KD"}


@pytest.mark.parametrize(("card", "call"), [("JH", MAU_MAU), ("9H", NO_CALL)])
def test_going_out_is_called_mau_mau_only_on_a_jack(card, call):
    game = Game(ruleset("classic", hand_size=1), seats=2, dealer=0, hands={1: card}, starter="10H")
    assert call_due(game.s, 1, parse_card(card)) == call


def test_the_hand_size_option_deals_6():
    assert ruleset("classic", hand_size=6).hand_size == 6


def test_an_option_of_another_preset_is_refused_as_not_fitting_classic():
    with pytest.raises(RuleError) as refused:
        ruleset("classic", king_of_spades=True)
    assert refused.value.code == "invalid_option"
    assert "prsi" in str(refused.value)


def test_with_two_decks_classic_seats_up_to_12_players():
    rules = ruleset("classic", decks=2)
    (started,) = decide(State(), StartMatch(rules, 12, 0))
    assert isinstance(started, MatchStarted) and started.seats == 12
    with pytest.raises(RuleError) as refused:
        decide(State(), StartMatch(rules, 13, 0))
    assert refused.value.code == "player_count" and "2 to 12 players" in str(refused.value)


def test_with_one_deck_classic_still_seats_at_most_5():
    with pytest.raises(RuleError) as refused:
        decide(State(), StartMatch(CLASSIC, 6, 0))
    assert refused.value.code == "player_count"


def test_with_two_decks_and_six_cards_each_classic_deals_at_most_10_players():
    with pytest.raises(RuleError) as refused:
        decide(State(), StartMatch(ruleset("classic", decks=2, hand_size=6), 11, 0))
    assert refused.value.code == "invalid_option" and "at most 10 players" in str(refused.value)


STACK_EIGHTS = ruleset("classic", stack_eights=True)
EIGHTS = {1: "8H 9C 10C KC QC", 2: "8C 9D 10D KD QD", 3: "9S 10S KS QS 7S", 0: "7C 7D 10H KH QH"}


def test_without_stack_eights_an_eight_skips_the_next_player_at_once():
    game = Game(CLASSIC, seats=4, dealer=0, hands=EIGHTS, starter="9H")
    (played,) = game.play(1, "8H")
    assert isinstance(played, CardPlayed) and (played.turn, played.skipped) == (3, 2)


def test_with_stack_eights_the_next_player_may_pass_the_skip_on_with_an_eight_or_take_it():
    game = Game(STACK_EIGHTS, seats=4, dealer=0, hands=EIGHTS, starter="9H")
    (played,) = game.play(1, "8H")
    assert isinstance(played, CardPlayed) and (played.turn, played.skipped) == (2, -1)
    assert game.s.skip_due
    assert legal_actions(game.s, 2) == (act("8C"), DRAW)
    assert game.refuse(PlayCard(2, parse_card("9D"))) == "skip_pending"
    assert game.refuse(PlayCard(2, parse_card("QD"))) == "skip_pending"


def test_an_eight_passes_the_skip_on_and_the_player_who_takes_it_is_the_one_skipped():
    game = Game(STACK_EIGHTS, seats=4, dealer=0, hands=EIGHTS, starter="9H")
    game.play(1, "8H")
    game.play(2, "8C")
    assert (game.s.turn, game.s.skip_due) == (3, True)
    assert legal_actions(game.s, 3) == (DRAW,)  # no eight: only taking the skip
    (taken,) = game.draw(3)
    assert taken == SkipTaken(3, 0)
    assert (game.s.turn, game.s.skip_due, game.s.hands[3].bit_count()) == (0, False, 5)
    # the next player follows the eight of clubs as an ordinary top card again
    assert legal_actions(game.s, 0) == (act("7C"),)


def test_with_two_players_the_eights_player_moves_again_when_the_skip_is_taken():
    game = Game(
        STACK_EIGHTS, seats=2, dealer=0, hands={1: "8H 9C 10C KC QC", 0: "9D 10D KD QD AD"}, starter="9H"
    )
    game.play(1, "8H")
    game.draw(0)
    assert (game.s.turn, game.s.phase) == (1, PLAY)


def test_a_starting_eight_skips_the_first_player_at_once_even_with_stack_eights():
    game = Game(STACK_EIGHTS, seats=3, dealer=0, starter="8H")
    assert (game.s.turn, game.s.skip_due) == (2, False)


GOING_OUT_CALL = ruleset("classic", going_out_call=True, hand_size=1)


@pytest.mark.parametrize("card", ["JH", "9H"])
def test_with_going_out_call_going_out_on_any_card_is_called(card):
    game = Game(GOING_OUT_CALL, seats=2, dealer=0, hands={1: card}, starter="10H")
    assert call_due(game.s, 1, parse_card(card)) == MAU_MAU


def test_with_going_out_call_going_out_uncalled_does_not_win_and_a_challenge_costs_the_penalty():
    game = Game(GOING_OUT_CALL, seats=2, dealer=0, hands={1: "9H", 0: "KS"}, starter="10H", stock="8D")
    (played,) = game.play(1, "9H")
    assert isinstance(played, CardPlayed) and played.missed == MAU_MAU
    assert game.s.phase == PLAY and game.s.hands[1] == 0
    game.challenge(0)
    assert game.hand(1) == {"8D"} and game.s.phase == PLAY


def test_with_going_out_call_going_out_with_the_call_wins_the_round():
    game = Game(GOING_OUT_CALL, seats=2, dealer=0, hands={1: "9H"}, starter="10H")
    game.play(1, "9H", call=MAU_MAU)
    assert (game.round_end().winner, game.round_end().reason) == (1, "went_out")


def test_without_going_out_call_going_out_on_a_card_that_is_not_a_jack_owes_no_call():
    game = Game(
        ruleset("classic", going_out_call=False, hand_size=1),
        seats=2,
        dealer=0,
        hands={1: "9H"},
        starter="10H",
    )
    assert game.refuse(PlayCard(1, parse_card("9H"), -1, MAU_MAU)) == "call_not_due"
    game.play(1, "9H")
    assert game.round_end().winner == 1


def test_going_out_call_is_on_or_off_only():
    with pytest.raises(RuleError) as refused:
        ruleset("classic", going_out_call="yes")
    assert refused.value.code == "invalid_option"

"""The `pesten` preset (variants.md): 2 draws 2 and stacks, 7 and K play again, 8 skips, A reverses."""

import msgspec

from service.domain.actions import CHALLENGE, DRAW, KEEP, play_action
from service.domain.cards import parse_card, rank_name
from service.domain.commands import Challenge, DrawCard, KeepCard, PlayCard
from service.domain.events import CardPlayed, CardsDrawn, TurnPassed
from service.domain.legal import legal_actions
from service.domain.presets import CLUB
from service.domain.rulebook import MAU, rulebook
from service.domain.ruleset_options import ruleset
from service.domain.state import DRAWN
from tests.unit.scenario import Game, mask

PESTEN = ruleset("pesten")
PESTEN_OF_TWO = ruleset("pesten", hand_size=2)
HANDS = {1: "2H 7H KH 8H AH JC 9C", 2: "2C 3D 4D 5D 6D 9D 10D"}


def act(card: str, suit: int = -1) -> int:
    return play_action(parse_card(card), suit)


def game(**kwargs) -> Game:
    kwargs.setdefault("hands", HANDS)
    return Game(PESTEN, seats=3, dealer=0, starter="3H", **kwargs)


def test_seven_cards_are_dealt_from_52():
    assert (PESTEN.hand_size, len(PESTEN.ranks)) == (7, 13)


def test_a_two_draws_2_and_another_two_stacks_it():
    g = game()
    g.play(1, "2H")
    assert legal_actions(g.s, 2) == (act("2C"), DRAW)
    (played,) = g.play(2, "2C")
    assert isinstance(played, CardPlayed) and played.debt == 4


def test_a_seven_and_a_king_let_their_player_play_again():
    g = game()
    for card in ("7H", "KH"):
        (played,) = g.play(1, card)
        assert isinstance(played, CardPlayed) and played.turn == 1


def test_after_a_seven_its_player_may_end_the_turn_instead_of_playing_again():
    g = game()
    g.play(1, "7H")
    assert set(legal_actions(g.s, 1)) == {
        act("2H"),
        act("KH"),
        act("8H"),
        act("AH"),
        *(act("JC", suit) for suit in range(4)),
        KEEP,
    }
    assert g.refuse(KeepCard(2)) == "not_your_turn"
    (passed,) = g.keep(1)
    assert passed == TurnPassed(1, 2)
    assert (g.s.turn, g.s.passing, g.top(), len(g.hand(1))) == (2, False, "7H", 6)
    assert g.refuse(KeepCard(2)) == "nothing_to_keep"  # the next player has an ordinary turn


def test_after_a_king_with_nothing_that_fits_its_player_ends_the_turn_without_drawing():
    g = Game(PESTEN, seats=3, dealer=0, hands={1: "KH 9C 3D 4D 5D 6D 10D"}, starter="3H")
    g.play(1, "KH")
    assert legal_actions(g.s, 1) == (KEEP,)
    assert g.refuse(DrawCard(1)) == "draw_not_allowed"
    g.keep(1)
    assert (g.s.turn, len(g.hand(1))) == (2, 6)


def test_a_missed_last_card_with_a_seven_may_still_be_challenged_after_its_player_ends_the_turn():
    g = Game(PESTEN_OF_TWO, seats=3, dealer=0, hands={1: "7H 9C", 2: "4H 6D"}, starter="5H")
    g.play(1, "7H")
    assert g.s.missed == (1, MAU)
    g.keep(1)
    assert CHALLENGE in legal_actions(g.s, 0)  # the pass is no play and no draw
    g.challenge(0)
    assert len(g.hand(1)) == 1 + 5


def test_the_last_card_penalty_may_be_the_seven_cards_of_a_whole_new_hand():
    g = missed_last_card(ruleset("pesten", hand_size=2, call_penalty=7))
    g.challenge(0)
    assert g.s.hands[1].bit_count() == 1 + 7


def test_an_eight_skips_the_next_player():
    g = game()
    (played,) = g.play(1, "8H")
    assert isinstance(played, CardPlayed) and (played.skipped, played.turn) == (2, 0)


def test_an_ace_reverses_the_direction():
    g = game()
    (played,) = g.play(1, "AH")
    assert isinstance(played, CardPlayed) and (played.direction, played.turn) == (-1, 0)


def test_a_jack_is_wild_and_names_the_suit():
    g = game()
    g.play(1, "JC", "D")
    assert g.s.named_suit == 1


def test_no_effect_card_may_be_the_last_card():
    for card in ("2H", "7H", "8H", "JH", "KH", "AH"):
        g = Game(ruleset("pesten", hand_size=1), seats=2, dealer=0, hands={1: card}, starter="3H")
        assert legal_actions(g.s, 1) == (DRAW,), card
        assert g.refuse(PlayCard(1, parse_card(card), 0 if card == "JH" else -1)) == "cannot_go_out"


def test_an_ordinary_last_card_ends_the_hand():
    g = Game(ruleset("pesten", hand_size=1), seats=2, dealer=0, hands={1: "3C"}, starter="3H")
    assert legal_actions(g.s, 1) == (act("3C"),)


def test_a_missed_last_card_call_costs_5():
    assert PESTEN.call_penalty == 5 and PESTEN.mau_call


def test_with_two_effect_cards_left_either_may_be_played():
    g = Game(ruleset("pesten", hand_size=2), seats=2, dealer=0, hands={1: "7H 8H"}, starter="3H")
    assert {act("7H"), act("8H")} <= set(legal_actions(g.s, 1))


def test_the_deck_holds_two_jokers_and_the_decks_option_doubles_it():
    assert len(rulebook(PESTEN).deck) == 54
    assert sum(1 for c in rulebook(PESTEN).deck if rank_name(c) == "joker") == 2
    two = rulebook(ruleset("pesten", decks=2)).deck
    assert len(two) == 108 and parse_card("7H.2") in two


def test_a_joker_is_playable_on_anything_names_a_suit_and_draws_5():
    g = game(hands={1: "X1 3C 4C 5C 6C 9C 10C"})
    g.play(1, "X1", "D")
    assert (g.s.debt, g.s.named_suit, g.s.turn) == (5, 1, 2)


def test_twos_and_jokers_stack_on_each_other():
    g = game(hands={1: "X1 3C 4C 5C 6C 9C 10C", 2: "2C 3D 4D 5D 6D 9D 10D", 0: "X2 3S 4S 5S 6S 9S 10S"})
    g.play(1, "X1", "D")
    assert legal_actions(g.s, 2)[0] == act("2C")
    g.play(2, "2C")
    assert g.s.debt == 7
    assert act("X2", 0) in legal_actions(g.s, 0)
    g.play(0, "X2", "C")
    assert g.s.debt == 12


def test_a_joker_left_in_a_hand_counts_20_in_either_deck():
    book = rulebook(ruleset("pesten", decks=2))
    assert book.hand_points(mask("X1 X2.2 7H 7H.2")) == 20 + 20 + 7 + 7


def test_a_second_deck_copy_plays_as_its_twin():
    rules = ruleset("pesten", decks=2)
    g = Game(rules, seats=2, dealer=0, hands={1: "3H.2 4C 5C 6C 9C 10C QC"}, starter="3H")
    g.play(1, "3H.2")
    assert g.top() == "3H.2"


def missed_last_card(rules=PESTEN_OF_TWO) -> Game:
    """Seat 1 plays 3♥ leaving one card without saying "last card"; seat 2 cannot play."""
    g = Game(rules, seats=3, dealer=0, hands={1: "3H 9C", 2: "4D 6D"}, starter="5H", stock="10H")
    g.play(1, "3H")
    assert g.s.missed == (1, MAU)
    return g


def test_a_missed_last_card_may_be_challenged_before_the_next_player_moves():
    g = missed_last_card()
    g.challenge(0)
    assert g.s.hands[1].bit_count() == 1 + 5


def test_the_window_for_a_missed_last_card_closes_when_the_next_player_draws_a_card_they_may_play():
    g = missed_last_card()
    (drawn,) = g.draw(2)
    assert isinstance(drawn, CardsDrawn) and g.s.phase == DRAWN  # 10♥ may still be played
    assert CHALLENGE not in legal_actions(g.s, 0)
    assert g.refuse(Challenge(0)) == "nothing_to_challenge"


def test_in_club_the_window_stays_open_while_the_next_player_holds_a_drawn_card_they_may_play():
    club = msgspec.structs.replace(PESTEN_OF_TWO, window_closes_on_draw=False)
    g = missed_last_card(club)
    g.draw(2)
    assert g.s.phase == DRAWN and CHALLENGE in legal_actions(g.s, 0)
    assert not CLUB.window_closes_on_draw


def test_the_window_closes_when_the_next_player_plays():
    g = Game(PESTEN_OF_TWO, seats=3, dealer=0, hands={1: "3H 9C", 2: "4H 6D"}, starter="5H")
    g.play(1, "3H")
    g.play(2, "4H", call=MAU)  # said right: nothing new to challenge
    assert g.refuse(Challenge(0)) == "nothing_to_challenge"

"""The `pesten` preset (variants.md): 2 draws 2 and stacks, 7 and K play again, 8 skips, A reverses."""

from service.domain.actions import DRAW, play_action
from service.domain.cards import parse_card
from service.domain.commands import PlayCard
from service.domain.engine import legal_actions
from service.domain.events import CardPlayed
from service.domain.rulesets import ruleset
from tests.unit.scenario import Game

PESTEN = ruleset("pesten")
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

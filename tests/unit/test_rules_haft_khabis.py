"""The `haft-khabis` preset (variants.md): J wild, 7 draws 2, A skips, 8 covered, 10 reverses, 2 chooses."""

from service.domain.actions import CHOOSE, DRAW, play_action
from service.domain.cards import parse_card
from service.domain.commands import ChoosePlayer, DrawCard, PlayCard
from service.domain.events import CardPlayed, CardsDrawn, PlayerChosen
from service.domain.legal import legal_actions
from service.domain.ruleset_options import ruleset
from service.domain.state import CHOOSING, EFFECT, PLAY
from tests.unit.scenario import Game

HAFT = ruleset("haft-khabis")


def act(card: str, suit: int = -1) -> int:
    return play_action(parse_card(card), suit)


def test_a_two_lets_its_player_choose_another_player_who_draws_1():
    game = Game(HAFT, seats=3, dealer=0, hands={1: "2H 3C 4C 6C 9C"}, starter="5H", stock="KD")
    (played,) = game.play(1, "2H")
    assert isinstance(played, CardPlayed) and (played.turn, played.phase) == (1, CHOOSING)
    assert legal_actions(game.s, 1) == (CHOOSE + 0, CHOOSE + 2)
    chosen, drawn = game.do(ChoosePlayer(1, 0))
    assert isinstance(chosen, PlayerChosen) and chosen.turn == 2
    assert isinstance(drawn, CardsDrawn) and (drawn.seat, drawn.reason) == (0, EFFECT)
    assert "KD" in game.hand(0)
    assert (game.s.turn, game.s.phase) == (2, PLAY)


def test_while_choosing_the_player_may_not_play_or_draw_nor_choose_themselves():
    game = Game(HAFT, seats=3, dealer=0, hands={1: "2H 3C 4C 6C 9C"}, starter="5H")
    game.play(1, "2H")
    assert game.refuse(DrawCard(1)) == "player_not_chosen"
    assert game.refuse(PlayCard(1, parse_card("3C"))) == "player_not_chosen"
    assert game.refuse(ChoosePlayer(1, 1)) == "invalid_choice"
    assert game.refuse(ChoosePlayer(2, 0)) == "not_your_turn"
    assert game.refuse(ChoosePlayer(1, 3)) == "not_a_seat"


def test_an_eight_must_be_covered_and_may_not_be_the_last_card():
    game = Game(HAFT, seats=3, dealer=0, hands={1: "8H 9H 4C 6C 9C"}, starter="5H")
    (played,) = game.play(1, "8H")
    assert isinstance(played, CardPlayed) and played.turn == 1
    single = Game(ruleset("haft-khabis", hand_size=1), seats=2, dealer=0, hands={1: "8H"}, starter="5H")
    assert legal_actions(single.s, 1) == (DRAW,)


def test_a_seven_draws_2_and_is_not_answered():
    game = Game(HAFT, seats=3, dealer=0, hands={1: "7H 3C 4C 6C 9C", 2: "7C 3D 4D 6D 9D"}, starter="5H")
    game.play(1, "7H")
    assert legal_actions(game.s, 2) == (DRAW,)


def test_an_ace_skips_a_ten_reverses_a_jack_is_wild():
    game = Game(HAFT, seats=4, dealer=0, hands={1: "AH 3C 4C 6C 9C", 3: "10H JD 4D 6D 9D"}, starter="5H")
    (skip,) = game.play(1, "AH")
    assert isinstance(skip, CardPlayed) and (skip.skipped, skip.turn) == (2, 3)
    (rev,) = game.play(3, "10H")
    assert isinstance(rev, CardPlayed) and (rev.direction, rev.turn) == (-1, 2)
    assert HAFT.effects["J"].wild


def test_the_drawer_of_a_sevens_debt_may_then_play_a_card_that_fits():
    hands = {1: "7H 3C 4C 6C 9C", 2: "3D 4D 6D 9D KH"}
    game = Game(HAFT, seats=3, dealer=0, hands=hands, starter="5H", stock="3S 4S")
    game.play(1, "7H")
    (drawn,) = game.draw(2)
    assert isinstance(drawn, CardsDrawn) and (drawn.turn, drawn.phase) == (2, PLAY)
    assert legal_actions(game.s, 2) == (act("KH"),)
    (played,) = game.play(2, "KH")
    assert isinstance(played, CardPlayed) and played.turn == 0

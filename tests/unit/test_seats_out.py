"""Seats out of the match (``State.out``, set by the match's elimination) are passed over by every turn."""

import pytest

from service.domain.actions import CHALLENGE, CHOOSE
from service.domain.cards import parse_card
from service.domain.commands import Challenge, ChoosePlayer, Command, DrawCard, KeepCard, PlayCard
from service.domain.engine import decide
from service.domain.errors import RuleError
from service.domain.events import CardPlayed, CardsDrawn, Event
from service.domain.legal import legal_actions
from service.domain.rulebook import NO_CALL
from service.domain.ruleset_options import ruleset
from service.domain.state import DRAWN
from tests.unit.scenario import Game


def out_of(game: Game, *seats: int) -> Game:
    for seat in seats:
        game.s.out |= 1 << seat
    return game


def step(game: Game, command: Command) -> list[Event]:
    """``Game.do`` without its fold check: the fold of these events knows no seat out yet."""
    events = decide(game.s, command)
    for event in events:
        event.apply(game.s)
    return events


def play(game: Game, seat: int, card: str, suit: int = -1) -> list[Event]:
    return step(game, PlayCard(seat, parse_card(card), suit, NO_CALL))


def test_the_next_seat_passes_over_a_seat_out():
    game = out_of(Game(seats=4, dealer=0, hands={1: "9H 3C 4C 6C 10C"}, starter="5H"), 2)
    (played,) = play(game, 1, "9H")
    assert isinstance(played, CardPlayed) and played.turn == 3


def test_a_skip_skips_the_next_seat_still_in():
    game = out_of(Game(seats=4, dealer=0, hands={1: "8H 3C 4C 6C 10C"}, starter="5H"), 2)
    (played,) = play(game, 1, "8H")
    assert isinstance(played, CardPlayed) and (played.skipped, played.turn) == (3, 0)


def test_with_two_players_left_a_skip_gives_the_turn_back_to_its_player():
    game = out_of(Game(seats=3, dealer=0, hands={1: "8H 3C 4C 6C 10C"}, starter="5H"), 0)
    (played,) = play(game, 1, "8H")
    assert isinstance(played, CardPlayed) and (played.skipped, played.turn) == (2, 1)


def test_a_draw_and_a_keep_pass_the_turn_over_a_seat_out():
    hands = {1: "2C 3C 4C 6C 10C", 3: "2D 3D 4D 6D 10D"}
    game = out_of(Game(seats=4, dealer=0, hands=hands, starter="5H", stock="KD 9H"), 2)
    (drawn,) = step(game, DrawCard(1))
    assert isinstance(drawn, CardsDrawn) and drawn.turn == 3
    step(game, DrawCard(3))
    assert game.s.phase == DRAWN
    step(game, KeepCard(3))
    assert game.s.turn == 0


def test_every_other_player_still_in_draws_and_a_seat_out_does_not():
    rules = ruleset("prsi", ten_of_hearts=True)
    game = out_of(Game(rules, seats=4, dealer=0, hands={1: "10H 9C 10C KC"}, starter="9H", stock="8D 8S"), 3)
    _, *draws = play(game, 1, "10H")
    assert [event.seat for event in draws if isinstance(event, CardsDrawn)] == [2, 0]


def test_a_seat_out_cannot_be_chosen_to_draw():
    game = Game(ruleset("haft-khabis"), seats=4, dealer=0, hands={1: "2H 3C 4C 6C 9C"}, starter="5H")
    out_of(game, 2)
    play(game, 1, "2H")
    assert legal_actions(game.s, 1) == (CHOOSE + 0, CHOOSE + 3)
    with pytest.raises(RuleError) as refused:
        decide(game.s, ChoosePlayer(1, 2))
    assert refused.value.code == "invalid_choice"


def test_a_seat_out_is_offered_no_challenge_and_may_not_make_one():
    game = Game(ruleset("club", hand_size=2), seats=4, dealer=0, hands={1: "9H 4C"}, starter="5H")
    out_of(game, 3)
    play(game, 1, "9H")  # "Mau" not said
    assert CHALLENGE in legal_actions(game.s, 2)
    assert CHALLENGE not in legal_actions(game.s, 3)
    with pytest.raises(RuleError) as refused:
        decide(game.s, Challenge(3))
    assert refused.value.code == "seat_out"

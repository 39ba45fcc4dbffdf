"""A turn clock that runs out: a clock bot plays the turn, flagged by TurnTimedOut."""

import uuid
from collections.abc import Iterator
from typing import Any

import pytest

from service.domain.engine import fold
from service.domain.errors import RuleError
from service.domain.events import CardPlayed, CardsDrawn, DeclarationChallenged
from service.domain.game import Game
from service.domain.history import Cause
from service.domain.presets import CLUB
from service.domain.roles import SYSTEM, Actor
from service.domain.ruleset_options import ruleset
from service.domain.rulesets import Ruleset
from service.domain.seats import Seat
from service.domain.state import DEAL, DRAWN, NAMING_SUIT, PLAY
from tests.gameplay import SAME_ENTROPY

PLAYERS = [str(uuid.UUID(int=n)) for n in range(1, 4)]


def new_game(seed: str = "clock", entropy: str = SAME_ENTROPY, rules: Ruleset = CLUB) -> Game:
    return Game.create(
        ruleset=rules,
        seats=tuple(Seat("player", player) for player in PLAYERS),
        seed=seed,
        cause=Cause(SYSTEM, "CreateGame"),
        entropy=entropy,
    )


def timed_out(game: Game) -> list:
    """The events of timing out the seat to move (every event stays pending: nothing saves)."""
    before = len(game.pending_events)
    game.time_out_turn(game.seat_to_move, Cause(SYSTEM, "TimeOutTurn"))
    return game.pending_events[before:]


def timed_out_turns(game: Game, most: int) -> Iterator[tuple[int, list[Any]]]:
    """Turns the clock plays, at most ``most``, while a player is to move: each one's seat and facts."""
    for _ in range(most):
        if game.over or game.state.phase not in (PLAY, DRAWN):
            return
        seat = game.seat_to_move
        yield seat, [e.fact for e in timed_out(game) if isinstance(e, Game.Fact)]


def test_a_timed_out_turn_is_flagged_and_then_played_by_the_clock_bot():
    game = new_game()
    seat = game.seat_to_move
    events = timed_out(game)
    assert isinstance(events[0], Game.TurnTimedOut) and events[0].seat == seat
    moves = [event.fact for event in events[1:] if isinstance(event, Game.Fact)]
    assert moves and moves[0].seat == seat
    # the whole turn is played: nobody is left deciding on a drawn card for that seat
    assert not (game.state.phase == DRAWN and game.state.turn == seat)
    assert game.state == fold(e.fact for e in game.pending_events if isinstance(e, Game.Fact))


def test_the_clock_bot_plays_the_same_turn_for_the_same_history():
    first, second = new_game("same"), new_game("same")
    assert [type(e.fact) for e in timed_out(first)[1:]] == [type(e.fact) for e in timed_out(second)[1:]]
    assert first.state == second.state


def test_only_the_seat_to_move_can_time_out():
    game = new_game()
    other = (game.seat_to_move + 1) % 3
    if game.state.phase == NAMING_SUIT:
        other = (game.state.dealer + 1) % 3
    with pytest.raises(RuleError) as refused:
        game.time_out_turn(other, Cause(SYSTEM, "TimeOutTurn"))
    assert refused.value.code == "not_your_turn"


def test_a_player_cannot_time_out_a_turn():
    game = new_game()
    with pytest.raises(RuleError) as refused:
        game.time_out_turn(game.seat_to_move, Cause(Actor("player", PLAYERS[0]), "TimeOutTurn"))
    assert refused.value.code == "not_allowed"


def test_a_timed_out_turn_is_played_to_its_end_through_cards_that_let_the_player_move_again():
    again_played = 0
    for seed in range(6):
        game = new_game(f"again {seed}", rules=ruleset("pesten", single_round=True))
        for seat, facts in timed_out_turns(game, 40):
            plays = [fact for fact in facts if isinstance(fact, CardPlayed)]
            again_played += sum(1 for play in plays[:-1] if game.state.book.again[play.card])
            s = game.state
            if not game.over and s.phase != DEAL:
                assert not (s.turn == seat and s.phase == PLAY and s.book.again[s.top]), (
                    "the turn was left half played"
                )
    assert again_played > 0


def test_a_timed_out_turn_after_a_challenge_of_a_face_down_card_goes_on_to_its_move():
    challenges = 0
    for seed in range(12):
        game = new_game(f"blind {seed}", rules=ruleset("club", blind=True, single_round=True))
        for seat, facts in timed_out_turns(game, 60):
            if any(isinstance(fact, DeclarationChallenged) for fact in facts):
                challenges += 1
                # the challenger moved after the challenge: a play or a draw of its own
                assert any(isinstance(f, CardPlayed | CardsDrawn) and f.seat == seat for f in facts[2:])
    assert challenges > 0

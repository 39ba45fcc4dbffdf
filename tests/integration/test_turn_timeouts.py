"""A timed-out turn through the application, on PostgreSQL and on SQLite."""

import pytest

from service.domain.engine import fold
from service.domain.errors import RuleError
from service.domain.game import Game
from service.domain.roles import Actor
from tests.integration.tables import players


def test_a_timed_out_turn_is_stored_flagged_and_played_for_the_seat(app):
    ann, bob, cid = players(app, 3)
    created = app.create_game([ann, bob, cid], seed=7)
    seat = app.get_game(created.game_id).seat_to_move
    outcome = app.time_out_turn(created.game_id, seat, expected_version=created.version)
    flagged, first_move = outcome.events[0], outcome.events[1]
    assert isinstance(flagged, Game.TurnTimedOut) and flagged.seat == seat
    assert isinstance(first_move, Game.Fact) and first_move.fact.seat == seat
    stored = app.game_events(created.game_id)
    assert stored[-len(outcome.events) :] == list(outcome.events)
    assert app.get_game(created.game_id).state == fold(e.fact for e in stored if isinstance(e, Game.Fact))


def test_a_player_cannot_time_out_a_turn_and_nothing_is_stored(app):
    ann, bob = players(app, 2)
    created = app.create_game([ann, bob], seed=7)
    game = app.get_game(created.game_id)
    with pytest.raises(RuleError) as refused:
        app.time_out_turn(created.game_id, game.seat_to_move, by=Actor("player", str(ann)))
    assert refused.value.code == "not_allowed"
    assert len(app.game_events(created.game_id)) == created.version

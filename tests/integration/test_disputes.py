"""Disputes and rulings through the application: the pause, each ruling, and the replay of it all."""

import random

import pytest

from service.domain.adjudication import Penalty, Resume, Void
from service.domain.errors import RuleError
from service.domain.events import CardsDrawn
from service.domain.roles import Actor
from service.domain.state import PENALTY
from tests.gameplay import next_command
from tests.integration.tables import REFEREE, count_events, players


def game_with_moves(app, moves: int, seats: int = 3, seed: int = 1):
    ids = players(app, seats)
    game_id = app.create_game(ids, seed=seed).game_id
    rng = random.Random(seed)
    for _ in range(moves):
        game = app.get_game(game_id)
        app.execute(game_id, next_command(game.state, rng, challenge_rate=0), expected_version=game.version)
    return game_id, ids


def test_raising_a_dispute_pauses_the_game_at_once_and_the_replay_shows_it(app):
    game_id, ids = game_with_moves(app, 4)
    outcome = app.raise_dispute(
        game_id, reason="J played on a 7 debt", about=5, by=Actor("player", str(ids[2]))
    )
    (raised,) = outcome.events
    assert raised.dispute.seat == 2 and raised.dispute.about == 5
    view = app.replay(game_id)
    assert view.paused and view.dispute == raised.dispute
    before = count_events(app, game_id)
    turn = app.get_game(game_id).state.turn
    for move in (lambda: app.draw(game_id, turn), lambda: app.challenge(game_id, (turn + 1) % 3)):
        with pytest.raises(RuleError) as refused:
            move()
        assert refused.value.code == "game_paused"
    assert count_events(app, game_id) == before
    entry = app.history(game_id)[-1]
    assert entry.type == "DisputeRaised" and entry.cause.actor == Actor("player", str(ids[2]))


def test_a_resume_ruling_lets_the_game_go_on_unchanged(app):
    game_id, _ = game_with_moves(app, 3)
    state = app.get_game(game_id).state
    app.raise_dispute(game_id, by=REFEREE)
    with pytest.raises(RuleError) as refused:
        app.give_ruling(game_id, Resume(), by=Actor("player", "someone"))
    assert refused.value.code == "not_allowed"
    outcome = app.give_ruling(game_id, Resume(), note="no fault found", by=REFEREE)
    assert [type(e).__name__ for e in outcome.events] == ["RulingGiven"]
    game = app.get_game(game_id)
    assert game.state == state and not game.paused
    app.execute(game_id, next_command(game.state, random.Random(0), challenge_rate=0))


def test_a_penalty_ruling_gives_a_seat_cards_and_the_game_goes_on(app):
    game_id, _ = game_with_moves(app, 3)
    before = app.replay(game_id)
    app.raise_dispute(game_id, by=REFEREE)
    outcome = app.give_ruling(game_id, Penalty(1, 2), by=REFEREE)
    drawn = outcome.facts[-1]
    assert isinstance(drawn, CardsDrawn) and drawn.reason == PENALTY and drawn.seat == 1
    after = app.replay(game_id)
    assert after.seats[1].cards == before.seats[1].cards + 2
    assert after.stock == before.stock[2:]
    assert after.turn == before.turn and not after.paused


def test_a_void_ruling_goes_on_from_before_the_voided_turns_and_keeps_them_in_the_log(app):
    game_id, _ = game_with_moves(app, 8, seed=2)
    first_voided = 6
    state_before = app.state_at(game_id, first_voided - 1)
    original = app.game_events(game_id)
    app.raise_dispute(game_id, about=first_voided, by=REFEREE)
    outcome = app.give_ruling(game_id, Void(first_voided), note="misdeal of turns", by=REFEREE)
    (ruled,) = outcome.events
    assert ruled.ruling == Void(first_voided)
    game = app.get_game(game_id)
    assert game.state == state_before and not game.paused
    # every original event is still there, the dispute and the ruling after them
    stored = app.game_events(game_id)
    assert stored[: len(original)] == original
    assert [type(e).__name__ for e in stored[len(original) :]] == ["DisputeRaised", "RulingGiven"]
    # the replay shows the voided turns as they happened, and the game after the void
    assert app.replay(game_id, len(original)).number == len(original)
    assert app.replay(game_id).number == len(original) + 2
    # and the game goes on from there
    rng = random.Random(3)
    for _ in range(5):
        game = app.get_game(game_id)
        app.execute(game_id, next_command(game.state, rng), expected_version=game.version)


def test_a_void_reaching_outside_the_game_before_the_dispute_is_refused(app):
    game_id, _ = game_with_moves(app, 2)
    app.raise_dispute(game_id, by=REFEREE)
    raised_at = app.get_game(game_id).version
    for number in (1, 2, raised_at, raised_at + 5):
        with pytest.raises(RuleError) as refused:
            app.give_ruling(game_id, Void(number), by=REFEREE)
        assert refused.value.code == "invalid_ruling"
    assert app.get_game(game_id).paused


def test_a_retried_ruling_is_given_once(app):
    game_id, _ = game_with_moves(app, 2)
    app.raise_dispute(game_id, by=REFEREE, key="d1")
    again = app.raise_dispute(game_id, by=REFEREE, key="d1")
    assert len(again.events) == 1
    first = app.give_ruling(game_id, Penalty(0, 1), by=REFEREE, key="r1")
    assert app.give_ruling(game_id, Penalty(0, 1), by=REFEREE, key="r1") == first
    kinds = [e.type for e in app.history(game_id)]
    assert kinds.count("DisputeRaised") == 1 and kinds.count("RulingGiven") == 1

"""Games played in person through the application and the read models: the projection folds their
entries, confirmations and corrections into the same tables, totals, standings and histories a
recount of the stored events gives (``assert_read_models_match``)."""

import random
from uuid import UUID

import pytest

from service.domain.adjudication import Correct
from service.domain.roles import Actor
from service.domain.scoresheet import RoundEntry
from service.projections.runner import Runner
from tests.integration.test_projections import ADMIN, Club, assert_read_models_match

pytestmark = pytest.mark.own_store  # the runner reads the whole log: a store of the test's own


def random_entry(rng: random.Random, seats: int, lowest: int) -> dict:
    winner = rng.choice([None, *range(seats)]) if rng.random() < 0.2 else rng.randrange(seats)
    points = [0 if seat == winner else rng.randint(lowest, 30) for seat in range(seats)]
    return {"winner": winner, "points": points}


def in_person_table(club: Club, league: UUID, rng: random.Random) -> tuple[UUID, list[UUID]]:
    seats = rng.sample(club.players, rng.randint(2, 3))
    game_id = club.app.create_game(seats, league_id=league, in_person=True).game_id
    club.games.append(game_id)
    return game_id, seats


def test_the_read_models_of_in_person_tables_equal_a_recount_with_corrections_and_a_reopened_match(
    app, settings, reader
):
    club = Club(app, seed=5)
    rng = random.Random(5)
    runner = Runner(settings)
    try:
        for league, ruleset in club.leagues.items():
            lowest = 2 if ruleset == "club" else 7
            for _ in range(2):
                game_id, seats = in_person_table(club, league, rng)
                scorer = Actor("player", str(seats[0]))
                while not app.get_game(game_id).over:
                    app.enter_round(game_id, **random_entry(rng, len(seats), lowest), by=scorer)
                    runner.catch_up()  # batch by batch, as the runner meets them
                game = app.get_game(game_id)
                if len(game.rounds()) > 1:
                    app.confirm_round(game_id, 1, by=Actor("player", str(seats[1])))
                # the last round corrected to one that scores nobody: the match is open again
                last = game.state.round_no
                app.raise_dispute(game_id, reason="the last round", by=Actor("player", str(seats[1])))
                quiet = (
                    {"winner": None, "points": [lowest] * len(seats)} if ruleset == "mau-mau-150" else None
                )
                entry = RoundEntry(**(quiet or {"winner": 0, "points": (0, *([lowest] * (len(seats) - 1)))}))
                app.give_ruling(game_id, Correct(last, entry), by=ADMIN)
                runner.catch_up()
        assert runner.position == app.recorder.max_notification_id()
    finally:
        runner.close()
    assert_read_models_match(app, club, reader)
    reopened = [app.get_game(game_id) for game_id in club.games]
    assert any(not game.over for game in reopened), "a correction reopened a finished match"

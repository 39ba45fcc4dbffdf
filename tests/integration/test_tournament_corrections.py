"""A single elimination's in-person table corrected by a referee after its round finished, through the
workers' steps (``workers.conduct`` run by ``workers.inline``) on the real store: a correction that
changes who went through is kept out with a warning, one that keeps the winners is taken."""

import logging
from uuid import UUID

import pytest

from service.application import MauMau
from service.domain.adjudication import Correct
from service.domain.roles import Actor
from service.domain.scoresheet import RoundEntry
from service.domain.tournament_plan import Plan
from service.domain.tournament_results import KEPT_ELIMINATED
from tests.integration.tables import players
from workers.conduct import Conductor
from workers.inline import Inline

ADMIN = Actor("admin", "test")
PLAN = {"format": "single_elimination", "table_size": 4, "single_round": True, "in_person_tables": 2}


def seat(app: MauMau, game_id: UUID, number: int) -> Actor:
    return Actor("player", app.get_game(game_id).seats[number].name)


def corrected(app: MauMau, conductor: Conductor, game_id: UUID, entry: RoundEntry) -> None:
    """A seated player disputes the match's only round after it ended; the referee corrects it; the
    step the API queues after the ruling runs."""
    app.raise_dispute(game_id, reason="that is not how it ended", by=seat(app, game_id, 2))
    app.give_ruling(game_id, Correct(1, entry), by=ADMIN)
    conductor.advance_game(game_id)


def test_an_elimination_round_decided_keeps_a_correction_that_changes_who_went_through(
    app: MauMau, caplog: pytest.LogCaptureFixture
) -> None:
    league = app.found_league("Knockout club")
    people = players(app, 8)
    for player in people:
        app.admit_member(league, player)
    tournament_id = app.create_tournament(league, "Paper knockout", Plan(**PLAN))  # type: ignore[arg-type]
    for player in people:
        app.join_tournament(tournament_id, player)
    app.start_tournament(tournament_id)
    conductor = Conductor(app, Inline())
    conductor.conduct_tournament(tournament_id)
    made = app.get_tournament(tournament_id).rounds[0].games
    games = [made[table] for table in sorted(made)]
    for game_id in games:
        app.enter_round(game_id, winner=0, points=[0, 5, 7, 12], by=seat(app, game_id, 0))
        conductor.advance_game(game_id)
    tournament = app.get_tournament(tournament_id)
    first, second = tournament.rounds[0], tournament.rounds[1].tables
    assert first.finished_at is not None and len(first.out) == 6
    with caplog.at_level(logging.WARNING, logger="workers.conduct"):
        corrected(app, conductor, games[0], RoundEntry(winner=1, points=(9, 0, 7, 12)))
    assert f"changed after its result: kept ({KEPT_ELIMINATED})" in caplog.text
    tournament = app.get_tournament(tournament_id)
    played = tournament.rounds[0]
    assert played.results[0].winners == (0,) and played.kept[0].winners == (1,)
    assert (played.out, tournament.rounds[1].tables) == (first.out, second)
    # a later ruling that leaves the same seat winning is taken, and nothing is kept out any more
    corrected(app, conductor, games[0], RoundEntry(winner=0, points=(0, 3, 7, 12)))
    played = app.get_tournament(tournament_id).rounds[0]
    assert played.results[0].totals == (0, 3, 7, 12) and played.kept == {}

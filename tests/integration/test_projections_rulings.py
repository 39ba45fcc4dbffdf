"""A dispute and a ruling on a game the runner wrote as finished, each in a batch of its own.

A finished game leaves the runner's memory once written; the dispute and then
the ruling bring it back from its row. They used to stop the runner for good
(``ProjectionError``) when they came in separate batches, as they do when a
referee takes a few seconds to rule.
"""

from uuid import UUID

import pytest

from service.domain.adjudication import Resume, Void
from service.domain.game import Game
from service.projections.runner import Runner
from service.projections.views.games import GamesFold
from tests.integration.test_projections import ADMIN, Club, assert_read_models_match

pytestmark = pytest.mark.own_store  # the runner reads the whole log: a store of the test's own


def finished_league_game(club: Club) -> tuple[UUID, UUID]:
    league = next(iter(club.leagues))
    game_id = club.new_game(league)
    club.play(game_id)
    assert club.app.get_game(game_id).over
    return league, game_id


def match_end(club: Club, game_id: UUID) -> int:
    return next(
        event.originator_version
        for event in club.app.game_events(game_id)
        if isinstance(event, Game.MatchEnded)  # type: ignore[attr-defined]
    )


@pytest.mark.parametrize("ruling", ["resume", "void"])
def test_a_ruling_on_a_finished_game_given_after_its_dispute_was_written_reaches_the_read_models(
    app, settings, reader, ruling
):
    club = Club(app, seed=3)
    league, game_id = finished_league_game(club)
    runner = Runner(settings)
    try:
        runner.catch_up()
        assert reader.standings(league).rows
        games = runner.projection.folds.of(GamesFold).games
        assert game_id.int not in games  # written as finished: let go
        app.raise_dispute(game_id, reason="the last card was misplayed", by=ADMIN)
        runner.catch_up()
        assert reader.table(game_id).paused
        if ruling == "resume":
            app.give_ruling(game_id, Resume(), by=ADMIN)
        else:
            app.give_ruling(game_id, Void(match_end(club, game_id)), by=ADMIN)
        runner.catch_up()
        assert runner.position == app.recorder.max_notification_id()
    finally:
        runner.close()
    assert reader.position() == app.recorder.max_notification_id()
    table = reader.table(game_id)
    assert not table.paused
    if ruling == "resume":
        assert table.over and reader.standings(league).rows
    else:
        # the match is open again: its result is out of the standings and the history says so
        assert not table.over
        assert [row.matches_played for row in reader.standings(league).rows if row.matches_played] == []
        seated = [UUID(seat.name) for seat in app.get_game(game_id).seats if seat.kind == "player"]
        for player_id in seated:
            lines = [line for line in reader.history(player_id).games if line.game_id == game_id]
            assert [line.result for line in lines] == ["playing"]
    assert_read_models_match(app, club, reader)


def test_a_finished_game_disputed_again_after_a_ruling_written_alone_still_reaches_the_read_models(
    app, settings, reader
):
    club = Club(app, seed=5)
    league, game_id = finished_league_game(club)
    runner = Runner(settings)
    try:
        runner.catch_up()
        for _ in range(2):  # each event in a batch of its own, the game let go after each
            app.raise_dispute(game_id, by=ADMIN)
            runner.catch_up()
            app.give_ruling(game_id, Resume(), by=ADMIN)
            runner.catch_up()
        assert runner.position == app.recorder.max_notification_id()
    finally:
        runner.close()
    assert reader.table(game_id).over and reader.standings(league).rows
    assert_read_models_match(app, club, reader)

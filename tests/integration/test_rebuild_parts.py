"""`maumau projections rebuild --part NAME`, on PostgreSQL and SQLite: a stale part (and the parts
fed by it) rebuilt alone, folded aside up to the live position and swapped in, the other parts'
tables not touched and readable throughout; or, meeting an event it cannot fold, nothing changed and
exit 1; refused for a part fed by a stale part it does not rebuild, an unknown part, or while a
runner runs."""

import dataclasses
import uuid
from typing import Any
from uuid import UUID

import pytest
from click.testing import CliRunner, Result

from service.application import MauMau
from service.domain.tournament import Plan, Tournament
from service.projections.cli import projections
from service.projections.projection import ViewsProjection
from service.projections.reader import ReadModels
from service.projections.runner import RebuildFailed, RebuildRefused, Runner, rebuild, start_projections
from service.projections.store import Views
from service.projections.views import VIEWS
from service.projections.views.mao import MaoFold
from service.settings import Settings
from tests.integration.test_projections_mao_standings import play_out
from tests.integration.test_read_model_parts import (
    TournamentsThatFail,
    a_runner,
    an_event_of_no_known_game,
    corrected_evening,
    members,
    position_of,
    round_one,
    stale_of,
)

pytestmark = pytest.mark.own_store  # the runner reads the whole log: a store of the test's own


def invoke(settings: Settings, *args: str) -> Result:
    return CliRunner().invoke(projections, list(args), obj=settings)


class StaleTournaments:
    """A league's evening and a tournament announced in it, folded by a runner whose tournaments fold
    fails: the tournaments part (and the webhooks fed by it) stale from the announcement on."""

    def __init__(self, app: MauMau, settings: Settings) -> None:
        self.evening = corrected_evening(app, ["tournament_finished"])
        self.cup = app.create_tournament(
            self.evening.league, "Cup", Plan(format="swiss", table_size=2, rounds=1, places=4)
        )
        self.announced = position_of(app, Tournament.Announced)
        runner = a_runner(settings, TournamentsThatFail)
        try:
            runner.catch_up()
        finally:
            runner.close()
        self.last = app.recorder.max_notification_id() or 0


def core_stale_at_an_orphan(app: MauMau, settings: Settings) -> tuple[Any, int]:
    """An evening and an event of no known game after it, folded: core (and the parts it feeds)
    stale at that event; the evening and the event's position."""
    evening = corrected_evening(app, ["ruling_given"])
    orphan = an_event_of_no_known_game(app, evening.game)
    runner = Runner(settings)
    try:
        runner.catch_up()
    finally:
        runner.close()
    return evening, orphan


def sentinels(views: Views) -> tuple[UUID, UUID]:
    """A row no event made in a core table (a league) and in a tournaments table (a seat): a rebuild
    of the tournaments drops the second and leaves the first where it is."""
    league, tournament = uuid.uuid4(), uuid.uuid4()
    views.execute("league", (league, "Sentinel", "club", "points"))
    views.execute("seat", ("intruder", tournament, 1, 1, 0, None, 0))
    return league, tournament


def seats_of(views: Views, tournament: UUID) -> int:
    table = views._table("seats")
    return int(
        views.select(f"SELECT count(*) FROM {table} WHERE tournament_id = {views._ph}", [tournament])[0][0]
    )


def test_a_stale_part_rebuilt_alone_comes_back_while_the_other_tables_are_not_touched_and_readable(
    app: MauMau, settings: Settings, reader: ReadModels
) -> None:
    stale = StaleTournaments(app, settings)
    league = stale.evening.league
    assert stale_of(reader.views) == {"tournaments": stale.announced, "webhooks": stale.announced}
    assert reader.tournaments(league) == []
    core_row, tournament_row = sentinels(reader.views)
    seen: list[tuple[list[str], bool, int, list[Any]]] = []

    def midway(_folded: int) -> None:
        # the live read models answer as they were, the core's own row among them
        seen.append(
            (
                members(reader, league),
                reader.views.league(core_row) is not None,
                reader.views.position(),
                reader.tournaments(league),
            )
        )

    position = rebuild(settings, midway, ["tournaments"])

    assert position == stale.last == reader.views.position()
    assert seen and all(found == (["Ann", "Ben", "Cid"], True, stale.last, []) for found in seen)
    assert stale_of(reader.views) == {}
    assert [found.tournament_id for found in reader.tournaments(league)] == [stale.cup]
    # the rebuilt part's tables were made anew; the core's were left as they were
    assert seats_of(reader.views, tournament_row) == 0
    assert reader.views.league(core_row) is not None
    assert round_one(reader, stale.evening.game) == [0, 10, 2]
    # a runner started again folds every part on from the position
    dana = app.register_player("Dana")
    app.admit_member(league, dana)
    runner = Runner(settings)
    try:
        assert runner.projection.stale == {}
        runner.catch_up()
    finally:
        runner.close()
    assert members(reader, league) == ["Ann", "Ben", "Cid", "Dana"]
    assert reader.views.position() == app.recorder.max_notification_id()


def test_status_names_the_rebuild_that_mends_a_stale_part_and_the_command_runs_it(
    app: MauMau, settings: Settings, reader: ReadModels
) -> None:
    stale = StaleTournaments(app, settings)
    status = invoke(settings, "status").output
    # the webhooks are stale only as fed by the tournaments: rebuilding those rebuilds them too
    assert "maumau projections rebuild --part tournaments\n" in status

    result = invoke(settings, "rebuild", "--part", "tournaments")

    assert result.exit_code == 0, result.output
    assert result.stdout == f"views (tournaments, webhooks): rebuilt up to position {stale.last}\n"
    assert "rebuilding views (tournaments, webhooks)" in result.stderr
    assert invoke(settings, "status").output == f"views  position {stale.last}  lag 0\n"
    assert [found.tournament_id for found in reader.tournaments(stale.evening.league)] == [stale.cup]


def test_a_part_rebuild_that_cannot_fold_an_event_changes_nothing_and_exits_1_naming_it(
    app: MauMau, settings: Settings, reader: ReadModels
) -> None:
    evening, orphan = core_stale_at_an_orphan(app, settings)
    before = stale_of(reader.views)
    assert before == {"core": orphan, "ratings": orphan, "webhooks": orphan}
    core_row, tournament_row = sentinels(reader.views)
    assert "maumau projections rebuild --part core\n" in invoke(settings, "status").output

    result = invoke(settings, "rebuild", "--part", "core")

    assert result.exit_code == 1, result.output
    assert f"core could not be folded at position {orphan}" in result.stderr
    assert "left as they were" in result.stderr
    assert stale_of(reader.views) == before
    assert reader.views.league(core_row) is not None
    assert seats_of(reader.views, tournament_row) == 1
    assert round_one(reader, evening.game) == [0, 10, 2]
    with pytest.raises(RebuildFailed):
        rebuild(settings, parts=["ratings", "core"])
    assert stale_of(reader.views) == before


def test_a_part_fed_by_a_stale_part_it_does_not_rebuild_is_refused(
    app: MauMau, settings: Settings, reader: ReadModels
) -> None:
    _, orphan = core_stale_at_an_orphan(app, settings)

    result = invoke(settings, "rebuild", "--part", "ratings")

    assert result.exit_code == 1, result.output
    assert "ratings is fed by core, which is stale: rebuild core with it (--part core)" in result.stderr
    assert stale_of(reader.views)["ratings"] == orphan
    with pytest.raises(RebuildRefused):
        rebuild(settings, parts=["webhooks"])


def test_a_part_rebuild_names_only_parts_that_exist(settings: Settings) -> None:
    result = invoke(settings, "rebuild", "--part", "brackets")
    assert result.exit_code == 2
    assert "Invalid value for '--part'" in result.stderr
    assert "'brackets' is not one of 'core', 'tournaments', 'mao', 'ratings', 'webhooks'" in result.stderr


def test_a_part_rebuild_is_refused_while_a_runner_runs(
    app: MauMau, settings: Settings, reader: ReadModels
) -> None:
    corrected_evening(app, ["ruling_given"])
    running = start_projections(settings)
    try:
        last = app.recorder.max_notification_id() or 0
        assert reader.wait_for(last, timeout=30) == last
        result = invoke(settings, "rebuild", "--part", "mao")
        assert result.exit_code == 1
        assert "runner is running the 'views' projection: stop it first" in result.stderr
        assert reader.views.position() == last
    finally:
        running.stop()


class MaoThatFails(MaoFold):
    """A Mao fold with a fault in it."""

    def started(self, event: Any, position: int) -> None:
        raise RuntimeError("a fault in the Mao fold")


def test_a_mao_rebuild_brings_back_the_standings_its_matches_add_to(
    app: MauMau, settings: Settings, reader: ReadModels
) -> None:
    league = app.found_league("Mao night", "mao", {"hand_size": 3, "rounds_to_win": 1})
    ada = app.register_player("Ada")
    app.admit_member(league, ada)
    game = app.create_mao_game(league, [str(ada), "bot:learning", "bot:random"], "server", first_dealer=2)
    ended = play_out(app, str(game.id), str(ada))
    registry = [
        dataclasses.replace(view, fold=MaoThatFails) if view.fold is MaoFold else view for view in VIEWS
    ]
    runner = Runner(settings)
    try:
        runner.projection = ViewsProjection(runner.views, runner.source.mao_match, registry)
        runner.catch_up()
    finally:
        runner.close()
    assert set(stale_of(reader.views)) == {"mao", "webhooks"}  # the notices are fed by the matches
    standings = reader.standings(league)
    assert standings is not None and [row.matches_played for row in standings.rows] == [0]
    core_row, _ = sentinels(reader.views)

    rebuild(settings, parts=["mao"])

    assert stale_of(reader.views) == {}
    standings = reader.standings(league)
    assert standings is not None
    (row,) = standings.rows
    assert (row.matches_played, row.rounds_won) == (1, ended.wins[0])
    (listed,), _ = reader.mao_games(league, "over", None, 10)
    assert listed.game_id == game.id
    assert reader.views.league(core_row) is not None

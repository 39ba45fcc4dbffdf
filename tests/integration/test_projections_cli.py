"""`maumau projections status|rebuild` through click's CliRunner, on the real stores."""

import re
import uuid

import msgspec
import pytest
from click.testing import CliRunner
from eventsourcing.persistence import Tracking

from service.projections.cli import projections
from service.projections.reader import ReadModels
from service.projections.runner import Runner, start_projections
from service.projections.views.base import APPLICATION, Changes
from tests.integration.tables import play_out, players

pytestmark = pytest.mark.own_store  # each test reads the whole log: a store of the test's own


def invoke(settings, *args: str):
    return CliRunner().invoke(projections, list(args), obj=settings)


def game_with_a_league(app):
    ann, bob = players(app, 2)
    league = app.found_league("L", "club", {"target_score": 20})
    for player in (ann, bob):
        app.admit_member(league, player)
    game_id = app.create_game([ann, bob, "bot:random"], league_id=league, seed=9).game_id
    play_out(app, game_id, seed=9)
    return game_id, league, ann


def test_status_shows_the_position_and_how_far_behind_the_log_it_is(app, settings):
    game_with_a_league(app)
    last = app.recorder.max_notification_id()
    result = invoke(settings, "status")
    assert result.exit_code == 0, result.output
    assert result.output == f"views  position 0  lag {last}\n"
    runner = Runner(settings)
    try:
        runner.catch_up()
    finally:
        runner.close()
    assert invoke(settings, "status").output == f"views  position {last}  lag 0\n"


def test_rebuild_drops_the_read_models_and_folds_the_log_into_them_again(app, settings):
    game_id, league, ann = game_with_a_league(app)
    runner = Runner(settings)
    try:
        runner.catch_up()
    finally:
        runner.close()
    reader = ReadModels(settings)
    try:
        before = (
            reader.table(game_id),
            reader.totals(game_id),
            reader.standings(league),
            reader.history(ann),
        )
        # what a rebuild must not keep: a row no event produced, and a position past the log
        intruder = uuid.uuid4()
        last = app.recorder.max_notification_id()
        reader.views.write(
            Changes(rows={"player": [(intruder, "Intruder", "intruder")]}), Tracking(APPLICATION, last + 5)
        )
        # (where only `maumau db init` makes tables, a rebuild still makes the ones it dropped)
        result = invoke(msgspec.structs.replace(settings, create_tables=False), "rebuild")
        assert result.exit_code == 0, result.output + result.stderr
        assert result.stdout == f"views: rebuilt up to position {last}\n"
        assert "rebuilding views" in result.stderr
        after = (reader.table(game_id), reader.totals(game_id), reader.standings(league), reader.history(ann))
        assert after == before
        assert reader.position() == last
        assert reader.views.names([intruder]) == {}
    finally:
        reader.close()


def test_rebuild_is_refused_while_a_runner_runs_and_changes_nothing(app, settings):
    game_id, _, _ = game_with_a_league(app)
    running = start_projections(settings)
    reader = ReadModels(settings)
    try:
        last = app.recorder.max_notification_id()
        assert reader.wait_for(last, timeout=30) == last
        result = invoke(settings, "rebuild", "views")
        assert result.exit_code == 1
        assert re.search(r"runner is running the 'views' projection: stop it first", result.stderr)
        assert reader.table(game_id) is not None and reader.position() == last
    finally:
        reader.close()
        running.stop()


def test_rebuild_names_only_projections_that_exist(settings):
    result = invoke(settings, "rebuild", "brackets")
    assert result.exit_code == 2
    assert "'brackets' is not 'views'" in result.stderr

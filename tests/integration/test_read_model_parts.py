"""The read models in parts (``service.projections.parts``), on PostgreSQL and SQLite: a `correct`
ruling in a league with webhooks folds; a part that cannot fold an event is marked stale while the
others go on, visible in ``/ready``, ``maumau projections status`` and the metrics; a rebuild folds
aside and swaps, or leaves the read models as they were and exits 1 naming the event."""

import dataclasses
import uuid
from collections.abc import Iterator
from typing import Any
from uuid import UUID

import msgspec
import pytest
from click.testing import CliRunner
from eventsourcing.persistence import StoredEvent
from litestar.testing import TestClient

from service.app import create_app
from service.application import MauMau
from service.domain.adjudication import Correct
from service.domain.game import Game
from service.domain.roles import Actor
from service.domain.scoresheet import RoundEntry
from service.domain.tournament import Plan, Tournament
from service.projections.cli import projections
from service.projections.hooks import HookFold
from service.projections.projection import ViewsProjection
from service.projections.reader import ReadModels
from service.projections.runner import RebuildFailed, Runner, rebuild
from service.projections.store import Views
from service.projections.views import VIEWS
from service.projections.views.tournaments import TournamentsFold
from service.projections.views.webhooks import WebhooksFold
from service.settings import Settings
from tests.e2e.club import problem

pytestmark = pytest.mark.own_store  # the runner reads the whole log: a store of the test's own

REFEREE = Actor("admin", "ada")


@pytest.fixture
def api(settings: Settings) -> Iterator[TestClient[Any]]:
    """The HTTP API over the same store, its runner elsewhere (none: the tests run theirs)."""
    with TestClient(create_app(msgspec.structs.replace(settings, run_projections=False))) as client:
        yield client


class Evening(msgspec.Struct):
    league: UUID
    players: list[UUID]
    game: UUID


def corrected_evening(app: MauMau, hooks: list[str]) -> Evening:
    """The steps the defect was found with: a league with webhooks, an in-person game, round 1
    entered, disputed and corrected by a referee."""
    league = app.found_league("Thursday club")
    players = [app.register_player(name) for name in ("Ann", "Ben", "Cid")]
    for player in players:
        app.admit_member(league, player)
    for kinds in hooks:
        app.register_webhook(league, "http://127.0.0.1:9/hook", [kinds])
    game = app.create_game(players, league_id=league, in_person=True).game_id
    scorer = Actor("player", str(players[0]))
    app.enter_round(game, winner=0, points=[0, 17, 2], by=scorer)
    app.raise_dispute(game, reason="Ben had 10", by=Actor("player", str(players[1])))
    app.give_ruling(game, Correct(1, RoundEntry(winner=0, points=(0, 10, 2))), by=REFEREE)
    return Evening(league=league, players=players, game=game)


def position_of(app: MauMau, kind: type) -> int:
    """The log position of the last event of this kind."""
    found = [
        notification.id
        for notification in app.recorder.select_notifications(1, 10_000)
        if isinstance(app.mapper.to_domain_event(notification), kind)
    ]
    return found[-1]


def round_one(reader: ReadModels, game: UUID) -> list[int]:
    """Round 1's points per seat, as the game's read model has them."""
    found = reader.views.game_doc(game)
    assert found is not None
    return msgspec.msgpack.decode(found[0])["rounds"][0]["points"]


def members(reader: ReadModels, league: UUID) -> list[str]:
    standings = reader.standings(league)
    assert standings is not None
    return sorted(row.name for row in standings.rows)


class HooksThatKnewThreeRulings(HookFold):
    """The webhook fold as it was before `correct` rulings were folded: it knew three kinds."""

    def game_event(self, game: Game, event: Any, position: int, out: list[Any]) -> None:
        if isinstance(event, Game.RulingGiven):
            assert not isinstance(event.ruling, Correct)
        super().game_event(game, event, position, out)


class TournamentsThatFail(TournamentsFold):
    """A tournaments fold with a fault in it."""

    def announced(self, event: Any, position: int) -> None:
        raise RuntimeError("a fault in the tournaments fold")

    def changed(self, event: Any, position: int) -> None:
        raise RuntimeError("a fault in the tournaments fold")


def a_runner(settings: Settings, tournaments: type[TournamentsFold] = TournamentsFold) -> Runner:
    """A runner whose projection folds the tournaments with ``tournaments``."""
    registry = [
        dataclasses.replace(view, fold=tournaments) if view.fold is TournamentsFold else view
        for view in VIEWS
    ]
    runner = Runner(settings)
    runner.projection = ViewsProjection(runner.views, runner.source.mao_match, registry)
    return runner


def stale_of(views: Views) -> dict[str, int]:
    return {found.view: found.position for found in views.stale_views()}


def test_a_correct_ruling_in_a_league_with_webhooks_is_folded_by_every_view_and_delivered(
    app: MauMau, settings: Settings, reader: ReadModels
) -> None:
    evening = corrected_evening(app, ["table_ready", "ruling_given"])
    runner = Runner(settings)
    try:
        runner.catch_up()
    finally:
        runner.close()
    assert reader.views.position() == app.recorder.max_notification_id()
    assert reader.views.stale_views() == []
    assert round_one(reader, evening.game) == [0, 10, 2]
    made = [
        msgspec.json.decode(row.payload)
        for hook_row in reader.views.webhook_states()
        for row in reader.views.deliveries.of_hook(msgspec.msgpack.decode(hook_row)["hook_id"], 10)
    ]
    rulings = [body["data"] for body in made if body["event"] == "ruling_given"]
    assert rulings == [rulings[0] | {"dispute": 1, "ruling": "correct", "round": 1}]


def test_a_part_that_cannot_fold_an_event_is_stale_from_it_and_the_others_go_on(
    app: MauMau, settings: Settings, reader: ReadModels, api: TestClient[Any]
) -> None:
    evening = corrected_evening(app, ["ruling_given"])
    runner = a_runner(settings)
    try:
        webhooks = runner.projection.folds.of(WebhooksFold)
        webhooks.hooks = HooksThatKnewThreeRulings(runner.views.webhook_states(), runner.views.names)
        runner.catch_up()
        ruled = position_of(app, Game.RulingGiven)
        # later events are folded by the sound parts
        dana = app.register_player("Dana")
        app.admit_member(evening.league, dana)
        runner.catch_up()
    finally:
        runner.close()
    assert reader.views.position() == app.recorder.max_notification_id()
    assert stale_of(reader.views) == {"webhooks": ruled}
    assert round_one(reader, evening.game) == [0, 10, 2]
    assert members(reader, evening.league) == ["Ann", "Ben", "Cid", "Dana"]
    (stale,) = reader.views.stale_views()
    assert "RulingGiven" in stale.reason and str(evening.game) in stale.reason
    assert "AssertionError" in stale.reason

    # webhooks are not required for ready: named in the answer, the process stays ready
    ready = api.get("/ready")
    assert ready.status_code == 200, ready.text
    assert [(part["view"], part["position"]) for part in ready.json()["stale"]] == [("webhooks", ruled)]
    assert 'maumau_projection_stale{view="webhooks"} 1.0' in api.get("/metrics").text
    assert 'maumau_projection_stale{view="core"} 0.0' in api.get("/metrics").text
    status = CliRunner().invoke(projections, ["status"], obj=settings)
    assert f"views  stale: webhooks (ready without it) from position {ruled}" in status.output

    # a runner started again keeps it stale (its rows missed what came since), until a rebuild
    again = Runner(settings)
    try:
        assert set(again.projection.stale) == {"webhooks"}
    finally:
        again.close()
    rebuild(settings)
    assert reader.views.stale_views() == []
    assert api.get("/ready").json()["stale"] == []


def test_a_required_part_gone_stale_makes_ready_answer_503_naming_it(
    app: MauMau, settings: Settings, reader: ReadModels, api: TestClient[Any]
) -> None:
    evening = corrected_evening(app, ["tournament_finished"])
    app.create_tournament(evening.league, "Cup", Plan(format="swiss", table_size=2, rounds=1, places=4))
    announced = position_of(app, Tournament.Announced)
    runner = a_runner(settings, TournamentsThatFail)
    try:
        runner.catch_up()
    finally:
        runner.close()
    # webhooks are fed by the tournaments: stale with them
    assert stale_of(reader.views) == {"tournaments": announced, "webhooks": announced}
    assert round_one(reader, evening.game) == [0, 10, 2]
    body = problem(api.get("/ready"), 503, "not_ready")
    assert f"tournaments from position {announced}" in body["detail"]
    assert "`maumau projections rebuild --part tournaments`" in body["detail"]
    status = CliRunner().invoke(projections, ["status"], obj=settings).output
    assert f"stale: tournaments (required for ready) from position {announced}" in status


def an_event_of_no_known_game(app: MauMau, game: UUID) -> int:
    """Store a copy of one of the game's events under a game id no game has: an event the read
    models cannot fold. Its position."""
    (stored,) = [found for found in app.recorder.select_events(game) if found.originator_version == 2]
    app.recorder.insert_events([StoredEvent(uuid.uuid4(), 2, stored.topic, stored.state)])
    return app.recorder.max_notification_id() or 0


def test_a_rebuild_that_cannot_fold_an_event_leaves_the_read_models_as_they_were_and_exits_1(
    app: MauMau, settings: Settings, reader: ReadModels, api: TestClient[Any]
) -> None:
    evening = corrected_evening(app, ["ruling_given"])
    runner = Runner(settings)
    try:
        runner.catch_up()
        before = api.get("/players").json()["items"]
        assert len(before) == 3
        orphan = an_event_of_no_known_game(app, evening.game)
        runner.catch_up()
    finally:
        runner.close()
    # the live runner: the core part stale at the event, so not ready
    assert stale_of(reader.views)["core"] == orphan
    problem(api.get("/ready"), 503, "not_ready")

    result = CliRunner().invoke(projections, ["rebuild"], obj=settings)
    assert result.exit_code == 1, result.output
    assert f"core could not be folded at position {orphan}" in result.output
    assert "left as they were" in result.output
    # nothing emptier: every read answers as before the rebuild
    assert api.get("/players").json()["items"] == before
    assert round_one(reader, evening.game) == [0, 10, 2]
    assert stale_of(reader.views)["core"] == orphan
    with pytest.raises(RebuildFailed):
        rebuild(settings)


def test_readers_see_the_old_read_models_until_a_rebuild_swaps_in_the_new(
    app: MauMau, settings: Settings, reader: ReadModels
) -> None:
    evening = corrected_evening(app, ["ruling_given"])
    runner = Runner(settings)
    try:
        runner.catch_up()
    finally:
        runner.close()
    seen: list[tuple[list[str], int]] = []

    def midway(_folded: int) -> None:
        seen.append((members(reader, evening.league), reader.views.position()))

    last = app.recorder.max_notification_id()
    position = rebuild(settings, midway)
    assert seen and all(found == (["Ann", "Ben", "Cid"], last) for found in seen)
    assert position == reader.views.position() == last
    assert round_one(reader, evening.game) == [0, 10, 2]

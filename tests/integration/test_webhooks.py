"""Webhook deliveries on PostgreSQL and SQLite: made by the projection once per hook and event, sent
by the workers' steps (``workers.inline``, in this process) to a real HTTP receiver on 127.0.0.1.

Retries here have no back-off (``backoff=0``), so that the inline steps, which do not wait for
countdowns, find each retry due at once; tests/e2e/test_webhooks.py runs the same through a real
Celery worker, with back-off.
"""

import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from uuid import UUID

import pytest

from service.application import MauMau
from service.domain.adjudication import Resume
from service.domain.roles import Actor
from service.domain.tournament_plan import Plan
from service.projections.deliveries import DELIVERED, FAILED
from service.projections.reader import ReadModels
from service.projections.runner import rebuild
from service.settings import Settings
from tests.integration.projecting import catch_up
from tests.receiver import Receiver, receiving
from workers.conduct import Conductor
from workers.inline import Inline
from workers.webhooks import SIGNATURE_HEADER, Courier, verify

pytestmark = pytest.mark.own_store  # the projection reads the whole log: a store of the test's own

ADMIN = Actor("admin", "ada")
ALL_BUT_TURNS = ["table_ready", "dispute_raised", "ruling_given", "round_started", "tournament_finished"]


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    with receiving() as found:
        yield found


def steps(
    app: MauMau, reader: ReadModels, retries: int = 2, disable_after: int = 3
) -> tuple[Conductor, Inline]:
    inline = Inline()
    courier = Courier(
        app,
        reader.views.deliveries,
        inline,
        retries=retries,
        backoff=0.0,
        timeout=2.0,
        disable_after=disable_after,
    )
    return Conductor(app, inline, courier=courier), inline


def send_due(settings: Settings, reader: ReadModels, conductor: Conductor, inline: Inline) -> None:
    """What the projection and the tick do, then the queued steps: every delivery due is tried."""
    catch_up(settings)
    now = time.time()
    conductor.queue_deliveries(reader.views.deliveries.due(now, now - 30, 500))
    inline.run(conductor)


def a_league(app: MauMau, members: int = 2) -> tuple[UUID, list[UUID]]:
    league = app.found_league("Hooked club")
    players = [app.register_player(f"Hooked {n}") for n in range(members)]
    for player in players:
        app.admit_member(league, player)
    return league, players


def test_a_played_tournament_and_a_disputed_game_each_make_one_signed_delivery_per_event_and_hook(
    app, settings, reader, receiver
):
    league, (ann, _) = a_league(app)
    hook, secret = app.register_webhook(league, receiver.url, ALL_BUT_TURNS)
    turns, turn_secret = app.register_webhook(league, receiver.url, ["turn"], [str(ann)])
    conductor, inline = steps(app, reader)
    tournament = app.create_tournament(
        league, "Hooked cup", Plan(format="swiss", table_size=2, rounds=1, single_round=True, places=4)
    )
    app.start_tournament(tournament)
    conductor.conduct_tournament(tournament, datetime.now(UTC) + timedelta(seconds=1))
    inline.run(conductor)
    assert app.get_tournament(tournament).finished
    game = app.create_game([str(ann), "bot:heuristic"], league_id=league, first_dealer=1, by=ADMIN).game_id
    # the deal is fresh each run: where the starter passes the turn to the bot, the bot moves first
    conductor.advance_game(game)
    assert app.get_game(game).seat_to_move == 0  # Ann's turn: a turn notice for her
    app.raise_dispute(game, by=ADMIN)
    app.give_ruling(game, Resume(), by=ADMIN)

    send_due(settings, reader, conductor, inline)

    kinds = [r.headers["Maumau-Event"] for r in receiver.taken()]
    assert kinds.count("table_ready") == 2 and kinds.count("round_started") == 1
    assert kinds.count("tournament_finished") == 1
    assert kinds.count("dispute_raised") == 1 and kinds.count("ruling_given") == 1
    assert kinds.count("turn") >= 1  # ann's turn after the deal, and again after the ruling
    secrets = {hook: secret, turns: turn_secret}
    for received in receiver.taken():
        body = received.json
        hook_of = turns if body["event"] == "turn" else hook
        assert verify(secrets[hook_of], received.body, received.headers[SIGNATURE_HEADER], time.time())
        assert received.headers["Maumau-Delivery"] == body["id"]
    started = receiver.taken("round_started")[0].json["data"]
    assert [len(table["seats"]) for table in started["tables"]] == [2, 2]
    assert all(seat["bot"] == "heuristic" for table in started["tables"] for seat in table["seats"])
    turn = receiver.taken("turn")[0].json["data"]
    assert turn == turn | {"game_id": str(game), "player_id": str(ann), "name": "Hooked 0", "seat": 0}

    # folding the log again (a rebuild of the read models) finds every delivery made: none is sent again
    sent = len(receiver.received)
    rebuild(settings)
    send_due(settings, reader, conductor, inline)
    assert len(receiver.received) == sent
    assert {row.status for row in reader.views.deliveries.of_hook(hook, 100)} == {DELIVERED}


def test_a_receiver_that_fails_twice_then_recovers_gets_the_delivery_on_the_third_try_each_try_logged(
    app, settings, reader, receiver
):
    league, (ann, bob) = a_league(app)
    hook, _ = app.register_webhook(league, receiver.url, ["dispute_raised"])
    conductor, inline = steps(app, reader, retries=2)
    game = app.create_game([str(ann), str(bob)], league_id=league).game_id
    receiver.answers = [500, 503]
    app.raise_dispute(game, by=ADMIN)

    send_due(settings, reader, conductor, inline)

    assert [r.answered for r in receiver.received] == [500, 503, 200]
    assert len({r.body for r in receiver.received}) == 1  # the same body each time
    (delivery,) = reader.views.deliveries.of_hook(hook, 10)
    assert delivery.status == DELIVERED and delivery.attempts == 3
    attempts = reader.views.deliveries.attempts(delivery.delivery_id)
    assert [(a.number, a.status_code) for a in attempts] == [(1, 500), (2, 503), (3, 200)]
    assert attempts[0].error == "the receiver answered 500" and attempts[2].error == ""
    assert app.get_webhook(hook).enabled


def test_a_receiver_that_always_fails_gets_its_hook_disabled_with_the_reason_and_nothing_more_sent(
    app, settings, reader, receiver
):
    league, (ann, bob) = a_league(app)
    hook, _ = app.register_webhook(league, receiver.url, ["dispute_raised", "ruling_given"])
    conductor, inline = steps(app, reader, retries=1, disable_after=2)
    game = app.create_game([str(ann), str(bob)], league_id=league).game_id
    receiver.then = 500
    app.raise_dispute(game, by=ADMIN)
    app.give_ruling(game, Resume(), by=ADMIN)

    send_due(settings, reader, conductor, inline)

    assert len(receiver.received) == 4  # two deliveries, each tried twice
    assert {row.status for row in reader.views.deliveries.of_hook(hook, 10)} == {FAILED}
    found = app.get_webhook(hook)
    assert not found.enabled
    assert found.disabled_reason.startswith("its last 2 deliveries failed")
    assert "500" in found.disabled_reason
    app.raise_dispute(game, by=ADMIN)
    send_due(settings, reader, conductor, inline)
    assert len(receiver.received) == 4  # a disabled hook is sent nothing


def test_a_delivery_whose_hook_was_disabled_before_it_went_is_cancelled_and_a_resend_sends_it(
    app, settings, reader, receiver
):
    league, (ann, bob) = a_league(app)
    hook, _ = app.register_webhook(league, receiver.url, ["dispute_raised"])
    conductor, inline = steps(app, reader)
    game = app.create_game([str(ann), str(bob)], league_id=league).game_id
    app.raise_dispute(game, by=ADMIN)
    catch_up(settings)
    app.disable_webhook(hook, "paused by the club")
    send_due(settings, reader, conductor, inline)
    (delivery,) = reader.views.deliveries.of_hook(hook, 10)
    assert delivery.status == "cancelled" and "paused by the club" in delivery.last_error
    assert receiver.received == []

    app.enable_webhook(hook)
    assert reader.views.deliveries.resend(hook, delivery.delivery_id, time.time())
    send_due(settings, reader, conductor, inline)
    assert [r.answered for r in receiver.received] == [200]
    assert reader.views.deliveries.one(hook, delivery.delivery_id).status == DELIVERED

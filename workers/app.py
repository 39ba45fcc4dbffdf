"""The Celery app, its beat schedule and its tasks: ``celery -A workers.app worker`` (or ``maumau worker``).

The tasks are thin: each takes ids, builds nothing (the process's services are
built after the fork, ``workers.runtime``) and runs one step of
``workers.conduct.Conductor``, which queues what follows through
``CeleryDispatch``. Every task is idempotent, so ``acks_late`` is safe: a task
whose worker died before acknowledging it is delivered again (with Redis, after
``MAUMAU_BROKER_VISIBILITY_TIMEOUT``) and does what is still left to do.

The tasks, their names and the broker are ``service.tasks``'s (whoever queues shares them).

Three queues, and every worker consumes all three (``task_queues``, so no ``-Q`` is
needed), taking from each in turn:

- ``SCHEDULE_QUEUE``: the tick and the tournament steps. In one queue a tick waited
  behind every bot move queued before it: after a broker outage that backlog outlasted
  each tick's expiry, so every tick was discarded and no due tournament started until
  it drained.
- ``PLAY_QUEUE``: the steps the workers queue themselves (``CeleryDispatch``): a bot's
  next move, a round's first moves, a turn clock, a stalled table queued again. At
  most a few per game in play, so none waits long.
- Celery's default queue (``DEFAULT_QUEUE``): what the API queues, the bots' answer to
  each move of a person (``service.application.followups``). Its clients set its pace,
  and busy tables can queue faster than a worker takes: the embedded worker took about
  80 a second from its filesystem broker, fewer as the backlog grew, with its two
  threads idle four fifths of the time. When the bots' next moves queued there too,
  each waited behind the whole backlog (docs/workers.md).
"""

import functools
from typing import Any
from uuid import UUID

from celery.signals import worker_process_init, worker_process_shutdown
from eventsourcing.persistence import InterfaceError, OperationalError

from service import tasks
from service.tasks import ADVANCE, CONDUCT, DELIVER, MAIL_NOTICE, PLAY_QUEUE, TICK, TIME_OUT, celery_app
from service.web.i18n import Catalogue, read_catalogues
from workers.conduct import Conductor
from workers.notices import Mailer, due_notices
from workers.runtime import Services, close_services, services
from workers.tournaments import due_deliveries, stalled_bot_turns, tournaments_to_conduct
from workers.webhooks import Courier

# seconds of bot moves one advance_game plays before it queues the rest: well within its time limits
ADVANCE_BUDGET = 10.0
# stalled games one tick queues again, the longest waiting first: the next tick takes the rest
STALLED_PER_TICK = 200
# webhook deliveries one tick queues, the longest due first: the next tick takes the rest
DELIVERIES_PER_TICK = 500
# notices' mails one tick queues, the longest due first: the next tick takes the rest
NOTICES_PER_TICK = 500
# the database may be down for a moment (a restart, a failover): try again, a little later each time
_RETRY: dict[str, Any] = {
    "autoretry_for": (OperationalError, InterfaceError),
    "retry_backoff": True,
    "retry_backoff_max": 30,
    "max_retries": 8,
}


@worker_process_init.connect
def _build_services(**_: Any) -> None:
    services(tasks.settings)


@worker_process_shutdown.connect
def _close_services(**_: Any) -> None:
    close_services()


class CeleryDispatch:
    """Queues the conductor's next steps as tasks: the games' on ``PLAY_QUEUE``, not behind the API's."""

    def conduct_tournament(self, tournament_id: UUID) -> None:
        # a look that waited longer than a couple of ticks is replaced by the next tick's
        conduct_tournament.apply_async((str(tournament_id),), expires=max(5.0, 2 * tasks.settings.tick))

    def advance_game(self, game_id: UUID, countdown: float = 0.0) -> None:
        advance_game.apply_async((str(game_id),), countdown=countdown or None, queue=PLAY_QUEUE)

    def time_out_turn(self, game_id: UUID, seat: int, version: int, countdown: float) -> None:
        time_out_turn.apply_async((str(game_id), seat, version), countdown=countdown, queue=PLAY_QUEUE)

    def deliver_webhook(self, delivery_id: UUID, countdown: float = 0.0) -> None:
        deliver_webhook.apply_async((str(delivery_id),), countdown=countdown or None)


def conductor(sends_webhooks: bool = False) -> Conductor:
    """The steps, on this process's services; with a courier when they send webhooks (it reads the
    read models' store, which the other steps leave unopened)."""
    found = services(tasks.settings)
    dispatch = CeleryDispatch()
    return Conductor(
        found.app,
        dispatch,
        think=found.settings.bot_think,
        budget=ADVANCE_BUDGET,
        stalled_after=found.settings.stalled_after,
        turn_clocks=found.turn_clocks,
        swept=found.swept,
        requeued=found.requeued,
        courier=_courier(found, dispatch) if sends_webhooks else None,
        ratings=lambda league_id: found.read.ordinals(league_id),
    )


def _courier(found: Services, dispatch: CeleryDispatch) -> Courier:
    return Courier(
        found.app,
        found.read.views.deliveries,
        dispatch,
        retries=found.settings.webhook_retries,
        backoff=found.settings.webhook_backoff,
        timeout=found.settings.webhook_timeout,
        disable_after=found.settings.webhook_disable_after,
    )


@celery_app.task(name=TICK, soft_time_limit=30, time_limit=40, **_RETRY)
def tick() -> None:
    found = services(tasks.settings)
    steps = conductor()
    steps.tick(tournaments_to_conduct(found))
    steps.requeue_stalled_games(stalled_bot_turns(found, steps.stalled_after, STALLED_PER_TICK))
    steps.queue_deliveries(due_deliveries(found, steps.stalled_after, DELIVERIES_PER_TICK))
    if found.settings.smtp_url is not None:
        notices = found.read.views.notices
        for notice_id in due_notices(notices, found.settings.notify_move_after, NOTICES_PER_TICK):
            mail_notice.apply_async((str(notice_id),))


@celery_app.task(name=CONDUCT, soft_time_limit=60, time_limit=90, **_RETRY)
def conduct_tournament(tournament_id: str) -> None:
    conductor().conduct_tournament(tournament_id)


@celery_app.task(name=ADVANCE, soft_time_limit=3 * ADVANCE_BUDGET, time_limit=6 * ADVANCE_BUDGET, **_RETRY)
def advance_game(game_id: str) -> None:
    conductor().advance_game(game_id)


@celery_app.task(name=TIME_OUT, soft_time_limit=30, time_limit=40, **_RETRY)
def time_out_turn(game_id: str, seat: int, version: int) -> None:
    conductor().time_out_turn(game_id, seat, version)


# the receiver's timeout is MAUMAU_WEBHOOK_TIMEOUT (5 s by default): these limits leave room for it
@celery_app.task(name=DELIVER, soft_time_limit=60, time_limit=90, **_RETRY)
def deliver_webhook(delivery_id: str) -> None:
    conductor(sends_webhooks=True).deliver_webhook(delivery_id)


@functools.cache
def _catalogues() -> dict[str, Catalogue]:
    return read_catalogues()


# the SMTP server has 10 s for each step (``usecases.mail.TIMEOUT``)
@celery_app.task(name=MAIL_NOTICE, soft_time_limit=60, time_limit=90, **_RETRY)
def mail_notice(notice_id: str) -> None:
    found = services(tasks.settings)
    Mailer(found.app, found.read.views.notices, found.settings, _catalogues()).mail(notice_id)

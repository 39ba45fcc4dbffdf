"""The Celery app, its beat schedule and its tasks: ``celery -A workers.app worker`` (or ``maumau worker``).

The tasks are thin: each takes ids, builds nothing (the process's services are
built after the fork, ``workers.runtime``) and runs one step of
``workers.conduct.Conductor``, which queues what follows through
``CeleryDispatch``. Every task is idempotent, so ``acks_late`` is safe: a task
whose worker died before acknowledging it is delivered again (with Redis, after
``MAUMAU_BROKER_VISIBILITY_TIMEOUT``) and does what is still left to do.

Tasks (names are the contract with the HTTP layer and the beat):

- ``maumau.tick``: every ``MAUMAU_TICK`` seconds (the beat), queues
  ``maumau.conduct_tournament`` for each open tournament, and ``maumau.advance_game``
  for each game (at most ``STALLED_PER_TICK``) a bot has been to move in for
  ``MAUMAU_STALLED_AFTER`` seconds: its task was lost.
- ``maumau.conduct_tournament(tournament_id)``: starts the tournament or a round when due.
- ``maumau.advance_game(game_id)``: the bots at the table move until a person is to move.
- ``maumau.time_out_turn(game_id, seat, version)``: a turn clock ran out.
- ``maumau.deliver_webhook(delivery_id)``: one try of a webhook delivery (``workers.webhooks``);
  the tick queues the deliveries due (at most ``DELIVERIES_PER_TICK``), a failed try its retry.

The tick and the tournament steps go to a queue of their own (``SCHEDULE_QUEUE``),
the rest to Celery's default one; every worker consumes both (``task_queues``, so no
``-Q`` is needed), taking from each in turn. In one queue a tick waited behind every
bot move queued before it: after a broker outage that backlog outlasted each tick's
expiry, so every tick was discarded and no due tournament started until it drained.

``enqueue_after_move(game_id)`` is for whoever changes a game (a move, a ruling):
the bots answer ``MAUMAU_BOT_THINK`` seconds later.
"""

import logging
from typing import Any
from uuid import UUID

from celery import Celery
from celery.signals import worker_process_init, worker_process_shutdown
from eventsourcing.persistence import InterfaceError, OperationalError
from kombu import Queue

from service.settings import Settings, get_settings
from workers.conduct import Conductor
from workers.runtime import Services, close_services, services
from workers.tournaments import due_deliveries, open_tournaments, stalled_bot_turns
from workers.webhooks import Courier

log = logging.getLogger(__name__)

TICK, CONDUCT, ADVANCE, TIME_OUT, DELIVER = (
    "maumau.tick",
    "maumau.conduct_tournament",
    "maumau.advance_game",
    "maumau.time_out_turn",
    "maumau.deliver_webhook",
)
# the scheduler's queue (ticks, tournament steps) and Celery's default one (bots' moves, clocks)
SCHEDULE_QUEUE, DEFAULT_QUEUE = "maumau.schedule", "celery"
# a request that queues a task waits this long at most for a broker that does not answer
_QUICK_RETRY = {"max_retries": 2, "interval_start": 0, "interval_step": 0.2, "interval_max": 0.5}
# seconds of bot moves one advance_game plays before it queues the rest: well within its time limits
ADVANCE_BUDGET = 10.0
# stalled games one tick queues again, the longest waiting first: the next tick takes the rest
STALLED_PER_TICK = 200
# webhook deliveries one tick queues, the longest due first: the next tick takes the rest
DELIVERIES_PER_TICK = 500
# the database may be down for a moment (a restart, a failover): try again, a little later each time
_RETRY: dict[str, Any] = {
    "autoretry_for": (OperationalError, InterfaceError),
    "retry_backoff": True,
    "retry_backoff_max": 30,
    "max_retries": 8,
}


def broker(settings: Settings) -> tuple[str, dict[str, Any]]:
    """The broker URL and its transport options for these settings."""
    if settings.broker_url is None:
        folder = settings.broker_dir
        folder.mkdir(parents=True, exist_ok=True)
        # the host means nothing to this transport; naming one spares a warning at every connection
        return "filesystem://localhost//", {
            "data_folder_in": str(folder),
            "data_folder_out": str(folder),
            # kombu's default is ./control, beside wherever the process was started
            "control_folder": str(folder / "control"),
            "store_processed": False,
            "polling_interval": 0.1,  # it looks at the folder: often, so a bot's move follows at once
        }
    options: dict[str, Any] = {}
    if settings.broker_url.startswith(("redis://", "rediss://", "unix://")):
        visibility = settings.broker_visibility_timeout
        options = {
            "visibility_timeout": visibility,
            # look for the tasks of dead workers a few times per visibility timeout
            "unacked_restore_interval": max(1, min(10, visibility // 4)),
            "unacked_restore_throttle": 1,
            # a worker killed while it held the restore lock must not hold it for long
            "unacked_mutex_expire": min(300, max(5, visibility)),
        }
        if settings.broker_prefix:
            options["global_keyprefix"] = settings.broker_prefix
    return settings.broker_url, options


def make_celery(settings: Settings) -> Celery:
    celery = Celery("maumau", set_as_current=False)
    celery.conf.update(config(settings))
    return celery


def config(settings: Settings) -> dict[str, Any]:
    """The Celery settings these settings make."""
    url, transport_options = broker(settings)
    return dict(
        broker_url=url,
        # the embedded broker: kombu's filesystem transport, writing and reading safely (workers.filesystem)
        broker_transport="workers.filesystem:Transport" if settings.broker_url is None else None,
        broker_transport_options=transport_options,
        broker_connection_retry_on_startup=True,
        # every worker consumes both queues, taking from each in turn: a backlog of bot moves
        # never keeps a tick waiting past its expiry
        # each its own routing key: Celery would bind both by the default key, so that a message
        # meant for either were copied into both
        task_queues=tuple(Queue(name, routing_key=name) for name in (DEFAULT_QUEUE, SCHEDULE_QUEUE)),
        task_default_queue=DEFAULT_QUEUE,
        task_routes={TICK: {"queue": SCHEDULE_QUEUE}, CONDUCT: {"queue": SCHEDULE_QUEUE}},
        # reconnects after a lost Redis connection instead of stopping (workers.consumer)
        worker_consumer="workers.consumer:Consumer",
        task_acks_late=True,
        task_reject_on_worker_lost=True,  # a killed pool process's task goes back to the queue
        worker_prefetch_multiplier=1,  # a task waits in the queue, not behind a busy process
        task_ignore_result=True,
        task_serializer="json",
        accept_content=["json"],
        enable_utc=True,
        timezone="UTC",
        beat_schedule={
            TICK: {"task": TICK, "schedule": settings.tick, "options": {"expires": settings.tick}},
        },
        worker_hijack_root_logger=False,
    )


settings = get_settings()
celery_app = make_celery(settings)


def configure(new: Settings) -> None:
    """Use these settings (broker, tick, think delay) instead of the environment's: for a process that
    makes its own (the embedded mode, a test). Call it before the first task is queued."""
    global settings
    settings = new
    celery_app.conf.update(config(new))


@worker_process_init.connect
def _build_services(**_: Any) -> None:
    services(settings)


@worker_process_shutdown.connect
def _close_services(**_: Any) -> None:
    close_services()


class CeleryDispatch:
    """Queues the conductor's next steps as tasks."""

    def conduct_tournament(self, tournament_id: UUID) -> None:
        # a look that waited longer than a couple of ticks is replaced by the next tick's
        conduct_tournament.apply_async((str(tournament_id),), expires=max(5.0, 2 * settings.tick))

    def advance_game(self, game_id: UUID, countdown: float = 0.0) -> None:
        advance_game.apply_async((str(game_id),), countdown=countdown or None)

    def time_out_turn(self, game_id: UUID, seat: int, version: int, countdown: float) -> None:
        time_out_turn.apply_async((str(game_id), seat, version), countdown=countdown)

    def deliver_webhook(self, delivery_id: UUID, countdown: float = 0.0) -> None:
        deliver_webhook.apply_async((str(delivery_id),), countdown=countdown or None)


def conductor(sends_webhooks: bool = False) -> Conductor:
    """The steps, on this process's services; with a courier when they send webhooks (it reads the
    read models' store, which the other steps leave unopened)."""
    found = services(settings)
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
    found = services(settings)
    steps = conductor()
    steps.tick(open_tournaments(found))
    steps.requeue_stalled_games(stalled_bot_turns(found, steps.stalled_after, STALLED_PER_TICK))
    steps.queue_deliveries(due_deliveries(found, steps.stalled_after, DELIVERIES_PER_TICK))


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


def enqueue_after_move(game_id: UUID | str) -> bool:
    """A game changed (a person moved, a referee ruled): its bots answer after the think delay.

    Never raises, since the change is stored already: False when the broker could not be
    reached (the tick finds a game whose bots were not told once it has waited
    ``MAUMAU_STALLED_AFTER`` seconds, and a tournament table whose clock was not set).
    """
    return _enqueue(advance_game, str(game_id), settings.bot_think)


def enqueue_tournament(tournament_id: UUID | str) -> bool:
    """A tournament changed (started by hand, say): look at it now rather than at the next tick."""
    return _enqueue(conduct_tournament, str(tournament_id), 0.0)


def _enqueue(task: Any, argument: str, countdown: float) -> bool:
    try:
        task.apply_async((argument,), countdown=countdown or None, retry_policy=_QUICK_RETRY)
    except Exception as error:  # the broker is down or unreachable: kombu's and redis' errors alike
        log.warning("could not queue %s(%s): %s", task.name, argument, error)
        return False
    return True

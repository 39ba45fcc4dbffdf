"""The Celery app as both sides see it: the tasks' names, their queues, the broker, and sending a task
by its name. Whoever queues (``service.application.followups``) needs nothing of the workers' code;
``workers.app`` registers the tasks under these names on this same app.

Tasks (names are the contract between who queues, the workers and the beat):

- ``maumau.tick``: every ``MAUMAU_TICK`` seconds (the beat), queues
  ``maumau.conduct_tournament`` for each open tournament, and ``maumau.advance_game``
  for each game a bot has been to move in for too long: its task was lost.
- ``maumau.conduct_tournament(tournament_id)``: starts the tournament or a round when due.
- ``maumau.advance_game(game_id)``: the bots at the table move until a person is to move.
- ``maumau.time_out_turn(game_id, seat, version)``: a turn clock ran out.
- ``maumau.deliver_webhook(delivery_id)``: one try of a webhook delivery (``workers.webhooks``);
  the tick queues the deliveries due, a failed try its retry (Celery's default queue).
- ``maumau.mail_notice(notice_id)``: a person's notice mailed, once (``workers.notices``: a claim
  that runs out with its dead worker is tried again);
  the tick queues the mails due (Celery's default queue).
"""

import logging
from typing import Any

from celery import Celery
from kombu import Queue

from service.settings import Settings, get_settings

log = logging.getLogger(__name__)

TICK, CONDUCT, ADVANCE, TIME_OUT, DELIVER, MAIL_NOTICE = (
    "maumau.tick",
    "maumau.conduct_tournament",
    "maumau.advance_game",
    "maumau.time_out_turn",
    "maumau.deliver_webhook",
    "maumau.mail_notice",
)
# the scheduler's queue (ticks, tournament steps), the workers' own next steps (bots' moves, clocks)
# and Celery's default one (the bots' answers to people's moves, queued by the API)
SCHEDULE_QUEUE, PLAY_QUEUE, DEFAULT_QUEUE = "maumau.schedule", "maumau.play", "celery"
# a request that queues a task waits this long at most for a broker that does not answer
_QUICK_RETRY = {"max_retries": 2, "interval_start": 0, "interval_step": 0.2, "interval_max": 0.5}


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
        # every worker consumes the three queues, taking from each in turn: a backlog in one never
        # keeps a tick waiting past its expiry, nor a bot's next move behind it
        # each its own routing key: Celery would bind them all by the default key, so that a message
        # meant for one were copied into each
        task_queues=tuple(
            Queue(name, routing_key=name) for name in (DEFAULT_QUEUE, SCHEDULE_QUEUE, PLAY_QUEUE)
        ),
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
    makes its own (the embedded mode, a test). Every task queued after it goes to the new broker."""
    global settings
    settings = new
    celery_app.conf.update(config(new))
    _forget_broker_connections()


def _forget_broker_connections() -> None:
    """Have the app take its broker connections afresh, for the broker it is configured for now.

    Celery takes its connection pool, and the producer pool on it, at the first send, for the broker
    URL and key prefix of that moment, and keeps them: after a new configuration every send would
    still go to the old broker (a task lost, found only by the tick). Dropped, the next send takes
    them again, as Celery does after a fork (``Celery._after_fork``). Nothing is closed: kombu keeps
    one pool per broker and options for the whole process, handed back when the same broker is
    configured again, and a worker thread of this process may be using it.
    """
    celery_app._pool = None
    celery_app.amqp._producer_pool = None


def send(name: str, argument: str, countdown: float) -> bool:
    """Queue the task ``name`` with its one argument, ``countdown`` seconds from now.

    Never raises, since what it follows is stored already: False when the broker could not
    be reached (the tick finds a game whose bots were not told once it has waited
    ``MAUMAU_STALLED_AFTER`` seconds, and a tournament table whose clock was not set).
    """
    try:
        celery_app.send_task(name, (argument,), countdown=countdown or None, retry_policy=_QUICK_RETRY)
    except Exception as error:  # the broker is down or unreachable: kombu's and redis' errors alike
        log.warning("could not queue %s(%s): %s", name, argument, error)
        return False
    return True

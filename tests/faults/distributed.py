"""The distributed mode (``tests.e2e.test_distributed``) on a throwaway PostgreSQL and Redis of the
test's own, so a test may stop, start and kill them."""

import contextlib
import threading
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from service.settings import Settings
from tests.e2e.test_distributed import ADMIN_TOKEN, Processes, distributed_env
from tests.faults.driving import Answers, Club, Table, drive, poll_ready
from tests.faults.servers import ThrowawayPostgres, ThrowawayRedis, throwaway_postgres, throwaway_redis


@dataclass
class Service:
    postgres: ThrowawayPostgres
    redis: ThrowawayRedis
    processes: Processes


@contextlib.contextmanager
def throwaway_service(logs: Path, **settings: str) -> Iterator[Service]:
    """Both servers started, the processes' environment set (start them with ``start_service``);
    everything ended at the end, processes first."""
    with throwaway_postgres() as postgres, throwaway_redis() as redis:
        store = Settings(database_url=postgres.url, database_schema="maumau", data_dir=logs.parent / "var")
        logs.mkdir(exist_ok=True)
        # a task whose worker was killed comes back after this many seconds, not the hour of production;
        # a tick expires after one tick's time, and behind the backlog of bots' moves a broker's return
        # brings, ticks of 0.2 s on this busy 2-core machine all expired before a worker took them
        # a game whose bot's task was lost (an API process killed before it queued it, the broker
        # down) is queued again by the tick after MAUMAU_STALLED_AFTER: well within RECOVERY_WAIT
        settings = {
            "MAUMAU_BROKER_VISIBILITY_TIMEOUT": "10",
            "MAUMAU_TICK": "1",
            "MAUMAU_STALLED_AFTER": "10",
            **settings,
        }
        env = distributed_env(store, redis.url, f"maumau-faults-{uuid.uuid4().hex[:8]}:", **settings)
        processes = Processes(env, logs)
        try:
            yield Service(postgres, redis, processes)
        finally:
            processes.stop()


@contextlib.contextmanager
def load(
    bases: list[str], tables: list[Table], answers: Answers, seconds: float
) -> Iterator[threading.Event]:
    """One client loop per table and a ``/ready`` poller, running for at most ``seconds``; stopped and
    joined at the end."""
    stop = threading.Event()
    deadline = time.monotonic() + seconds
    threads = [
        threading.Thread(target=drive, args=(bases, table, answers, stop, number, deadline), daemon=True)
        for number, table in enumerate(tables)
    ]
    threads.append(threading.Thread(target=poll_ready, args=(bases, answers, stop), daemon=True))
    for thread in threads:
        thread.start()
    try:
        yield stop
    finally:
        stop.set()
        for thread in threads:
            thread.join(timeout=30)


def admin_club(base: str) -> Club:
    return Club(base, ADMIN_TOKEN)

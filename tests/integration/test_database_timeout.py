"""``MAUMAU_DATABASE_TIMEOUT``: a database that does not answer is reported within a few seconds,
and a connection that broke in the pool is replaced unnoticed (``service.persistence.postgres``)."""

import socket
import threading
import uuid
from typing import Any

import psycopg
from eventsourcing.persistence import InfrastructureFactory, OperationalError
from eventsourcing.utils import Environment

from service.settings import Settings

TIMEOUT = 1  # seconds: MAUMAU_DATABASE_TIMEOUT for these tests
# stock eventsourcing tried 10 times, each waiting the whole timeout: far longer than this
BOUND = 6 * TIMEOUT


def factory(url: str, name: str, create_tables: bool) -> Any:
    settings = Settings(database_url=url, pool_size=1, database_timeout=TIMEOUT, create_tables=create_tables)
    return InfrastructureFactory.construct(env=Environment(name, settings.persistence_env()))


def a_port_nobody_listens_on() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_a_read_while_the_database_is_away_fails_as_unavailable_within_a_few_timeouts():
    made = factory(f"postgresql://maumau@127.0.0.1:{a_port_nobody_listens_on()}/maumau", "away", False)
    assert made.datastore.pool.kwargs["connect_timeout"] == 2  # libpq's least
    failed: list[BaseException] = []

    def read() -> None:
        try:
            made.aggregate_recorder().select_events(uuid.uuid4())
        except BaseException as error:
            failed.append(error)

    thread = threading.Thread(target=read, daemon=True)
    thread.start()
    thread.join(BOUND)
    try:
        assert not thread.is_alive(), f"a read still waited for an absent database after {BOUND} s"
        assert len(failed) == 1 and isinstance(failed[0], OperationalError), failed
    finally:
        made.close()


def test_a_connection_that_broke_in_the_pool_is_replaced_and_the_read_answers(database_url):
    name = f"timeout{uuid.uuid4().hex[:8]}"
    made = factory(database_url, name, True)
    recorder = made.aggregate_recorder()
    try:
        game = uuid.uuid4()
        assert recorder.select_events(game) == []
        pool = made.datastore.pool
        # every connection the pool holds, all broken behind its back (as a database restart does)
        held = [pool.getconn() for _ in range(pool.get_stats()["pool_size"])]
        pids = [conn.info.backend_pid for conn in held]
        for conn in held:
            pool.putconn(conn)
        with psycopg.connect(database_url, autocommit=True) as admin:
            for pid in pids:
                admin.execute("SELECT pg_terminate_backend(%s, 5000)", (pid,))  # waits until it ended
        # each attempt that meets a dead connection fails at once and is tried again
        assert recorder.select_events(game) == []
        with made.datastore.get_connection() as conn:
            assert conn.execute("SELECT pg_backend_pid()").fetchone()["pg_backend_pid"] not in pids
    finally:
        with psycopg.connect(database_url, autocommit=True) as admin:
            admin.execute(f'DROP TABLE IF EXISTS "{name}_events"')
        made.close()

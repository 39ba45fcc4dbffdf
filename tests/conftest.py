"""Shared fixtures. Integration and e2e tests use real servers, never mocks.

Where the database comes from (design.md, Tests): ``MAUMAU_TEST_DATABASE_URL``
when set; else a PostgreSQL container (testcontainers) when a Docker engine
answers; else the local server on 127.0.0.1:5432. The broker (``broker_url``)
likewise: ``MAUMAU_TEST_BROKER_URL``, else a Redis container, else the local
Redis on 127.0.0.1:6379 (database 9).
"""

import os
from collections import Counter, defaultdict
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests import durations

LOCAL_DATABASE_URL = "postgresql://postgres@127.0.0.1:5432/test"
POSTGRES_IMAGE = "postgres:16-alpine"
LOCAL_BROKER_URL = "redis://127.0.0.1:6379/9"
REDIS_IMAGE = "redis:7-alpine"

_TESTS = Path(__file__).parent
# each test process holds its sessions' apps, servers and pools at once: below this many connections a
# process PostgreSQL turns some away ("too many clients"), so the suite runs in fewer processes
CONNECTIONS_PER_PROCESS = 100
# tests wait on servers starting, bots thinking and browsers loading: one process more than the
# cores keeps the cores busy meanwhile (.ci/run: 701 s with three on two cores, 879 s with two before)
PROCESSES_PER_CORE_PLUS = 1
# a file stays in one process (a group of its own, --dist loadgroup); the groups are dealt out longest
# first by their files' times in a full run (tests/durations.json), for a long group dealt last keeps
# one process busy after the others have finished; a file not timed yet goes by its folder
FOLDERS_LONGEST_FIRST = ("properties", "faults", "e2e", "web", "integration", "unit")
# the browser tests' server (tests/web/conftest.py, ``base``) lives as long as its process: every test
# that takes it goes to one process (three servers ticking beside the rest of the suite cost more CPU
# than the browser tests themselves)
WEB_SERVER_GROUP = "web-server"


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """How many processes `./run test` (``-n auto``) runs the suite in: one more than the cores on a
    machine of two cores or more, as many as PostgreSQL lets connect as much as they need (``.ci/run``
    raises its limit), else none beside this one."""
    cores = os.cpu_count() or 1
    if cores < 2:
        return 0
    url = os.environ.get("MAUMAU_TEST_DATABASE_URL", LOCAL_DATABASE_URL)
    try:
        import psycopg

        with psycopg.connect(url, connect_timeout=5) as conn:
            row = conn.execute("show max_connections").fetchone()
    except Exception:
        return 0  # no server to ask (a container is started later, one per process): the safe one
    allowed = 0 if row is None else int(row[0]) // CONNECTIONS_PER_PROCESS
    processes = min(cores + PROCESSES_PER_CORE_PLUS, allowed)
    return processes if processes >= 2 else 0


@pytest.hookimpl(tryfirst=True)  # before xdist's own, which names each test's group from its mark
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark tests by their folder, so `-m "not integration and not e2e and not slow"` runs only the
    fast ones (``properties/``: the long property runs, ``slow``; ``faults/``: the fault tests,
    ``faults`` and ``slow``), and `-m "not faults"` everything but the fault tests; group them by
    file, the browser tests that share a server in one group; and deal the longest out first."""
    for item in items:
        folder = _folder(item)
        if folder in ("integration", "e2e", "faults"):
            item.add_marker(folder)
        if folder == "web":  # the pages in a real browser against a real server
            item.add_marker("e2e")
        if folder in ("properties", "faults"):
            item.add_marker("slow")
        item.add_marker(pytest.mark.xdist_group(_group(item)))
    _deal_longest_first(items)


def _deal_longest_first(items: list[pytest.Item]) -> None:
    timed = durations.read()
    tests_of = Counter(_file(item) for item in items)
    seconds: defaultdict[str, float] = defaultdict(float)
    for item in items:  # a group's share of each file's time (a file's tests may be in two groups)
        seconds[_group(item)] += timed.get(_file(item), 0.0) / tests_of[_file(item)]
    rank = {folder: place for place, folder in enumerate(FOLDERS_LONGEST_FIRST)}
    # a stable sort: each group's tests keep their order
    items.sort(key=lambda item: (-seconds[_group(item)], rank.get(_folder(item), len(rank))))


def _group(item: pytest.Item) -> str:
    """The process a test goes to with the others of its group (``./run test``: --dist loadgroup)."""
    if _folder(item) == "web" and "base" in getattr(item, "fixturenames", ()):
        return WEB_SERVER_GROUP
    return _file(item)


def _file(item: pytest.Item) -> str:
    return Path(item.path).relative_to(_TESTS.parent).as_posix()


def _folder(item: pytest.Item) -> str:
    return Path(item.path).relative_to(_TESTS).parts[0]


def docker_answers() -> bool:
    try:
        import docker

        client = docker.from_env(timeout=3)
        try:
            return bool(client.ping())
        finally:
            client.close()
    except Exception:
        return False


@pytest.fixture(scope="session")
def database_url() -> Iterator[str]:
    url = os.environ.get("MAUMAU_TEST_DATABASE_URL")
    if url:
        yield url
    elif docker_answers():
        from testcontainers.community.postgres import PostgresContainer

        with PostgresContainer(POSTGRES_IMAGE, driver=None) as postgres:
            yield postgres.get_connection_url()
    else:
        _ensure_local_database(LOCAL_DATABASE_URL)
        yield LOCAL_DATABASE_URL


def _ensure_local_database(url: str) -> None:
    """Create the local test database when the server is up but the database is not there yet."""
    import psycopg
    from psycopg import sql
    from psycopg.conninfo import conninfo_to_dict, make_conninfo

    params = conninfo_to_dict(url)
    try:
        with psycopg.connect(
            make_conninfo(url, dbname="postgres"), autocommit=True, connect_timeout=5
        ) as conn:
            found = conn.execute(
                "select 1 from pg_database where datname = %s", (params["dbname"],)
            ).fetchone()
            if found is None:
                conn.execute(sql.SQL("create database {}").format(sql.Identifier(params["dbname"])))
    except psycopg.OperationalError as error:
        pytest.fail(
            f"no PostgreSQL answers at {url} and no Docker engine answers: {error}\n"
            "start the local server (.ci/run does) or set MAUMAU_TEST_DATABASE_URL",
            pytrace=False,
        )


@pytest.fixture(scope="session")
def broker_url() -> Iterator[str]:
    """A Redis broker URL; tests that share it keep apart by a key prefix of their own."""
    url = os.environ.get("MAUMAU_TEST_BROKER_URL")
    if url:
        yield url
    elif docker_answers():
        from testcontainers.community.redis import RedisContainer

        with RedisContainer(REDIS_IMAGE) as redis:
            yield f"redis://{redis.get_container_host_ip()}:{redis.get_exposed_port(6379)}/0"
    else:
        _ensure_local_redis(LOCAL_BROKER_URL)
        yield LOCAL_BROKER_URL


def _ensure_local_redis(url: str) -> None:
    import redis

    client = redis.Redis.from_url(url, socket_connect_timeout=5)
    try:
        client.ping()
    except redis.RedisError as error:
        pytest.fail(
            f"no Redis answers at {url} and no Docker engine answers: {error}\n"
            "start the local server (.ci/run does) or set MAUMAU_TEST_BROKER_URL",
            pytrace=False,
        )
    finally:
        client.close()

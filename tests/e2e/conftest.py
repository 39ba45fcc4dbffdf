"""The HTTP API end to end: the real app (litestar's TestClient) on a real PostgreSQL.

One app for the session, on a schema of its own (dropped at the end), with the
projections running in it as in production. Tests make their own players,
leagues and games, so they never see each other's.
"""

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from litestar.testing import TestClient

from service.app import create_app
from service.settings import Settings
from service.tasks import configure
from tests.e2e.club import ADMIN_TOKEN, Club
from tests.e2e.queued import Queued
from tests.gameplay import SAME_ENTROPY
from tests.schemas import own_schema


@pytest.fixture(scope="session")
def http_schema(database_url: str) -> Iterator[str]:
    with own_schema(database_url, "maumau_http") as schema:
        yield schema


@pytest.fixture(scope="session")
def http_settings(database_url: str, http_schema: str) -> Settings:
    return Settings(
        database_url=database_url,
        database_schema=http_schema,
        snapshot_interval=7,
        pool_size=4,
        admin_token=ADMIN_TOKEN,
    )


@pytest.fixture
def settings(database_url: str, tmp_path: Path) -> Iterator[Settings]:
    """A PostgreSQL schema of the test's own, for a test that starts processes of its own (API
    processes, workers, a beat, a runner) to share it instead of the session's app; dropped at the end."""
    with own_schema(database_url, "maumau_run") as schema:
        yield Settings(
            database_url=database_url, database_schema=schema, data_dir=tmp_path / "var", pool_size=2
        )


@pytest.fixture(scope="session")
def broker_data(tmp_path_factory: pytest.TempPathFactory) -> Settings:
    # the tasks the API queues (bots to answer, a tournament started) go to a broker folder of the
    # session's own, where no worker takes them, not to the embedded broker in ./var
    return Settings(data_dir=tmp_path_factory.mktemp("broker"))


@pytest.fixture(scope="session")
def client(http_settings: Settings, broker_data: Settings) -> Iterator[TestClient[Any]]:
    configure(broker_data)
    with TestClient(create_app(http_settings)) as test_client:
        yield test_client


@pytest.fixture
def queued(client: TestClient[Any], broker_data: Settings) -> Queued:
    """What the API queues from here on, read off the broker (earlier tests' tasks taken away)."""
    found = Queued(broker_data.broker_dir)
    found.take()
    return found


@pytest.fixture(scope="session")
def club(client: TestClient[Any]) -> Club:
    return Club(client)


@pytest.fixture
def same_deals(club: Club, monkeypatch: pytest.MonkeyPatch) -> None:
    """The session's app deals each game from its seed alone, the same every run, for this test: one
    that asserts what shuffled play brought about (the app's own entropy hook, as the integration
    tests' app is built with; the store, the broker and the HTTP stack stay real)."""
    monkeypatch.setattr(club.app, "entropy", lambda: SAME_ENTROPY)

"""The application on both stores: every test taking ``app`` runs on PostgreSQL and on SQLite.

PostgreSQL: the session's database (``database_url``), in a schema of its own
that is dropped at the end, so runs never see each other's tables. SQLite: a
file in the test's temporary directory (the embedded default).
"""

from collections.abc import Iterator

import pytest

from service.application import MauMau
from service.projections.reader import ReadModels
from service.settings import Settings
from tests.gameplay import SAME_ENTROPY
from tests.schemas import own_schema

# small, so that tests load games from snapshots at every kind of point
SNAPSHOT_INTERVAL = 7


@pytest.fixture(scope="session")
def postgres_schema(database_url: str) -> Iterator[str]:
    with own_schema(database_url) as schema:
        yield schema


@pytest.fixture(params=["postgres", "sqlite"])
def store_kind(request: pytest.FixtureRequest) -> str:
    """The kind of store a test runs on: every test taking ``settings`` runs on both."""
    return request.param


@pytest.fixture
def settings(store_kind: str, request: pytest.FixtureRequest, tmp_path) -> Settings:
    """The test's store. PostgreSQL: the session's schema, shared by the tests; in a module marked
    ``own_store`` (``pytestmark = pytest.mark.own_store``), the test's own, as ``fresh_settings``."""
    if request.node.get_closest_marker("own_store") is not None:
        return request.getfixturevalue("fresh_settings")
    if store_kind == "postgres":
        return Settings(
            database_url=request.getfixturevalue("database_url"),
            database_schema=request.getfixturevalue("postgres_schema"),
            snapshot_interval=SNAPSHOT_INTERVAL,
            pool_size=1,
        )
    return Settings(data_dir=tmp_path / "var", snapshot_interval=SNAPSHOT_INTERVAL)


@pytest.fixture
def app(settings: Settings) -> Iterator[MauMau]:
    # a seed deals the same cards every run (the tests of the entropy itself make their own app)
    application = MauMau(settings, entropy=lambda: SAME_ENTROPY)
    yield application
    application.close()


@pytest.fixture
def fresh_settings(store_kind: str, request: pytest.FixtureRequest, tmp_path) -> Iterator[Settings]:
    """Like ``settings``, but PostgreSQL in a schema of the test's own: for tests that read the whole
    notification log (the projections), which other tests' events would otherwise share."""
    if store_kind == "sqlite":
        yield Settings(data_dir=tmp_path / "var", snapshot_interval=SNAPSHOT_INTERVAL)
        return
    url = request.getfixturevalue("database_url")
    with own_schema(url) as schema:
        yield Settings(
            database_url=url, database_schema=schema, snapshot_interval=SNAPSHOT_INTERVAL, pool_size=1
        )


@pytest.fixture
def reader(settings: Settings) -> Iterator[ReadModels]:
    """The read models of the test's store (run a runner, e.g. ``projecting.catch_up``, to fill them)."""
    models = ReadModels(settings)
    yield models
    models.close()

"""An accepted token is trusted for ``MAUMAU_TOKEN_CACHE_SECONDS`` without a lookup: a revocation made
through another API process is honoured within that bound, one through the same process at once."""

import time
from collections.abc import Iterator
from typing import Any

import msgspec
import pytest
from litestar.testing import TestClient

from service.app import create_app
from service.settings import Settings
from tests.e2e.club import ADMIN, Club, bearer, problem

BOUND = 1.0  # seconds: short, so the test waits no longer than it must


@pytest.fixture(scope="module")
def other_process(http_settings: Settings) -> Iterator[TestClient[Any]]:
    """A second API on the same database, with a cache of its own (as a second worker process has)."""
    settings = msgspec.structs.replace(http_settings, token_cache_seconds=BOUND, run_projections=False)
    with TestClient(create_app(settings)) as other:
        yield other


def trusted_token(club: Club, reader: TestClient[Any], name: str) -> tuple[str, str, str]:
    """A new player's token, its credential id and a path the token may read, once ``reader`` has
    accepted it (and so holds it in its cache)."""
    created = club.ok("POST", "/players", json={"name": name})
    token, credential_id = created["token"]["token"], created["token"]["credential_id"]
    path = f"/players/{created['player']['player_id']}/tokens"  # needs a valid token
    assert reader.get(path, headers=bearer(token)).status_code == 200
    return token, credential_id, path


def refused_after(client: TestClient[Any], path: str, token: str, limit: float) -> float | None:
    """Seconds until ``client`` refuses the token (asked every 50 ms), None when not within ``limit``."""
    started = time.monotonic()
    while time.monotonic() - started <= limit:
        response = client.get(path, headers=bearer(token))
        if response.status_code == 401:
            problem(response, 401, "unauthorized")
            return time.monotonic() - started
        assert response.status_code == 200, response.text
        time.sleep(0.05)
    return None


def test_a_token_revoked_through_another_process_is_refused_there_within_the_cache_bound(
    client, club, other_process
):
    token, credential_id, path = trusted_token(club, other_process, "Cached")
    assert client.delete(f"/tokens/{credential_id}", headers=ADMIN).status_code == 204
    waited = refused_after(other_process, path, token, limit=BOUND + 1.0)
    assert waited is not None and waited <= BOUND + 0.5, waited


def test_a_token_revoked_through_the_same_process_is_refused_there_at_once(client, club, other_process):
    token, credential_id, path = trusted_token(club, other_process, "Forgotten")
    assert other_process.delete(f"/tokens/{credential_id}", headers=ADMIN).status_code == 204
    problem(other_process.get(path, headers=bearer(token)), 401, "unauthorized")


def test_a_cache_of_zero_seconds_looks_every_token_up(http_settings, client, club):
    settings = msgspec.structs.replace(http_settings, token_cache_seconds=0.0, run_projections=False)
    with TestClient(create_app(settings)) as uncached:
        token, credential_id, path = trusted_token(club, uncached, "Uncached")
        assert client.delete(f"/tokens/{credential_id}", headers=ADMIN).status_code == 204
        problem(uncached.get(path, headers=bearer(token)), 401, "unauthorized")

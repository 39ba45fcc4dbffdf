"""Cross-Origin Resource Sharing: another site's pages call the API only where MAUMAU_CORS_ORIGINS
names that site, with a bearer token and never with the pages' cookie."""

from collections.abc import Iterator
from typing import Any

import msgspec
import pytest
from litestar.testing import TestClient

from service.app import create_app
from service.settings import Settings
from tests.e2e.club import ADMIN

CLUB_SITE = "https://club.example"
OTHER_SITE = "https://elsewhere.example"


@pytest.fixture(scope="module")
def open_to_the_club(http_settings: Settings) -> Iterator[TestClient[Any]]:
    with TestClient(create_app(msgspec.structs.replace(http_settings, cors_origins=(CLUB_SITE,)))) as client:
        yield client


def preflight(client: TestClient[Any], origin: str) -> Any:
    """What a browser asks before a page of ``origin`` POSTs JSON with a token and a key."""
    return client.options(
        "/players",
        headers={
            "Origin": origin,
            "Access-Control-Request-Method": "POST",
            "Access-Control-Request-Headers": "authorization, content-type, idempotency-key",
        },
    )


def test_a_named_sites_preflight_is_answered_with_what_it_may_send_and_no_cookie(open_to_the_club):
    answer = preflight(open_to_the_club, CLUB_SITE)
    assert answer.status_code in (200, 204), answer.text
    assert answer.headers["access-control-allow-origin"] == CLUB_SITE
    assert "POST" in answer.headers["access-control-allow-methods"]
    allowed = answer.headers["access-control-allow-headers"].lower()
    assert {"authorization", "content-type", "idempotency-key"} <= {h.strip() for h in allowed.split(",")}
    assert "access-control-allow-credentials" not in answer.headers


def test_a_named_sites_request_is_answered_for_it_with_the_request_id_readable(open_to_the_club):
    answer = open_to_the_club.get("/leagues", headers={"Origin": CLUB_SITE, **ADMIN})
    assert answer.status_code == 200
    assert answer.headers["access-control-allow-origin"] == CLUB_SITE
    assert "x-request-id" in answer.headers["access-control-expose-headers"].lower()
    assert "access-control-allow-credentials" not in answer.headers


def test_a_site_not_named_gets_no_allowance(open_to_the_club):
    refused = preflight(open_to_the_club, OTHER_SITE)
    assert refused.status_code == 400
    assert "access-control-allow-origin" not in refused.headers
    read = open_to_the_club.get("/leagues", headers={"Origin": OTHER_SITE})
    assert "access-control-allow-origin" not in read.headers


def test_by_default_no_other_site_may_call_the_api(client):
    answer = preflight(client, CLUB_SITE)
    assert "access-control-allow-origin" not in answer.headers
    read = client.get("/leagues", headers={"Origin": CLUB_SITE})
    assert read.status_code == 200 and "access-control-allow-origin" not in read.headers

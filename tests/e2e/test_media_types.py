"""A body is JSON: another media type is 415 ``unsupported_media_type`` and changes nothing."""

import json

import pytest

from tests.e2e.club import ADMIN, problem
from tests.e2e.test_openapi import operations

EVE = json.dumps({"name": "Eve"})


@pytest.mark.parametrize(
    "content_type", ["text/plain", "application/x-www-form-urlencoded", "application/xml", "text/json"]
)
def test_a_json_body_sent_as_another_media_type_is_refused_with_415_and_changes_nothing(
    client, club, content_type
):
    with club.unchanged():
        response = client.post("/players", content=EVE, headers={**ADMIN, "Content-Type": content_type})
        found = problem(response, 415, "unsupported_media_type")
    assert content_type in found["detail"]


@pytest.mark.parametrize(
    "content_type",
    [
        "application/json",
        "application/json; charset=utf-8",
        "Application/JSON",
        "application/vnd.maumau+json",
    ],
)
def test_a_body_sent_as_json_is_read(client, club, content_type):
    response = client.post("/players", content=EVE, headers={**ADMIN, "Content-Type": content_type})
    assert response.status_code == 201, response.text
    assert response.json()["player"]["name"] == "Eve"


def test_a_request_without_a_body_needs_no_content_type(client, club):
    ada, _ = club.player("Ada")
    response = client.post(f"/players/{ada}/tokens", headers=ADMIN)
    assert response.status_code == 201, response.text
    assert "content-type" not in response.request.headers


def test_the_document_lists_415_on_every_operation_that_takes_a_body(client):
    document = client.get("/schema/openapi.json").json()
    with_body = [(method, path, op) for method, path, op in operations(document) if "requestBody" in op]
    assert with_body
    for method, path, operation in with_body:
        assert "415" in operation["responses"], (method, path)

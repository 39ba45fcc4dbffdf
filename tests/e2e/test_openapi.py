"""The OpenAPI document and the one table of error codes."""

import re
from pathlib import Path
from typing import Any

from service.usecases.refusals import CODES, STATUS_OF, UNPROCESSABLE, status_of

SERVICE = Path(__file__).parents[2] / "service"


def operations(document: dict[str, Any]) -> list[tuple[str, str, dict[str, Any]]]:
    return [
        (method.upper(), path, operation)
        for path, methods in document["paths"].items()
        for method, operation in methods.items()
    ]


def has_examples(operation: dict[str, Any], schemas: dict[str, Any]) -> bool:
    """Examples on a parameter, on the request body, or in a success response's schema."""
    if any(parameter.get("examples") for parameter in operation.get("parameters", [])):
        return True
    body = operation.get("requestBody", {}).get("content", {}).get("application/json", {})
    if body.get("examples") or body.get("schema", {}).get("examples"):
        return True
    for status, response in operation["responses"].items():
        for content in response.get("content", {}).values():
            ref = content.get("schema", {}).get("$ref", "")
            schema = schemas.get(ref.rsplit("/", 1)[-1], {})
            if status.startswith("2") and any("examples" in p for p in schema.get("properties", {}).values()):
                return True
    return False


def test_the_document_is_openapi_3_1_with_an_operation_id_and_examples_on_every_operation(client):
    document = client.get("/schema/openapi.json").json()
    assert document["openapi"].startswith("3.1")
    found = operations(document)
    assert len(found) >= 27
    ids = [operation.get("operationId") for _, _, operation in found]
    assert all(ids) and len(set(ids)) == len(ids)
    schemas = document["components"]["schemas"]
    assert [f"{m} {p}" for m, p, op in found if not has_examples(op, schemas)] == []


def test_every_refusal_is_documented_as_problem_json_with_its_codes(client):
    document = client.get("/schema/openapi.json").json()
    for method, path, operation in operations(document):
        errors = {status: response for status, response in operation["responses"].items() if status >= "400"}
        assert {"400", "401"} <= set(errors), f"{method} {path}"
        for status, response in errors.items():
            assert list(response["content"]) == ["application/problem+json"], f"{method} {path} {status}"
            codes = UNPROCESSABLE if status == "422" else CODES[int(status)]
            assert all(code in response["description"] for code in codes)


def test_request_bodies_refuse_unknown_fields_in_the_schema_too(client):
    schemas = client.get("/schema/openapi.json").json()["components"]["schemas"]
    for name in ("PlayerCreate", "GameCreate", "Play", "Draw", "ChallengeCreate", "PenaltyRuling"):
        assert schemas[name]["additionalProperties"] is False, name


def test_the_interactive_pages_are_served(client):
    for path in ("/schema/swagger", "/schema"):
        response = client.get(path)
        assert response.status_code == 200 and "text/html" in response.headers["content-type"]


def test_every_rule_error_code_raised_anywhere_is_in_the_table():
    pattern = re.compile(r'(?:RuleError|_refusal)\(\s*(?:s,\s*)?"([a-z_]+)"')
    raised = {code for file in SERVICE.rglob("*.py") for code in pattern.findall(file.read_text())}
    assert raised
    missing = sorted(raised - set(STATUS_OF) - set(UNPROCESSABLE))
    assert missing == [], f"add these codes to the table in service/usecases/refusals.py: {missing}"


def test_the_table_maps_the_codes_as_http_means_them():
    assert status_of("game_not_found") == 404
    assert status_of("not_your_seat") == status_of("not_seated") == status_of("not_allowed") == 403
    assert (
        status_of("stale_version") == status_of("game_paused") == status_of("idempotency_key_reused") == 409
    )
    assert status_of("malformed_card") == status_of("malformed_request") == 400
    assert status_of("unauthorized") == 401
    assert (
        status_of("not_your_turn")
        == status_of("card_does_not_match")
        == status_of("a_code_added_later")
        == 422
    )
    assert not set(UNPROCESSABLE) & set(STATUS_OF)


def body_examples(document: dict[str, Any], method: str, path: str) -> list[Any]:
    body = document["paths"][path][method]["requestBody"]["content"]["application/json"]
    return list(body["schema"].get("examples", []))


def test_no_game_example_seats_one_player_twice_which_the_server_refuses(client):
    examples = body_examples(client.get("/schema/openapi.json").json(), "post", "/games")
    assert len(examples) >= 2
    for example in examples:
        people = [seat for seat in example["seats"] if not seat.startswith("bot:")]
        assert len(people) == len(set(people)), example


def test_league_and_tournament_examples_are_named_as_leagues_and_tournaments_not_as_a_player(client):
    document = client.get("/schema/openapi.json").json()
    schemas = document["components"]["schemas"]
    for path, schema in (
        ("/leagues", "LeagueCreate"),
        ("/leagues/{league_id}/tournaments", "TournamentCreate"),
    ):
        names = [example["name"] for example in body_examples(document, "post", path)]
        names += schemas[schema]["properties"]["name"].get("examples", [])
        assert names and "Ada" not in names, (path, names)

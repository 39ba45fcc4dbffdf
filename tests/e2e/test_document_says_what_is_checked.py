"""The OpenAPI document states what the server checks, and the server takes what the document allows.

schemathesis (``test_schemathesis``) finds these by chance; each is pinned here.
"""

from typing import Any

from service.domain.mao.league import MAO_OPTIONS
from service.domain.presets import SWITCHES
from tests.e2e.club import ADMIN, problem
from tests.e2e.test_openapi import operations
from tests.integration.tables import deck_for

HANDS = {0: ["9H", "KH", "2C", "3C", "4C"], 1: ["9S", "KS", "2D", "3D", "4D"]}


def document(client) -> dict[str, Any]:
    return client.get("/schema/openapi.json").json()


def test_options_allows_every_method_of_the_path(client, club):
    league = club.league()
    allowed = client.options(f"/leagues/{league}/tournaments")
    assert allowed.status_code == 204
    assert allowed.headers["allow"] == "GET, OPTIONS, POST"
    for _, path, _ in operations(document(client)):
        documented = {method.upper() for method in document(client)["paths"][path]} | {"OPTIONS"}
        concrete = path.replace("{", "").replace("}", "")  # any text: only the route matters
        concrete = (
            concrete.replace("league_id", league).replace("game_id", league).replace("player_id", league)
        )
        concrete = concrete.replace("referee_id", league).replace("credential_id", league)
        concrete = concrete.replace("tournament_id", league).replace("invitation_id", league)
        concrete = concrete.replace("webhook_id", league).replace("delivery_id", league)
        concrete = concrete.replace("round_no", "1")
        answer = client.options(concrete)
        assert set(answer.headers["allow"].split(", ")) == documented, (path, answer.headers.get("allow"))


def test_a_whole_number_written_as_a_float_is_an_integer(client, club):
    league = club.ok("POST", "/leagues", json={"name": "Floats", "options": {"target_score": 150.0}})
    assert league["options"] == {"target_score": 150}
    ada, ada_headers = club.player("Ada")
    bob, _ = club.player("Bob")
    game = club.game([ada, bob], deck=deck_for(HANDS, starter="5H", seats=2, dealer=1), first_dealer=1.0)
    body = {"kind": "play", "card": "9H", "version": float(game["version"])}
    played = client.post(f"/games/{game['game_id']}/moves", json=body, headers=ada_headers)
    assert played.status_code == 200, played.text
    with club.unchanged():
        problem(
            client.post(
                f"/games/{game['game_id']}/moves", json={**body, "version": 3.5}, headers=ada_headers
            ),
            400,
            "malformed_request",
        )


def test_integer_bounds_are_written_as_the_integers_they_are(client):
    found = document(client)
    (after,) = [
        p for p in found["paths"]["/games/{game_id}/events"]["get"]["parameters"] if p["name"] == "after"
    ]
    assert after["schema"]["maximum"] == 2**63 - 1 and isinstance(after["schema"]["maximum"], int)
    version = found["components"]["schemas"]["Play"]["properties"]["version"]
    assert version["maximum"] == 2**63 - 1


def test_a_seat_is_a_player_id_or_a_bot_as_the_document_says(client, club):
    ada, _ = club.player("Ada")
    seats = found_schema = document(client)["components"]["schemas"]["GameCreate"]["properties"]["seats"]
    assert "pattern" in found_schema["items"], seats
    with club.unchanged():
        for seat in ("", "{" + ada + "}", f"urn:uuid:{ada}", ada.replace("-", ""), f"{ada}\n"):
            problem(client.post("/games", json={"seats": [seat, ada]}, headers=ADMIN), 400, "invalid_seat")


def test_options_and_plans_state_their_names_and_ranges(client):
    schemas = document(client)["components"]["schemas"]
    options = schemas["LeagueCreate"]["properties"]["options"]
    assert options["additionalProperties"] is False
    switches = {name for preset in SWITCHES.values() for name in preset}
    assert set(options["properties"]) == {
        "target_score",
        "single_round",
        "hand_size",
        "voluntary_draw",
        "call_penalty",
        "decks",
        "quick",
        "blind",
        *switches,
        *MAO_OPTIONS,  # a Mao league's
    }
    assert options["properties"]["quick"] == options["properties"]["blind"] == {"type": "boolean"}
    assert options["properties"]["rounds_to_win"] == {"type": "integer", "minimum": 1, "maximum": 9}
    assert options["properties"]["target_score"]["maximum"] == 1000
    assert (options["properties"]["decks"]["minimum"], options["properties"]["decks"]["maximum"]) == (1, 2)
    assert all(options["properties"][name] == {"type": "boolean"} for name in switches)
    plan = schemas["TournamentCreate"]["properties"]
    assert (plan["table_size"]["minimum"], plan["table_size"]["maximum"]) == (2, 6)
    assert plan["interval"]["maximum"] == 90 * 86_400
    assert plan["name"]["maxLength"] == 64 and plan["name"]["pattern"]


def test_a_card_or_suit_the_document_does_not_describe_is_malformed_and_changes_nothing(client, club):
    ada, ada_headers = club.player("Ada")
    bob, _ = club.player("Bob")
    game = club.game([ada, bob], deck=deck_for(HANDS, starter="5H", seats=2, dealer=1), first_dealer=1)
    moves, version = f"/games/{game['game_id']}/moves", game["version"]
    with club.unchanged():
        for card in (
            " 9H",
            "9H ",
            "9\u017f",
            "\u00bdH",
            "\u04451",
            " X1",
            "X3",
            "9H.1",
            "9H2",
        ):  # spaces, a long s, a half and a Cyrillic x that upper() or int() bend; jokers and copy marks
            # the document does not write
            body = {"kind": "play", "card": card, "version": version}
            problem(client.post(moves, json=body, headers=ada_headers), 400, "malformed_card")
        for suit in (" S", "\u017f", "spade"):
            body = {"kind": "play", "card": "9H", "suit": suit, "version": version}
            problem(client.post(moves, json=body, headers=ada_headers), 400, "malformed_suit")
    # the second deck's mark on a card of a one-deck game: the copy held, the first deck's, is played
    played = client.post(
        moves, json={"kind": "play", "card": "9h.2", "version": version}, headers=ada_headers
    )
    assert played.status_code == 200, played.text
    assert [event["data"]["card"] for event in played.json()["events"] if event["type"] == "CardPlayed"] == [
        "9H"
    ]

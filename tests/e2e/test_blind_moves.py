"""The blind modifier over HTTP: a card played face down, what each sight sees, the challenge and
each refusal's code."""

from typing import Any

import pytest

from tests.e2e.club import moves, problem

HANDS = {0: ["2C", "3C", "4C", "6C", "KS"], 1: ["9S", "2D", "3D", "4D", "6D"]}


@pytest.fixture
def table(client, club) -> dict[str, Any]:
    return club.heads_up(HANDS, options={"blind": True})


def lie(client, table) -> dict[str, Any]:
    game = table["game"]
    body = {"kind": "play", "card": "2C", "declared": "9H", "version": game["version"]}
    played = client.post(moves(game), json=body, headers=table["ada"])
    assert played.status_code == 200, played.text
    return played.json()


def test_a_card_played_face_down_is_seen_as_its_declaration_by_all_but_its_player(client, club, table):
    result = lie(client, table)
    (event,) = result["events"]
    assert (event["data"]["card"], event["data"]["declared"]) == ("2C", "9H")  # the player's own sight
    game_id = table["game"]["game_id"]
    public = client.get(f"/games/{game_id}?after={result['position']}").json()
    assert public["top"] == "9H"
    bob_sees = client.get(f"/games/{game_id}/events", headers=table["bob"]).json()
    played = [e for e in bob_sees["events"] if e["type"] == "CardPlayed"]
    assert played and played[-1]["data"]["card"] == "9H" and "declared" not in played[-1]["data"]
    assert "2C" not in str(bob_sees)


def test_the_next_player_challenges_a_lie_and_the_liar_draws_two(client, club, table):
    result = lie(client, table)
    body = {"kind": "challenge_declaration", "version": result["version"]}
    challenged = client.post(moves(table["game"]), json=body, headers=table["bob"])
    assert challenged.status_code == 200, challenged.text
    first, drawn = challenged.json()["events"]
    assert first["type"] == "DeclarationChallenged"
    assert (first["data"]["card"], first["data"]["declared"], first["data"]["lied"]) == ("2C", "9H", True)
    assert drawn["type"] == "CardsDrawn" and (drawn["data"]["seat"], drawn["data"]["count"]) == (0, 2)


def test_each_refused_face_down_play_or_challenge_answers_its_code_and_changes_nothing(client, club, table):
    game, ada = table["game"], table["ada"]
    version = game["version"]
    cases = [
        (
            ada,
            {"kind": "play", "card": "2C", "declared": "9S", "version": version},
            422,
            "card_does_not_match",
        ),
        (ada, {"kind": "play", "card": "9D", "declared": "9H", "version": version}, 422, "card_not_in_hand"),
        (ada, {"kind": "play", "card": "2C", "declared": "X1", "version": version}, 422, "card_not_in_deck"),
        (ada, {"kind": "play", "card": "2C", "declared": "1Z", "version": version}, 400, "malformed_card"),
        (ada, {"kind": "challenge_declaration", "version": version}, 422, "nothing_to_challenge"),
    ]
    for headers, body, status, code in cases:
        with club.unchanged():
            problem(client.post(moves(game), json=body, headers=headers), status, code)
    result = lie(client, table)
    with club.unchanged():
        body = {"kind": "challenge_declaration", "version": result["version"]}
        problem(client.post(moves(game), json=body, headers=ada), 422, "not_your_turn")


def test_a_declaration_without_the_modifier_is_refused(client, club):
    table = club.heads_up(HANDS, options={})
    game = table["game"]
    body = {"kind": "play", "card": "2C", "declared": "9H", "version": game["version"]}
    with club.unchanged():
        problem(client.post(moves(game), json=body, headers=table["ada"]), 422, "declaration_not_allowed")

"""The quick modifier over HTTP: several cards of one rank in one move, and each refusal's code."""

from typing import Any

import pytest

from tests.e2e.club import ADMIN, moves, problem

HANDS = {0: ["9H", "9C", "9S", "10C", "4C"], 1: ["KS", "KD", "2D", "3D", "4D"]}


@pytest.fixture
def table(client, club) -> dict[str, Any]:
    return club.heads_up(HANDS, options={"quick": True})


def test_a_player_lays_three_nines_in_one_move(client, club, table):
    game = table["game"]
    body = {"kind": "play", "card": "9H", "more": ["9C", "9S"], "version": game["version"]}
    played = client.post(moves(game), json=body, headers=table["ada"])
    assert played.status_code == 200, played.text
    (event,) = played.json()["events"]
    assert event["type"] == "CardPlayed"
    assert (event["data"]["card"], event["data"]["more"]) == ("9H", ["9C", "9S"])
    after = club.table(played.json() | {"game_id": game["game_id"]})
    assert after["top"] == "9S" and after["turn"] == 1


def test_each_refused_play_of_several_cards_answers_its_code_and_changes_nothing(client, club, table):
    game, ada = table["game"], table["ada"]
    version = game["version"]
    cases = [
        ({"card": "9H", "more": ["10C"]}, 422, "cards_of_different_ranks"),
        ({"card": "9H", "more": ["9C", "9C"]}, 422, "card_repeated"),
        ({"card": "9H", "more": ["9D"]}, 422, "card_not_in_hand"),
        ({"card": "9C", "more": ["9H"]}, 422, "card_does_not_match"),
        ({"card": "9H", "more": ["1Z"]}, 400, "malformed_card"),
        ({"card": "9H", "more": "9C"}, 400, "malformed_request"),
    ]
    for fields, status, code in cases:
        with club.unchanged():
            problem(
                client.post(moves(game), json={"kind": "play", **fields, "version": version}, headers=ada),
                status,
                code,
            )


def test_several_cards_without_the_modifier_are_refused(client, club):
    table = club.heads_up(HANDS, options={})
    game = table["game"]
    body = {"kind": "play", "card": "9H", "more": ["9C"], "version": game["version"]}
    with club.unchanged():
        problem(client.post(moves(game), json=body, headers=table["ada"]), 422, "several_cards_not_allowed")


def test_the_modifier_is_an_option_that_is_on_or_off(client, club):
    ada, _ = club.player("Ada")
    bob, _ = club.player("Bob")
    with club.unchanged():
        response = client.post("/games", json={"seats": [ada, bob], "options": {"quick": 1}}, headers=ADMIN)
    problem(response, 422, "invalid_option")

"""A Mao act sent again with its Idempotency-Key is answered as the first time and not done twice."""

from tests.e2e.club import problem
from tests.e2e.mao import MaoTable, deck, mao_table


def dealt(client) -> MaoTable:
    t = mao_table(client)
    cards = deck(dealer=2, hands={0: "QH QC KC", 1: "8H 5C 6C", 2: "2D 3D 4D"}, starter="7H", stock="8D 9D")
    t.ok("rita", "POST", "/deals", json={"deck": cards})
    return t


def test_a_retried_play_is_answered_as_the_first_and_played_once(client):
    t = dealt(client)
    key = {"Idempotency-Key": "play-1", **t.headers["ada"]}
    first = client.post(f"/mao-games/{t.game_id}/plays", headers=key, json={"card": "QH"}).json()
    assert first["play"] == "accepted"
    version = t.ok("ada", "GET", "")["version"]

    again = client.post(f"/mao-games/{t.game_id}/plays", headers=key, json={"card": "QH"}).json()
    assert again == first
    assert t.ok("ada", "GET", "/me")["hand"] == ["QC", "KC"]
    assert [e["type"] for e in t.ok("rita", "GET", "/replay")["steps"]].count("CardPlayed") == 1
    assert t.ok("ada", "GET", "")["version"] == version  # nothing was recorded for the retry


def test_a_key_sent_again_with_another_request_is_refused_and_changes_nothing(client):
    t = dealt(client)
    key = {"Idempotency-Key": "act-1", **t.headers["ada"]}
    assert client.post(f"/mao-games/{t.game_id}/plays", headers=key, json={"card": "QH"}).status_code == 200
    with t.club.unchanged():
        problem(
            client.post(f"/mao-games/{t.game_id}/plays", headers=key, json={"card": "QC"}),
            409,
            "idempotency_key_reused",
        )
        problem(
            client.post(f"/mao-games/{t.game_id}/draws", headers=key, json={}), 409, "idempotency_key_reused"
        )


def test_the_same_key_from_another_player_is_another_request(client):
    t = dealt(client)
    ada = {"Idempotency-Key": "same", **t.headers["ada"]}
    bo = {"Idempotency-Key": "same", **t.headers["bo"]}
    assert (
        client.post(f"/mao-games/{t.game_id}/plays", headers=ada, json={"card": "QH"}).json()["play"]
        == "accepted"
    )
    # Bo's is his own request: his heart after the queen is returned with a penalty card
    returned = client.post(f"/mao-games/{t.game_id}/plays", headers=bo, json={"card": "8H"}).json()
    assert returned["play"] == "returned"

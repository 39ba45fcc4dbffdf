"""Bearer tokens: who is asking, tokens stored hashed, revoked tokens refused."""

import psycopg
from psycopg import sql

from service.domain.credential import parse_token
from service.http import credentials
from tests.e2e.club import ADMIN, bearer, problem


def test_a_protected_route_without_a_token_is_401_unauthorized_and_changes_nothing(client, club):
    with club.unchanged():
        response = client.post("/players", json={"name": "Eve"})
    problem(response, 401, "unauthorized")
    assert response.headers["www-authenticate"].startswith("Bearer")


def test_a_bad_token_is_401_on_every_route_even_a_public_one(client, club):
    player_id, headers = club.player()
    token = headers["Authorization"].removeprefix("Bearer ")
    credential_id, secret = parse_token(token)
    wrong_secret = f"mm_{credential_id.hex}_{secret[:-1]}x"
    unknown = f"mm_{'0' * 32}_{secret}"
    for value in (
        f"Bearer {wrong_secret}",
        f"Bearer {unknown}",
        "Bearer nonsense",
        f"Basic {token}",
        "Bearer ",
    ):
        for method, path in (("GET", f"/players/{player_id}"), ("POST", f"/players/{player_id}/tokens")):
            with club.unchanged():
                response = client.request(method, path, headers={"Authorization": value})
            problem(response, 401, "unauthorized")


def test_public_reads_need_no_token(client, club):
    player_id, _ = club.player("Publius")
    response = client.get(f"/players/{player_id}")
    assert response.status_code == 200
    assert response.json() == {"player_id": player_id, "name": "Publius"}


def test_only_an_admin_registers_players_referees_and_leagues(client, club):
    _, player = club.player()
    _, referee = club.referee()
    for headers in (player, referee):
        for path, body in (
            ("/players", {"name": "X"}),
            ("/referees", {"name": "Y"}),
            ("/leagues", {"name": "Z"}),
        ):
            with club.unchanged():
                problem(client.post(path, json=body, headers=headers), 403, "forbidden")


def test_tokens_are_stored_hashed_the_stored_events_never_hold_the_token(
    client, club, database_url, http_schema
):
    created = club.ok("POST", "/players", json={"name": "Hash"})
    token = created["token"]["token"]
    _, secret = parse_token(token)
    more = club.ok("POST", f"/players/{created['player']['player_id']}/tokens")["token"]
    referee = club.ok("POST", "/referees", json={"name": "Hash referee"})["token"]["token"]
    with psycopg.connect(database_url) as conn:
        stored = conn.execute(
            sql.SQL("select state from {}.maumau_events").format(sql.Identifier(http_schema))
        ).fetchall()
    assert stored
    everything = b"".join(bytes(row[0]) for row in stored)
    for text in (token, secret, more, parse_token(more)[1], referee, parse_token(referee)[1]):
        assert text.encode() not in everything
    assert credentials.find(club.app, parse_token(token)[0]).secret_hash in everything.decode("latin-1")


def test_a_player_gets_a_new_token_for_themself_but_not_for_another_player(client, club):
    player_id, headers = club.player("Self")
    other_id, _ = club.player("Other")
    fresh = client.post(f"/players/{player_id}/tokens", headers=headers)
    assert fresh.status_code == 201
    assert client.get(f"/players/{player_id}", headers=bearer(fresh.json()["token"])).status_code == 200
    with club.unchanged():
        problem(client.post(f"/players/{other_id}/tokens", headers=headers), 403, "forbidden")


def test_a_revoked_token_is_refused_and_revoking_again_is_409(client, club):
    created = club.ok("POST", "/players", json={"name": "Leaky"})
    token, credential_id = created["token"]["token"], created["token"]["credential_id"]
    player_id = created["player"]["player_id"]
    assert client.post(f"/players/{player_id}/tokens", headers=bearer(token)).status_code == 201
    assert client.delete(f"/tokens/{credential_id}", headers=ADMIN).status_code == 204
    problem(client.post(f"/players/{player_id}/tokens", headers=bearer(token)), 401, "unauthorized")
    with club.unchanged():
        problem(client.delete(f"/tokens/{credential_id}", headers=ADMIN), 409, "already_revoked")
        problem(client.delete(f"/tokens/{'1' * 32}", headers=ADMIN), 404, "credential_not_found")


def test_an_admin_credential_made_by_the_cli_is_an_admin_token(client, club):
    issued = credentials.admin(club.app, "cli admin")
    assert issued.role == "admin"
    response = client.post("/players", json={"name": "By the CLI's admin"}, headers=bearer(issued.token))
    assert response.status_code == 201
    assert credentials.first_admin(club.app) is None  # there is one now


def test_a_referee_token_speaks_for_the_referee(client, club):
    referee_id, headers = club.referee("Rita")
    assert club.ok("GET", f"/referees/{referee_id}", headers={}) == {"referee_id": referee_id, "name": "Rita"}
    fresh = client.post(f"/referees/{referee_id}/tokens", headers=headers)
    assert fresh.status_code == 201 and fresh.json()["subject"] == referee_id
    problem(client.get(f"/referees/{'2' * 32}"), 404, "referee_not_found")

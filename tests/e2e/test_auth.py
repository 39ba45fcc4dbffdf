"""Bearer tokens: who is asking, tokens stored hashed, revoked tokens refused."""

from datetime import datetime

import psycopg
from psycopg import sql

from service.application import credentials
from service.domain.credential import parse_token
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


def mint(client, player_id: str, headers: dict[str, str]) -> tuple[str, str]:
    """A new token of the player, asked for with ``headers``: its credential id and the token."""
    response = client.post(f"/players/{player_id}/tokens", headers=headers)
    assert response.status_code == 201, response.text
    return response.json()["credential_id"], response.json()["token"]


def works(client, player_id: str, token: str) -> bool:
    response = client.get(f"/players/{player_id}", headers=bearer(token))
    assert response.status_code in (200, 401), response.text
    return response.status_code == 200


def test_revoking_a_token_revokes_every_token_minted_from_it_and_no_other(client, club):
    created = club.ok("POST", "/players", json={"name": "Stolen"})
    player_id = created["player"]["player_id"]
    a_id, a = created["token"]["credential_id"], created["token"]["token"]
    b_id, b = mint(client, player_id, bearer(a))
    c_id, c = mint(client, player_id, bearer(b))  # an heir of an heir
    d_id, d = mint(client, player_id, ADMIN)  # the admin's: no heir of a
    assert all(works(client, player_id, t) for t in (a, b, c, d))

    assert client.delete(f"/tokens/{a_id}", headers=ADMIN).status_code == 204

    assert [works(client, player_id, t) for t in (a, b, c, d)] == [False, False, False, True]
    listed = {t["credential_id"]: t for t in club.ok("GET", f"/players/{player_id}/tokens")["tokens"]}
    assert list(listed) == [a_id, b_id, c_id, d_id]
    assert listed[a_id]["revoked_with"] is None and listed[a_id]["revoked_at"]
    assert listed[b_id]["revoked_with"] == a_id and listed[c_id]["revoked_with"] == a_id
    assert listed[d_id]["revoked_at"] is None
    minters = [listed[i]["minted_by"] for i in (a_id, b_id, c_id, d_id)]
    assert minters == [None, a_id, b_id, None]
    with club.unchanged():
        problem(client.post(f"/players/{player_id}/tokens", headers=bearer(b)), 401, "unauthorized")


def test_a_player_lists_their_own_tokens_without_any_secret_but_not_anothers(client, club):
    created = club.ok("POST", "/players", json={"name": "Lister"})
    player_id, first = created["player"]["player_id"], created["token"]["token"]
    _, second = mint(client, player_id, bearer(first))
    other_id, other = club.player("Nosy")
    _, referee = club.referee()

    response = client.get(f"/players/{player_id}/tokens", headers=bearer(first))
    assert response.status_code == 200
    assert response.json() == club.ok("GET", f"/players/{player_id}/tokens")  # the admin sees the same
    listing = response.json()
    assert listing["subject"] == player_id and len(listing["tokens"]) == 2
    for token in (first, second):
        assert token not in response.text and parse_token(token)[1] not in response.text
    assert set(listing["tokens"][0]) == {
        "credential_id",
        "role",
        "subject",
        "name",
        "made_at",
        "minted_by",
        "last_used_at",
        "revoked_at",
        "revoked_with",
    }
    assert listing["tokens"][0]["last_used_at"] is not None  # used to mint the second and to list
    assert listing["tokens"][0]["made_at"] <= listing["tokens"][1]["made_at"]
    for headers in (other, referee):
        with club.unchanged():
            problem(client.get(f"/players/{player_id}/tokens", headers=headers), 403, "forbidden")
    problem(client.get(f"/players/{player_id}/tokens"), 401, "unauthorized")
    problem(client.get(f"/players/{'3' * 32}/tokens", headers=ADMIN), 404, "player_not_found")
    assert len(club.ok("GET", f"/players/{other_id}/tokens")["tokens"]) == 1


def test_a_use_is_noted_beside_the_log_once_an_hour_not_at_every_request(client, club):
    created = club.ok("POST", "/players", json={"name": "Busy"})
    player_id, token = created["player"]["player_id"], created["token"]["token"]
    credential_id = parse_token(token)[0]
    assert club.ok("GET", f"/players/{player_id}/tokens")["tokens"][0]["last_used_at"] is None
    views = club.client.app.state.services.reader.views
    with club.unchanged():  # no event for a use
        assert works(client, player_id, token)
    noted = views.token_uses.last([credential_id])[credential_id]
    listed = club.ok("GET", f"/players/{player_id}/tokens")["tokens"][0]["last_used_at"]
    assert listed is not None and datetime.fromisoformat(listed) == noted
    club.client.app.state.services.auth.forget(credential_id)  # the token is loaded afresh ...
    assert works(client, player_id, token)
    assert views.token_uses.last([credential_id])[credential_id] == noted  # ... and its use not noted again


def test_revoking_all_of_a_players_tokens_revokes_each_and_its_heirs_and_no_one_elses(client, club):
    created = club.ok("POST", "/players", json={"name": "Everywhere"})
    player_id, first = created["player"]["player_id"], created["token"]["token"]
    second_id, second = mint(client, player_id, ADMIN)
    third_id, third = mint(client, player_id, bearer(second))
    other_id, other = club.player("Bystander")
    with club.unchanged():
        problem(client.delete(f"/players/{player_id}/tokens", headers=other), 403, "forbidden")
        problem(client.delete(f"/players/{'3' * 32}/tokens", headers=ADMIN), 404, "player_not_found")

    response = client.delete(f"/players/{player_id}/tokens", headers=bearer(third))  # the player's own
    assert response.status_code == 200
    assert set(response.json()["revoked"]) == {created["token"]["credential_id"], second_id, third_id}
    assert [works(client, player_id, t) for t in (first, second, third)] == [False, False, False]
    assert client.get(f"/players/{other_id}", headers=other).status_code == 200
    assert club.ok("DELETE", f"/players/{player_id}/tokens") == {"revoked": []}  # nothing left to revoke


def test_a_player_revokes_a_token_of_their_own_but_not_another_players(client, club):
    player_id, headers = club.player("Careful")
    spare_id, spare = mint(client, player_id, headers)
    other_id, _ = club.player("Other")
    others_id, _ = mint(client, other_id, ADMIN)
    with club.unchanged():
        problem(client.delete(f"/tokens/{others_id}", headers=headers), 403, "forbidden")
    assert client.delete(f"/tokens/{spare_id}", headers=headers).status_code == 204
    assert not works(client, player_id, spare)
    assert client.get(f"/players/{player_id}", headers=headers).status_code == 200


def test_a_referee_lists_and_revokes_their_own_tokens(client, club):
    referee_id, headers = club.referee("Rota")
    _, other = club.referee("Otto")
    fresh = client.post(f"/referees/{referee_id}/tokens", headers=headers).json()
    listing = client.get(f"/referees/{referee_id}/tokens", headers=headers)
    assert listing.status_code == 200
    assert [t["credential_id"] for t in listing.json()["tokens"]] == [referee_id, fresh["credential_id"]]
    assert listing.json()["tokens"][1]["minted_by"] == referee_id
    with club.unchanged():
        problem(client.get(f"/referees/{referee_id}/tokens", headers=other), 403, "forbidden")
        problem(client.delete(f"/referees/{referee_id}/tokens", headers=other), 403, "forbidden")
        problem(client.get(f"/referees/{'2' * 32}/tokens", headers=ADMIN), 404, "referee_not_found")
    revoked = client.delete(f"/referees/{referee_id}/tokens", headers=ADMIN)
    assert revoked.status_code == 200
    assert set(revoked.json()["revoked"]) == {referee_id, fresh["credential_id"]}
    problem(client.get(f"/referees/{referee_id}", headers=bearer(fresh["token"])), 401, "unauthorized")

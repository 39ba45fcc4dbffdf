"""Players, leagues, members, referees, standings and a player's history over HTTP."""

import csv
import io
import uuid

from tests.e2e.club import ADMIN, problem
from tests.integration.tables import play_out


def test_an_admin_registers_a_player_who_gets_a_token_and_a_public_name(client, club):
    created = client.post("/players", json={"name": "  Ada  "}, headers=ADMIN)
    assert created.status_code == 201
    body = created.json()
    assert body["player"]["name"] == "Ada"
    assert body["token"]["role"] == "player" and body["token"]["subject"] == body["player"]["player_id"]
    assert body["token"]["token"].startswith("mm_")
    assert client.get(f"/players/{body['player']['player_id']}").json() == body["player"]


def test_bad_players_are_refused_and_change_nothing(client, club):
    for payload, status, code in (
        ({"name": ""}, 400, "malformed_request"),
        ({"name": "x" * 81}, 400, "malformed_request"),
        ({"name": "   "}, 400, "malformed_name"),
        ({"name": "\u202eAdmin\u200b"}, 400, "malformed_name"),  # right-to-left override, zero-width space
        ({"name": "Ada\u0000"}, 400, "malformed_name"),
        ({}, 400, "malformed_request"),
        ({"name": "Ada", "age": 7}, 400, "malformed_request"),
    ):
        with club.unchanged():
            problem(client.post("/players", json=payload, headers=ADMIN), status, code)
    problem(client.get("/players/00000000-0000-0000-0000-000000000009"), 404, "player_not_found")
    problem(client.get("/players/00000000-0000-0000-0000-000000000009/games"), 404, "player_not_found")


def test_a_league_with_its_ruleset_members_and_referees(client, club):
    ada, _ = club.player("Ada")
    rita, _ = club.referee("Rita")
    league = client.post(
        "/leagues", json={"name": "Thursdays", "options": {"target_score": 150}}, headers=ADMIN
    )
    assert league.status_code == 201
    league_id = league.json()["league_id"]
    assert league.json()["options"] == {"target_score": 150} and league.json()["ruleset"] == "club"
    assert (
        client.post(f"/leagues/{league_id}/members", json={"player_id": ada}, headers=ADMIN).status_code
        == 201
    )
    assert (
        client.post(f"/leagues/{league_id}/referees", json={"referee_id": rita}, headers=ADMIN).status_code
        == 201
    )
    read = client.get(f"/leagues/{league_id}").json()
    assert read["members"] == [ada] and read["referees"] == [rita] and read["name"] == "Thursdays"
    unknown = "00000000-0000-0000-0000-00000000000f"
    with club.unchanged():
        problem(
            client.post(f"/leagues/{league_id}/members", json={"player_id": ada}, headers=ADMIN),
            409,
            "already_a_member",
        )
        problem(
            client.post(f"/leagues/{league_id}/referees", json={"referee_id": rita}, headers=ADMIN),
            409,
            "already_a_referee",
        )
        problem(
            client.post(f"/leagues/{league_id}/referees", json={"referee_id": ada}, headers=ADMIN),
            404,
            "referee_not_found",
        )
        problem(
            client.post(f"/leagues/{league_id}/members", json={"player_id": unknown}, headers=ADMIN),
            404,
            "player_not_found",
        )
        problem(
            client.post(f"/leagues/{unknown}/members", json={"player_id": ada}, headers=ADMIN),
            404,
            "league_not_found",
        )
        problem(
            client.post("/leagues", json={"name": "Poker", "ruleset": "poker"}, headers=ADMIN),
            422,
            "unknown_ruleset",
        )
        problem(
            client.post("/leagues", json={"name": "Odd", "options": {"hand_size": True}}, headers=ADMIN),
            422,
            "invalid_option",
        )
        problem(
            client.post("/leagues", json={"name": "Odd", "options": {"hand_size": "five"}}, headers=ADMIN),
            400,
            "malformed_request",
        )
    problem(client.get(f"/leagues/{unknown}"), 404, "league_not_found")
    problem(client.get(f"/leagues/{unknown}/standings"), 404, "league_not_found")


def test_a_league_shows_the_time_zone_it_was_founded_with_and_a_zone_no_one_knows_is_refused(client, club):
    berlin = client.post(
        "/leagues", json={"name": "Berlin club", "time_zone": "Europe/Berlin"}, headers=ADMIN
    )
    assert berlin.status_code == 201 and berlin.json()["time_zone"] == "Europe/Berlin"
    assert client.get(f"/leagues/{berlin.json()['league_id']}").json()["time_zone"] == "Europe/Berlin"
    plain = client.post("/leagues", json={"name": "Plain club"}, headers=ADMIN).json()
    assert client.get(f"/leagues/{plain['league_id']}").json()["time_zone"] == "UTC"
    with club.unchanged():
        for zone in ("Mars/Olympus", "", "../etc/passwd"):
            body = {"name": "Far club", "time_zone": zone}
            problem(client.post("/leagues", json=body, headers=ADMIN), 422, "invalid_time_zone")
        body = {"name": "Far club", "time_zone": 2}
        problem(client.post("/leagues", json=body, headers=ADMIN), 400, "malformed_request")


def test_a_member_whose_name_reads_as_a_members_name_is_refused_and_changes_nothing(client, club):
    ada, _ = club.player("Ada")
    other, _ = club.player("ADA ")
    league_id = club.league(members=[ada])
    with club.unchanged():
        problem(
            client.post(f"/leagues/{league_id}/members", json={"player_id": other}, headers=ADMIN),
            409,
            "name_taken",
        )
    assert client.get(f"/leagues/{league_id}").json()["members"] == [ada]


def test_a_league_or_game_with_a_target_no_club_could_mean_is_refused_and_changes_nothing(client, club):
    ada, _ = club.player("Ada")
    with club.unchanged():
        for body in (
            {"name": "Endless", "options": {"target_score": 10**18}},
            {"name": "Long", "options": {"target_score": 1001}},
        ):
            problem(client.post("/leagues", json=body, headers=ADMIN), 422, "invalid_option")
        problem(
            client.post(
                "/games",
                json={"seats": [ada, "bot:random"], "options": {"target_score": 10**6}},
                headers=ADMIN,
            ),
            422,
            "invalid_option",
        )


def test_standings_and_history_after_a_finished_league_match(client, club):
    ada, _ = club.player("Ada")
    bob, _ = club.player("Bob")
    league = club.league(members=[ada, bob], options={"single_round": True})
    game = club.game([ada, bob], league_id=league)
    play_out(club.app, game["game_id"], seed=21)
    position = club.log_position()
    standings = club.ok("GET", f"/leagues/{league}/standings?after={position}", headers={})
    assert standings["position"] >= position
    assert sorted(row["player_id"] for row in standings["rows"]) == sorted([ada, bob])
    assert all(row["matches_played"] == 1 for row in standings["rows"])
    assert standings["rows"][0]["rank"] == 1
    history = club.ok("GET", f"/players/{ada}/games?after={position}", headers={})
    assert [played["game_id"] for played in history["games"]] == [game["game_id"]]
    assert history["games"][0]["result"] in ("won", "shared", "lost")
    assert history["games"][0]["opponents"] == ["Bob"]


def test_the_standings_as_csv_hold_the_json_standings_rows_in_rank_order(client, club):
    ada, _ = club.player("Ada")
    bob, _ = club.player("Bob")
    cy, _ = club.player("Cy")  # a member with no match yet: a row of zeros, no rating
    league = club.league(members=[ada, bob, cy], options={"single_round": True})
    game = club.game([ada, bob], league_id=league)
    play_out(club.app, game["game_id"], seed=21)
    position = club.log_position()
    standings = club.ok("GET", f"/leagues/{league}/standings?after={position}", headers={})
    answer = client.get(f"/leagues/{league}/standings.csv?after={position}")
    assert answer.status_code == 200 and answer.headers["content-type"].startswith("text/csv")
    rows = list(csv.DictReader(io.StringIO(answer.text)))
    assert [row["player_id"] for row in rows] == [row["player_id"] for row in standings["rows"]]
    for read, wanted in zip(rows, standings["rows"], strict=True):
        assert read == {key: "" if value is None else str(value) for key, value in wanted.items()}
    assert {row["name"]: row["matches_played"] for row in rows} == {"Ada": "1", "Bob": "1", "Cy": "0"}
    problem(client.get(f"/leagues/{uuid.uuid4()}/standings.csv"), 404, "league_not_found")

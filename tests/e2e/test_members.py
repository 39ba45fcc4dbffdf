"""A league's members over HTTP: invitations redeemed, members removed, players renamed and erased."""

import threading
import time
import uuid
from datetime import UTC, datetime, timedelta
from typing import Any

import msgspec
from litestar import Litestar
from litestar.testing import TestClient
from litestar.types import ASGIApp, Receive, Scope, Send

from service.app import create_app
from service.domain.league import ERASED_NAME
from tests.e2e.club import ADMIN, Club, bearer, problem
from tests.integration.tables import play_out
from tests.privacy import tables_holding
from workers.conduct import Conductor
from workers.inline import Inline

SWISS = {"name": "Spring cup", "format": "swiss", "table_size": 3, "rounds": 2, "single_round": True}


def expiry(seconds: float = 86_400) -> str:
    return (datetime.now(UTC) + timedelta(seconds=seconds)).isoformat()


def invite(club: Club, league: str, uses: int = 1, seconds: float = 86_400) -> dict[str, Any]:
    return club.ok(
        "POST", f"/leagues/{league}/invitations", json={"expires_at": expiry(seconds), "uses": uses}
    )


def redeem(client: TestClient[Any], code: str, name: str) -> Any:
    return client.post("/invitations/redeem", json={"code": code, "name": name})


def test_a_person_redeems_an_invitation_choosing_a_name_and_joins_the_league_with_a_working_token(
    client, club
):
    league = club.league()
    made = invite(club, league, uses=2)
    assert made["code"].startswith("inv_") and made["invitation"]["uses_left"] == 2
    joined = redeem(client, made["code"], "  Nora  ")
    assert joined.status_code == 201, joined.text
    body = joined.json()
    player_id, token = body["player"]["player_id"], body["token"]["token"]
    assert body["player"]["name"] == "Nora" and body["league_id"] == league
    assert body["token"]["role"] == "player" and body["token"]["subject"] == player_id
    assert client.get(f"/leagues/{league}").json()["members"] == [player_id]
    assert client.get(f"/players/{player_id}").json()["name"] == "Nora"
    # the token speaks for the new player: they join the league's tournament themself
    tournament = club.ok("POST", f"/leagues/{league}/tournaments", json=SWISS)
    club.ok(
        "POST",
        f"/tournaments/{tournament['tournament_id']}/entrants",
        headers=bearer(token),
        json={"player_id": player_id},
    )
    # and they list and revoke their own token, which is then refused
    listed = club.ok("GET", f"/players/{player_id}/tokens", headers=bearer(token))
    assert [t["credential_id"] for t in listed["tokens"]] == [body["token"]["credential_id"]]
    assert token not in str(listed) and "code_hash" not in str(listed)
    club.ok("DELETE", f"/tokens/{body['token']['credential_id']}", headers=bearer(token))
    problem(client.get(f"/players/{player_id}/tokens", headers=bearer(token)), 401, "unauthorized")
    # the listing shows who came in, never the code
    (listed,) = club.ok("GET", f"/leagues/{league}/invitations")["invitations"]
    assert listed["redeemed_by"] == [player_id] and listed["uses_left"] == 1
    assert made["code"].split("_", 2)[2] not in str(listed)  # the secret may hold "_" itself


def test_used_up_expired_and_revoked_invitations_are_refused_and_change_nothing(client, club):
    league = club.league()
    used = invite(club, league, uses=1)
    assert redeem(client, used["code"], "First").status_code == 201
    short = invite(club, league, seconds=1.5)
    revoked = invite(club, league)
    assert (
        client.delete(f"/invitations/{revoked['invitation']['invitation_id']}", headers=ADMIN).status_code
        == 204
    )
    time.sleep(1.6)
    members = client.get(f"/leagues/{league}").json()["members"]
    with club.unchanged():
        problem(redeem(client, used["code"], "Second"), 410, "invitation_used_up")
        problem(redeem(client, short["code"], "Second"), 410, "invitation_expired")
        problem(redeem(client, revoked["code"], "Second"), 410, "invitation_revoked")
        problem(
            client.delete(f"/invitations/{revoked['invitation']['invitation_id']}", headers=ADMIN),
            409,
            "already_revoked",
        )
    assert client.get(f"/leagues/{league}").json()["members"] == members


def test_bad_invitations_and_redemptions_are_refused_and_change_nothing(client, club):
    ada, ada_headers = club.player()
    league = club.league(members=[ada])
    ada_name = client.get(f"/players/{ada}").json()["name"]
    made = invite(club, league, uses=5)
    code = made["code"]
    invitation_id = made["invitation"]["invitation_id"]
    unknown = "00000000-0000-0000-0000-0000000000aa"
    wrong_secret = code[:-1] + ("A" if code[-1] != "A" else "B")
    unknown_invitation = f"inv_{uuid.uuid4().hex}_{code.split('_', 2)[2]}"
    with club.unchanged():
        for payload, status, code_expected in (
            ({"code": code, "name": ada_name.upper()}, 409, "name_taken"),
            ({"code": code, "name": "Erased Player"}, 409, "name_reserved"),
            ({"code": code, "name": "\u202eNora"}, 400, "malformed_name"),
            ({"code": wrong_secret, "name": "Nora"}, 404, "invitation_not_found"),
            ({"code": unknown_invitation, "name": "Nora"}, 404, "invitation_not_found"),
            ({"code": "inv_123", "name": "Nora"}, 400, "malformed_request"),
            ({"code": code}, 400, "malformed_request"),
            ({"code": code, "name": "Nora", "league": league}, 400, "malformed_request"),
        ):
            problem(client.post("/invitations/redeem", json=payload), status, code_expected)
        path = f"/leagues/{league}/invitations"
        for body, status, code_expected in (
            ({"expires_at": expiry(), "uses": 0}, 422, "invalid_uses"),
            ({"expires_at": expiry(), "uses": 1001}, 422, "invalid_uses"),
            ({"expires_at": expiry(-60)}, 422, "invalid_expiry"),
            ({"expires_at": expiry(400 * 86_400)}, 422, "invalid_expiry"),
            ({"expires_at": "2030-01-01T00:00:00"}, 422, "invalid_expiry"),
            ({"uses": 3}, 400, "malformed_request"),
        ):
            problem(client.post(path, json=body, headers=ADMIN), status, code_expected)
        problem(client.post(path, json={"expires_at": expiry()}, headers=ada_headers), 403, "forbidden")
        problem(client.post(path, json={"expires_at": expiry()}), 401, "unauthorized")
        problem(
            client.post(f"/leagues/{unknown}/invitations", json={"expires_at": expiry()}, headers=ADMIN),
            404,
            "league_not_found",
        )
        problem(client.get(path, headers=ada_headers), 403, "forbidden")
        problem(client.get(f"/leagues/{unknown}/invitations", headers=ADMIN), 404, "league_not_found")
        problem(client.delete(f"/invitations/{invitation_id}", headers=ada_headers), 403, "forbidden")
        problem(client.delete(f"/invitations/{unknown}", headers=ADMIN), 404, "invitation_not_found")
    assert client.get(f"/leagues/{league}").json()["members"] == [ada]


def test_two_people_redeeming_the_last_use_at_once_one_wins_and_the_other_is_refused(client, club):
    league = club.league()
    code = invite(club, league, uses=1)["code"]
    racers = 6
    start = threading.Barrier(racers)
    answers: list[Any] = [None] * racers

    def race(index: int) -> None:
        start.wait()
        answers[index] = redeem(client, code, f"Racer {index}")

    threads = [threading.Thread(target=race, args=(index,)) for index in range(racers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    statuses = sorted(answer.status_code for answer in answers)
    assert statuses == [201] + [410] * (racers - 1), [a.text for a in answers]
    assert all(a.json()["code"] == "invitation_used_up" for a in answers if a.status_code == 410)
    (winner,) = [a.json() for a in answers if a.status_code == 201]
    assert client.get(f"/leagues/{league}").json()["members"] == [winner["player"]["player_id"]]
    (listed,) = club.ok("GET", f"/leagues/{league}/invitations")["invitations"]
    assert listed["redeemed_by"] == [winner["player"]["player_id"]] and listed["uses_left"] == 0


def test_a_removed_member_keeps_their_results_and_joins_no_new_tournament(client, club):
    ada, ada_headers = club.player()
    bob, _ = club.player()
    league = club.league(members=[ada, bob], options={"single_round": True})
    game = club.game([ada, bob], league_id=league)
    play_out(club.app, game["game_id"], seed=21)
    removed = club.ok("DELETE", f"/leagues/{league}/members/{ada}")
    assert removed["members"] == [bob]
    position = club.log_position()
    standings = club.ok("GET", f"/leagues/{league}/standings?after={position}", headers={})
    assert sorted(row["player_id"] for row in standings["rows"]) == sorted([ada, bob])
    tournament = club.ok("POST", f"/leagues/{league}/tournaments", json=SWISS)["tournament_id"]
    with club.unchanged():
        problem(
            client.post(f"/tournaments/{tournament}/entrants", headers=ada_headers, json={"player_id": ada}),
            422,
            "not_a_member",
        )
        problem(client.delete(f"/leagues/{league}/members/{ada}", headers=ADMIN), 404, "member_not_found")
        problem(client.delete(f"/leagues/{league}/members/{bob}", headers=ada_headers), 403, "forbidden")
        problem(
            client.delete(f"/leagues/{league}/members/{uuid.uuid4()}", headers=ADMIN), 404, "player_not_found"
        )
    # a name of the league they left is theirs to take, until they would be admitted again
    bob_name = client.get(f"/players/{bob}").json()["name"]
    club.ok("PATCH", f"/players/{ada}", json={"name": bob_name})
    with club.unchanged():
        problem(
            client.post(f"/leagues/{league}/members", json={"player_id": ada}, headers=ADMIN),
            409,
            "name_taken",
        )
    club.ok("PATCH", f"/players/{ada}", json={"name": f"Ada {uuid.uuid4().hex[:6]}"})
    # admitted again, they join
    club.ok("POST", f"/leagues/{league}/members", json={"player_id": ada})
    club.ok("POST", f"/tournaments/{tournament}/entrants", headers=ada_headers, json={"player_id": ada})


def test_a_player_is_renamed_by_an_admin_or_themself_and_by_no_one_else(client, club):
    ada, ada_headers = club.player()
    bob, bob_headers = club.player()
    league = club.league(members=[ada, bob])
    bob_name = client.get(f"/players/{bob}").json()["name"]
    assert (
        club.ok("PATCH", f"/players/{ada}", headers=ada_headers, json={"name": "Ada L."})["name"] == "Ada L."
    )
    assert club.ok("PATCH", f"/players/{ada}", json={"name": "Ada M."})["name"] == "Ada M."
    assert client.get(f"/players/{ada}").json()["name"] == "Ada M."
    with club.unchanged():
        problem(client.patch(f"/players/{ada}", headers=bob_headers, json={"name": "Ha"}), 403, "forbidden")
        problem(client.patch(f"/players/{ada}", json={"name": bob_name}, headers=ADMIN), 409, "name_taken")
        problem(
            client.patch(f"/players/{ada}", json={"name": ERASED_NAME}, headers=ADMIN), 409, "name_reserved"
        )
        problem(
            client.patch(f"/players/{ada}", json={"name": "\u200b"}, headers=ADMIN), 400, "malformed_name"
        )
        problem(client.patch(f"/players/{ada}", json={"nom": "Ada"}, headers=ADMIN), 400, "malformed_request")
        problem(
            client.patch(f"/players/{uuid.uuid4()}", json={"name": "Ada"}, headers=ADMIN),
            404,
            "player_not_found",
        )
    assert client.get(f"/leagues/{league}").json()["members"] == [ada, bob]


def test_an_erased_player_leaves_no_name_in_the_store_and_every_answer_says_erased_player(
    client, club, http_settings
):
    first, second = f"Yolanda{uuid.uuid4().hex[:10]}", f"Xaver{uuid.uuid4().hex[:10]}"
    made = club.ok("POST", "/players", json={"name": first})
    yolanda, headers = made["player"]["player_id"], bearer(made["token"]["token"])
    club.ok("PATCH", f"/players/{yolanda}", headers=headers, json={"name": second})
    bob, bob_headers = club.player()
    league = club.league(members=[yolanda, bob], options={"single_round": True})
    game = club.game([yolanda, bob], league_id=league)
    play_out(club.app, game["game_id"], seed=21)
    position = club.log_position()
    standings = club.ok("GET", f"/leagues/{league}/standings?after={position}", headers={})
    assert second in {row["name"] for row in standings["rows"]}
    assert tables_holding(http_settings, first) and tables_holding(http_settings, second)

    erased = club.ok("POST", f"/players/{yolanda}/erasure")
    assert erased["player"] == {"player_id": yolanda, "name": ERASED_NAME}
    assert erased["revoked"] == [made["token"]["credential_id"]]
    position = club.log_position()
    answers = [
        club.ok("GET", f"/players/{yolanda}", headers={}),
        club.ok("GET", f"/leagues/{league}/standings?after={position}", headers={}),
        club.ok("GET", f"/players/{bob}/games?after={position}", headers={}),
        club.ok("GET", f"/players/{yolanda}/games?after={position}", headers={}),
        club.ok("GET", f"/players/{yolanda}/tokens"),
        club.ok("GET", f"/leagues/{league}"),
        club.ok("GET", f"/games/{game['game_id']}?after={position}", headers={}),
    ]
    text = str(answers)
    assert first not in text and second not in text
    assert answers[0]["name"] == ERASED_NAME
    rows = {row["player_id"]: row for row in answers[1]["rows"]}
    assert rows[yolanda]["name"] == ERASED_NAME and rows[yolanda]["matches_played"] == 1
    assert answers[2]["games"][0]["opponents"] == [ERASED_NAME]
    assert [t["name"] for t in answers[4]["tokens"]] == [ERASED_NAME]
    assert yolanda not in answers[5]["members"]
    assert tables_holding(http_settings, first) == [] and tables_holding(http_settings, second) == []
    problem(client.get(f"/players/{yolanda}/tokens", headers=headers), 401, "unauthorized")
    with club.unchanged():
        problem(
            client.patch(f"/players/{yolanda}", json={"name": "Back"}, headers=ADMIN), 410, "player_erased"
        )
        problem(
            client.post(f"/leagues/{league}/members", json={"player_id": yolanda}, headers=ADMIN),
            410,
            "player_erased",
        )
        problem(client.post(f"/players/{yolanda}/tokens", headers=ADMIN), 410, "player_erased")
        problem(client.post(f"/players/{yolanda}/erasure", headers=headers), 401, "unauthorized")
        problem(client.post(f"/players/{bob}/erasure", headers=bob_headers), 403, "forbidden")
        problem(client.post(f"/players/{uuid.uuid4()}/erasure", headers=ADMIN), 404, "player_not_found")


def test_an_erased_player_is_seated_nowhere_new_each_path_answering_410_with_nothing_written(client, club):
    zoe, _ = club.player()
    bob, _ = club.player()
    league = club.league(members=[bob])
    mao = club.league(members=[bob], ruleset="mao")
    plan = {"name": "Open", "format": "swiss", "table_size": 2, "rounds": 1}
    tournament = club.ok("POST", f"/leagues/{league}/tournaments", json=plan)["tournament_id"]
    club.ok("POST", f"/players/{zoe}/erasure")

    with club.unchanged():
        for seats, body in (([zoe, "bot:random"], {}), ([zoe, bob], {"league_id": league})):
            problem(client.post("/games", json={"seats": seats, **body}, headers=ADMIN), 410, "player_erased")
        mao_body = {"league_id": mao, "seats": [zoe, bob, "bot:random"], "judge": "server"}
        problem(client.post("/mao-games", json=mao_body, headers=ADMIN), 410, "player_erased")
        entrant = {"player_id": zoe}
        problem(
            client.post(f"/tournaments/{tournament}/entrants", json=entrant, headers=ADMIN),
            410,
            "player_erased",
        )
        problem(client.post(f"/leagues/{league}/members", json=entrant, headers=ADMIN), 410, "player_erased")


def test_an_erased_players_games_in_play_end_by_their_forfeit_or_go_on_without_them(client, club, queued):
    zoe, _ = club.player()
    bob, bob_headers = club.player()
    cat, _ = club.player()
    league = club.league(members=[zoe, bob, cat], options={"single_round": True})  # no turn clock
    against_a_bot = club.game([zoe, "bot:heuristic"], league_id=league)
    three = club.game([bob, zoe, cat], league_id=league)
    finished = club.game([zoe, bob], league_id=league)
    play_out(club.app, finished["game_id"], seed=22)
    before = {game["game_id"]: club.app.get_game(game["game_id"]).version for game in (three, finished)}
    queued.take()

    club.ok("POST", f"/players/{zoe}/erasure")
    position = club.log_position()
    # her seat forfeited: against the bot, the bot is the last seat in and wins
    table = club.ok("GET", f"/games/{against_a_bot['game_id']}?after={position}", headers={})
    assert (table["over"], table["forfeited"], table["winners"], table["abandoned"]) == (True, [0], [1], None)
    assert table["seats"][0]["forfeited"] and table["seats"][0]["name"] == ERASED_NAME
    # at a table of three the others play on, a bot in her seat, which cannot win
    table = club.ok("GET", f"/games/{three['game_id']}?after={position}", headers={})
    assert (table["over"], table["forfeited"]) == (False, [1])
    assert club.app.get_game(three["game_id"]).version == before[three["game_id"]] + 1
    assert club.app.get_game(finished["game_id"]).version == before[finished["game_id"]]  # over: as it was
    # the workers are told: the bot plays her turns at once, the game over is looked at
    assert sorted(queued.take_ids()) == sorted(
        [("game", against_a_bot["game_id"]), ("game", three["game_id"])]
    )
    standings = club.ok("GET", f"/leagues/{league}/standings?after={position}", headers={})
    rows = {row["player_id"]: row for row in standings["rows"]}
    assert (rows[zoe]["matches_played"], rows[zoe]["forfeits"]) == (2, 1)
    with club.unchanged():  # erasing again forfeits nothing more
        club.ok("POST", f"/players/{zoe}/erasure")
    history = club.ok("GET", f"/players/{bob}/games?after={position}", headers=bob_headers)
    assert three["game_id"] in {game["game_id"] for game in history["games"]}


def test_an_erased_players_tournament_table_is_forfeited_and_the_round_closes(client, club, queued):
    zoe, _ = club.player()
    bob, _ = club.player()
    league = club.league(members=[zoe, bob])
    plan = {"name": "Erased cup", "format": "swiss", "table_size": 2, "rounds": 1, "single_round": True}
    tournament = club.ok("POST", f"/leagues/{league}/tournaments", json=plan)
    path = f"/tournaments/{tournament['tournament_id']}"
    for player_id in (zoe, bob):
        club.ok("POST", f"{path}/entrants", json={"player_id": player_id})
    club.ok("POST", f"{path}/start")
    inline = Inline()
    conductor = Conductor(club.app, inline)
    conductor.conduct_tournament(tournament["tournament_id"])  # round 1: Zoe and Bob, no clock
    ((game_id,),) = inline.queued("advance_game")
    queued.take()

    club.ok("POST", f"/players/{zoe}/erasure")
    assert queued.take_ids() == [("game", str(game_id))]
    conductor.advance_game(game_id)  # the step the API queued: the table's result is recorded
    bracket = club.ok("GET", f"{path}?after={club.log_position()}", headers={})
    assert bracket["status"] == "finished" and bracket["winners"] == [bob]
    (table,) = bracket["rounds"][0]["tables"]
    assert table["forfeited"] == [table["entrants"].index(zoe)]


def wrong_secret(code: str) -> str:
    return code[:-1] + ("A" if code[-1] != "A" else "B")


def test_only_wrong_secrets_count_and_a_right_code_is_answered_as_it_stands_past_the_limit(http_settings):
    settings = msgspec.structs.replace(http_settings, redeem_refusals=2, run_projections=False)
    with TestClient(create_app(settings)) as strict:
        club = Club(strict)
        league = club.league()
        spent, revoked, fresh = (invite(club, league) for _ in range(3))
        assert redeem(strict, spent["code"], "First").status_code == 201
        strict.delete(f"/invitations/{revoked['invitation']['invitation_id']}", headers=ADMIN)
        for late in range(3):  # more late ones than the limit: none of them is a guess
            problem(redeem(strict, spent["code"], f"Late {late}"), 410, "invitation_used_up")
        for _ in range(2):
            problem(redeem(strict, wrong_secret(spent["code"]), "Guesser"), 404, "invitation_not_found")
        with club.unchanged():
            problem(redeem(strict, wrong_secret(spent["code"]), "Guesser"), 429, "too_many_attempts")
        # from the same address, past the limit: each right code gets its own answer, another
        # invitation's wrong secret its 404
        problem(redeem(strict, spent["code"], "Later"), 410, "invitation_used_up")
        problem(redeem(strict, revoked["code"], "Later"), 410, "invitation_revoked")
        problem(redeem(strict, wrong_secret(revoked["code"]), "Guesser"), 404, "invitation_not_found")
        assert redeem(strict, fresh["code"], "Fresh").status_code == 201
        problem(redeem(strict, wrong_secret(spent["code"]), "Guesser"), 429, "too_many_attempts")
        assert len(strict.get(f"/leagues/{league}").json()["members"]) == 2  # First and Fresh


def test_a_crowd_redeeming_a_code_for_two_gets_two_welcomes_and_used_up_for_the_rest_never_429(
    http_settings,
):
    settings = msgspec.structs.replace(http_settings, redeem_refusals=3, run_projections=False)
    with TestClient(create_app(settings)) as strict:
        club = Club(strict)
        code = invite(club, club.league(), uses=2)["code"]
        answers = [redeem(strict, code, f"Person {person}").status_code for person in range(8)]
        assert answers == [201, 201] + [410] * 6


def from_peer(app: Litestar, peer: str) -> ASGIApp:
    """``app`` as reached through a connection from ``peer`` (a proxy's address)."""

    async def connected(scope: Scope, receive: Receive, send: Send) -> None:
        await app({**scope, "client": (peer, 40000)} if scope["type"] == "http" else scope, receive, send)

    return connected


def test_behind_a_trusted_proxy_wrong_secrets_are_counted_per_forwarded_client(http_settings):
    settings = msgspec.structs.replace(
        http_settings, redeem_refusals=2, run_projections=False, trusted_proxies=("10.0.0.0/8",)
    )
    with TestClient(from_peer(create_app(settings), "10.1.2.3")) as proxied:
        club = Club(proxied)
        wrong = wrong_secret(invite(club, club.league())["code"])

        def guess(client_address: str) -> Any:
            return proxied.post(
                "/invitations/redeem",
                json={"code": wrong, "name": "Guesser"},
                headers={"X-Forwarded-For": client_address},
            )

        for _ in range(2):
            problem(guess("198.51.100.1"), 404, "invitation_not_found")
        problem(guess("198.51.100.1"), 429, "too_many_attempts")
        problem(guess("198.51.100.2"), 404, "invitation_not_found")  # another client behind the proxy
        # what a client puts before the proxy's own entry does not change who it is
        problem(guess("198.51.100.2, 198.51.100.1"), 429, "too_many_attempts")


def test_without_trusted_proxies_a_forwarded_address_is_not_believed(http_settings):
    settings = msgspec.structs.replace(http_settings, redeem_refusals=2, run_projections=False)
    with TestClient(from_peer(create_app(settings), "10.1.2.3")) as proxied:
        club = Club(proxied)
        wrong = wrong_secret(invite(club, club.league())["code"])
        for client_address in ("198.51.100.1", "198.51.100.2"):
            response = proxied.post(
                "/invitations/redeem",
                json={"code": wrong, "name": "Guesser"},
                headers={"X-Forwarded-For": client_address},
            )
            problem(response, 404, "invitation_not_found")
        # both came from 10.1.2.3: its third wrong secret is one too many, whatever it claims
        problem(redeem(proxied, wrong, "Guesser"), 429, "too_many_attempts")

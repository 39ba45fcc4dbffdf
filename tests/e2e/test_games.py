"""Creating games, the public state, my view, totals and shuffles."""

import re

from tests.e2e.club import ADMIN, problem
from tests.integration.tables import deck_for

HANDS = {0: ["9H", "KH", "2C", "3C", "4C"], 1: ["9S", "KS", "2D", "3D", "4D"]}
DECK = deck_for(HANDS, starter="5H", seats=2, dealer=1)


def cards_in(text: str) -> set[str]:
    return set(re.findall(r'"((?:10|[2-9JQKA])[CDHS])"', text))


def test_an_admin_creates_a_game_of_players_and_bots_and_its_public_state_is_readable_by_anyone(client, club):
    ada, _ = club.player("Ada")
    game = club.game([ada, "bot:heuristic", "bot:random"])
    assert game["seats"] == [ada, "bot:heuristic", "bot:random"]
    table = client.get(f"/games/{game['game_id']}?after={game['position']}")
    assert table.status_code == 200
    body = table.json()
    assert body["version"] == game["version"] and body["position"] >= game["position"]
    assert [seat["cards"] for seat in body["seats"]] == [5, 5, 5]
    assert body["seats"][0]["name"] == "Ada" and body["seats"][1]["name"] == "bot:heuristic"
    assert isinstance(body["stock"], int) and body["top"] is not None


def test_my_view_shows_my_hand_and_none_of_the_others(client, club):
    ada, ada_headers = club.player("Ada")
    bob, bob_headers = club.player("Bob")
    game = club.game([ada, bob], deck=DECK, first_dealer=1)
    mine = client.get(f"/games/{game['game_id']}/me?after={game['position']}", headers=ada_headers)
    assert mine.status_code == 200
    assert mine.json()["seat"] == 0
    assert sorted(mine.json()["cards"]) == sorted(HANDS[0])
    assert {move["kind"] for move in mine.json()["legal"]} >= {"play"}
    assert not cards_in(mine.text) & set(HANDS[1])
    theirs = club.me(game, bob_headers)
    assert theirs["seat"] == 1 and sorted(theirs["cards"]) == sorted(HANDS[1])


def test_a_read_after_a_position_never_written_answers_with_what_is_there(client, club):
    ada, ada_headers = club.player("Ada")
    bob, _ = club.player("Bob")
    game = club.game([ada, bob], deck=DECK, first_dealer=1)
    club.me(game, ada_headers)  # the read models have the game
    ahead = game["position"] + 10_000
    mine = client.get(f"/games/{game['game_id']}/me?after={ahead}", headers=ada_headers)
    assert mine.status_code == 200
    assert mine.json()["table"]["version"] == game["version"] and mine.json()["position"] < ahead


def test_my_view_is_for_the_seated_players_and_officials_who_name_a_seat(client, club):
    ada, ada_headers = club.player()
    bob, _ = club.player()
    _, stranger = club.player()
    game = club.game([ada, bob], deck=DECK, first_dealer=1)
    path = f"/games/{game['game_id']}/me"
    problem(client.get(path), 401, "unauthorized")
    problem(client.get(path, headers=stranger), 403, "not_seated")
    problem(client.get(f"{path}?seat=1", headers=ada_headers), 403, "not_your_seat")
    problem(client.get(path, headers=ADMIN), 422, "seat_required")
    problem(client.get(f"{path}?seat=5", headers=ADMIN), 422, "not_a_seat")
    seen = client.get(f"{path}?seat=1&after={game['position']}", headers=ADMIN)
    assert seen.status_code == 200 and sorted(seen.json()["cards"]) == sorted(HANDS[1])


def test_a_player_creates_a_friendly_game_they_sit_at_without_a_seed_or_a_deck(client, club):
    ada, headers = club.player()
    game = club.game([ada, "bot:heuristic"], headers=headers)
    assert club.table(game)["seats"][0]["player_id"] == ada
    with club.unchanged():
        problem(
            client.post("/games", json={"seats": ["bot:random", "bot:random"]}, headers=headers),
            403,
            "not_seated",
        )
        problem(
            client.post("/games", json={"seats": [ada, "bot:random"], "seed": "s"}, headers=headers),
            403,
            "not_allowed",
        )
        problem(
            client.post("/games", json={"seats": [ada, "bot:random"], "deck": DECK}, headers=headers),
            403,
            "not_allowed",
        )
        problem(client.post("/games", json={"seats": [ada, "bot:random"]}), 401, "unauthorized")


def test_league_games_are_created_by_admins_and_the_leagues_referees(client, club):
    ada, ada_headers = club.player()
    bob, _ = club.player()
    referee, referee_headers = club.referee()
    _, other_referee = club.referee()
    league = club.league(members=[ada, bob], referees=[referee])
    game = club.game([ada, bob], headers=referee_headers, league_id=league)
    assert game["league_id"] == league
    body = {"seats": [ada, bob], "league_id": league}
    with club.unchanged():
        problem(client.post("/games", json=body, headers=other_referee), 403, "forbidden")
        problem(client.post("/games", json=body, headers=ada_headers), 403, "forbidden")
    outsider, _ = club.player()
    with club.unchanged():
        problem(
            client.post("/games", json={**body, "seats": [ada, outsider]}, headers=ADMIN), 422, "not_a_member"
        )


def test_a_league_game_plays_the_leagues_ruleset_and_naming_another_is_refused(client, club):
    ada, _ = club.player()
    bob, _ = club.player()
    league = club.league(members=[ada, bob], ruleset="101")
    omitted = club.game([ada, bob], league_id=league)
    named = club.game([ada, bob], league_id=league, ruleset="101")
    for game in (omitted, named):
        assert club.table(game)["ruleset"] == "101"
    friendly = club.game([ada, "bot:random"])
    assert club.table(friendly)["ruleset"] == "club"
    body = {"seats": [ada, bob], "league_id": league}
    with club.unchanged():
        refused = problem(
            client.post("/games", json={**body, "ruleset": "club"}, headers=ADMIN), 422, "ruleset_mismatch"
        )
        assert "101" in refused["detail"]
        problem(
            client.post("/games", json={**body, "options": {"hand_size": 5}}, headers=ADMIN),
            422,
            "invalid_option",
        )


def test_bad_game_creations_are_refused_with_their_codes_and_change_nothing(client, club):
    ada, _ = club.player()
    cases = [
        ({"seats": [ada, "bot:nobody"]}, 422, "unknown_bot"),
        ({"seats": [ada, "nobody"]}, 400, "invalid_seat"),
        ({"seats": [ada, ada]}, 422, "player_seated_twice"),
        ({"seats": [ada, "bot:random"], "ruleset": "poker"}, 422, "unknown_ruleset"),
        ({"seats": [ada, "bot:random"], "options": {"jokers": 2}}, 422, "unknown_option"),
        ({"seats": [ada, "bot:random"], "deck": ["ZZ"]}, 400, "malformed_card"),
        ({"seats": [ada, "bot:random"], "deck": DECK[:10]}, 422, "invalid_deck"),
        ({"seats": [ada]}, 422, "player_count"),
        # 101's 36 cards deal 6 each to 5 players (and a starter and a card to draw), not to 6
        (
            {"seats": [ada, *["bot:random"] * 5], "ruleset": "101", "options": {"hand_size": 6}},
            422,
            "invalid_option",
        ),
        (
            {"seats": [ada, "bot:random"], "league_id": "00000000-0000-0000-0000-000000000000"},
            404,
            "league_not_found",
        ),
        ({"seats": [ada, "00000000-0000-0000-0000-000000000000"]}, 404, "player_not_found"),
        ({"seats": [ada, "bot:random"], "colour": "red"}, 400, "malformed_request"),
        ({"seats": "everyone"}, 400, "malformed_request"),
    ]
    for body, status, code in cases:
        with club.unchanged():
            problem(client.post("/games", json=body, headers=ADMIN), status, code)


def test_an_unknown_game_is_404_on_every_read(client, club):
    _, headers = club.player()
    unknown = "00000000-0000-0000-0000-00000000abcd"
    for path in ("", "/totals", "/shuffles", "/events", "/stream"):
        problem(client.get(f"/games/{unknown}{path}"), 404, "game_not_found")
    problem(client.get(f"/games/{unknown}/me", headers=headers), 404, "game_not_found")
    problem(client.get(f"/games/{unknown}/replay", headers=ADMIN), 404, "game_not_found")
    problem(client.get("/games/not-a-uuid"), 404, "not_found")


def test_totals_and_shuffles_are_public(client, club):
    ada, _ = club.player()
    game = club.game([ada, "bot:heuristic"])
    totals = client.get(f"/games/{game['game_id']}/totals?after={game['position']}")
    assert totals.status_code == 200
    assert totals.json()["totals"] == [0, 0] and totals.json()["over"] is False
    shuffles = client.get(f"/games/{game['game_id']}/shuffles").json()["shuffles"]
    assert [(s["kind"], s["round_no"]) for s in shuffles] == [("deal", 1)]
    assert shuffles[0]["commitment"] and shuffles[0]["salt"] is None and shuffles[0]["order"] is None


def test_the_same_idempotency_key_creates_the_game_once(client, club):
    ada, headers = club.player()
    body = {"seats": [ada, "bot:random"]}
    key = {"Idempotency-Key": "create-once"}
    first = client.post("/games", json=body, headers={**headers, **key})
    with club.unchanged():
        again = client.post("/games", json=body, headers={**headers, **key})
    assert first.status_code == again.status_code == 201
    assert again.json()["game_id"] == first.json()["game_id"]
    with club.unchanged():
        other = client.post("/games", json={"seats": [ada, "bot:heuristic"]}, headers={**headers, **key})
    problem(other, 409, "idempotency_key_reused")
    # another client's same key is another key
    bob, bob_headers = club.player()
    theirs = client.post("/games", json={"seats": [bob, "bot:random"]}, headers={**bob_headers, **key})
    assert theirs.status_code == 201 and theirs.json()["game_id"] != first.json()["game_id"]

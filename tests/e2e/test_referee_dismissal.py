"""A league's referee taken off over HTTP (``DELETE /leagues/{id}/referees/{referee}``): they rule on,
see the disputes of, judge and make the games of the league no more, and it is no longer among their
leagues; the rulings they gave stay. A dismissal refused changes nothing."""

import uuid

from tests.e2e.club import ADMIN, problem
from tests.e2e.mao import mao_table
from tests.integration.tables import deck_for

HANDS = {0: ["9H", "KH", "2C", "3C", "4C"], 1: ["9S", "KS", "2D", "3D", "4D"]}


def test_a_dismissed_referee_no_longer_rules_on_the_leagues_games_and_their_ruling_stays(client, club):
    ada, ada_headers = club.player()
    bob, bob_headers = club.player()
    rita, rita_headers = club.referee("Rita")
    otto, otto_headers = club.referee("Otto")
    league = club.league(members=[ada, bob], referees=[rita, otto])
    deck = deck_for(HANDS, starter="5H", seats=2, dealer=1)
    game = club.game([ada, bob], deck=deck, first_dealer=1, league_id=league)
    rulings = f"/games/{game['game_id']}/rulings"
    disputes = f"/games/{game['game_id']}/disputes"
    club.ok("POST", disputes, headers=bob_headers, json={"reason": "a card fell"})
    ruled = club.ok("POST", rulings, headers=rita_headers, json={"kind": "resume", "note": "play on"})
    club.ok("POST", disputes, headers=ada_headers, json={"reason": "another card fell"})

    dismissed = club.ok("DELETE", f"/leagues/{league}/referees/{rita}")
    assert dismissed["referees"] == [otto] and dismissed["members"] == [ada, bob]
    assert club.ok("GET", f"/leagues/{league}", headers={})["referees"] == [otto]
    position = club.log_position()
    assert club.ok("GET", f"/me?after={position}", headers=rita_headers)["leagues"] == []
    # the league's disputes are hers no more (a friendly game's, another test's, any referee may see)
    hers = club.ok("GET", f"/disputes?after={position}", headers=rita_headers)["items"]
    assert all(item["league_id"] != league for item in hers) and game["game_id"] not in {
        i["game_id"] for i in hers
    }
    waiting = club.ok("GET", f"/disputes?after={position}", headers=otto_headers)["items"]
    assert [item["game_id"] for item in waiting if item["league_id"] == league] == [game["game_id"]]
    with club.unchanged():
        problem(client.post(rulings, headers=rita_headers, json={"kind": "resume"}), 403, "forbidden")
        problem(
            client.post("/games", headers=rita_headers, json={"seats": [ada, bob], "league_id": league}),
            403,
            "forbidden",
        )
    # the ruling Rita gave before stays in the game's log
    log = club.ok("GET", f"/games/{game['game_id']}/events", headers=otto_headers)["events"]
    given = [event for event in log if event["type"] == "RulingGiven"]
    assert len(given) == 1 and given[0]["number"] == ruled["events"][0]["number"]
    assert given[0]["data"]["note"] == "play on"
    club.ok("POST", rulings, headers=otto_headers, json={"kind": "resume"})  # the league's referee now

    # appointed again, she rules again
    club.ok("POST", f"/leagues/{league}/referees", json={"referee_id": rita})
    club.ok("POST", disputes, headers=bob_headers, json={})
    club.ok("POST", rulings, headers=rita_headers, json={"kind": "resume"})


def test_a_dismissal_of_no_referee_of_the_league_by_anyone_but_an_admin_is_refused(client, club):
    rita, rita_headers = club.referee("Rita")
    otto, _ = club.referee("Otto")
    ada, ada_headers = club.player()
    league = club.league(members=[ada], referees=[rita])
    other = club.league(referees=[otto])
    unknown = str(uuid.uuid4())
    with club.unchanged():
        for referee in (otto, unknown, ada):  # another league's referee, nobody, a player
            problem(
                client.delete(f"/leagues/{league}/referees/{referee}", headers=ADMIN),
                404,
                "league_referee_not_found",
            )
        problem(client.delete(f"/leagues/{unknown}/referees/{rita}", headers=ADMIN), 404, "league_not_found")
        for headers in (rita_headers, ada_headers):
            problem(client.delete(f"/leagues/{league}/referees/{rita}", headers=headers), 403, "forbidden")
        problem(client.delete(f"/leagues/{league}/referees/{rita}"), 401, "unauthorized")
        problem(client.delete(f"/leagues/{league}/referees/not-an-id", headers=ADMIN), 404, "not_found")
    assert club.ok("GET", f"/leagues/{league}")["referees"] == [rita]
    assert club.ok("GET", f"/leagues/{other}")["referees"] == [otto]
    club.ok("DELETE", f"/leagues/{league}/referees/{rita}")
    club.refuses("DELETE", f"/leagues/{league}/referees/{rita}", 404, "league_referee_not_found")


def test_a_mao_leagues_referee_taken_off_judges_its_match_and_makes_its_matches_no_more(client):
    table = mao_table(client)
    table.judge_view()  # the match's judge, as the league's referee
    table.club.ok("DELETE", f"/leagues/{table.league}/referees/{table.ids['rita']}")
    table.refuses("rita", "GET", "/judge", 403, "forbidden")
    body = {"league_id": table.league, "seats": [table.ids["ada"], table.ids["bo"]], "judge": "referee"}
    table.club.refuses("POST", "/mao-games", 403, "forbidden", headers=table.headers["rita"], json=body)
    table.ok("admin", "GET", "/judge")  # the admins judge it still

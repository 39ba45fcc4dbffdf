"""Disputes and rulings, the event log per viewer, and the referee's replay."""

from typing import Any

import pytest

from service.domain.cards import format_cards
from tests.e2e.club import ADMIN, problem
from tests.integration.tables import deck_for, play_out

HANDS = {0: ["9H", "KH", "2C", "3C", "4C"], 1: ["9S", "KS", "2D", "3D", "4D"]}


@pytest.fixture
def league_table(client, club) -> dict[str, Any]:
    """A league game of Ada (seat 0) and Bob with its referee Rita; another league's referee Otto."""
    ada, ada_headers = club.player("Ada")
    bob, bob_headers = club.player("Bob")
    rita, rita_headers = club.referee("Rita")
    _, otto_headers = club.referee("Otto")
    league = club.league(members=[ada, bob], referees=[rita])
    deck = deck_for(HANDS, starter="5H", seats=2, dealer=1)
    game = club.game([ada, bob], deck=deck, first_dealer=1, league_id=league)
    return {"game": game, "ada": ada_headers, "bob": bob_headers, "rita": rita_headers, "otto": otto_headers}


def path(game: dict[str, Any], tail: str) -> str:
    return f"/games/{game['game_id']}/{tail}"


def test_a_dispute_pauses_the_game_until_the_leagues_referee_rules(client, club, league_table):
    game, ada, bob = league_table["game"], league_table["ada"], league_table["bob"]
    raised = club.ok("POST", path(game, "disputes"), headers=bob, json={"reason": "a card fell", "about": 3})
    assert raised["events"][0]["type"] == "DisputeRaised"
    with club.unchanged():
        problem(
            client.post(
                path(game, "moves"),
                json={"kind": "play", "card": "9H", "version": raised["version"]},
                headers=ada,
            ),
            409,
            "game_paused",
        )
        problem(client.post(path(game, "disputes"), json={}, headers=ada), 409, "dispute_open")
        problem(client.post(path(game, "rulings"), json={"kind": "resume"}, headers=ada), 403, "forbidden")
        problem(
            client.post(path(game, "rulings"), json={"kind": "resume"}, headers=league_table["otto"]),
            403,
            "forbidden",
        )
        problem(
            client.post(
                path(game, "rulings"), json={"kind": "penalty", "seat": 1}, headers=league_table["rita"]
            ),
            400,
            "malformed_request",
        )
        problem(
            client.post(
                path(game, "rulings"), json={"kind": "void", "from_event": 1}, headers=league_table["rita"]
            ),
            422,
            "invalid_ruling",
        )
    ruled = club.ok(
        "POST",
        path(game, "rulings"),
        headers=league_table["rita"],
        json={"kind": "penalty", "seat": 1, "cards": 2, "note": "dropped a card"},
    )
    types = [event["type"] for event in ruled["events"]]
    assert types[0] == "RulingGiven" and "CardsDrawn" in types
    with club.unchanged():
        problem(
            client.post(path(game, "rulings"), json={"kind": "resume"}, headers=league_table["rita"]),
            409,
            "no_dispute",
        )
    played = client.post(
        path(game, "moves"), json={"kind": "play", "card": "9H", "version": ruled["version"]}, headers=ada
    )
    assert played.status_code == 200


def test_only_the_table_and_its_officials_raise_disputes(client, club, league_table):
    game = league_table["game"]
    _, stranger = club.player()
    with club.unchanged():
        problem(client.post(path(game, "disputes"), json={}, headers=stranger), 403, "not_seated")
        problem(
            client.post(path(game, "disputes"), json={}, headers=league_table["otto"]), 403, "not_allowed"
        )
        problem(
            client.post(path(game, "disputes"), json={"about": 999}, headers=league_table["ada"]),
            404,
            "no_such_event",
        )
        problem(
            client.post(path(game, "disputes"), json={"reason": 5}, headers=league_table["ada"]),
            400,
            "malformed_request",
        )
    assert client.post(path(game, "disputes"), json={}, headers=league_table["rita"]).status_code == 200


def test_a_void_ruling_shows_each_player_their_restored_hand_only(client, club, league_table):
    game, ada, bob, rita = (
        league_table["game"],
        league_table["ada"],
        league_table["bob"],
        league_table["rita"],
    )
    played = club.ok(
        "POST",
        path(game, "moves"),
        headers=ada,
        json={"kind": "play", "card": "9H", "version": game["version"]},
    )
    club.ok(
        "POST",
        path(game, "disputes"),
        headers=bob,
        json={"reason": "out of turn", "about": played["version"]},
    )
    voided = club.ok(
        "POST", path(game, "rulings"), headers=rita, json={"kind": "void", "from_event": played["version"]}
    )
    assert "hands" in str(voided["events"][0]["data"]["restored"])  # the referee sees the whole state
    log = club.ok("GET", path(game, f"events?after={voided['version'] - 1}"), headers=ada)
    data = log["events"][0]["data"]
    assert data["restored"] is True and sorted(data["hand"]) == sorted(HANDS[0]) and data["cards"] == [5, 5]
    public = club.ok("GET", path(game, f"events?after={voided['version'] - 1}"), headers={})
    assert "hand" not in public["events"][0]["data"]


def test_the_log_is_whole_for_the_referee_redacted_for_a_player_and_the_public(client, club, league_table):
    game = league_table["game"]
    full = club.ok("GET", path(game, "events"), headers=league_table["rita"])["events"]
    mine = club.ok("GET", path(game, "events"), headers=league_table["ada"])["events"]
    public = club.ok("GET", path(game, "events"), headers={})["events"]
    other_referee = club.ok("GET", path(game, "events"), headers=league_table["otto"])["events"]
    assert (
        [e["number"] for e in full]
        == [e["number"] for e in mine]
        == [e["number"] for e in public]
        == [1, 2, 3]
    )
    dealt_full, dealt_mine, dealt_public = full[2]["data"], mine[2]["data"], public[2]["data"]
    assert len(dealt_full["deck"]) == 52 and dealt_full["salt"]
    assert "deck" not in dealt_mine and "salt" not in dealt_mine
    assert sorted(dealt_mine["hand"]) == sorted(HANDS[0]) and dealt_mine["cards"] == [5, 5]
    assert "hand" not in dealt_public and "deck" not in dealt_public and dealt_public["starter"] == "5H"
    assert other_referee == public
    assert "deck" in full[0]["data"] and full[0]["data"]["explicit_deck"]
    assert "deck" not in mine[0]["data"] and mine[0]["data"]["explicit_deck"]
    text = str(mine) + str(public)
    assert not any(f"'{card}'" in text for card in HANDS[1])


def test_the_log_pages_with_after_and_limit(client, club, league_table):
    game = league_table["game"]
    page = club.ok("GET", path(game, "events?after=0&limit=2"), headers={})
    assert [e["number"] for e in page["events"]] == [1, 2]
    assert page["next"].endswith("events?after=2&limit=2")
    rest = club.ok("GET", page["next"], headers={})
    assert [e["number"] for e in rest["events"]] == [3] and rest["next"] is None
    for query in ("limit=0", "after=-1", "limit=lots"):
        problem(client.get(path(game, f"events?{query}")), 400, "malformed_request")


def test_the_referee_replays_the_table_at_any_event_and_steps_through(client, club, league_table):
    game, rita = league_table["game"], league_table["rita"]
    played = club.ok(
        "POST",
        path(game, "moves"),
        headers=league_table["ada"],
        json={"kind": "play", "card": "9H", "version": game["version"]},
    )
    at_deal = club.ok("GET", path(game, "replay?at=3"), headers=rita)
    assert at_deal["at"] == 3 and at_deal["event"]["type"] == "RoundDealt"
    assert sorted(at_deal["table"]["seats"][1]["hand"]) == sorted(HANDS[1])
    assert at_deal["table"]["top"] == "5H" and len(at_deal["table"]["stock"]) == 52 - 11
    assert at_deal["previous"].endswith("replay?at=2") and at_deal["next"].endswith("replay?at=4")
    stepped = club.ok("GET", at_deal["next"], headers=rita)
    assert stepped["at"] == played["version"] and stepped["event"]["data"]["card"] == "9H"
    assert stepped["table"]["top"] == "9H" and stepped["next"] is None
    assert club.ok("GET", path(game, "replay"), headers=ADMIN)["at"] == played["version"]
    with club.unchanged():
        problem(client.get(path(game, "replay?at=99"), headers=rita), 404, "no_such_event")
        problem(client.get(path(game, "replay?at=0"), headers=rita), 400, "malformed_request")
        problem(client.get(path(game, "replay?at=3"), headers=league_table["ada"]), 403, "forbidden")
        problem(client.get(path(game, "replay?at=3"), headers=league_table["otto"]), 403, "forbidden")
        problem(client.get(path(game, "replay?at=3")), 401, "unauthorized")


def test_a_finished_match_refuses_moves_and_its_shuffles_are_revealed_and_verified(client, club):
    ada, ada_headers = club.player("Ada")
    game = club.game([ada, "bot:random"], options={"single_round": True})
    play_out(club.app, game["game_id"], seed=4)
    table = club.ok("GET", f"/games/{game['game_id']}?after={club.log_position()}", headers={})
    assert table["over"] is True
    with club.unchanged():
        problem(
            client.post(
                path(game, "moves"), json={"kind": "draw", "version": table["version"]}, headers=ada_headers
            ),
            409,
            "game_over",
        )
    shuffles = club.ok("GET", path(game, "shuffles"), headers={})["shuffles"]
    assert shuffles and all(s["verified"] is True for s in shuffles)
    first = club.app.game_events(game["game_id"], 2, 1)[0]
    assert shuffles[0]["order"] == format_cards(first.fact.deck)
    totals = club.ok("GET", path(game, f"totals?after={club.log_position()}"), headers={})
    assert totals["over"] is True and len(totals["rounds"]) == 1

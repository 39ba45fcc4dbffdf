"""Tournaments over HTTP: announce, join, leave, start, the bracket and a player's next game; every refusal.

The e2e app runs no worker: the tasks it queues go to a broker folder nobody
reads (tests/e2e/conftest.py). Where a tournament is to be played, the
workers' own steps run in this process (``workers.inline``) on the app's
store, and the tasks the API queues are handed to them.
"""

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any
from uuid import UUID

import pytest

from tests.e2e.club import ADMIN, Club
from tests.integration.tables import play_out
from workers.conduct import Conductor
from workers.inline import Inline

UNKNOWN = "00000000-0000-0000-0000-00000000beef"
SWISS = {"name": "Autumn cup", "format": "swiss", "table_size": 3, "rounds": 2, "single_round": True}


@dataclass
class Members:
    league: str
    ids: dict[str, str]  # ada, bob, cat (members), eve (a player of no league), rita (the league's referee)
    headers: dict[str, dict[str, str]]


@pytest.fixture(scope="module")
def members(club: Club) -> Members:
    ids, headers = {}, {}
    for name in ("ada", "bob", "cat", "eve"):
        ids[name], headers[name] = club.player(name.title())
    ids["rita"], headers["rita"] = club.referee("Rita")
    league = club.league(members=[ids["ada"], ids["bob"], ids["cat"]], referees=[ids["rita"]])
    return Members(league, ids, headers)


def announce(club: Club, members: Members, **plan: Any) -> dict[str, Any]:
    return club.ok("POST", f"/leagues/{members.league}/tournaments", json={**SWISS, **plan})


def join(club: Club, tournament: dict[str, Any], *player_ids: str) -> dict[str, Any]:
    for player_id in player_ids:
        tournament = club.ok(
            "POST", f"/tournaments/{tournament['tournament_id']}/entrants", json={"player_id": player_id}
        )
    return tournament


def without_position(body: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in body.items() if key != "position"}


# ---------------------------------------------------------------------------
# the happy paths


def test_an_admin_announces_members_join_and_leave_and_the_bracket_shows_them(client, club, members):
    ids, headers = members.ids, members.headers
    created = club.client.post(
        f"/leagues/{members.league}/tournaments",
        json={
            **SWISS,
            "turn_clock": 60,
            "places": 6,
            "interval": 1800,
            "starts_at": "2031-05-01T18:00:00+02:00",
        },
        headers=ADMIN,
    )
    assert created.status_code == 201, created.text
    tournament = created.json()
    assert (tournament["status"], tournament["entrants"], tournament["rounds"]) == ("announced", [], [])
    assert (tournament["format"], tournament["table_size"], tournament["planned_rounds"]) == ("swiss", 3, 2)
    assert (tournament["turn_clock"], tournament["places"], tournament["interval"]) == (60, 6, 1800)
    assert tournament["starts_at"] == "2031-05-01T16:00:00Z" and tournament["league_id"] == members.league
    path = f"/tournaments/{tournament['tournament_id']}"

    joined = club.ok("POST", f"{path}/entrants", headers=headers["ada"], json={"player_id": ids["ada"]})
    assert joined["entrants"] == [ids["ada"]]
    joined = club.ok("POST", f"{path}/entrants", json={"player_id": ids["bob"]})  # an admin, for Bob
    joined = club.ok("POST", f"{path}/entrants", headers=headers["cat"], json={"player_id": ids["cat"]})
    assert joined["entrants"] == [ids["ada"], ids["bob"], ids["cat"]]
    left = club.client.delete(f"{path}/entrants/{ids['cat']}", headers=headers["cat"])
    assert left.status_code == 200 and left.json()["entrants"] == [ids["ada"], ids["bob"]]
    left = club.ok("DELETE", f"{path}/entrants/{ids['bob']}")  # an admin, for Bob
    assert left["entrants"] == [ids["ada"]] and left["position"] > joined["position"]
    assert left["names"] == {ids["ada"]: "Ada"}

    read = club.ok("GET", f"{path}?after={left['position']}", headers={})
    assert read["position"] >= left["position"]
    assert without_position(read) == without_position(left)
    listed = club.ok("GET", f"/leagues/{members.league}/tournaments?after={left['position']}", headers={})
    assert listed["league_id"] == members.league and listed["position"] >= left["position"]
    assert without_position(listed["tournaments"][-1]) == without_position(left)


def test_a_started_tournament_pairs_round_one_with_bots_in_the_empty_places_and_names_each_next_game(
    client, club, members
):
    ids = members.ids
    tournament = join(club, announce(club, members, places=6), ids["ada"], ids["bob"])
    path = f"/tournaments/{tournament['tournament_id']}"
    started = club.ok("POST", f"{path}/start")
    assert started["status"] == "running" and len(started["entrants"]) == 6
    assert sorted(e for e in started["entrants"] if not e.startswith("bot:")) == sorted(
        [ids["ada"], ids["bob"]]
    )
    assert started["names"][ids["ada"]] == "Ada"
    assert all(started["names"][e] == e for e in started["entrants"] if e.startswith("bot:heuristic#"))
    (first,) = started["rounds"]
    assert first["round_no"] == 1 and first["due_at"] is not None and not first["finished"]
    assert [len(table["entrants"]) for table in first["tables"]] == [3, 3]
    assert all(table["game_id"] is None and table["totals"] is None for table in first["tables"])
    assert [p["entrant"] for p in started["ranking"]] == list(
        club.app.get_tournament(UUID(tournament["tournament_id"])).order
    )

    for name in ("ada", "bob"):
        (table,) = [t for t in first["tables"] if ids[name] in t["entrants"]]
        next_game = club.ok("GET", f"/players/{ids[name]}/next-game?after={started['position']}", headers={})
        assert next_game == {
            "player_id": ids[name],
            "tournament_id": tournament["tournament_id"],
            "tournament": "Autumn cup",
            "round_no": 1,
            "table": table["table"],
            "seat": table["entrants"].index(ids[name]),
            "game_id": None,
            "status": "waiting",
            "due_at": first["due_at"],
            "turn_deadline": None,
            "position": next_game["position"],
        }
    read = club.ok("GET", f"{path}?after={started['position']}")
    assert without_position(read) == without_position(started)


def test_between_two_rounds_next_game_names_the_tournament_and_its_pending_round_with_its_time(
    client, club, members
):
    dan, _ = club.player("Dan")  # in no other tournament: the answer can only be this one's
    club.ok("POST", f"/leagues/{members.league}/members", json={"player_id": dan})
    plan = {"table_size": 2, "places": 4, "interval": 3600}
    tournament = join(club, announce(club, members, name="Between", **plan), dan)
    started = club.ok("POST", f"/tournaments/{tournament['tournament_id']}/start")
    tournament_id = UUID(tournament["tournament_id"])
    games = club.app.start_round(tournament_id, 1)
    (dans,) = [t["table"] for t in started["rounds"][0]["tables"] if dan in t["entrants"]]
    play_out(club.app, games[dans], seed=2)  # Dan's table is over, the other one is still played
    club.app.record_table_result(tournament_id, games[dans])

    next_game = club.ok("GET", f"/players/{dan}/next-game?after={club.log_position()}", headers={})
    starts_at = datetime.fromisoformat(started["starts_at"])
    assert datetime.fromisoformat(next_game.pop("due_at")) == starts_at + timedelta(hours=1)
    assert next_game == {
        "player_id": dan,
        "tournament_id": tournament["tournament_id"],
        "tournament": "Between",
        "round_no": 2,
        "table": None,
        "seat": None,
        "game_id": None,
        "status": "pending",
        "turn_deadline": None,
        "position": next_game["position"],
    }


def test_starting_a_tournament_tells_the_workers_and_every_change_to_a_game_with_bots_does(
    client, club, members, queued
):
    ids, headers = members.ids, members.headers
    tournament = announce(club, members, places=3)
    club.ok("POST", f"/tournaments/{tournament['tournament_id']}/start")
    assert queued.take_ids() == [("tournament", tournament["tournament_id"])]

    with_bots = club.game(
        [ids["ada"], "bot:heuristic"], headers=headers["ada"], options={"single_round": True}
    )
    league_game = club.game([ids["bob"], "bot:random"], league_id=members.league)
    people_only = club.game([ids["ada"], ids["eve"]])  # friendly: nobody to answer, no clock
    # no tournament's table either: no clock to set, no result to record
    league_people = club.game([ids["ada"], ids["bob"]], league_id=members.league)
    assert queued.take_ids() == [("game", with_bots["game_id"]), ("game", league_game["game_id"])]
    for game in (with_bots, league_game, people_only, league_people):
        move_first_listed(club, game)
        answered = game in (with_bots, league_game)
        assert queued.take_ids() == ([("game", game["game_id"])] if answered else [])
    raised = club.ok("POST", f"/games/{league_game['game_id']}/disputes", json={"reason": "a card fell"})
    assert queued.take_ids() == []  # a paused game: nobody moves until the ruling
    club.ok(
        "POST",
        f"/games/{league_game['game_id']}/rulings",
        json={"kind": "resume", "version": raised["version"]},
    )
    assert queued.take_ids() == [("game", league_game["game_id"])]


def test_a_move_at_a_tournaments_table_of_people_is_handed_to_the_workers_for_its_clock_and_result(
    client, club, members, queued
):
    ids = members.ids
    tournament = announce(club, members, places=2, table_size=2)
    join(club, tournament, ids["ada"], ids["bob"])
    club.ok("POST", f"/tournaments/{tournament['tournament_id']}/start")
    assert queued.take_ids() == [("tournament", tournament["tournament_id"])]
    inline = Inline()
    Conductor(club.app, inline).conduct_tournament(tournament["tournament_id"])
    ((game_id,),) = inline.queued("advance_game")  # the round's one table: Ada and Bob, no bot
    # made through the API's application, whose follow-ups queue its clock at once
    assert queued.take_ids() == [("game", str(game_id))]
    game = {"game_id": str(game_id), "position": club.log_position()}
    assert [seat["kind"] for seat in club.table(game)["seats"]] == ["player", "player"]
    move_first_listed(club, game)
    assert queued.take_ids() == [("game", str(game_id))]


def move_first_listed(club: Club, game: dict[str, Any]) -> None:
    """An official makes the first move listed for the seat to move (the dealer naming a suit first)."""
    table = club.table(game)
    seat = table["dealer"] if table["phase"] == "name_suit" else table["turn"]
    mine = club.ok("GET", f"/games/{game['game_id']}/me?seat={seat}&after={game['position']}")
    move = next(m for m in mine["legal"] if m["kind"] != "challenge")
    body = {**move, "seat": seat, "version": table["version"]}
    club.ok("POST", f"/games/{game['game_id']}/moves", json=body)


def test_a_tournament_made_over_http_is_played_by_the_workers_steps_and_its_bracket_matches_the_aggregate(
    client, club, members, queued
):
    inline = Inline()
    conductor = Conductor(club.app, inline)

    def hand_over() -> None:
        """What the API queued on the broker goes to the steps run here."""
        for kind, found in queued.take_ids():
            step = inline.advance_game if kind == "game" else inline.conduct_tournament
            step(UUID(found))

    ids, headers = {}, {}
    for name in ("ada", "bob"):  # players of no other tournament, so their next game is this one's
        ids[name], headers[name] = club.player(f"{name.title()} the second")  # the league has an Ada
        club.ok("POST", f"/leagues/{members.league}/members", json={"player_id": ids[name]})
    tournament = announce(club, members, places=6, turn_clock=30)
    path = f"/tournaments/{tournament['tournament_id']}"
    for name in ("ada", "bob"):
        club.ok("POST", f"{path}/entrants", headers=headers[name], json={"player_id": ids[name]})
    club.ok("POST", f"{path}/start")
    hand_over()
    assert inline.queued("conduct_tournament") == [(UUID(tournament["tournament_id"]),)]

    inline.run(conductor, until=lambda: bool(inline.queued("time_out_turn")))
    ((game_id, seat, version),) = inline.queued("time_out_turn")  # a person is to move, under the clock
    game = club.app.get_game(game_id)
    name = next(n for n in ("ada", "bob") if game.seats[seat].name == ids[n])
    next_game = club.ok("GET", f"/players/{ids[name]}/next-game?after={club.log_position()}")
    assert (next_game["status"], next_game["game_id"], next_game["seat"]) == ("playing", str(game_id), seat)
    assert next_game["turn_deadline"] is not None
    mine = club.ok("GET", f"/games/{game_id}/me?after={club.log_position()}", headers=headers[name])
    move = next(m for m in mine["legal"] if m["kind"] != "challenge")
    moved = club.ok(
        "POST", f"/games/{game_id}/moves", headers=headers[name], json={**move, "version": version}
    )
    hand_over()
    assert (game_id,) in inline.queued("advance_game")  # the bots answer the move
    inline.run(conductor)  # the clock bot plays every later turn of the people

    aggregate = club.app.get_tournament(UUID(tournament["tournament_id"]))
    assert aggregate.finished
    bracket = club.ok("GET", f"{path}?after={club.log_position()}", headers={})
    assert bracket["status"] == "finished" and bracket["winners"] == list(aggregate.winners)
    assert [p["entrant"] for p in bracket["ranking"]] == list(aggregate.ranking)
    assert {p["entrant"]: p["points"] for p in bracket["ranking"]} == {
        p.entrant: p.points for p in aggregate.standings()
    }
    assert len(bracket["rounds"]) == len(aggregate.rounds) == 2
    for shown, played in zip(bracket["rounds"], aggregate.rounds, strict=True):
        assert shown["finished"] and shown["byes"] == list(played.byes)
        for table in shown["tables"]:
            result = played.results[table["table"]]
            assert table["entrants"] == list(played.tables[table["table"]])
            assert table["game_id"] == str(played.games[table["table"]])
            assert (table["totals"], table["winners"]) == (list(result.totals), list(result.winners))
            assert table["timed_out"] == list(result.timed_out)
    assert sum(p["bot_turns"] for p in bracket["ranking"]) > 0  # the clock bot's turns are flagged
    assert moved["position"] <= bracket["position"]
    for name in ("ada", "bob"):
        path = f"/players/{ids[name]}/next-game?after={bracket['position']}"
        club.refuses("GET", path, 404, "next_game_not_found")


# ---------------------------------------------------------------------------
# refusals: each with its status and code, and nothing stored


def test_announcing_is_for_admins_in_a_league_that_exists_with_a_plan_the_rules_allow(client, club, members):
    path = f"/leagues/{members.league}/tournaments"
    club.refuses("POST", path, 401, "unauthorized", headers={}, json=SWISS)
    club.refuses("POST", path, 403, "forbidden", headers=members.headers["ada"], json=SWISS)
    club.refuses("POST", path, 403, "forbidden", headers=members.headers["rita"], json=SWISS)
    club.refuses("POST", f"/leagues/{UNKNOWN}/tournaments", 404, "league_not_found", json=SWISS)
    for change, code in (
        ({"table_size": 7}, "invalid_table_size"),
        ({"table_size": 1}, "invalid_table_size"),
        ({"rounds": None}, "invalid_rounds"),
        ({"rounds": 51}, "invalid_rounds"),
        ({"format": "single_elimination"}, "invalid_rounds"),  # it plays on until one table is left
        ({"format": "double_round_robin"}, "invalid_rounds"),  # its rounds follow from the entrants
        ({"starts_at": "2031-05-01T18:00:00"}, "invalid_schedule"),  # no time zone
        ({"interval": 0}, "invalid_schedule"),
        ({"target_score": 100}, "invalid_match_length"),  # and a single round
        ({"single_round": False, "target_score": 0}, "invalid_match_length"),
        ({"turn_clock": 0}, "invalid_turn_clock"),
        ({"turn_clock": 86_401}, "invalid_turn_clock"),
        ({"places": 1}, "invalid_places"),
        ({"places": 513}, "invalid_places"),
        ({"fill_bot": "nobody"}, "unknown_bot"),
    ):
        found = club.refuses("POST", path, 422, code, json={**SWISS, **change})
        assert found["detail"]
    for name in ("   ", "Cup\u200b", "\u202eCup"):
        club.refuses("POST", path, 400, "malformed_name", json={**SWISS, "name": name})


def test_joining_and_leaving_are_refused_with_their_codes(client, club, members):
    ids, headers = members.ids, members.headers
    tournament = join(club, announce(club, members, places=2), ids["ada"])
    path = f"/tournaments/{tournament['tournament_id']}"

    def joining(status: int, code: str, player: str, by: dict[str, str] = ADMIN, at: str = path) -> None:
        club.refuses("POST", f"{at}/entrants", status, code, headers=by, json={"player_id": player})

    joining(401, "unauthorized", ids["bob"], by={})
    joining(403, "forbidden", ids["bob"], by=headers["ada"])  # a player joins for themself only
    joining(403, "forbidden", ids["bob"], by=headers["rita"])
    joining(404, "tournament_not_found", ids["bob"], at=f"/tournaments/{UNKNOWN}")
    joining(404, "player_not_found", UNKNOWN)
    joining(422, "not_a_member", ids["eve"])
    joining(422, "not_a_member", ids["eve"], by=headers["eve"])
    joining(409, "already_joined", ids["ada"], by=headers["ada"])
    join(club, tournament, ids["bob"])
    joining(409, "tournament_full", ids["cat"], by=headers["cat"])  # two places, both taken

    def leaving(status: int, code: str, player: str, by: dict[str, str] = ADMIN, at: str = path) -> None:
        club.refuses("DELETE", f"{at}/entrants/{player}", status, code, headers=by)

    leaving(401, "unauthorized", ids["ada"], by={})
    leaving(403, "forbidden", ids["ada"], by=headers["bob"])
    leaving(403, "forbidden", ids["ada"], by=headers["rita"])
    leaving(404, "tournament_not_found", ids["ada"], at=f"/tournaments/{UNKNOWN}")
    leaving(422, "not_joined", ids["cat"], by=headers["cat"])

    club.ok("POST", f"{path}/start")
    joining(409, "tournament_started", ids["cat"])
    leaving(409, "tournament_started", ids["ada"], by=headers["ada"])


def test_starting_is_for_admins_once_with_enough_players(client, club, members):
    ids, headers = members.ids, members.headers
    alone = join(club, announce(club, members), ids["ada"])  # no places for bots: one player is too few
    path = f"/tournaments/{alone['tournament_id']}/start"
    club.refuses("POST", path, 401, "unauthorized", headers={})
    club.refuses("POST", path, 403, "forbidden", headers=headers["ada"])
    club.refuses("POST", path, 403, "forbidden", headers=headers["rita"])
    club.refuses("POST", f"/tournaments/{UNKNOWN}/start", 404, "tournament_not_found")
    club.refuses("POST", path, 422, "too_few_players")
    join(club, alone, ids["bob"])
    club.ok("POST", path)
    club.refuses("POST", path, 409, "tournament_started")


def test_reads_of_what_does_not_exist_are_404_with_their_codes(client, club, members):
    club.refuses("GET", f"/tournaments/{UNKNOWN}", 404, "tournament_not_found", headers={})
    club.refuses("GET", f"/leagues/{UNKNOWN}/tournaments", 404, "league_not_found", headers={})
    club.refuses("GET", f"/players/{UNKNOWN}/next-game", 404, "player_not_found", headers={})
    club.refuses("GET", f"/players/{members.ids['eve']}/next-game", 404, "next_game_not_found", headers={})
    # a league without tournaments lists none
    empty = club.league()
    assert club.ok("GET", f"/leagues/{empty}/tournaments", headers={})["tournaments"] == []

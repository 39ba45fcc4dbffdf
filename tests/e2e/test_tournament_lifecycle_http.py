"""A tournament's lifecycle over HTTP: edited before the start, checked in, dropped out of mid-swiss,
cancelled with a game in play (abandoned: it counts for nobody); every refusal with its code, storing
nothing (docs/tournaments.md).

The e2e app runs no worker: a round's games are made here with ``start_round`` and played with
``play_out``, their results recorded as the workers' steps record them.
"""

from datetime import UTC, datetime, timedelta
from typing import Any
from uuid import UUID

import pytest

from service.domain.tournament_plan import EDITABLE
from service.usecases.tournaments import NOT_EDITABLE, TournamentCreate, TournamentEdit
from tests.e2e.club import ADMIN, Club
from tests.e2e.test_tournaments_http import UNKNOWN, Members
from tests.integration.tables import play_out
from workers.conduct import Conductor
from workers.inline import Inline

SWISS = {"name": "Winter cup", "format": "swiss", "table_size": 2, "rounds": 3, "single_round": True}


@pytest.fixture
def season(club: Club) -> Members:
    """A league of its own, so its standings and next games are this test's alone."""
    ids, headers = {}, {}
    for name in ("ada", "bob", "cat", "dan", "eve"):
        ids[name], headers[name] = club.player(f"{name.title()} of the season")
    ids["rita"], headers["rita"] = club.referee("Rita of the season")
    members = [ids[name] for name in ("ada", "bob", "cat", "dan")]
    league = club.league(members=members, referees=[ids["rita"]])
    return Members(league, ids, headers)


def announced(club: Club, season: Members, *entrants: str, **plan: Any) -> tuple[str, dict[str, Any]]:
    """A tournament of the season's league these players joined: its path and its view."""
    view = club.ok("POST", f"/leagues/{season.league}/tournaments", json={**SWISS, **plan})
    path = f"/tournaments/{view['tournament_id']}"
    for player_id in entrants:
        view = club.ok("POST", f"{path}/entrants", json={"player_id": player_id})
    return path, view


def finish_table(club: Club, tournament_id: UUID, game_id: UUID, seed: int = 4) -> None:
    play_out(club.app, game_id, seed=seed)
    club.app.record_table_result(tournament_id, game_id)


def play_round(club: Club, tournament_id: UUID, round_no: int) -> None:
    for game_id in club.app.start_round(tournament_id, round_no):
        finish_table(club, tournament_id, game_id, seed=round_no)


def later(**delta: float) -> str:
    return (datetime.now(UTC) + timedelta(**delta)).isoformat()


# ---------------------------------------------------------------------------
# editing


def test_an_admin_edits_the_name_schedule_places_and_table_size_before_the_start(client, club, season):
    ids = season.ids
    path, view = announced(club, season, ids["ada"], ids["bob"], starts_at=later(days=3), interval=900)
    edited = club.ok(
        "PATCH",
        path,
        json={"name": "Winter cup (moved)", "starts_at": "2031-01-05T18:00:00+01:00", "places": 6},
    )
    assert (edited["name"], edited["starts_at"], edited["places"]) == (
        "Winter cup (moved)",
        "2031-01-05T17:00:00Z",
        6,
    )
    assert edited["interval"] == 900 and edited["entrants"] == [ids["ada"], ids["bob"]]  # the rest stays
    edited = club.ok("PATCH", path, json={"interval": None, "table_size": 3, "check_in_minutes": 45})
    assert (edited["interval"], edited["table_size"], edited["check_in_minutes"]) == (None, 3, 45)
    assert edited["check_in_opens"] == "2031-01-05T16:15:00Z"
    assert edited["position"] > view["position"]
    read = club.ok("GET", f"{path}?after={edited['position']}", headers={})
    assert (read["name"], read["table_size"], read["places"]) == ("Winter cup (moved)", 3, 6)
    same = club.ok("PATCH", path, json={"table_size": 3})
    assert same["position"] == edited["position"]  # an edit that changes nothing stores nothing


def test_every_field_of_an_announcement_is_either_editable_or_refused_as_not_editable():
    # none left out of the edit's body, where it would be refused as malformed, not as fixed
    announced = set(TournamentCreate.__struct_fields__) - {"name"}
    assert announced == {*EDITABLE, *NOT_EDITABLE} and not set(EDITABLE) & set(NOT_EDITABLE)
    assert set(TournamentEdit.__struct_fields__) == {"name", *announced}


def test_edits_are_refused_as_an_announcement_is_and_after_the_start(client, club, season):
    ids, headers = season.ids, season.headers
    path, _ = announced(club, season, ids["ada"], ids["bob"], ids["cat"])
    club.refuses("PATCH", path, 401, "unauthorized", headers={}, json={"name": "Mine"})
    club.refuses("PATCH", path, 403, "forbidden", headers=headers["ada"], json={"name": "Mine"})
    club.refuses("PATCH", path, 403, "forbidden", headers=headers["rita"], json={"name": "Mine"})
    club.refuses("PATCH", f"/tournaments/{UNKNOWN}", 404, "tournament_not_found", json={"name": "Mine"})
    club.refuses("PATCH", path, 400, "malformed_request", json={"venue": "the back room"})
    for fixed in (
        {"format": "round_robin"},
        {"rounds": 3},
        {"target_score": 50},
        {"single_round": False},
        {"turn_clock": 60},
        {"late_policy": "bot"},
        {"fill_bot": "random"},
        {"rounds": 4, "name": "Mine"},  # whatever the value, and beside an editable field
    ):
        club.refuses("PATCH", path, 422, "not_editable", json=fixed)
    # a value the announcement would not take is malformed, as in any body
    club.refuses("PATCH", path, 400, "malformed_request", json={"rounds": "three", "name": "Mine"})
    club.refuses("PATCH", path, 400, "malformed_name", json={"name": "  "})
    for change, code in (
        ({"table_size": 7}, "invalid_table_size"),
        ({"starts_at": "2031-01-05T18:00:00"}, "invalid_schedule"),
        ({"interval": 0}, "invalid_schedule"),
        ({"places": 2}, "invalid_places"),  # three have joined
        ({"check_in_minutes": 30}, "invalid_check_in"),  # no start time
    ):
        assert club.refuses("PATCH", path, 422, code, json=change)["detail"]
    club.ok("POST", f"{path}/start")
    club.refuses("PATCH", path, 409, "tournament_started", json={"name": "Too late"})


# ---------------------------------------------------------------------------
# starting by hand


def test_a_start_by_hand_before_the_start_time_starts_round_1_at_once(client, club, season, queued):
    ids = season.ids
    path, _ = announced(club, season, ids["ada"], ids["bob"], starts_at=later(hours=2), interval=3600)
    queued.take()
    before = datetime.now(UTC)
    started = club.ok("POST", f"{path}/start")  # everyone is there early
    first = started["rounds"][0]
    assert started["status"] == "running"
    assert before <= datetime.fromisoformat(first["due_at"]) <= datetime.now(UTC)
    assert started["starts_at"] == first["due_at"]
    assert queued.take_ids() == [("tournament", started["tournament_id"])]
    inline = Inline()
    Conductor(club.app, inline).conduct_tournament(started["tournament_id"])  # the task the API queued
    first = club.ok("GET", f"{path}?after={club.log_position()}", headers={})["rounds"][0]
    assert [table["game_id"] is not None for table in first["tables"]] == [True]
    assert [(UUID(table["game_id"]),) for table in first["tables"]] == inline.queued("advance_game")
    club.refuses("PATCH", path, 409, "tournament_started", json={"starts_at": later(minutes=5)})


# ---------------------------------------------------------------------------
# check-in


def test_entrants_check_in_in_the_window_and_a_no_show_is_replaced_by_a_bot_at_the_start(
    client, club, season
):
    ids, headers = season.ids, season.headers
    entrants = (ids["ada"], ids["bob"], ids["cat"])
    path, _ = announced(club, season, *entrants, starts_at=later(hours=2), check_in_minutes=60, places=4)
    checking_in = f"{path}/check-in"
    found = club.refuses(
        "POST",
        checking_in,
        409,
        "check_in_not_open",
        headers=headers["ada"],
        json={"player_id": ids["ada"]},
    )
    assert "opens at" in found["detail"]
    club.ok("PATCH", path, json={"check_in_minutes": 180})  # the window is open now
    view = club.ok("POST", checking_in, headers=headers["ada"], json={"player_id": ids["ada"]})
    view = club.ok("POST", checking_in, json={"player_id": ids["bob"]})  # an admin, for Bob
    assert view["checked_in"] == [ids["ada"], ids["bob"]]

    def checking(
        status: int, code: str, player: str, by: dict[str, str] = ADMIN, at: str = checking_in
    ) -> None:
        club.refuses("POST", at, status, code, headers=by, json={"player_id": player})

    checking(401, "unauthorized", ids["cat"], by={})
    checking(403, "forbidden", ids["cat"], by=headers["ada"])
    checking(403, "forbidden", ids["cat"], by=headers["rita"])
    checking(404, "tournament_not_found", ids["cat"], at=f"/tournaments/{UNKNOWN}/check-in")
    checking(409, "already_checked_in", ids["ada"], by=headers["ada"])
    checking(422, "not_joined", ids["dan"], by=headers["dan"])
    no_window, _ = announced(club, season, ids["ada"], starts_at=later(hours=1))
    checking(422, "no_check_in", ids["ada"], at=f"{no_window}/check-in")

    started = club.ok("POST", f"{path}/start")  # Cat never checked in
    assert started["status"] == "running" and started["dropped"] == [ids["cat"]]
    assert ids["cat"] not in started["entrants"] and len(started["entrants"]) == 4
    bots = [e for e in started["entrants"] if e.startswith("bot:")]
    assert len(bots) == 2  # Cat's place went to a bot as well as the one nobody took
    seated = {e for table in started["rounds"][0]["tables"] for e in table["entrants"]}
    assert ids["cat"] not in seated
    events = club.app.events.get(UUID(started["tournament_id"]))
    (no_show,) = [e for e in events if type(e).__name__ == "Dropped"]
    assert (no_show.entrant, no_show.reason) == (ids["cat"], "no_show")
    checking(409, "tournament_started", ids["cat"], by=headers["cat"])


# ---------------------------------------------------------------------------
# dropping out mid-swiss


def test_a_player_drops_out_mid_swiss_and_the_later_rounds_pair_without_them(client, club, season):
    ids, headers = season.ids, season.headers
    four = [ids[name] for name in ("ada", "bob", "cat", "dan")]
    path, _ = announced(club, season, *four)
    started = club.ok("POST", f"{path}/start")
    tournament_id = UUID(started["tournament_id"])
    games = club.app.start_round(tournament_id, 1)
    dropped = club.ok("POST", f"{path}/drop-out", headers=headers["ada"], json={"player_id": ids["ada"]})
    assert dropped["dropped"] == [ids["ada"]] and dropped["status"] == "running"
    for game_id in games:  # round 1 is played as it was paired, Ada's table too
        finish_table(club, tournament_id, game_id)
    for round_no in (2, 3):
        play_round(club, tournament_id, round_no)
    final = club.ok("GET", f"{path}?after={club.log_position()}", headers={})
    assert final["status"] == "finished" and len(final["rounds"]) == 3
    for later_round in final["rounds"][1:]:
        seated = {e for table in later_round["tables"] for e in table["entrants"]}
        assert ids["ada"] not in seated and ids["ada"] not in later_round["byes"]
        assert len(seated) + len(later_round["byes"]) == 3
    last = final["ranking"][-1]
    assert (last["entrant"], last["dropped"], last["tables"]) == (ids["ada"], True, 1)
    assert ids["ada"] not in final["winners"]
    assert not any(placing["dropped"] for placing in final["ranking"][:-1])


def test_dropping_out_is_refused_with_its_codes(client, club, season):
    ids, headers = season.ids, season.headers
    three = (ids["ada"], ids["bob"], ids["cat"])
    announced_path, _ = announced(club, season, *three)
    path, _ = announced(club, season, *three)
    club.ok("POST", f"{path}/start")
    knockout, _ = announced(
        club, season, *three, format="single_elimination", rounds=None, name="Knockout", table_size=3
    )
    club.ok("POST", f"{knockout}/start")

    def dropping(status: int, code: str, player: str, by: dict[str, str] = ADMIN, at: str = path) -> None:
        club.refuses("POST", f"{at}/drop-out", status, code, headers=by, json={"player_id": player})

    dropping(401, "unauthorized", ids["ada"], by={})
    dropping(403, "forbidden", ids["ada"], by=headers["bob"])
    dropping(403, "forbidden", ids["ada"], by=headers["rita"])
    dropping(404, "tournament_not_found", ids["ada"], at=f"/tournaments/{UNKNOWN}")
    dropping(409, "not_started", ids["ada"], at=announced_path)
    dropping(422, "not_joined", ids["dan"], by=headers["dan"])
    dropping(422, "cannot_drop", ids["ada"], at=knockout)
    club.ok("POST", f"{path}/drop-out", json={"player_id": ids["ada"]})
    dropping(409, "already_dropped", ids["ada"], by=headers["ada"])
    dropping(422, "too_few_players", ids["bob"], by=headers["bob"])  # the last two play on


# ---------------------------------------------------------------------------
# cancelling


def test_a_cancelled_tournaments_game_in_play_ends_abandoned_and_counts_for_nobody(client, club, season):
    ids = season.ids
    path, _ = announced(club, season, ids["ada"], ids["bob"], ids["cat"], ids["dan"])
    started = club.ok("POST", f"{path}/start")
    tournament_id = UUID(started["tournament_id"])
    games = club.app.start_round(tournament_id, 1)
    finish_table(club, tournament_id, games[0])  # one table ends; the other is still played
    at_finished = set(started["rounds"][0]["tables"][0]["entrants"])
    at_abandoned = set(started["rounds"][0]["tables"][1]["entrants"])

    cancelled = club.ok("POST", f"{path}/cancel", json={"reason": "the hall is closed"})
    assert (cancelled["status"], cancelled["cancelled"]) == ("cancelled", "the hall is closed")
    finished_table, abandoned_table = cancelled["rounds"][0]["tables"]
    assert finished_table["finished"] and not finished_table["abandoned"]
    assert abandoned_table["abandoned"] and abandoned_table["totals"] is None
    assert cancelled["winners"] == []

    position = club.log_position()
    table = club.ok("GET", f"/games/{games[1]}?after={position}", headers={})
    assert table["abandoned"] == "the hall is closed" and not table["over"]
    version = table["version"]
    seat = table["dealer"] if table["phase"] == "name_suit" else table["turn"]
    club.refuses(
        "POST",
        f"/games/{games[1]}/moves",
        409,
        "game_abandoned",
        json={"kind": "draw", "seat": seat, "version": version},
    )
    club.refuses("POST", f"/games/{games[1]}/disputes", 409, "game_abandoned", json={"reason": "why?"})
    listed = club.ok("GET", f"/games?league={season.league}&status=abandoned&after={position}", headers={})
    assert [item["game_id"] for item in listed["items"]] == [str(games[1])]
    listed = club.ok("GET", f"/tournaments?league={season.league}&status=cancelled&after={position}")
    assert str(tournament_id) in [item["tournament_id"] for item in listed["items"]]
    for player in at_abandoned:
        history = club.ok("GET", f"/players/{player}/games?after={position}", headers={})
        (line,) = [g for g in history["games"] if g["game_id"] == str(games[1])]
        assert line["result"] == "abandoned"

    standings = club.ok("GET", f"/leagues/{season.league}/standings?after={position}", headers={})
    played = {row["player_id"]: row["matches_played"] for row in standings["rows"]}
    assert {
        player for player, count in played.items() if count
    } == at_finished  # the abandoned one counts for nobody
    for player in at_abandoned:
        club.refuses(
            "GET",
            f"/players/{player}/next-game?after={position}",
            404,
            "next_game_not_found",
            headers={},
        )


def test_cancelling_is_for_admins_with_a_reason_once_and_nothing_happens_after_it(client, club, season):
    ids, headers = season.ids, season.headers
    path, _ = announced(club, season, ids["ada"], starts_at=later(hours=1), check_in_minutes=120)
    cancelling = f"{path}/cancel"
    reason = {"reason": "rain"}
    club.refuses("POST", cancelling, 401, "unauthorized", headers={}, json=reason)
    club.refuses("POST", cancelling, 403, "forbidden", headers=headers["ada"], json=reason)
    club.refuses("POST", cancelling, 403, "forbidden", headers=headers["rita"], json=reason)
    club.refuses("POST", f"/tournaments/{UNKNOWN}/cancel", 404, "tournament_not_found", json=reason)
    club.refuses("POST", cancelling, 422, "invalid_reason", json={"reason": "   "})
    club.refuses("POST", cancelling, 422, "invalid_reason", json={"reason": "x" * 501})
    club.refuses("POST", cancelling, 400, "malformed_request", json={})
    club.ok("POST", cancelling, json=reason)
    club.refuses("POST", cancelling, 409, "tournament_cancelled", json=reason)
    player = {"player_id": ids["bob"]}
    club.refuses("POST", f"{path}/entrants", 409, "tournament_cancelled", json=player)
    club.refuses("DELETE", f"{path}/entrants/{ids['ada']}", 409, "tournament_cancelled")
    club.refuses("POST", f"{path}/check-in", 409, "tournament_cancelled", json={"player_id": ids["ada"]})
    club.refuses("PATCH", path, 409, "tournament_cancelled", json={"name": "Again"})
    club.refuses("POST", f"{path}/start", 409, "tournament_cancelled")

"""A tournament's results as JSON and CSV over HTTP: the bracket's figures, row by row.

The tournament is played to its end by the workers' own steps run in this
process (``workers.inline``), as in test_tournaments_http.py.
"""

import csv
import io
from typing import Any
from uuid import UUID

import pytest

from service.projections.results import ResultRow
from tests.e2e.club import ADMIN, Club, problem
from workers.conduct import Conductor
from workers.inline import Inline

UNKNOWN = "00000000-0000-0000-0000-00000000cafe"
COLUMNS = list(ResultRow.__struct_fields__)


@pytest.fixture(scope="module")
def played(club: Club) -> dict[str, Any]:
    """A finished swiss tournament of five (a person and four bots, tables of two: a bye each round)."""
    ada, _ = club.player("Ada <the first> & co")
    league = club.league(members=[ada])
    plan = {"name": "Bye cup", "format": "swiss", "table_size": 2, "rounds": 2, "single_round": True}
    tournament = club.ok(
        "POST", f"/leagues/{league}/tournaments", json={**plan, "places": 5, "turn_clock": 30}
    )
    path = f"/tournaments/{tournament['tournament_id']}"
    club.ok("POST", f"{path}/entrants", json={"player_id": ada})
    club.ok("POST", f"{path}/start")
    inline = Inline()
    inline.conduct_tournament(UUID(tournament["tournament_id"]))
    inline.run(Conductor(club.app, inline))  # the clock bot plays Ada's turns
    bracket = club.ok("GET", f"{path}?after={club.log_position()}", headers={})
    assert bracket["status"] == "finished"
    return {"ada": ada, "path": path, "bracket": bracket}


def expected_places(totals: list[int], winners: list[int]) -> list[int]:
    """club: the winners share first place, then the lower total is the better, equal totals sharing."""
    keys = [(seat not in winners, total) for seat, total in enumerate(totals)]
    return [sorted(keys).index(key) + 1 for key in keys]


def test_the_json_results_hold_every_seat_and_bye_with_the_brackets_figures(client, club, played):
    bracket, path = played["bracket"], played["path"]
    results = club.ok("GET", f"{path}/results.json?after={bracket['position']}", headers={})
    assert (results["tournament_id"], results["status"], results["lowest_wins"]) == (
        bracket["tournament_id"],
        "finished",
        True,
    )
    assert results["ranking"] == bracket["ranking"] and results["winners"] == bracket["winners"]
    final = {placing["entrant"]: placing["rank"] for placing in bracket["ranking"]}
    rows = iter(results["rows"])
    byes = 0
    for shown in bracket["rounds"]:
        for table in shown["tables"]:
            places = expected_places(table["totals"], table["winners"])
            for seat, entrant in enumerate(table["entrants"]):
                row = next(rows)
                assert (row["round_no"], row["kind"], row["table"], row["seat"]) == (
                    shown["round_no"],
                    "seat",
                    table["table"],
                    seat,
                )
                assert (row["entrant"], row["name"], row["game_id"]) == (
                    entrant,
                    bracket["names"][entrant],
                    table["game_id"],
                )
                assert (row["points"], row["won"], row["place"]) == (
                    table["totals"][seat],
                    seat in table["winners"],
                    places[seat],
                )
                assert row["bot_turns"] == table["timed_out"][seat] and row["final_place"] == final[entrant]
        winning = [t["totals"][s] for t in shown["tables"] for s in t["winners"]]
        for entrant in shown["byes"]:
            row = next(rows)
            assert (row["round_no"], row["kind"], row["entrant"], row["table"], row["place"]) == (
                shown["round_no"],
                "bye",
                entrant,
                None,
                None,
            )
            assert row["points"] == shown["bye_points"] == round(sum(winning) / len(winning))
            byes += 1
    assert next(rows, None) is None
    assert byes == 2  # five entrants at tables of two: one bye a round
    ada_rows = [row for row in results["rows"] if row["entrant"] == played["ada"]]
    assert {row["name"] for row in ada_rows} == {"Ada <the first> & co"}
    assert any(row["entrant"].startswith("bot:") and row["name"] == row["entrant"] for row in results["rows"])


def test_the_csv_results_parse_and_hold_the_json_rows_in_the_same_order(client, club, played):
    path, position = played["path"], played["bracket"]["position"]
    answer = client.get(f"{path}/results.csv?after={position}")
    assert answer.status_code == 200 and answer.headers["content-type"] == "text/csv; charset=utf-8"  # once
    parsed = list(csv.reader(io.StringIO(answer.text)))
    assert parsed[0] == COLUMNS
    rows = club.ok("GET", f"{path}/results.json?after={position}", headers={})["rows"]
    assert len(parsed) == len(rows) + 1

    def cell(value: Any) -> str:
        return "" if value is None else str(value)

    for line, row in zip(parsed[1:], rows, strict=True):
        assert line == [cell(row[column]) for column in COLUMNS]
    # the figures themselves, as numbers: the sum of points per entrant is the ranking's points
    by_entrant: dict[str, int] = {}
    for line in csv.DictReader(io.StringIO(answer.text)):
        by_entrant[line["entrant"]] = by_entrant.get(line["entrant"], 0) + int(line["points"])
    assert by_entrant == {p["entrant"]: p["points"] for p in played["bracket"]["ranking"]}


def test_a_tournament_not_started_has_a_csv_header_and_no_rows(client, club):
    league = club.league()
    plan = {"name": "Later cup", "format": "swiss", "table_size": 2, "rounds": 1}
    tournament = club.ok("POST", f"/leagues/{league}/tournaments", json=plan)
    path = f"/tournaments/{tournament['tournament_id']}"
    answer = client.get(f"{path}/results.csv?after={tournament['position']}")
    assert answer.status_code == 200
    assert list(csv.reader(io.StringIO(answer.text))) == [COLUMNS]
    results = club.ok("GET", f"{path}/results.json?after={tournament['position']}", headers={})
    assert (results["status"], results["rows"], results["ranking"]) == ("announced", [], [])


def test_the_results_of_an_unknown_tournament_are_refused_with_its_code(client, club):
    for tail in ("results.json", "results.csv"):
        with club.unchanged():
            problem(client.get(f"/tournaments/{UNKNOWN}/{tail}", headers=ADMIN), 404, "tournament_not_found")


def test_a_tournament_cancelled_mid_round_shows_its_open_table_abandoned_with_no_figures(client, club):
    ada, _ = club.player("Ada")
    league = club.league(members=[ada])
    plan = {
        "name": "Storm cup",
        "format": "swiss",
        "table_size": 2,
        "rounds": 2,
        "places": 4,
        "turn_clock": 30,
    }
    tournament = club.ok("POST", f"/leagues/{league}/tournaments", json=plan)
    path = f"/tournaments/{tournament['tournament_id']}"
    club.ok("POST", f"{path}/entrants", json={"player_id": ada})
    club.ok("POST", f"{path}/start")
    inline = Inline()
    inline.conduct_tournament(UUID(tournament["tournament_id"]))
    inline.run(Conductor(club.app, inline), until=lambda: bool(inline.queued("time_out_turn")))  # Ada to move
    cancelled = club.ok("POST", f"{path}/cancel", json={"reason": "storm"})

    results = club.ok("GET", f"{path}/results.json?after={cancelled['position']}", headers={})
    assert results["status"] == "cancelled"
    (table,) = {row["table"] for row in results["rows"] if row["entrant"] == ada}
    open_rows = [row for row in results["rows"] if row["round_no"] == 1 and row["table"] == table]
    assert len(open_rows) == 2 and all(row["abandoned"] and not row["finished"] for row in open_rows)
    assert {(row["points"], row["place"], row["bot_turns"], row["final_place"]) for row in open_rows} == {
        (None, None, None, None)
    }
    parsed = list(
        csv.DictReader(io.StringIO(client.get(f"{path}/results.csv?after={cancelled['position']}").text))
    )
    ada_line = next(line for line in parsed if line["entrant"] == ada)
    assert (ada_line["abandoned"], ada_line["points"], ada_line["place"]) == ("True", "", "")


def test_a_name_that_is_a_formula_is_text_in_every_csv_export_and_as_given_in_the_json(client, club):
    name = '=HYPERLINK("http://127.0.0.1:1/x","click")'
    eve, _ = club.player(name)
    league = club.league(members=[eve])
    plan = {"name": "Formula cup", "format": "swiss", "table_size": 2, "rounds": 1, "places": 2}
    tournament = club.ok("POST", f"/leagues/{league}/tournaments", json={**plan, "turn_clock": 30})
    path = f"/tournaments/{tournament['tournament_id']}"
    club.ok("POST", f"{path}/entrants", json={"player_id": eve})
    club.ok("POST", f"{path}/start")
    inline = Inline()
    inline.conduct_tournament(UUID(tournament["tournament_id"]))
    inline.run(Conductor(club.app, inline))  # the clock bot plays Eve's turns
    position = club.log_position()

    standings = client.get(f"/leagues/{league}/standings.csv?after={position}")
    (row,) = csv.DictReader(io.StringIO(standings.text))
    assert row["name"] == "'" + name and row["player_id"] == eve
    shown = club.ok("GET", f"/leagues/{league}/standings?after={position}", headers={})["rows"]
    assert shown[0]["name"] == name

    results = client.get(f"{path}/results.csv?after={position}")
    seats = [line for line in csv.DictReader(io.StringIO(results.text)) if line["entrant"] == eve]
    assert seats and {line["name"] for line in seats} == {"'" + name}
    given = club.ok("GET", f"{path}/results.json?after={position}", headers={})["rows"]
    assert {row["name"] for row in given if row["entrant"] == eve} == {name}

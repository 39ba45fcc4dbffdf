"""A season of 101, where the last seat not eliminated wins, end to end through the HTTP API and a real
worker and beat (``python -m workers.cli``) on the real Redis broker and PostgreSQL.

Chapter one: three members play league matches over HTTP (random legal moves read from their own
views); the standings count the matches' winners, each rating change names the place the match's
public event log gives (the winner, then the seat eliminated later, then the better total), and the
standings CSV and the charts render. Chapter two: a Swiss tournament of bots in the same league, run
by the worker, ranks its entrants by the tables' winners before their points, and its results export
places each seat as the table's event log does.

The expected figures are worked out here from the public event logs, not from the code under test.
"""

import random
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from litestar.testing import TestClient

from service.app import create_app
from service.domain.pairing import Played, rank
from tests.e2e.club import ADMIN, Club
from tests.e2e.test_tournament_run import Stack, worker_stack

pytestmark = pytest.mark.slow

MARK = uuid.uuid4().hex[:6]
MATCHES = 2
MOST_MOVES = 3000  # a match of 101 among three ends long before
WAIT = 150.0  # seconds the tournament may take on a loaded machine


class World:
    def __init__(self, client: TestClient[Any], stack: Stack) -> None:
        self.client, self.stack = client, stack
        self.club = Club(client)
        self.league = ""
        self.people: dict[str, dict[str, str]] = {}  # player id: their own header

    def seen(self, path: str, headers: dict[str, str] = ADMIN) -> Any:
        """What a bystander reads once the read models hold everything written so far."""
        joiner = "&" if "?" in path else "?"
        return self.club.ok("GET", f"{path}{joiner}after={self.club.log_position()}", headers=headers)


@pytest.fixture(scope="module")
def world(database_url: str, broker_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    folder: Path = tmp_path_factory.mktemp("elimination")
    with (
        worker_stack(database_url, broker_url, folder, "elimination", {}) as (settings, stack),
        TestClient(create_app(settings)) as client,
    ):
        stack.start_worker()
        stack.start("beat", "workers.cli", "beat", "--loglevel", "INFO")
        yield World(client, stack)


def expected_places(log: list[dict[str, Any]], lowest_wins: bool = True) -> list[int]:
    """Each seat's place from a match's public log: the winners, then the later out, then the better total."""
    (end,) = [event["data"] for event in log if event["type"] == "MatchEnded"]
    round_no, out_at = 0, {}
    for event in log:
        if event["type"] == "RoundEnded":
            round_no = event["data"]["round_no"]
        elif event["type"] == "PlayerEliminated":
            out_at[event["data"]["seat"]] = round_no
    winners, totals = end["winners"], end["totals"]
    never = round_no + 1

    def better(a: int, b: int) -> bool:
        if (a in winners) != (b in winners):
            return a in winners
        if out_at.get(a, never) != out_at.get(b, never):
            return out_at.get(a, never) > out_at.get(b, never)
        return totals[a] < totals[b] if lowest_wins else totals[a] > totals[b]

    seats = range(len(totals))
    return [1 + sum(better(other, seat) for other in seats) for seat in seats]


def public_log(world: World, game_id: str) -> list[dict[str, Any]]:
    """A game's whole event log as the public reads it (from the store: no position to wait for)."""
    events: list[dict[str, Any]] = []
    page: str | None = f"/games/{game_id}/events"
    while page:
        found = world.club.ok("GET", page, headers={})
        events += found["events"]
        page = found["next"]
    return events


def play_over_http(world: World, game_id: str, players: list[str], rng: random.Random) -> None:
    """The seated members move, each reading their own view, until the match is over."""
    for _ in range(MOST_MOVES):
        views = [world.club.ok("GET", f"/games/{game_id}/me", headers=world.people[p]) for p in players]
        if views[0]["table"]["over"]:
            return
        movers = [view for view in views if any(m["kind"] != "challenge" for m in view["legal"])]
        (view,) = movers
        move = rng.choice([m for m in view["legal"] if m["kind"] != "challenge"])
        world.club.ok(
            "POST",
            f"/games/{game_id}/moves",
            headers=world.people[players[view["seat"]]],
            json={**move, "version": view["table"]["version"]},
        )
    pytest.fail(f"the match did not end in {MOST_MOVES} moves")


def test_a_101_league_season_over_http_counts_the_last_seat_standing_and_places_the_later_out_higher(
    world: World,
) -> None:
    club = world.club
    for n in range(3):
        player_id, headers = club.player(f"{('Ada', 'Bea', 'Cyd')[n]} {MARK}")
        world.people[player_id] = headers
    players = list(world.people)
    world.league = club.league(members=players, name=f"101 {MARK}", ruleset="101")
    rng = random.Random(101)
    games = []
    for _ in range(MATCHES):
        game_id = club.game(players, league_id=world.league)["game_id"]
        play_over_http(world, game_id, players, rng)
        games.append(game_id)

    wins = dict.fromkeys(players, 0)
    places: dict[str, list[int]] = {}
    for game_id in games:
        log = public_log(world, game_id)
        assert [e["type"] for e in log].count("PlayerEliminated") == 2  # two of three go out
        (winner,) = world.seen(f"/games/{game_id}")["winners"]
        (end,) = [event["data"] for event in log if event["type"] == "MatchEnded"]
        assert end["winners"] == [winner] and max(end["totals"]) > 101
        wins[players[winner]] += 1
        places[game_id] = expected_places(log)
        assert sorted(places[game_id]) == [1, 2, 3]

    standings = world.seen(f"/leagues/{world.league}/standings")
    assert standings["order"] == "lowest_points"
    assert {row["player_id"]: row["matches_won"] for row in standings["rows"]} == wins
    assert [row["matches_won"] for row in standings["rows"]] == sorted(wins.values(), reverse=True)
    for seat, player in enumerate(players):
        history = world.seen(f"/players/{player}/ratings", headers=world.people[player])["history"]
        assert {change["game_id"]: change["place"] for change in history} == {
            game_id: places[game_id][seat] for game_id in games
        }

    csv = club.client.get(f"/leagues/{world.league}/standings.csv", headers=ADMIN)
    assert csv.status_code == 200 and csv.text.count("\n") >= 1 + len(players)
    chart = club.client.get(f"/games/{games[0]}/totals.svg")
    assert chart.status_code == 200 and "out over 101" in chart.text
    assert club.client.get(f"/leagues/{world.league}/progression.svg").status_code == 200


def test_a_101_tournament_of_bots_run_by_the_worker_ranks_by_the_tables_winners_before_points(
    world: World,
) -> None:
    club = world.club
    plan = {"name": f"101 cup {MARK}", "format": "swiss", "table_size": 3, "rounds": 2, "places": 6}
    tournament = club.ok("POST", f"/leagues/{world.league}/tournaments", json=plan)["tournament_id"]
    club.ok("POST", f"/tournaments/{tournament}/start")
    found: list[dict[str, Any]] = []

    def finished() -> bool:
        found[:] = [world.seen(f"/tournaments/{tournament}")]
        return found[0]["status"] == "finished"

    world.stack.wait_for("the 101 cup to finish", finished, WAIT)
    final = found[0]
    assert final["tie_breaks"][:2] == ["wins", "points"]
    results = world.seen(f"/tournaments/{tournament}/results.json")
    placed = {(row["round_no"], row["table"], row["seat"]): row["place"] for row in results["rows"]}
    tables = []
    for played in final["rounds"]:
        for table in played["tables"]:
            log = public_log(world, table["game_id"])
            (end,) = [event["data"] for event in log if event["type"] == "MatchEnded"]
            assert (table["winners"], table["totals"]) == (end["winners"], end["totals"])
            expected = expected_places(log)
            assert [placed[(played["round_no"], table["table"], seat)] for seat in range(3)] == expected
            tables.append(Played(tuple(table["entrants"]), tuple(end["totals"]), tuple(end["winners"])))
    again = rank(final["entrants"], tables, [], lower_is_better=True, wins_first=True)
    assert [(p["entrant"], p["wins"], p["points"]) for p in final["ranking"]] == [
        (p.entrant, p.wins, p.points) for p in again
    ]
    wins = [p["wins"] for p in final["ranking"]]
    assert wins == sorted(wins, reverse=True) and final["winners"] == [final["ranking"][0]["entrant"]]
    csv = club.client.get(f"/tournaments/{tournament}/results.csv", headers=ADMIN)
    assert csv.status_code == 200 and csv.text.count("\n") == 1 + len(results["rows"])
    worker_log = "".join(path.read_text(errors="replace") for path in world.stack.logs.glob("worker-*.log"))
    assert "Traceback" not in worker_log

"""A tournament that mixes tables of real cards and tables played on the server, run to its end by a
real Celery worker and beat (``python -m workers.cli``) on the real Redis broker and PostgreSQL.

Seven people and one bot at two tables of four, two rounds, one in-person table: in each round the
table without the bot is played with real cards and the other on the server. The test is the club:
its scorer enters the in-person table's round over HTTP (``POST /games/{id}/rounds``) as the round
ends at the real table; the three people at the server table move through the API's application
(the bot's answers are the worker's). Everything else (the round's games, recording each table's
result, closing the round, pairing and starting the next, finishing) is the workers'.
"""

import random
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from litestar.testing import TestClient

from service.app import create_app
from service.domain.errors import RuleError
from service.domain.pairing import Played, rank
from tests.e2e.club import ADMIN, Club
from tests.e2e.test_tournament_run import Stack, worker_stack
from tests.gameplay import next_command

pytestmark = pytest.mark.slow

WAIT = 120.0  # seconds any one step may take on a loaded machine
ENTRIES = (  # what the scorer writes down at the in-person table, round by round: club points left
    {"winner": 0, "points": [0, 5, 7, 12]},
    {"winner": 2, "points": [9, 4, 0, 20]},
)
# what a game played in person never holds: no card is dealt, drawn or played on the server, no turn timed
SERVER_PLAY = {"RoundDealt", "CardPlayed", "CardsDrawn", "TurnTimedOut", "SuitNamed"}


class Evening:
    def __init__(self, client: TestClient[Any], stack: Stack) -> None:
        self.client, self.stack = client, stack
        self.club = Club(client)

    def view(self, tournament: str) -> dict[str, Any]:
        return self.club.ok("GET", f"/tournaments/{tournament}?after={self.club.log_position()}")

    def wait_for(self, what: str, done: Callable[[], Any], timeout: float = WAIT) -> Any:
        found: list[Any] = []

        def check() -> bool:
            found[:] = [done()]
            return bool(found[0])

        self.stack.wait_for(what, check, timeout)
        return found[0]


@pytest.fixture(scope="module")
def evening(
    database_url: str, broker_url: str, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Evening]:
    folder: Path = tmp_path_factory.mktemp("mixed")
    env = {"MAUMAU_STALLED_AFTER": "5"}
    with (
        worker_stack(database_url, broker_url, folder, "mixed", env) as (settings, stack),
        TestClient(create_app(settings)) as client,
    ):
        stack.start_worker()
        stack.start("beat", "workers.cli", "beat", "--loglevel", "INFO")
        yield Evening(client, stack)


def play_people(evening: Evening, game_id: str, rng: random.Random) -> None:
    """The people at a server table move (random legal moves) until its match is over; its bot's
    moves are the worker's."""
    app = evening.club.app
    deadline = time.monotonic() + WAIT
    while not (game := app.get_game(game_id)).over:
        assert time.monotonic() < deadline, evening.stack.log_tails()
        if game.seats[game.seat_to_move].kind == "bot":
            time.sleep(0.02)  # the worker's turn
            continue
        try:
            app.execute(
                game_id, next_command(game.state, rng, challenge_rate=0), expected_version=game.version
            )
        except RuleError as error:
            if error.code not in ("stale_version", "not_your_turn", "game_over"):
                raise


def round_of(view: dict[str, Any], round_no: int) -> dict[str, Any] | None:
    rounds = view["rounds"]
    return rounds[round_no - 1] if len(rounds) >= round_no else None


def made(evening: Evening, tournament: str, round_no: int) -> dict[str, Any] | None:
    """Round ``round_no`` once the workers made every table's game."""
    found = round_of(evening.view(tournament), round_no)
    return found if found and all(t["game_id"] for t in found["tables"]) else None


def test_a_mixed_tournament_runs_to_its_end_its_rounds_closing_only_with_the_in_person_results(
    evening: Evening,
) -> None:
    club = evening.club
    people = {}
    for n in range(7):
        player_id, headers = club.player(f"Mixed {n} {uuid.uuid4().hex[:6]}")
        people[player_id] = headers
    league = club.league(members=list(people))
    plan = {
        "name": "Mixed cup",
        "format": "swiss",
        "table_size": 4,
        "rounds": 2,
        "single_round": True,
        "places": 8,
        "in_person_tables": 1,
    }
    tournament = club.ok("POST", f"/leagues/{league}/tournaments", json=plan)["tournament_id"]
    for player_id in people:
        club.ok("POST", f"/tournaments/{tournament}/entrants", json={"player_id": player_id})
    club.ok("POST", f"/tournaments/{tournament}/start")
    rng = random.Random(15)
    for round_no, entry in enumerate(ENTRIES, start=1):
        played = evening.wait_for(
            f"round {round_no}'s games", lambda r=round_no: made(evening, tournament, r)
        )
        tables = played["tables"]
        (real,) = [t for t in tables if t["in_person"]]
        (server,) = [t for t in tables if not t["in_person"]]
        assert not any(e.startswith("bot:") for e in real["entrants"]), real
        assert any(e.startswith("bot:") for e in server["entrants"]), server
        play_people(evening, server["game_id"], rng)
        evening.wait_for(
            f"round {round_no}'s server table recorded",
            lambda r=round_no, t=server["table"]: round_of(evening.view(tournament), r)["tables"][t][
                "finished"
            ],
        )
        time.sleep(2.0)  # four ticks: the round waits for the in-person table all the same
        now = evening.view(tournament)
        assert round_of(now, round_no)["finished"] is False and len(now["rounds"]) == round_no
        assert now["status"] == "running"
        # the scorer, seated at the real table, enters its round as it ends
        scorer = people[real["entrants"][0]]
        path = f"/games/{real['game_id']}/rounds"
        entered = club.ok("POST", path, headers=scorer, json=entry)
        assert entered["version"] > 0
        # another player at the table agrees: it changes no result
        club.ok("POST", f"{path}/1/confirmation", headers=people[real["entrants"][1]], json={})
        if round_no < len(ENTRIES):
            evening.wait_for(
                f"round {round_no + 1} paired and started by the workers",
                lambda r=round_no: made(evening, tournament, r + 1),
            )
            assert round_of(evening.view(tournament), round_no)["finished"] is True
        log = club.ok("GET", f"/games/{real['game_id']}/events?limit=1000", headers=ADMIN)["events"]
        kinds = {event["type"] for event in log}
        assert "RoundEntered" in kinds and not kinds & SERVER_PLAY, kinds
    final = evening.wait_for(
        "the tournament to finish",
        lambda: (view := evening.view(tournament))["status"] == "finished" and view,
    )
    # the ranking again, from each table's game as the games' own totals say, by the ranking's rules
    results = []
    for played in final["rounds"]:
        assert played["finished"] and not played["byes"]
        for table in played["tables"]:
            totals = club.ok("GET", f"/games/{table['game_id']}/totals")
            assert totals["over"] is True
            assert (table["totals"], table["winners"]) == (totals["totals"], totals["winners"])
            results.append(
                Played(tuple(table["entrants"]), tuple(totals["totals"]), tuple(totals["winners"]))
            )
    in_person_totals = [
        table["totals"] for played in final["rounds"] for table in played["tables"] if table["in_person"]
    ]
    assert in_person_totals == [entry["points"] for entry in ENTRIES]
    again = rank(final["entrants"], results, [], lower_is_better=True)
    assert [(p["entrant"], p["points"], p["wins"]) for p in final["ranking"]] == [
        (p.entrant, p.points, p.wins) for p in again
    ]
    assert final["winners"] == [again[0].entrant]
    worker_log = "".join(path.read_text(errors="replace") for path in evening.stack.logs.glob("worker-*.log"))
    assert "Traceback" not in worker_log and "changed after its result" not in worker_log

"""After a tournament played to its end, the league's page shows the API's standings row for row (the
tournament's page against the API's bracket: test_admin_in_a_browser.py, and live in
test_live_in_a_browser.py)."""

import time
import uuid
from pathlib import Path
from typing import Any

from playwright.sync_api import expect

from tests.e2e.club import Club
from tests.e2e.test_embedded import WAIT
from tests.web.conftest import Visit
from tests.web.playing import play_to_the_end

PLAYERS = 4
ROUNDS = 2


def played_tournament(club: Club) -> tuple[str, str]:
    """A league of four and its swiss of two rounds at 2-seat tables, every table played to its end."""
    players = [club.player(f"Member {n} {uuid.uuid4().hex[:4]}")[0] for n in range(PLAYERS)]
    league = club.league(members=players, name=f"Row league {uuid.uuid4().hex[:6]}", options={"hand_size": 3})
    plan = {"name": "Row cup", "format": "swiss", "table_size": 2, "rounds": ROUNDS, "single_round": True}
    tournament = club.ok("POST", f"/leagues/{league}/tournaments", json=plan)["tournament_id"]
    for player in players:
        club.ok("POST", f"/tournaments/{tournament}/entrants", json={"player_id": player})
    club.ok("POST", f"/tournaments/{tournament}/start")
    played: set[str] = set()
    deadline = time.monotonic() + 4 * WAIT
    while (bracket := club.ok("GET", f"/tournaments/{tournament}"))["status"] != "finished":
        for round_ in bracket["rounds"]:
            for table in round_["tables"]:
                if table["game_id"] and table["game_id"] not in played:
                    play_to_the_end(club, table["game_id"])
                    played.add(table["game_id"])
        assert time.monotonic() < deadline, "the tournament did not finish"
        time.sleep(0.1)
    return league, tournament


def standings_when_counted(club: Club, league: str) -> list[dict[str, Any]]:
    """The API's standings once every match of the tournament is in them."""
    deadline = time.monotonic() + WAIT
    while True:
        rows = club.ok("GET", f"/leagues/{league}/standings")["rows"]
        if sum(row["matches_played"] for row in rows) == PLAYERS * ROUNDS:
            return rows
        assert time.monotonic() < deadline, "the standings did not count the tournament"
        time.sleep(0.1)


def test_after_a_tournament_the_league_page_shows_the_apis_standings_row_for_row(
    visit: Visit, club: Club, screenshots: Path
):
    league, _ = played_tournament(club)
    rows = standings_when_counted(club, league)
    page = visit.page
    page.goto(f"/web/leagues/{league}")
    expect(page.locator("table.standings tbody tr")).to_have_count(PLAYERS)
    shown = [row.split("\t")[:5] for row in page.locator("table.standings tbody tr").all_inner_texts()]
    assert shown == [
        [
            str(row["rank"]),
            row["name"],
            str(row["points"]),
            str(row["matches_played"]),
            str(row["matches_won"]) + (f" (+{row['matches_shared']})" if row["matches_shared"] else ""),
        ]
        for row in rows
    ]
    page.screenshot(path=screenshots / "league-after-tournament.png", full_page=True)

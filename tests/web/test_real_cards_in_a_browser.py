"""Games played with real cards on the pages: the spectators' table is the score sheet, live as
rounds are entered, confirmed and corrected over the API; the tournament page tells real tables
from server ones and links a round's printable sheets."""

import re
import time
import uuid
from dataclasses import dataclass
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.club import Club, bearer
from tests.e2e.test_embedded import WAIT
from tests.web.conftest import Visit, first_game
from tests.web.test_catalogues import english_messages


@dataclass
class RealTable:
    league: str
    game: str
    names: list[str]  # by seat
    ids: list[str]  # by seat
    players: list[dict[str, str]]  # by seat: the player's authorization header
    referee: str  # the league referee's name
    ruling: dict[str, str]  # the referee's authorization header


def real_table(club: Club) -> RealTable:
    names = [f"Ann {uuid.uuid4().hex[:4]}", f"Ben {uuid.uuid4().hex[:4]}"]
    ids, headers = [], []
    for name in names:
        created = club.ok("POST", "/players", json={"name": name})
        ids.append(created["player"]["player_id"])
        headers.append(bearer(created["token"]["token"]))
    referee = f"Rita {uuid.uuid4().hex[:4]}"
    referee_id, ruling = club.referee(referee)
    league = club.league(members=ids, referees=[referee_id], name=f"Kitchen {uuid.uuid4().hex[:6]}")
    game = club.ok("POST", "/games", json={"seats": ids, "league_id": league, "in_person": True})
    return RealTable(league, game["game_id"], names, ids, headers, referee, ruling)


def enter(club: Club, table: RealTable, by: int, **entry: object) -> None:
    club.ok("POST", f"/games/{table.game}/rounds", headers=table.players[by], json=entry)


def test_the_table_of_a_real_game_is_its_score_sheet_and_follows_each_entry_without_a_reload(
    visit: Visit, club: Club, screenshots: Path
):
    table = real_table(club)
    ann, ben = table.names
    enter(club, table, 0, winner=1, hands=[["KC", "7D"], []])
    page = visit.page
    page.goto(f"/web/games/{table.game}")
    main = page.locator("main")
    expect(main).to_contain_text("Played with real cards")
    expect(main).not_to_contain_text("Top card")
    first = page.locator("ol.entries li[data-round='1']")
    expect(first).to_contain_text(f"{ben} went out. Cards left: {ann} — king of clubs, 7 of diamonds")
    expect(first).to_contain_text(f"Entered by {ann}")
    expect(first).to_contain_text("Not confirmed yet.")
    points = club.ok("GET", f"/games/{table.game}/rounds")["rounds"][0]["points"]
    expect(page.locator("table.rounds tr[data-round='1'] td")).to_have_text(
        [f"{points[0]} ({points[0]})", f"{points[1]} ({points[1]})"]
    )
    expect(page.locator("ol.actions li").first).to_have_text(f"{ann} entered round 1: {ben} went out")
    expect(page.locator("ol.actions")).not_to_contain_text("The round is over")
    page.evaluate("window.loadedOnce = true")  # gone if the page were loaded again

    club.ok("POST", f"/games/{table.game}/rounds/1/confirmation", headers=table.players[1], json={})
    expect(first).to_contain_text(f"Confirmed by {ben}")
    expect(page.locator("ol.actions li").first).to_have_text(f"{ben} confirmed round 1")
    enter(club, table, 1, winner=None, points=[5, 9], missed_calls=[0, 1])
    second = page.locator("ol.entries li[data-round='2']")
    expect(second).to_contain_text(f"Nobody went out. Points left: {ann} 5, {ben} 9")
    expect(second).to_contain_text(f"Missed calls challenged: {ben} 1")
    expect(page.locator(".status")).to_contain_text("Next: round 3")
    expect(page.locator("ol.actions li").first).to_have_text(f"{ben} entered round 2: nobody went out")
    sheet = club.ok("GET", f"/games/{table.game}/rounds")
    expect(page.locator("table.rounds tfoot td")).to_have_text([str(total) for total in sheet["totals"]])
    expect(page.locator("img.chart")).to_be_visible()

    entered = club.ok("GET", f"/games/{table.game}/events")
    about = next(e["number"] for e in entered["events"] if e["type"] == "RoundEntered")
    dispute = {"reason": "round 1: Ann went out", "about": about}
    club.ok("POST", f"/games/{table.game}/disputes", headers=table.players[0], json=dispute)
    correct = {"kind": "correct", "round": 1, "winner": 0, "points": [0, 12]}
    club.ok("POST", f"/games/{table.game}/rulings", headers=table.ruling, json=correct)
    expect(page.locator("ol.actions li").first).to_have_text(f"Referee {table.referee} corrected round 1")
    expect(first).to_contain_text(f"{ann} went out.")
    expect(first.locator(".correction")).to_contain_text(
        f"Corrected by referee {table.referee}; the entry it replaced: {ben} went out."
    )
    expect(first).to_contain_text("Not confirmed yet.")  # Ben confirmed the entry replaced
    assert page.evaluate("window.loadedOnce") is True
    page.screenshot(path=screenshots / "table-real-cards.png", full_page=True)


@pytest.mark.parametrize(
    ("language", "real", "entered"),
    [
        ("uk", "Гра справжніми картами", "записує раунд 1"),
        ("ru", "Игра настоящими картами", "записывает раунд 1"),
    ],
)
def test_the_score_sheet_page_speaks_ukrainian_and_russian(
    visit: Visit, club: Club, language: str, real: str, entered: str
):
    table = real_table(club)
    enter(club, table, 0, winner=1, hands=[["QH"], []])
    page = visit.page
    page.goto(f"/web/games/{table.game}?lang={language}")
    expect(page.locator("main")).to_contain_text(real)
    expect(page.locator("ol.entries li").first).to_contain_text(
        {"uk": "дама черв", "ru": "дама червей"}[language]
    )
    expect(page.locator("ol.actions li").first).to_contain_text(entered)
    english = english_messages()
    shown = page.locator("body").inner_text()
    assert [m for m in english if re.search(rf"(?<!\w){re.escape(m)}(?!\w)", shown)] == []


def test_the_tournament_page_marks_the_real_table_and_links_the_rounds_printable_sheets(
    visit: Visit, club: Club
):
    players = [club.player(f"Cid {uuid.uuid4().hex[:4]}")[0] for _ in range(4)]
    league = club.league(members=players, name=f"Evening {uuid.uuid4().hex[:6]}")
    plan = {"name": "Real and server", "format": "swiss", "table_size": 2, "rounds": 1, "single_round": True}
    tournament = club.ok("POST", f"/leagues/{league}/tournaments", json={**plan, "in_person_tables": 1})[
        "tournament_id"
    ]
    for player in players:
        club.ok("POST", f"/tournaments/{tournament}/entrants", json={"player_id": player})
    club.ok("POST", f"/tournaments/{tournament}/start")
    first_game(club, tournament)
    page = visit.page
    page.goto(f"/web/tournaments/{tournament}")
    expect(page.locator("li[data-table='0']")).to_contain_text("(real cards)")
    expect(page.locator("li[data-table='1']")).to_contain_text("(on the server)")
    link = page.locator("a.sheets")
    expect(link).to_have_attribute("href", f"/web/tournaments/{tournament}/rounds/1/sheets?lang=en")
    link.click()
    expect(page.locator("body")).to_contain_text("Played with real cards")


def shown_once_read(page: Page, path: str, text: str) -> None:
    """Open ``path`` until its main part holds ``text``: the pages read the read models, which
    follow the store a moment later."""
    deadline = time.monotonic() + WAIT
    while True:
        page.goto(path)
        if text in page.locator("main").inner_text():
            return
        assert time.monotonic() < deadline, f"{path} never showed {text!r}"
        time.sleep(0.2)


def test_a_finished_real_game_counts_on_the_player_and_league_pages_like_any_game(visit: Visit, club: Club):
    table = real_table(club)
    ann, ben = table.names
    for _ in range(20):
        if club.ok("GET", f"/games/{table.game}")["over"]:
            break
        enter(club, table, 1, winner=0, points=[0, 40])
    final = club.ok("GET", f"/games/{table.game}/rounds")
    assert final["over"] and final["winners"] == [0]
    page = visit.page
    shown_once_read(page, f"/web/players/{table.ids[0]}", "won")
    game = page.locator(f"li:has(a[href='/web/games/{table.game}'])")
    expect(game).to_contain_text(ben)
    expect(game).to_contain_text(f"won · {final['totals'][0]} points")
    shown_once_read(page, f"/web/leagues/{table.league}", ann)
    rows = page.locator("table.standings tbody tr")
    expect(rows.filter(has_text=ann).locator("td").nth(3)).to_have_text("1")  # matches played
    expect(rows.filter(has_text=ann).locator("td").nth(4)).to_have_text("1")  # won
    expect(rows.filter(has_text=ben).locator("td").nth(4)).to_have_text("0")

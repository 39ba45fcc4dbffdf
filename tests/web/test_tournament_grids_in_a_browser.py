"""A tournament page seen whole, in a browser: a single elimination's bracket drawn as SVG, a round
robin's crosstable (a grid) and a swiss's (a column per round), each entrant's rounds, in English and
Ukrainian, and the club display without a link, its headings bigger than its text and the ranking's
rule folded away."""

import re
import time
import uuid
from pathlib import Path
from typing import Any

from playwright.sync_api import Page, expect

from tests.e2e.club import Club
from tests.e2e.test_embedded import WAIT
from tests.web.conftest import Visit


def bot_tournament(club: Club, league: str, name: str, format: str, places: int, **more: Any) -> str:
    """A tournament of bots only (the plan's places), started: the workers play it through."""
    plan = {"name": name, "format": format, "table_size": 2, "places": places, "single_round": True, **more}
    tournament = club.ok("POST", f"/leagues/{league}/tournaments", json=plan)["tournament_id"]
    club.ok("POST", f"/tournaments/{tournament}/start")
    return str(tournament)


def finished(club: Club, tournament: str) -> dict[str, Any]:
    deadline = time.monotonic() + 4 * WAIT
    while (found := club.ok("GET", f"/tournaments/{tournament}"))["status"] != "finished":
        assert time.monotonic() < deadline, "the bot tournament did not finish"
        time.sleep(0.2)
    return found  # type: ignore[no-any-return]


def font_size(page: Page, selector: str) -> float:
    return float(
        page.evaluate(f"parseFloat(getComputedStyle(document.querySelector('{selector}')).fontSize)")
    )


def test_a_knockout_shows_its_bracket_a_round_robin_its_crosstable_both_each_entrants_rounds_and_a_display(
    visit: Visit, club: Club, screenshots: Path
):
    league = club.league(name=f"Grid {uuid.uuid4().hex[:6]}", options={"hand_size": 3})
    knockout = bot_tournament(club, league, "Knockout cup", "single_elimination", 5)  # a bye in round 1
    robin = bot_tournament(club, league, "Robin cup", "round_robin", 3)  # a bye every round
    drawn, crossed = finished(club, knockout), finished(club, robin)
    page = visit.page

    page.goto(f"/web/tournaments/{knockout}")
    bracket = page.locator(".bracket svg")
    expect(bracket).to_be_visible()
    rounds = bracket.locator("text.round")
    expect(rounds).to_have_count(len(drawn["rounds"]))
    expect(rounds.first).to_have_text("Tournament round 1")
    expect(rounds.last).to_have_text("Final")
    expect(bracket).to_contain_text("Bye")
    # the winner, a bot's place, named in words as every page names one ("Careful bot 3")
    winner = drawn["names"].get(drawn["winners"][0], drawn["winners"][0])
    expect(bracket.locator("g.winners")).to_contain_text(f"bot {winner.rpartition('#')[2]}")
    expect(bracket).not_to_contain_text("bot:")
    expect(page.locator("table.entrant-rounds tbody tr")).to_have_count(5)
    expect(page.locator("table.entrant-rounds a[href^='/web/games/']").first).to_be_visible()
    expect(page.locator("table.crosstable")).to_have_count(0)
    # the page itself does not scroll sideways on the phone: the bracket scrolls in its own box
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    page.screenshot(path=screenshots / "tournament-bracket.png", full_page=True)

    page.goto(f"/web/tournaments/{knockout}?lang=uk")
    expect(page.locator("h2").filter(has_text="Сітка")).to_have_count(1)
    expect(page.locator(".bracket svg text.round").first).to_have_text("Тур 1")
    expect(page.locator(".bracket svg")).to_contain_text("Без гри")

    page.goto(f"/web/tournaments/{robin}?lang=en")
    table = page.locator("table.crosstable")
    expect(table.locator("tbody th[scope=row]")).to_have_count(3)
    expect(table.locator("thead th[scope=col]")).to_have_count(2 + 3 + 3)
    expect(table.locator("td.self")).to_have_count(3)
    # each table a meeting of two, a cell from each side; the pairs that never met a dash
    met = 2 * sum(len(played["tables"]) for played in crossed["rounds"])
    expect(table.locator("td.met")).to_have_count(met)
    expect(table.locator("td.unmet")).to_have_count(6 - met)
    expect(page.locator("table.entrant-rounds td.bye")).to_have_count(len(crossed["rounds"]))
    expect(page.locator("main")).not_to_contain_text("bot:")  # bots' places in words, here too
    expect(page.locator(".bracket")).to_have_count(0)
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    page.screenshot(path=screenshots / "tournament-crosstable.png", full_page=True)

    page.set_viewport_size({"width": 1920, "height": 1080})
    for tournament in (robin, knockout):
        page.goto(f"/web/tournaments/{tournament}?display=1&lang=uk")
        expect(page.locator("main a")).to_have_count(0)
        expect(page.locator("details.rules")).not_to_have_attribute("open", "")
        expect(page.locator("ol.order")).not_to_be_visible()
        assert font_size(page, "main h2") > font_size(page, "main p.status")
    expect(page.locator(".bracket svg")).to_be_visible()
    assert page.evaluate("document.querySelector('.bracket svg').getBoundingClientRect().width") > 1000
    page.screenshot(path=screenshots / "tournament-bracket-display.png")
    assert visit.outside == []


def test_a_double_round_robins_crosstable_shows_both_meetings_of_each_pair_in_its_cell(
    visit: Visit, club: Club, screenshots: Path
):
    league = club.league(name=f"Finals {uuid.uuid4().hex[:6]}", options={"hand_size": 3})
    finals = bot_tournament(club, league, "League finals", "double_round_robin", 3)
    found = finished(club, finals)
    assert len(found["rounds"]) == 6  # three at tables of two: three rounds a cycle, a bye each
    page = visit.page

    page.goto(f"/web/tournaments/{finals}?lang=en")
    table = page.locator("table.crosstable")
    expect(table.locator("tbody th[scope=row]")).to_have_count(3)
    # every pair met, twice: each cell off the diagonal holds two meetings
    expect(table.locator("td.met")).to_have_count(6)
    expect(table.locator("td.unmet")).to_have_count(0)
    expect(table.locator("td.met span.meeting")).to_have_count(12)
    expect(page.locator("table.entrant-rounds td.bye")).to_have_count(6)
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    page.screenshot(path=screenshots / "tournament-double-round-robin.png", full_page=True)
    assert visit.outside == []


def test_a_swiss_crosstable_has_a_column_per_round_naming_each_rows_table_mates_by_number(
    visit: Visit, club: Club, screenshots: Path
):
    league = club.league(name=f"Swiss {uuid.uuid4().hex[:6]}", options={"hand_size": 3})
    swiss = bot_tournament(club, league, "Swiss night", "swiss", 5, rounds=2)  # a bye each round
    found = finished(club, swiss)
    assert len(found["rounds"]) == 2
    page = visit.page

    page.goto(f"/web/tournaments/{swiss}?lang=en")
    table = page.locator("table.crosstable.by-rounds")
    expect(table.locator("tbody th[scope=row]")).to_have_count(5)
    expect(table.locator("thead th[scope=col]")).to_have_count(2 + 2 + 3)  # #, entrant, rounds, totals
    expect(table.locator("td.met")).to_have_count(8)  # two tables of two a round, a cell for each seat
    expect(table.locator("td.bye")).to_have_count(2)
    expect(table.locator("td.self")).to_have_count(0)
    # row r's table-mate in a round is the row whose cell of that round names r
    cells = table.locator("tbody tr").evaluate_all(
        "rows => rows.map(r => [...r.querySelectorAll('td')].slice(1, 3).map(td => td.textContent))"
    )
    for row, rounds in enumerate(cells, start=1):
        for column, text in enumerate(rounds):
            named = re.search(r"against ([0-9]+(?:, [0-9]+)*)", text)
            if named is None:
                assert "bye" in text
                continue
            (mate,) = [int(number) for number in named.group(1).split(",")]
            assert mate != row and f"against {row}" in cells[mate - 1][column]
    expect(page.locator("#crosstable-key")).to_contain_text("the numbers of the others at its table")
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    page.screenshot(path=screenshots / "tournament-swiss-crosstable.png", full_page=True)

    page.goto(f"/web/tournaments/{swiss}?lang=uk")
    expect(page.locator("table.crosstable.by-rounds")).to_contain_text("проти №")
    assert visit.outside == []

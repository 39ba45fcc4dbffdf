"""The API's documentation page renders every operation with no network but the service's."""

from playwright.sync_api import expect

from tests.e2e.club import Club
from tests.web.conftest import Visit


def test_the_api_docs_render_their_operations_without_the_internet(visit: Visit, club: Club):
    document = club.ok("GET", "/schema/openapi.json")
    operations = sum(len([m for m in item if m != "parameters"]) for item in document["paths"].values())
    page = visit.page
    for path in ("/schema", "/schema/swagger"):
        page.goto(path)
        expect(page.locator("details.operation")).to_have_count(operations)
        standings = page.locator("details#getLeagueStandings")
        standings.locator("summary").click()
        expect(standings).to_contain_text("/leagues/{league_id}/standings")
        expect(standings).to_contain_text("Standings")
    assert visit.outside == []


def test_the_descriptions_backticks_are_shown_as_code_not_as_backticks(visit: Visit, club: Club):
    document = club.ok("GET", "/schema/openapi.json")
    assert "`code`" in document["info"]["description"]  # the document keeps its Markdown
    page = visit.page
    page.goto("/schema")
    intro = page.locator("main > p").first
    expect(intro.locator("code", has_text="code")).to_have_count(1)
    expect(intro.locator("code", has_text="Authorization: Bearer mm_...")).to_have_count(1)
    start = page.locator("details#startTournament")
    start.locator("summary").click()
    expect(start.locator(".description code", has_text="starts_at").first).to_be_visible()
    shown = page.locator("main").inner_text()
    assert "`" not in shown
    assert visit.outside == []


def test_a_request_for_anything_but_the_service_is_refused_and_kept(visit: Visit):
    # what makes the checks above bite: a page that reached elsewhere would be caught
    page = visit.page
    page.goto("about:blank")  # no page of the service: its security policy would stop the request first
    page.set_content('<img src="http://elsewhere.example.invalid/a.png">')
    page.wait_for_load_state("load")
    assert visit.outside == ["http://elsewhere.example.invalid/a.png"]
    answer = page.goto("/health")  # the service's own: let by
    assert answer is not None and answer.ok and visit.outside == ["http://elsewhere.example.invalid/a.png"]

"""Each page in a real browser, for the public and for a signed-in player, on a 360 px phone."""

import re
from pathlib import Path

from playwright.sync_api import expect

from tests.web.conftest import Scene, Visit, sign_in


def pages(scene: Scene) -> dict[str, str]:
    ada = next(iter(scene.players.values()))
    return {
        "home": "/",
        "league": f"/web/leagues/{scene.league}",
        "tournament": f"/web/tournaments/{scene.tournament}",
        "table": f"/web/games/{scene.game}",
        "player": f"/web/players/{ada}",
        "signin": "/signin",
    }


def fits_the_screen(visit: Visit) -> bool:
    return visit.page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def test_every_page_shows_its_content_on_a_phone_without_sideways_scrolling_or_the_internet(
    visit: Visit, scene: Scene, screenshots: Path
):
    page = visit.page
    ada, bo = scene.players
    expected = {
        "home": "Tuesday cup",
        "league": ada,
        "tournament": "Tuesday cup",
        "table": "Top card",
        "player": ada,
        "signin": "Your token",
    }
    for name, path in pages(scene).items():
        response = page.goto(path)
        assert response is not None and response.status == 200, name
        expect(page.locator("main")).to_contain_text(expected[name])
        assert fits_the_screen(visit), name
        page.screenshot(path=screenshots / f"{name}.png", full_page=True)
    page.goto(f"/web/leagues/{scene.league}")
    expect(page.locator("table.standings tbody tr")).to_have_count(2)
    expect(page.locator("main")).to_contain_text(bo)
    expect(page.locator("ol.order li").first).to_have_text("most matches won (a shared win counts)")
    assert visit.outside == []


def test_a_signed_in_player_sees_their_page_with_the_next_table_and_a_sign_out_button(
    visit: Visit, scene: Scene, screenshots: Path
):
    ada = next(iter(scene.players))
    page = visit.page
    sign_in(page, scene.tokens[ada])
    expect(page.locator("h1")).to_have_text(ada)
    expect(page.get_by_role("button", name="Sign out")).to_be_visible()
    expect(page.locator("main")).to_contain_text("Tuesday cup")  # the next table's tournament
    expect(page.get_by_role("link", name="My page")).to_be_visible()
    assert fits_the_screen(visit)
    page.screenshot(path=screenshots / "player-signed-in.png", full_page=True)


def test_the_links_are_reached_and_followed_by_keyboard_alone(visit: Visit, scene: Scene):
    page = visit.page
    page.goto("/")
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.textContent") == "Skip to the content"
    for _ in range(300):
        page.keyboard.press("Tab")
        if (
            page.evaluate("document.activeElement.getAttribute('href')")
            == f"/web/tournaments/{scene.tournament}"
        ):
            break
    else:
        raise AssertionError("the tournament's link is not reached by Tab")
    page.keyboard.press("Enter")
    page.wait_for_url(f"**/web/tournaments/{scene.tournament}")
    expect(page.locator("h1")).to_have_text("Tuesday cup")


def test_the_club_display_shows_the_tournament_in_big_type_without_navigation(
    visit: Visit, scene: Scene, screenshots: Path
):
    page = visit.page
    page.set_viewport_size({"width": 1920, "height": 1080})
    page.goto(f"/web/tournaments/{scene.tournament}?display=1")
    expect(page.locator("body")).to_have_class("display")
    expect(page.locator("header, nav")).to_have_count(0)
    expect(page.locator("#live[data-live]")).to_contain_text("Ranking")
    expect(page.locator("main a")).to_have_count(0)  # names and tables as plain text, no "watch"
    expect(page.locator("#live[data-live]")).to_have_attribute("data-live", re.compile(r"display=1"))
    page.screenshot(path=screenshots / "tournament-display.png")

"""The browser's Accept-Language picks the language; the switch on every page changes it and a
cookie remembers it; card and suit names come translated."""

import pytest
from playwright.sync_api import expect

from tests.web.conftest import Scene, Visit


@pytest.mark.parametrize("visit", [{"locale": "uk-UA"}], indirect=True)
def test_a_ukrainian_browser_gets_ukrainian_and_the_switch_turns_every_page_russian(
    visit: Visit, scene: Scene
):
    page = visit.page
    page.goto("/")
    expect(page.locator("html")).to_have_attribute("lang", "uk")
    expect(page.locator("h2").first).to_have_text("Столи, що грають зараз")
    page.get_by_role("link", name="Русский").click()
    expect(page.locator("h2").first).to_have_text("Столы, которые играют сейчас")
    page.goto(f"/web/leagues/{scene.league}")  # no ?lang=: the cookie remembers
    expect(page.locator("h2").first).to_have_text("Турнирная таблица")
    page.goto(f"/web/games/{scene.game}")
    expect(page.locator("main")).to_contain_text("Верхняя карта")
    top = page.locator(".facts dd").first.inner_text()
    assert any(suit in top for suit in ("треф", "бубен", "червей", "пик")), top


@pytest.mark.parametrize("visit", [{"locale": "de-DE"}], indirect=True)
def test_a_browser_asking_for_a_language_the_club_has_not_gets_english(visit: Visit):
    visit.page.goto("/")
    expect(visit.page.locator("html")).to_have_attribute("lang", "en")
    expect(visit.page.locator("h2").first).to_have_text("Tables being played now")

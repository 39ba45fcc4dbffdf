"""The browser's Accept-Language picks the language; the switch on every page changes it and a
cookie remembers it; card and suit names come translated."""

import re

import pytest
from playwright.sync_api import expect

from service.web.messages import all_messages
from tests.web.conftest import Scene, Visit
from tests.web.test_catalogues import SAME_IN_EVERY_LANGUAGE


@pytest.mark.parametrize("visit", [{"locale": "uk-UA"}], indirect=True)
def test_a_ukrainian_browser_gets_ukrainian_and_the_switch_turns_every_page_russian(
    visit: Visit, scene: Scene
):
    page = visit.page
    page.goto("/")
    expect(page.locator("html")).to_have_attribute("lang", "uk")
    expect(page.locator("h2").first).to_have_text("Столи, за якими зараз грають")
    page.get_by_role("link", name="Русский").click()
    expect(page.locator("h2").first).to_have_text("Столы, за которыми сейчас играют")
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


@pytest.mark.parametrize("language", ["uk", "ru"])
def test_no_page_in_ukrainian_or_russian_shows_an_english_message(visit: Visit, scene: Scene, language: str):
    english = [m for m in all_messages() - SAME_IN_EVERY_LANGUAGE if "{" not in m]
    ada = next(iter(scene.players.values()))
    page = visit.page
    left = []
    for path in (
        "/",
        f"/web/leagues/{scene.league}",
        f"/web/tournaments/{scene.tournament}",
        f"/web/games/{scene.game}",
        f"/web/players/{ada}",
        "/signin",
    ):
        page.goto(f"{path}?lang={language}")
        shown = page.locator("body").inner_text()
        left += [f"{path}: {m}" for m in english if re.search(rf"(?<!\w){re.escape(m)}(?!\w)", shown)]
    assert left == []

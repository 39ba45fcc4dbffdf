"""The referee console in a real browser: a void given from the replay's slider puts the table back
for both players (their table and play pages); a slider moved before the console's script ran is
followed once it runs; the console is refused to a player and to anyone signed out, with no hidden
card in anything their browser gets; and it has no English left in Ukrainian or Russian."""

import re
from pathlib import Path

import pytest
from playwright.sync_api import Response, Route, expect

from service.web.i18n import read_catalogue
from service.web.words import card_name, card_symbol
from tests.e2e.club import Club, bearer
from tests.web.conftest import Visit, sign_in, sign_out
from tests.web.refereeing import disputed_game
from tests.web.test_catalogues import english_messages

ENGLISH = read_catalogue("en").gettext


def symbols(texts: list[str]) -> list[str]:
    return [text.strip() for text in texts if text.strip()]


def test_a_referee_voids_a_turn_from_the_slider_and_both_players_see_the_table_as_it_was(
    visit: Visit, club: Club, base: str, screenshots: Path
):
    case = disputed_game(club)
    version = club.ok("GET", f"/games/{case.game}")["version"]
    page = visit.page
    page.set_viewport_size({"width": 1100, "height": 900})
    sign_in(page, case.referee)
    page.goto("/web/referee")
    listed = page.locator(f"li[data-game='{case.game}']")
    expect(listed).to_contain_text("a card went missing")
    expect(listed).to_contain_text(str(case.about))
    page.screenshot(path=screenshots / "referee-disputes.png", full_page=True)
    listed.get_by_role("link").click()
    expect(page.locator("h2").first).to_contain_text("Dispute 1")
    expect(page.locator(f"ol.log li[value='{case.about}']")).to_be_visible()
    dealt = club.ok("GET", f"/games/{case.game}/replay", params={"at": 3})["table"]["seats"]
    deal = page.locator("ol.log li[value='3']").inner_text()
    assert all(card_name(ENGLISH, card) in deal for seat in dealt for card in seat["hand"]), deal

    # a void from before the first deal is refused in words, and nothing changes
    slider = page.locator("input#at")
    slider.fill("1")
    expect(page.locator(".replay")).to_have_attribute("data-at", "1")
    expect(page.locator(".ruling.void .what")).to_contain_text("Only events 3 to")
    page.get_by_role("button", name="Void from event 1").click()
    expect(page.locator(".refusal")).to_have_attribute("data-code", "invalid_ruling")
    assert club.ok("GET", f"/games/{case.game}")["version"] == version

    # the slider by keyboard: one step past the event, then back with the arrow key
    slider = page.locator("input#at")
    slider.fill(str(case.about + 1))
    expect(page.locator(".replay")).to_have_attribute("data-at", str(case.about + 1))
    slider.press("ArrowLeft")
    expect(page.locator(".replay")).to_have_attribute("data-at", str(case.about))
    page.get_by_role("button", name="Previous").press("Enter")
    expect(page.locator(".replay")).to_have_attribute("data-at", str(case.about - 1))
    page.get_by_role("button", name="Next").press("Enter")
    expect(page.locator(".replay")).to_have_attribute("data-at", str(case.about))
    expect(slider).to_have_value(str(case.about))
    at = club.ok("GET", f"/games/{case.game}/replay", params={"at": case.about})["table"]
    for seat in at["seats"]:
        shown = page.locator(f".hands li[data-seat='{seat['seat']}'] .card").all_inner_texts()
        assert sorted(symbols(shown)) == sorted(card_symbol(card) for card in seat["hand"])
    stock = page.locator(".replay .stock .card").all_inner_texts()
    assert symbols(stock) == [card_symbol(card) for card in at["stock"]]
    what = page.locator(".ruling.void .what")
    expect(what).to_contain_text(f"Void from event {case.about}: the game goes back to its state after event")
    expect(what).to_contain_text("No revealed round is reopened")
    page.screenshot(path=screenshots / "referee-console.png", full_page=True)
    page.get_by_role("button", name=f"Void from event {case.about}").click()
    expect(page.locator(".done")).to_be_visible()
    expect(page.locator("ol.log li").last).to_contain_text(f"every event from {case.about} on is void")

    before = club.ok("GET", f"/games/{case.game}/replay", params={"at": case.about - 1})["table"]
    table = club.ok("GET", f"/games/{case.game}")
    assert table["paused"] is False
    assert (table["top"], table["turn"], table["stock"]) == (
        before["top"],
        before["turn"],
        len(before["stock"]),
    )
    for seat, token in enumerate(case.tokens):
        mine = club.ok("GET", f"/games/{case.game}/me", headers=bearer(token))
        assert sorted(mine["cards"]) == sorted(before["seats"][seat]["hand"])
    # each player's browser: the table page shows the top card of before the voided move, and the
    # play page the hand the player held then
    for seat, token in enumerate(case.tokens):
        player = visit.context.browser.new_context(base_url=base)
        try:
            theirs = player.new_page()
            sign_in(theirs, token)
            theirs.goto(f"/web/games/{case.game}")
            expect(theirs.locator(".facts dd").first).to_contain_text(card_name(ENGLISH, before["top"]))
            expect(theirs.locator(".status")).not_to_contain_text("Paused")
            theirs.goto(f"/web/games/{case.game}/play")
            held = before["seats"][seat]["hand"]
            expect(theirs.locator(".hand li")).to_have_count(len(held))
            shown = " ".join(theirs.locator(".hand li").all_inner_texts())
            assert all(card_symbol(card) in shown for card in held), (shown, held)
        finally:
            player.close()


@pytest.mark.parametrize("who", ["player", "anonymous"])
def test_the_console_is_refused_to_a_player_and_to_anyone_signed_out_and_shows_no_hidden_card(
    visit: Visit, club: Club, screenshots: Path, who: str
):
    case = disputed_game(club)
    page = visit.page
    fetched: list[str] = []

    def keep(response: Response) -> None:
        if "text/event-stream" not in response.headers.get("content-type", ""):
            fetched.append(response.text())

    page.on("response", keep)
    if who == "player":
        sign_in(page, case.tokens[0])
    for path in (
        "/web/referee",
        f"/web/referee/games/{case.game}",
        f"/web/referee/games/{case.game}/replay?at=4",
    ):
        answer = page.goto(path)
        assert answer is not None and answer.status == 403
        expect(page.locator(".refusal")).to_contain_text("This console is for referees")
    page.screenshot(path=screenshots / f"referee-refused-{who}.png", full_page=True)
    now = club.ok("GET", f"/games/{case.game}/replay")["table"]
    hidden = set(now["seats"][1]["hand"]) | set(now["stock"])
    if who == "anonymous":
        hidden |= set(now["seats"][0]["hand"])
    assert len(hidden) > 5
    words = {card_name(ENGLISH, card) for card in hidden} | {card_symbol(card) for card in hidden}
    everything = [page.content(), *fetched]
    assert sorted(word for word in words if any(word in text for text in everything)) == []


@pytest.mark.parametrize("language", ["uk", "ru"])
def test_the_console_in_ukrainian_or_russian_shows_no_english_message(
    visit: Visit, club: Club, screenshots: Path, language: str
):
    case = disputed_game(club)
    english = english_messages()
    page = visit.page
    sign_in(page, case.referee)
    left = []
    for path in ("/web/referee", f"/web/referee/games/{case.game}", f"/web/referee/games/{case.game}?at=1"):
        page.goto(f"{path}?lang={language}" if "?" not in path else f"{path}&lang={language}")
        shown = page.locator("body").inner_text()
        left += [f"{path}: {m}" for m in english if re.search(rf"(?<!\w){re.escape(m)}(?!\w)", shown)]
    page.locator("input#at").fill(str(case.about))
    expect(page.locator(".replay")).to_have_attribute("data-at", str(case.about))
    shown = page.locator("body").inner_text()
    left += [f"replay: {m}" for m in english if re.search(rf"(?<!\w){re.escape(m)}(?!\w)", shown)]
    page.screenshot(path=screenshots / f"referee-{language}.png", full_page=True)
    sign_out(page)
    page.goto(f"/web/referee?lang={language}")
    shown = page.locator("body").inner_text()
    left += [f"refused: {m}" for m in english if re.search(rf"(?<!\w){re.escape(m)}(?!\w)", shown)]
    assert left == []


def test_a_slider_moved_before_the_console_s_script_ran_shows_the_event_it_was_moved_to(
    visit: Visit, club: Club
):
    case = disputed_game(club)
    page = visit.page
    sign_in(page, case.referee)
    held: list[Route] = []  # the console's script, kept from the page until the slider has moved
    page.route("**/web/static/referee.js", lambda route: held.append(route))
    page.goto(f"/web/referee/games/{case.game}", wait_until="commit")
    shown = page.locator(".replay")
    expect(shown).to_have_attribute("data-at", str(case.about))
    page.locator("input#at").fill("3")  # no script listens yet: nothing is fetched
    expect(shown).to_have_attribute("data-at", str(case.about))
    while not held:
        page.wait_for_timeout(50)
    held[0].continue_()
    expect(shown).to_have_attribute("data-at", "3")
    expect(page.locator("ol.log li[value='3']")).to_be_visible()


def test_a_referee_corrects_a_disputed_round_of_real_cards_by_points_from_a_console_showing_no_card(
    visit: Visit, club: Club, screenshots: Path
):
    case = disputed_game(club, moves=0, in_person=True)
    entry = {"winner": 0, "points": [0, 17]}
    club.ok("POST", f"/games/{case.game}/rounds", headers=bearer(case.tokens[0]), json=entry)
    page = visit.page
    sign_in(page, case.tokens[1])
    page.goto(f"/web/games/{case.game}/score")
    check = page.locator(".round-check[data-round='1']")
    check.get_by_label("Reason").fill("I went out first")
    check.get_by_role("button", name="Dispute round 1").click()
    expect(page.locator(".status")).to_contain_text("Your dispute was taken")
    sign_out(page)

    sign_in(page, case.referee)
    page.goto(f"/web/referee/games/{case.game}")
    expect(page.locator(".dispute")).to_contain_text("I went out first")
    expect(page.locator(".sheet tr[data-round='1']")).to_contain_text("17")
    # real cards: the server holds none, so nothing of cards is drawn
    for absent in (".replay", "form.stepper", ".hands", ".stock", ".ruling.void", "input[name=penalty]"):
        expect(page.locator(absent)).to_have_count(0)
    expect(page.locator("main")).not_to_contain_text("Top card")
    form = page.locator("form.ruling.entry")
    form.locator("select[name=round]").select_option("1")
    form.locator("input[name=winner][value='1']").check()
    form.locator("input[name='points-0']").fill("12")
    form.locator("input[name='points-1']").fill("0")
    form.get_by_label("Note").fill("Bo went out first")
    page.screenshot(path=screenshots / "referee-in-person.png", full_page=True)
    form.get_by_role("button", name="Correct the round").click()
    expect(page.locator(".done")).to_be_visible()
    expect(page.locator(".sheet tr[data-round='1']")).to_contain_text("12")
    expect(page.locator(".sheet li[data-round='1'] .correction")).to_contain_text("Corrected by")
    assert club.ok("GET", f"/games/{case.game}/totals")["totals"] == [12, 0]

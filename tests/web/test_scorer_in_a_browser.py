"""The scorer's page of a table played with real cards, in a real browser: two players on their
phones enter, confirm and dispute rounds through the page's forms, which call the API's own use
cases; a refused entry is said in words and stores nothing; only the seated and the officials score."""

import re
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect

from tests.e2e.club import Club
from tests.e2e.test_embedded import WAIT
from tests.web.conftest import PHONE, Scene, Visit, only_the_service, sign_in, sign_in_over_http
from tests.web.test_catalogues import english_messages


@dataclass
class Table:
    league: str
    game: str
    names: list[str]  # by seat
    ids: list[str]  # by seat
    tokens: list[str]  # by seat


def three_seats(club: Club) -> Table:
    names = [f"{name} {uuid.uuid4().hex[:4]}" for name in ("Ann", "Ben", "Cid")]
    ids, tokens = [], []
    for name in names:
        created = club.ok("POST", "/players", json={"name": name})
        ids.append(created["player"]["player_id"])
        tokens.append(created["token"]["token"])
    league = club.league(members=ids, name=f"Kitchen {uuid.uuid4().hex[:6]}")
    game = club.ok("POST", "/games", json={"seats": ids, "league_id": league, "in_person": True})
    return Table(league, game["game_id"], names, ids, tokens)


@pytest.fixture
def other(browser: Browser, base: str) -> Iterator[Page]:
    """A second phone, as the ``visit`` fixture's: it reaches nothing but the service."""
    context = browser.new_context(viewport=PHONE, base_url=base)
    only_the_service(context, base)
    yield context.new_page()
    context.close()


def signed_in_at_the_sheet(page: Page, token: str, game: str, language: str = "en") -> None:
    sign_in(page, token)
    page.goto(f"/web/games/{game}/score?lang={language}")


def enter_by_points(page: Page, winner: str, points: dict[int, str]) -> None:
    page.get_by_role("radio", name=winner, exact=True).check()
    for seat, value in points.items():
        page.locator(f"input[name='points-{seat}']").fill(value)
    page.locator("form.entry button[type=submit]").click()


def sheet(club: Club, game: str) -> dict:
    return club.ok("GET", f"/games/{game}/rounds")


def test_two_players_enter_confirm_and_dispute_rounds_on_their_phones(
    visit: Visit, other: Page, club: Club, screenshots: Path
):
    table = three_seats(club)
    ann, ben, cid = table.names
    mine = visit.page
    signed_in_at_the_sheet(mine, table.tokens[0], table.game)
    expect(mine.locator(".status")).to_have_text("Next: round 1")
    expect(mine.locator("input[name='points-1']")).to_have_attribute("inputmode", "numeric")
    enter_by_points(mine, ann, {1: "12", 2: "7"})
    expect(mine.locator("ol.entries li[data-round='1']")).to_contain_text(f"{ann} went out.")
    expect(mine.locator(".round-check")).to_have_count(0)  # nobody confirms or disputes their own entry
    assert [r["points"] for r in sheet(club, table.game)["rounds"]] == [[0, 12, 7]]

    signed_in_at_the_sheet(other, table.tokens[1], table.game)
    other.get_by_role("button", name="Confirm round 1").click()
    expect(other.locator("ol.entries li[data-round='1']")).to_contain_text(f"Confirmed by {ben}")
    expect(other.get_by_role("button", name="Confirm round 1")).to_have_count(0)
    assert sheet(club, table.game)["rounds"][0]["confirmed_by"] == [1]
    other.screenshot(path=screenshots / "score.png", full_page=True)
    assert other.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]

    other.get_by_role("radio", name=cid, exact=True).check()
    other.get_by_role("radio", name="Cards left", exact=True).check()
    other.locator("input[name='cards-0']").fill("kc 7d")
    other.locator("input[name='cards-1']").fill("10H")
    other.locator("form.entry button[type=submit]").click()
    second = other.locator("ol.entries li[data-round='2']")
    expect(second).to_contain_text(f"Cards left: {ann} — king of clubs, 7 of diamonds; {ben} — 10 of hearts")
    assert sheet(club, table.game)["rounds"][1]["entry"]["hands"] == [["KC", "7D"], ["10H"], []]

    mine.reload()
    check = mine.locator(".round-check[data-round='2']")
    check.get_by_label("Reason").fill("Ben held a 9 as well")
    check.get_by_role("button", name="Dispute round 2").click()
    expect(mine.locator(".status")).to_have_text("Your dispute was taken: the table waits for a referee.")
    expect(mine.locator("form.entry")).to_have_count(0)
    expect(mine.locator("form.dispute")).to_have_count(0)
    public = club.ok("GET", f"/games/{table.game}")
    assert public["paused"] is True
    events = club.ok("GET", f"/games/{table.game}/events")["events"]
    raised = next(e for e in events if e["type"] == "DisputeRaised")["data"]["dispute"]
    entered = sheet(club, table.game)["rounds"][1]["entered_at"]
    assert (raised["seat"], raised["about"], raised["reason"]) == (0, entered, "Ben held a 9 as well")
    mine.screenshot(path=screenshots / "score-waiting.png", full_page=True)
    assert mine.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


def test_a_refused_entry_is_said_in_words_keeps_what_was_typed_and_stores_nothing(visit: Visit, club: Club):
    table = three_seats(club)
    page = visit.page
    signed_in_at_the_sheet(page, table.tokens[0], table.game)
    before = club.ok("GET", f"/games/{table.game}")["version"]
    enter_by_points(page, table.names[0], {1: "0", 2: "0"})
    expect(page.locator(".refusal[data-code=loser_without_cards]")).to_contain_text(
        "seats [1, 2] hold no card without having won: only one player can"
    )
    expect(page.locator("input[name='points-1']")).to_have_value("0")
    expect(page.get_by_role("radio", name=table.names[0], exact=True)).to_be_checked()
    assert sheet(club, table.game)["rounds"] == []
    assert club.ok("GET", f"/games/{table.game}")["version"] == before

    page.get_by_role("radio", name="Cards left", exact=True).check()
    page.locator("input[name='cards-1']").fill("KC")
    page.locator("input[name='cards-2']").fill("KC")
    page.locator("form.entry button[type=submit]").click()
    expect(page.locator(".refusal[data-code=card_entered_twice]")).to_be_visible()
    page.locator("input[name='cards-2']").fill("XZ")
    page.locator("form.entry button[type=submit]").click()
    expect(page.locator(".refusal[data-code=malformed_card]")).to_have_text("'XZ' is not a card")
    page.locator("input[name='cards-2']").fill("9H")
    page.locator("details summary").click()
    page.locator("input[name='missed-1']").fill("999")  # more missed calls than cards
    page.locator("form.entry button[type=submit]").click()
    expect(page.locator(".refusal[data-code=malformed_request]")).to_contain_text(
        "'999' is not a whole number"
    )
    expect(page.locator("input[name='missed-1']")).to_be_visible()  # kept, and left open
    expect(page.locator("input[name='missed-1']")).to_have_value("999")
    assert sheet(club, table.game)["rounds"] == []
    assert club.ok("GET", f"/games/{table.game}")["version"] == before


def test_the_same_form_sent_twice_stores_one_round(visit: Visit, club: Club):
    table = three_seats(club)
    page = visit.page
    signed_in_at_the_sheet(page, table.tokens[0], table.game)
    page.get_by_role("radio", name=table.names[1], exact=True).check()
    page.locator("input[name='points-0']").fill("4")
    page.locator("input[name='points-2']").fill("8")
    statuses = page.evaluate(
        """async () => {
            const form = document.querySelector("form.entry");
            const send = () => fetch(form.action, {method: "POST", body: new FormData(form)});
            const answers = await Promise.all([send(), send()]);
            return answers.map((answer) => answer.status);
        }"""
    )
    assert statuses == [200, 200]  # each followed its redirect back to the page
    assert [r["points"] for r in sheet(club, table.game)["rounds"]] == [[4, 0, 8]]


def test_a_player_not_seated_gets_the_page_that_says_who_may_score(visit: Visit, club: Club, scene: Scene):
    table = three_seats(club)
    _, token = next(iter(scene.tokens.items()))
    page = visit.page
    sign_in(page, token)
    page.goto(f"/web/games/{table.game}/score")
    expect(page.locator(".who-may-score")).to_contain_text(
        "Only the players seated at this table and its officials"
    )
    expect(page.locator("form.entry")).to_have_count(0)
    expect(page.locator(".who-may-score")).to_contain_text(table.names[2])
    page.goto(f"/web/games/{scene.game}/score")
    expect(page.locator(".who-may-score")).to_contain_text("This game is played on the server")
    expect(page.get_by_role("link", name="Watch the table")).to_have_attribute(
        "href", f"/web/games/{scene.game}"
    )


def test_a_post_without_the_form_token_or_a_session_changes_nothing(base: str, club: Club):
    table = three_seats(club)
    with httpx.Client(base_url=base) as browser:
        sign_in_over_http(browser, table.tokens[0])
        refused = browser.post(
            f"/web/games/{table.game}/score", data={"csrf": "guessed", "winner": "0", "points-1": "5"}
        )
        assert (refused.status_code, refused.json()["code"]) == (403, "csrf_failed")
    assert sheet(club, table.game)["rounds"] == []


def test_the_links_lead_to_the_scorers_page_and_the_league_counts_the_totals_entered(
    visit: Visit, club: Club
):
    table = three_seats(club)
    page = visit.page
    sign_in(page, table.tokens[0])
    page.goto(f"/web/players/{table.ids[0]}")
    page.locator(f"a.score-link[href='/web/games/{table.game}/score']").click()
    expect(page.locator("h1")).to_have_text("Score the table")
    page.goto(f"/web/games/{table.game}")
    page.locator("a.score-link").click()
    for entered in range(1, 11):
        enter_by_points(page, table.names[0], {1: "40", 2: "30"})
        # The page answers each entry with a new page: wait for it before looking for the form,
        # or the look may find the old page's form, or none while the new one loads.
        expect(page.locator(f"ol.entries li[data-round='{entered}']")).to_be_visible()
        expect(page.locator(".refusal")).to_have_count(0)
        if page.locator("form.entry").count() == 0:
            break
    expect(page.locator(".status")).to_have_text("The match is over")
    totals = sheet(club, table.game)["totals"]
    assert sheet(club, table.game)["over"] is True
    deadline = time.monotonic() + WAIT
    while True:
        rows = club.ok("GET", f"/leagues/{table.league}/standings")["rows"]
        points = {row["player_id"]: row["points"] for row in rows if row["matches_played"]}
        if len(points) == 3 or time.monotonic() > deadline:
            break
        time.sleep(0.1)
    assert [points[player] for player in table.ids] == totals


@pytest.mark.parametrize("language", ["uk", "ru"])
def test_the_scorers_page_has_no_english_left_in_ukrainian_and_russian(
    visit: Visit, club: Club, language: str
):
    table = three_seats(club)
    page = visit.page
    club.ok(
        "POST",
        f"/games/{table.game}/rounds",
        headers={"Authorization": f"Bearer {table.tokens[1]}"},
        json={"winner": 1, "points": [3, 0, 5]},
    )
    signed_in_at_the_sheet(page, table.tokens[0], table.game, language)
    page.get_by_role("radio", name=table.names[0], exact=True).check()
    page.locator("form.entry button[type=submit]").click()  # a refusal: the others hold nothing
    expect(page.locator(".refusal")).to_be_visible()
    page.locator("details summary").click()
    english = english_messages()
    shown = page.locator("body").inner_text()
    assert [m for m in english if re.search(rf"(?<!\w){re.escape(m)}(?!\w)", shown)] == []


def test_an_entry_made_on_a_sheet_changed_meanwhile_is_refused_as_stale_and_stores_nothing(
    visit: Visit, club: Club
):
    table = three_seats(club)
    page = visit.page
    signed_in_at_the_sheet(page, table.tokens[0], table.game)
    club.ok(
        "POST",
        f"/games/{table.game}/rounds",
        headers={"Authorization": f"Bearer {table.tokens[1]}"},
        json={"winner": 1, "points": [3, 0, 5]},
    )
    enter_by_points(page, table.names[0], {1: "6", 2: "2"})
    expect(page.locator(".refusal[data-code=stale_version]")).to_be_visible()
    assert [r["points"] for r in sheet(club, table.game)["rounds"]] == [[3, 0, 5]]
    page.locator("form.entry button[type=submit]").click()  # the form shown again is of the sheet as it is
    expect(page.locator("ol.entries li[data-round='2']")).to_contain_text(f"{table.names[0]} went out.")


def test_confirming_ones_own_entry_through_the_page_is_refused_in_words(visit: Visit, club: Club):
    table = three_seats(club)
    page = visit.page
    signed_in_at_the_sheet(page, table.tokens[0], table.game)
    enter_by_points(page, table.names[0], {1: "6", 2: "2"})
    expect(page.locator("ol.entries li[data-round='1']")).to_be_visible()
    before = club.ok("GET", f"/games/{table.game}")["version"]
    csrf = page.locator("form.entry input[name=csrf]").input_value()
    answer = page.request.post(
        f"/web/games/{table.game}/score/rounds/1/confirmation", form={"csrf": csrf, "key": "mine"}
    )
    assert answer.status == 422
    assert "nother player at the table confirms the round you entered" in answer.text()
    assert club.ok("GET", f"/games/{table.game}")["version"] == before
    assert sheet(club, table.game)["rounds"][0]["confirmed_by"] == []


def test_a_round_is_entered_by_keyboard_alone(visit: Visit, club: Club):
    table = three_seats(club)
    page = visit.page
    signed_in_at_the_sheet(page, table.tokens[0], table.game)
    page.locator("input[name=winner]").first.focus()
    page.keyboard.press("Space")  # Ann went out
    page.keyboard.press("Tab")  # to the switch: points (chosen) or cards
    page.keyboard.press("Tab")
    expect(page.locator("input[name='points-0']")).to_be_focused()
    page.keyboard.press("Tab")  # Ann's cards are hidden while points are chosen: to Ben's points
    expect(page.locator("input[name='points-1']")).to_be_focused()
    page.keyboard.type("5")
    page.keyboard.press("Tab")
    page.keyboard.type("3")
    page.keyboard.press("Enter")
    expect(page.locator("ol.entries li[data-round='1']")).to_contain_text(f"{table.names[0]} went out.")
    assert [r["points"] for r in sheet(club, table.game)["rounds"]] == [[0, 5, 3]]


def test_a_referee_of_the_league_scores_the_table_but_never_confirms_a_round(visit: Visit, club: Club):
    table = three_seats(club)
    created = club.ok("POST", "/referees", json={"name": f"Rita {uuid.uuid4().hex[:4]}"})
    club.ok(
        "POST", f"/leagues/{table.league}/referees", json={"referee_id": created["referee"]["referee_id"]}
    )
    club.ok(
        "POST",
        f"/games/{table.game}/rounds",
        headers={"Authorization": f"Bearer {table.tokens[1]}"},
        json={"winner": 1, "points": [3, 0, 5]},
    )
    page = visit.page
    signed_in_at_the_sheet(page, created["token"]["token"], table.game)
    expect(page.get_by_role("button", name="Dispute round 1")).to_be_visible()
    expect(page.get_by_role("button", name="Confirm round 1")).to_have_count(0)
    enter_by_points(page, table.names[2], {0: "4", 1: "6"})
    second = page.locator("ol.entries li[data-round='2']")
    expect(second).to_contain_text(f"Entered by referee {created['referee']['name']}")
    assert sheet(club, table.game)["rounds"][1]["entered_by"]["role"] == "referee"


@pytest.mark.parametrize("visit", [{"java_script_enabled": False}], indirect=True)
def test_the_switch_shows_only_the_points_or_only_the_cards_fields_even_without_a_script(
    visit: Visit, club: Club
):
    table = three_seats(club)
    page = visit.page
    signed_in_at_the_sheet(page, table.tokens[0], table.game)
    points, cards = page.locator("input[name^='points-']"), page.locator("input[name^='cards-']")
    spelled = page.locator("form.entry .rule")  # how to write cards
    expect(points).to_have_count(3)
    for seat in range(3):
        expect(points.nth(seat)).to_be_visible()
        expect(cards.nth(seat)).to_be_hidden()
    expect(spelled).to_be_hidden()

    page.get_by_role("radio", name="Cards left", exact=True).check()
    for seat in range(3):
        expect(points.nth(seat)).to_be_hidden()
        expect(cards.nth(seat)).to_be_visible()
    expect(spelled).to_be_visible()

    # a refused entry by cards comes back with the cards fields, as typed
    page.get_by_role("radio", name=table.names[0], exact=True).check()
    cards.nth(1).fill("KC 1Z")
    page.locator("form.entry button[type=submit]").click()
    expect(page.locator(".refusal")).to_be_visible()
    expect(cards.nth(1)).to_have_value("KC 1Z")
    expect(points.nth(1)).to_be_hidden()
    page.get_by_role("radio", name="Points", exact=True).check()
    expect(cards.nth(1)).to_be_hidden()
    expect(points.nth(1)).to_be_visible()


def test_a_dispute_raised_on_a_match_over_says_it_was_taken_and_that_the_table_waits_for_a_referee(
    visit: Visit, club: Club
):
    table = three_seats(club)
    ben = {"Authorization": f"Bearer {table.tokens[1]}"}
    while not sheet(club, table.game)["over"]:
        club.ok("POST", f"/games/{table.game}/rounds", headers=ben, json={"winner": 1, "points": [40, 0, 30]})
    last = len(sheet(club, table.game)["rounds"])
    page = visit.page
    signed_in_at_the_sheet(page, table.tokens[0], table.game)
    expect(page.locator(".status")).to_have_text("The match is over")
    check = page.locator(f".round-check[data-round='{last}']")
    check.get_by_label("Reason").fill("Cid held a joker")
    check.get_by_role("button", name=f"Dispute round {last}").click()
    expect(page.locator(".status")).to_have_text("Your dispute was taken: the table waits for a referee.")
    expect(page.locator("form.dispute")).to_have_count(0)
    assert club.ok("GET", f"/games/{table.game}")["paused"] is True
    page.goto(f"/web/games/{table.game}/score?lang=uk")  # later, or to the others: a dispute is open
    expect(page.locator(".status")).to_have_text("Відкрито суперечку: стіл чекає на суддю.")
    page.goto(f"/web/games/{table.game}/score?lang=ru&disputed=1")
    expect(page.locator(".status")).to_have_text("Ваш спор принят: стол ждёт судью.")

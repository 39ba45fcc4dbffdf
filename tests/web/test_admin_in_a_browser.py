"""The admin page in a real browser: a league founded, players and a referee registered and admitted,
a bot tournament announced and started, all through the page's forms; a refusal shown on the page
with nothing stored; nobody but an admin gets the page."""

import re
import time
import uuid
from pathlib import Path
from typing import Any

import httpx
from playwright.sync_api import Page, expect

from service.domain.formats import FORMATS
from service.domain.presets import PRESETS
from tests.e2e.club import ADMIN_TOKEN, Club
from tests.e2e.test_embedded import WAIT
from tests.web.conftest import Scene, Visit, sign_in, sign_in_over_http
from tests.web.test_catalogues import english_messages

LAPTOP = {"width": 1280, "height": 800}
HTML = {"Accept": "text/html"}  # as a browser asks


def sign_in_as_admin(page: Page) -> None:
    sign_in(page, ADMIN_TOKEN)
    page.goto("/web/admin")
    expect(page.locator("h1")).to_have_text("Administration")


def submit(page: Page, form: str, expected: str = "[data-done]") -> None:
    page.locator(f"#form-{form} button[type=submit]").click()
    expect(page.locator(expected)).to_be_visible()


def register(page: Page, form: str, name: str) -> tuple[str, str]:
    """The new person's id and sign-in link, read off the page."""
    page.fill(f"#form-{form} input[name=name]", name)
    submit(page, form)
    expect(page.locator("[data-done]")).to_contain_text(name)
    link = page.locator("input.signin-link").input_value()
    token = page.locator("code.token").inner_text()
    assert link.endswith(f"/signin?token={token}")
    return page.locator("code.made-id").inner_text(), link


def finished(club: Club, tournament: str) -> dict[str, Any]:
    deadline = time.monotonic() + 4 * WAIT
    while True:
        found = club.ok("GET", f"/tournaments/{tournament}")
        if found["status"] == "finished":
            return found
        assert time.monotonic() < deadline, "the bot tournament did not finish"
        time.sleep(0.2)


def league_names(club: Club) -> set[str]:
    """Every league's name, page by page."""
    names: set[str] = set()
    params: dict[str, Any] = {"limit": 100}
    while True:
        found = club.ok("GET", "/leagues", params=params)
        names |= {league["name"] for league in found["items"]}
        if not found["next"]:
            return names
        params["cursor"] = found["next"]


def page_name(name: str) -> str:
    """An entrant as the pages write it in English: a bot's place by its bot ("Careful bot 2")."""
    bots = {"heuristic": "Careful bot", "random": "Random bot"}
    if not name.startswith("bot:"):
        return name
    bot, _, number = name.removeprefix("bot:").partition("#")
    return f"{bots[bot]} {number}".strip()


def bracket_rows(bracket: dict[str, Any]) -> list[list[str]]:
    """Each round's tables as the tournament page writes them, from the API's bracket."""
    names = bracket["names"]
    return [
        [
            f"Table {t['table'] + 1} ({'real cards' if t['in_person'] else 'on the server'}): "
            + ", ".join(
                f"{page_name(names.get(e, e))} ({total})"
                for e, total in zip(t["entrants"], t["totals"], strict=True)
            )
            + " — finished"
            for t in round_["tables"]
        ]
        for round_ in bracket["rounds"]
    ]


def test_an_admin_founds_a_league_registers_and_admits_people_and_runs_a_bot_tournament_by_the_page(
    visit: Visit, club: Club, screenshots: Path
):
    page = visit.page
    page.set_viewport_size(LAPTOP)
    sign_in_as_admin(page)
    league_name = f"Admin league {uuid.uuid4().hex[:6]}"
    page.fill("#form-league input[name=name]", league_name)
    page.fill("#form-league input[name=option_hand_size]", "3")
    page.select_option("#form-league select[name=time_zone]", "Europe/Kyiv")
    submit(page, "league")
    league = page.locator("[data-done] a").get_attribute("href").rsplit("/", 1)[1]  # type: ignore[union-attr]
    ada, ada_link = register(page, "player", f"Ada {uuid.uuid4().hex[:4]}")
    page.screenshot(path=screenshots / "admin-token.png", full_page=True)
    bo, _ = register(page, "player", f"Bo {uuid.uuid4().hex[:4]}")
    rita, _ = register(page, "referee", f"Rita {uuid.uuid4().hex[:4]}")
    for player in (ada, bo):
        page.select_option("#form-member select[name=league_id]", league)
        page.select_option("#form-member select[name=player_id]", player)
        submit(page, "member")
    page.select_option("#form-league-referee select[name=league_id]", league)
    page.select_option("#form-league-referee select[name=referee_id]", rita)
    submit(page, "league-referee")
    expect(page.locator("[data-done]")).to_contain_text("2 members")
    stored = club.ok("GET", f"/leagues/{league}")
    assert (stored["options"], stored["time_zone"]) == ({"hand_size": 3}, "Europe/Kyiv")
    assert sorted(stored["members"]) == sorted([ada, bo]) and stored["referees"] == [rita]

    page.select_option("#form-tournament select[name=league_id]", league)
    page.fill("#form-tournament input[name=name]", "Bot cup")
    page.select_option("#form-tournament select[name=format]", "swiss")
    page.fill("#form-tournament input[name=table_size]", "2")
    page.fill("#form-tournament input[name=rounds]", "2")
    page.fill("#form-tournament input[name=places]", "4")
    page.check("#form-tournament input[name=single_round]")
    submit(page, "tournament")
    tournament = page.locator("[data-done] a").get_attribute("href").rsplit("/", 1)[1]  # type: ignore[union-attr]
    page.select_option("#form-start select[name=tournament_id]", tournament)
    submit(page, "start")
    expect(page.locator("[data-done]")).to_contain_text("Bot cup")
    page.screenshot(path=screenshots / "admin.png", full_page=True)

    bracket = finished(club, tournament)
    assert len(bracket["entrants"]) == 4 and len(bracket["rounds"]) == 2
    page.goto(f"/web/tournaments/{tournament}")
    expect(page.locator(".status")).to_contain_text("Finished")
    shown = [
        [" ".join(li.split()) for li in page.locator(f"section ul.tables >> nth={n} >> li").all_inner_texts()]
        for n in range(len(bracket["rounds"]))
    ]
    assert shown == bracket_rows(bracket)
    ranking = [row.split("\t") for row in page.locator("table.ranking tbody tr").all_inner_texts()]
    assert ranking == [
        [str(p["rank"]), page_name(p["name"]), str(p["points"]), str(p["wins"]), str(p["tables"])]
        for p in bracket["ranking"]
    ]
    # a laptop's screenful: docs/screenshots/tournament.png, the README's picture, is a copy of it
    page.screenshot(path=screenshots / "tournament-laptop.png")

    # the link handed out signs the player in with its button; the admin page is not theirs
    visit.context.clear_cookies()
    page.goto(ada_link)
    page.locator("form.offer button").click()
    expect(page.get_by_role("button", name="Sign out")).to_be_visible()
    answer = page.goto("/web/admin")
    assert answer is not None and answer.status == 403
    expect(page.locator("main")).to_contain_text("Only an admin may use this page.")
    expect(page.locator("form.admin-form")).to_have_count(0)
    assert visit.outside == []


def test_a_bad_option_is_refused_on_the_page_in_words_and_no_league_is_stored(
    visit: Visit, club: Club, screenshots: Path
):
    page = visit.page
    sign_in_as_admin(page)
    name = f"Refused league {uuid.uuid4().hex[:6]}"
    page.fill("#form-league input[name=name]", name)
    page.fill("#form-league input[name=option_call_penalty]", "99")
    with page.expect_response("**/web/admin/league") as answer:
        page.locator("#form-league button[type=submit]").click()
    assert answer.value.status == 422
    refusal = page.locator(".refusal[data-code=invalid_option]")
    expect(refusal).to_contain_text("Refused: nothing was changed.")
    expect(refusal).to_contain_text("call_penalty must be between 0 and 10")  # the catalogue's sentence
    expect(page.locator("#form-league input[name=name]")).to_have_value(name)  # the form as sent
    page.screenshot(path=screenshots / "admin-refused.png", full_page=True)
    assert name not in league_names(club)


def test_a_tournament_plan_the_rules_refuse_is_shown_in_ukrainian_and_nothing_is_announced(
    visit: Visit, club: Club, scene: Scene
):
    page = visit.page
    sign_in_as_admin(page)
    page.goto("/web/admin?lang=uk")
    before = club.ok("GET", f"/leagues/{scene.league}/tournaments")["tournaments"]
    page.select_option("#form-tournament select[name=league_id]", scene.league)
    page.fill("#form-tournament input[name=name]", "Too big")
    page.fill("#form-tournament input[name=table_size]", "9")
    page.locator("#form-tournament button[type=submit]").click()
    refusal = page.locator(".refusal[data-code^=invalid_]")
    expect(refusal).to_contain_text("Відмовлено: нічого не змінено.")
    expect(refusal).to_contain_text("сидять від")  # the refusal's own sentence, in Ukrainian too
    assert club.ok("GET", f"/leagues/{scene.league}/tournaments")["tournaments"] == before


def test_the_admin_forms_refuse_a_post_without_the_form_token_and_a_player_and_store_nothing(
    base: str, scene: Scene, club: Club
):
    name = f"Sneaky {uuid.uuid4().hex[:6]}"
    with httpx.Client(base_url=base) as browser:
        sign_in_over_http(browser, ADMIN_TOKEN)
        refused = browser.post("/web/admin/player", data={"name": name, "csrf": "guessed"})
        assert (refused.status_code, refused.json()["code"]) == (403, "csrf_failed")
    with httpx.Client(base_url=base) as browser:
        sign_in_over_http(browser, next(iter(scene.tokens.values())))
        page = browser.get("/web/admin", headers=HTML)
        assert page.status_code == 403
        csrf = re.search(r'name="csrf" value="([^"]+)"', page.text).group(1)  # type: ignore[union-attr]
        refused = browser.post("/web/admin/player", data={"name": name, "csrf": csrf}, headers=HTML)
        assert refused.status_code == 403 and "Only an admin may use this page." in refused.text
        refused = browser.post("/web/admin/player", data={"name": name, "csrf": csrf})  # not a browser
        assert (refused.status_code, refused.json()["code"]) == (403, "forbidden")
    assert httpx.get(f"{base}/web/admin", headers=HTML).status_code == 401
    assert httpx.get(f"{base}/web/admin").json()["code"] == "unauthorized"
    assert club.ok("GET", "/players", params={"q": name})["items"] == []


def test_the_admin_page_in_ukrainian_and_russian_has_no_english_message(visit: Visit):
    english = english_messages()
    page = visit.page
    sign_in_as_admin(page)
    left = []
    for language in ("uk", "ru"):
        page.goto(f"/web/admin?lang={language}")
        shown = page.locator("body").inner_text()
        left += [f"{language}: {m}" for m in english if re.search(rf"(?<!\w){re.escape(m)}(?!\w)", shown)]
    assert left == []


def test_the_admin_page_offers_every_registered_format_by_its_label_in_each_language(visit: Visit):
    page = visit.page
    sign_in_as_admin(page)
    options = page.locator("#form-tournament select[name=format] option")
    labels = {"en": "Double round robin", "uk": "Двоколова кругова система", "ru": "Двухкруговая система"}
    for language, label in labels.items():
        page.goto(f"/web/admin?lang={language}")
        assert sorted(options.evaluate_all("all => all.map(o => o.value)")) == sorted(FORMATS)
        # the format's name, then what it is in a line
        expect(page.locator("#form-tournament option[value=double_round_robin]")).to_have_text(
            re.compile(rf"^{label} — .+")
        )


def test_a_tournaments_start_is_typed_in_the_leagues_time_zone(visit: Visit, club: Club):
    league = club.league(name=f"Kyiv club {uuid.uuid4().hex[:6]}", time_zone="Europe/Kyiv")
    page = visit.page
    sign_in_as_admin(page)
    page.select_option("#form-tournament select[name=league_id]", league)
    page.fill("#form-tournament input[name=name]", "Christmas cup")
    page.fill("#form-tournament input[name=rounds]", "1")
    page.fill("#form-tournament input[name=starts_at]", "2027-12-24T18:00")
    submit(page, "tournament")
    announced = club.ok("GET", f"/leagues/{league}/tournaments")["tournaments"]
    assert [(t["name"], t["starts_at"]) for t in announced] == [("Christmas cup", "2027-12-24T16:00:00Z")]


def test_the_admin_page_offers_every_preset_and_its_switches_and_refuses_another_presets_switch(
    visit: Visit, club: Club
):
    page = visit.page
    sign_in_as_admin(page)
    options = page.locator("#form-league select[name=ruleset] option")
    assert sorted(options.evaluate_all("found => found.map(option => option.value)")) == sorted(PRESETS)
    # each by its name and what it is, never its identifier alone
    expect(options.filter(has_text="Prsi (Czech) — 32 cards, four each")).to_have_count(1)
    expect(page.locator("#form-league label:has(select[name=option_king_of_spades])")).to_contain_text(
        "The king of spades draws four (only in: Prsi (Czech), Faraon (Slovak), Russian Pharaoh (Crocodile))"
    )
    name = f"Prsi league {uuid.uuid4().hex[:6]}"
    page.fill("#form-league input[name=name]", name)
    page.select_option("#form-league select[name=ruleset]", "prsi")
    page.select_option("#form-league select[name=option_king_of_spades]", "true")
    submit(page, "league")
    league = page.locator("[data-done] a").get_attribute("href").rsplit("/", 1)[1]  # type: ignore[union-attr]
    stored = club.ok("GET", f"/leagues/{league}")
    assert (stored["ruleset"], stored["options"]) == ("prsi", {"king_of_spades": True})
    refused = f"Classic league {uuid.uuid4().hex[:6]}"
    page.fill("#form-league input[name=name]", refused)
    page.select_option("#form-league select[name=ruleset]", "classic")
    page.select_option("#form-league select[name=option_crocodile]", "true")
    with page.expect_response("**/web/admin/league") as answer:
        page.locator("#form-league button[type=submit]").click()
    assert answer.value.status == 422
    expect(page.locator(".refusal[data-code=invalid_option]")).to_contain_text("crocodile")
    assert refused not in league_names(club)


def test_an_option_whose_name_says_little_comes_with_a_line_saying_what_it_does(visit: Visit):
    page = visit.page
    sign_in_as_admin(page)
    hand = page.locator(
        "#form-league label", has=page.locator("select[name=option_hand_size], input[name=option_hand_size]")
    )
    expect(hand).to_contain_text("Cards dealt to each — how many cards each player is dealt")
    page.goto("/web/admin?lang=uk")
    expect(hand).to_contain_text("Карт кожному при роздачі — скільки карт отримує кожен гравець")
    # no option is shown by its identifier
    expect(page.locator("#form-league fieldset")).not_to_contain_text("hand_size")

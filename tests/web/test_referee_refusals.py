"""The referee console's refusals without a browser: a program gets the problem, a ruling posted
without the session's form token or with a form that is no ruling changes nothing, and a referee
of another league neither sees the dispute nor opens the console."""

import re
from collections.abc import Iterator
from contextlib import contextmanager

import httpx

from tests.e2e.club import Club, bearer
from tests.web.conftest import sign_in_over_http
from tests.web.refereeing import disputed_game, referee_token

HTML = {"Accept": "text/html"}


@contextmanager
def signed_in(base: str, token: str) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=base, timeout=30) as browser:
        sign_in_over_http(browser, token)
        yield browser


def form_token(browser: httpx.Client, game: str) -> str:
    page = browser.get(f"/web/referee/games/{game}", headers=HTML)
    assert page.status_code == 200
    found = re.search(r'name="csrf" value="([^"]+)"', page.text)
    assert found is not None
    return found.group(1)


def test_a_program_asking_for_the_console_without_being_an_official_gets_the_403_problem(
    base: str, club: Club
):
    case = disputed_game(club, moves=1)
    for path in ("/web/referee", f"/web/referee/games/{case.game}", f"/web/referee/games/{case.game}/replay"):
        answer = httpx.get(base + path)
        assert answer.status_code == 403
        assert answer.headers["content-type"].startswith("application/problem+json")
        assert answer.json()["code"] == "forbidden"


def test_the_console_of_a_game_that_does_not_exist_is_404_a_page_for_a_browser_the_problem_else(
    base: str, club: Club
):
    _, token = referee_token(club)
    with signed_in(base, token) as browser:
        answer = browser.get("/web/referee/games/00000000-0000-4000-8000-000000000000", headers=HTML)
        assert (answer.status_code, answer.headers["content-type"]) == (404, "text/html; charset=utf-8")
        assert 'data-code="game_not_found"' in answer.text and "No such game." in answer.text
        answer = browser.get("/web/referee/games/00000000-0000-4000-8000-000000000000")
        assert (answer.status_code, answer.json()["code"]) == (404, "game_not_found")


def test_a_ruling_posted_without_the_sessions_form_token_is_403_and_changes_nothing(base: str, club: Club):
    case = disputed_game(club, moves=2)
    version = club.ok("GET", f"/games/{case.game}")["version"]
    with signed_in(base, case.referee) as browser:
        form_token(browser, case.game)
        refused = browser.post(
            f"/web/referee/games/{case.game}/rulings",
            data={"kind": "resume", "csrf": "guessed"},
            headers=HTML,
        )
        # a browser is told in a page what to do; a program gets the problem
        assert refused.status_code == 403 and 'data-code="csrf_failed"' in refused.text
        assert "reload the page" in refused.text
        refused = browser.post(
            f"/web/referee/games/{case.game}/rulings", data={"kind": "resume", "csrf": "x"}
        )
        assert (refused.status_code, refused.json()["code"]) == (403, "csrf_failed")
    table = club.ok("GET", f"/games/{case.game}")
    assert (table["version"], table["paused"]) == (version, True)


def test_a_penalty_form_with_no_number_of_cards_is_400_in_words_and_changes_nothing(base: str, club: Club):
    case = disputed_game(club, moves=2)
    version = club.ok("GET", f"/games/{case.game}")["version"]
    with signed_in(base, case.referee) as browser:
        csrf = form_token(browser, case.game)
        form = {"csrf": csrf, "kind": "penalty", "seat": "0", "cards": "many"}
        refused = browser.post(f"/web/referee/games/{case.game}/rulings", data=form, headers=HTML)
        assert refused.status_code == 400
        assert 'data-code="malformed_request"' in refused.text
        assert "the form is not filled in as it should be" in refused.text
        ukrainian = browser.post(
            f"/web/referee/games/{case.game}/rulings", data=form, headers={**HTML, "Accept-Language": "uk"}
        )
        assert ukrainian.status_code == 400 and "форму заповнено не так, як треба" in ukrainian.text
    assert club.ok("GET", f"/games/{case.game}")["version"] == version


def test_a_stale_ruling_is_409_in_words_and_a_penalty_from_the_console_is_given(base: str, club: Club):
    case = disputed_game(club, moves=2)
    version = club.ok("GET", f"/games/{case.game}")["version"]
    with signed_in(base, case.referee) as browser:
        csrf = form_token(browser, case.game)
        stale = {"csrf": csrf, "kind": "resume", "version": str(version - 1)}
        refused = browser.post(f"/web/referee/games/{case.game}/rulings", data=stale, headers=HTML)
        assert refused.status_code == 409 and 'data-code="stale_version"' in refused.text
        assert club.ok("GET", f"/games/{case.game}")["version"] == version
        given = {"csrf": csrf, "kind": "penalty", "seat": "0", "cards": "2", "version": str(version)}
        done = browser.post(f"/web/referee/games/{case.game}/rulings", data=given, headers=HTML)
        assert done.status_code == 303
        assert done.headers["location"] == f"/web/referee/games/{case.game}?ruled=1"
    events = club.ok("GET", f"/games/{case.game}/events", params={"after": version})["events"]
    assert events[0]["type"] == "RulingGiven"
    assert events[0]["data"]["ruling"] == {"type": "penalty", "seat": 0, "cards": 2}


def test_a_referee_of_another_league_neither_sees_the_dispute_nor_opens_the_console(base: str, club: Club):
    case = disputed_game(club, moves=1)
    _, other = referee_token(club)
    with signed_in(base, other) as browser:
        listed = browser.get("/web/referee", headers=HTML)
        assert listed.status_code == 200 and case.game not in listed.text
        refused = browser.get(f"/web/referee/games/{case.game}", headers=HTML)
        assert refused.status_code == 403 and 'data-code="forbidden"' in refused.text
    with signed_in(base, case.referee) as browser:
        assert case.game in browser.get("/web/referee", headers=HTML).text


def test_a_referee_corrects_a_round_of_a_game_played_in_person_from_the_console(base: str, club: Club):
    case = disputed_game(club, moves=0, in_person=True)
    club.ok(
        "POST",
        f"/games/{case.game}/rounds",
        headers=bearer(case.tokens[0]),
        json={"winner": 0, "points": [0, 17]},
    )
    club.ok(
        "POST", f"/games/{case.game}/disputes", headers=bearer(case.tokens[1]), json={"reason": "I went out"}
    )
    with signed_in(base, case.referee) as browser:
        page = browser.get(f"/web/referee/games/{case.game}", headers=HTML).text
        assert 'value="correct"' in page and 'value="penalty"' not in page
        assert "Round 1 is entered from the score sheet" in page
        csrf = form_token(browser, case.game)
        form = {"csrf": csrf, "kind": "correct", "round": "1", "winner": "1", "by": "points"}
        form |= {"points-0": "12", "points-1": "0"}
        done = browser.post(f"/web/referee/games/{case.game}/rulings", data=form, headers=HTML)
        assert done.status_code == 303
        assert "the entry of round 1 is corrected" in browser.get(done.headers["location"], headers=HTML).text
    totals = club.ok("GET", f"/games/{case.game}/totals")
    assert totals["totals"] == [12, 0]


def test_a_correction_whose_winner_holds_points_or_whose_cards_are_no_cards_is_refused_in_words(
    base: str, club: Club
):
    case = disputed_game(club, moves=0, in_person=True)
    entry = {"winner": 0, "points": [0, 17]}
    club.ok("POST", f"/games/{case.game}/rounds", headers=bearer(case.tokens[0]), json=entry)
    club.ok("POST", f"/games/{case.game}/disputes", headers=bearer(case.tokens[1]), json={"reason": "no"})
    version = club.ok("GET", f"/games/{case.game}")["version"]
    with signed_in(base, case.referee) as browser:
        csrf = form_token(browser, case.game)
        form = {"csrf": csrf, "kind": "correct", "round": "1", "winner": "1", "by": "points"}
        form |= {"points-0": "12", "points-1": "5"}
        refused = browser.post(
            f"/web/referee/games/{case.game}/rulings", data=form, headers={**HTML, "Accept-Language": "uk"}
        )
        assert refused.status_code == 422 and 'data-code="winner_holds_cards"' in refused.text
        assert "місце 1 вийшло, тож не має карт" in refused.text
        assert "Рішення" in refused.text and "Rulings" not in refused.text
        assert 'name="points-1" value="5"' in refused.text  # the form comes back as it was typed
        assert "Top card" not in refused.text and "Верхня карта" not in refused.text
        cards = {**form, "by": "cards", "cards-0": "KC ZZ", "cards-1": ""}
        refused = browser.post(f"/web/referee/games/{case.game}/rulings", data=cards, headers=HTML)
        assert refused.status_code == 400 and 'data-code="malformed_card"' in refused.text
    assert club.ok("GET", f"/games/{case.game}")["version"] == version


def test_the_replay_of_a_game_played_in_person_leads_to_its_console_and_the_score_sheet(
    base: str, club: Club
):
    case = disputed_game(club, moves=0, in_person=True)
    with signed_in(base, case.referee) as browser:
        replay = browser.get(f"/web/referee/games/{case.game}/replay?at=2", headers=HTML)
        assert replay.status_code in (302, 303)
        assert replay.headers["location"] == f"/web/referee/games/{case.game}"
        console = browser.get(replay.headers["location"], headers=HTML)
        assert console.status_code == 200 and "Top card" not in console.text
    outsider = httpx.get(f"{base}/web/referee/games/{case.game}/replay", headers=HTML, follow_redirects=True)
    assert outsider.status_code == 403

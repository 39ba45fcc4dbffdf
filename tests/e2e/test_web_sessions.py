"""The web pages' sessions end to end: a session lives on the server, so signing out (or the player
ending it from their page) ends every copy of its cookie; a sign-in link signs nobody in until the
form is posted; the cookies' ``Secure`` flag; the security headers on pages and API answers."""

import re
from collections.abc import Callable
from typing import Any

import pytest
from litestar.testing import TestClient

from service.app import create_app
from service.settings import Settings
from tests.e2e.club import Club, bearer

COOKIE = "maumau_session"
ANDROID_CHROME = (
    "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) "
    "Chrome/124.0.0.0 Mobile Safari/537.36"
)
WINDOWS_FIREFOX = "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:125.0) Gecko/20100101 Firefox/125.0"
Device = Callable[..., TestClient[Any]]


@pytest.fixture
def device(client: TestClient[Any]) -> Device:
    """A browser of its own (its own cookies, a User-Agent) on the session's app."""

    def new(agent: str = ANDROID_CHROME, base_url: str = "http://testserver.local") -> TestClient[Any]:
        browser = TestClient(client.app, base_url=base_url)
        browser.blocking_portal = client.blocking_portal  # the app runs where its lifespan runs
        browser.headers["user-agent"] = agent
        browser.follow_redirects = False
        return browser

    return new


def csrf_of(html: str) -> str:
    found = re.search(r'name="csrf" value="([^"]+)"', html)
    assert found is not None, "the page has no form token"
    return found.group(1)


def sign_in(browser: TestClient[Any], token: str) -> None:
    """As a person does: the link, then the form's button."""
    offered = browser.get("/signin", params={"token": token})
    assert (offered.status_code, offered.headers["location"]) == (302, "/signin")
    answer = browser.post("/signin", data={"csrf": csrf_of(browser.get("/signin").text)})
    assert answer.status_code == 303, answer.text


def signed_in(browser: TestClient[Any], page: str = "/") -> bool:
    return "Sign out" in browser.get(page).text


def player(club: Club, name: str) -> tuple[str, str, str]:
    created = club.ok("POST", "/players", json={"name": name})
    return created["player"]["player_id"], created["token"]["token"], created["token"]["credential_id"]


def test_signing_out_ends_the_session_on_the_server_so_a_copy_of_its_cookie_signs_nobody_in(
    club: Club, device: Device
):
    ann, token, _ = player(club, "Ann Copied")
    phone, thief = device(), device(WINDOWS_FIREFOX)
    sign_in(phone, token)
    thief.cookies.set(COOKIE, phone.cookies[COOKIE], domain="testserver.local")
    assert signed_in(thief, f"/web/players/{ann}")

    phone.post("/signout", data={"csrf": csrf_of(phone.get("/").text)})
    assert not signed_in(phone)
    assert not signed_in(thief, f"/web/players/{ann}")
    # and the copy does not come back to life: the cookie it is sent back names an ended session
    assert not signed_in(thief, f"/web/players/{ann}")


def test_a_sign_in_link_from_another_site_signs_nobody_in_it_only_fills_the_form(club: Club, device: Device):
    ann, token, _ = player(club, "Ann Linked")
    victim = device()
    answer = victim.get("/signin", params={"token": token}, headers={"Referer": "http://evil.example/"})
    assert (answer.status_code, answer.headers["location"]) == (302, "/signin")
    assert token not in answer.headers["location"]
    assert not signed_in(victim) and not signed_in(victim, f"/web/players/{ann}")

    form = victim.get("/signin").text
    assert "The link you followed signs you in as Ann Linked." in form
    assert token not in form  # the token stays in the sealed cookie
    refused = victim.post("/signin", data={"csrf": "guessed"})
    assert (refused.status_code, refused.json()["code"]) == (403, "csrf_failed")
    assert not signed_in(victim)

    posted = victim.post("/signin", data={"csrf": csrf_of(form)})
    assert (posted.status_code, posted.headers["location"]) == (303, f"/web/players/{ann}")
    assert signed_in(victim)


def test_a_typed_token_wins_over_an_offered_one(club: Club, device: Device):
    _, offered, _ = player(club, "Ann Offered")
    ben, typed, _ = player(club, "Ben Typed")
    browser = device()
    browser.get("/signin", params={"token": offered})
    posted = browser.post("/signin", data={"csrf": csrf_of(browser.get("/signin").text), "token": typed})
    assert posted.headers["location"] == f"/web/players/{ben}"


def test_a_sign_in_link_with_a_token_that_is_not_valid_offers_nothing(club: Club, device: Device):
    browser = device()
    answer = browser.get("/signin", params={"token": "mm_not_a_token"})
    assert (answer.status_code, answer.json()["code"]) == (401, "unauthorized")
    assert "signs you in as" not in browser.get("/signin").text


def test_a_player_sees_where_they_are_signed_in_and_ends_another_browsers_session(club: Club, device: Device):
    ann, token, _ = player(club, "Ann Two Phones")
    phone, laptop = device(ANDROID_CHROME), device(WINDOWS_FIREFOX)
    sign_in(phone, token)
    sign_in(laptop, token)

    page = phone.get(f"/web/players/{ann}").text
    assert "Where you are signed in" in page
    assert "Chrome on Android (this browser)" in page and "Firefox on Windows" in page
    sessions = re.findall(r'data-session="([0-9a-f-]+)"', page)
    assert len(sessions) == 2
    mine = re.search(r'data-session="([0-9a-f-]+)">Chrome on Android \(this browser\)', page)
    assert mine is not None
    other = next(session for session in sessions if session != mine.group(1))

    ended = phone.post(f"/web/players/{ann}/sessions/{other}/end", data={"csrf": csrf_of(page)})
    assert (ended.status_code, ended.headers["location"]) == (303, f"/web/players/{ann}")
    assert not signed_in(laptop)
    page = phone.get(f"/web/players/{ann}").text
    assert re.findall(r'data-session="([0-9a-f-]+)"', page) == [mine.group(1)]
    # nobody else sees the list: not the public, not another player
    assert "Where you are signed in" not in device().get(f"/web/players/{ann}").text

    ended = phone.post(f"/web/players/{ann}/sessions/{mine.group(1)}/end", data={"csrf": csrf_of(page)})
    assert (ended.status_code, ended.headers["location"]) == (303, "/")
    assert not signed_in(phone)


def test_ending_a_session_that_is_not_ones_own_is_refused_and_ends_nothing(club: Club, device: Device):
    ann, anns_token, _ = player(club, "Ann Refused")
    ben, bens_token, _ = player(club, "Ben Refused")
    anns, bens = device(), device(WINDOWS_FIREFOX)
    sign_in(anns, anns_token)
    sign_in(bens, bens_token)
    bens_page = bens.get(f"/web/players/{ben}").text
    bens_session = re.findall(r'data-session="([0-9a-f-]+)"', bens_page)[0]
    csrf = csrf_of(anns.get(f"/web/players/{ann}").text)

    # Ben's session, named on Ann's page: not one of hers
    refused = anns.post(f"/web/players/{ann}/sessions/{bens_session}/end", data={"csrf": csrf})
    assert (refused.status_code, refused.json()["code"]) == (404, "session_not_found")
    # on Ben's page: his page, not hers
    refused = anns.post(f"/web/players/{ben}/sessions/{bens_session}/end", data={"csrf": csrf})
    assert (refused.status_code, refused.json()["code"]) == (403, "forbidden")
    # without the form's token: another site's post
    refused = anns.post(f"/web/players/{ben}/sessions/{bens_session}/end", data={})
    assert (refused.status_code, refused.json()["code"]) == (403, "csrf_failed")
    # signed out: nobody's
    visitor = device()
    visitor.get("/signin")
    refused = visitor.post(
        f"/web/players/{ben}/sessions/{bens_session}/end", data={"csrf": csrf_of(visitor.get("/signin").text)}
    )
    assert (refused.status_code, refused.json()["code"]) == (401, "unauthorized")
    assert signed_in(bens)


def test_revoking_a_token_ends_its_sessions_and_the_list_no_longer_shows_them(club: Club, device: Device):
    ann, first, credential = player(club, "Ann Revoked")
    second = club.ok("POST", f"/players/{ann}/tokens", headers=bearer(first), json={"name": "laptop"})
    phone, laptop = device(), device(WINDOWS_FIREFOX)
    sign_in(phone, first)
    sign_in(laptop, second["token"])
    club.ok("DELETE", f"/tokens/{second['credential_id']}")
    assert not signed_in(laptop)
    page = phone.get(f"/web/players/{ann}").text
    assert len(re.findall(r'data-session="', page)) == 1 and "Firefox" not in page
    club.ok("DELETE", f"/tokens/{credential}")
    assert not signed_in(phone)


def test_an_erased_players_sessions_end_and_their_rows_go(
    client: TestClient[Any], club: Club, device: Device
):
    ann, token, _ = player(club, "Ann Erased")
    phone = device()
    sign_in(phone, token)
    club.ok("POST", f"/players/{ann}/erasure")
    services = client.app.state.services
    assert services.reader.views.query("sessions_of", (ann, "player", 0)) == []
    assert not signed_in(phone)


def test_the_session_cookie_is_secure_over_https_and_not_over_plain_http(club: Club, device: Device):
    _, token, _ = player(club, "Ann Secure")
    plain, tls = device(), device(base_url="https://testserver.local")
    for browser in (plain, tls):
        browser.get("/signin", params={"token": token})
    assert "secure" not in plain.get("/signin").headers["set-cookie"].lower()
    assert "secure" in tls.get("/signin").headers["set-cookie"].lower()
    language = tls.get("/", params={"lang": "uk"}).headers.get_list("set-cookie")
    assert all("secure" in cookie.lower() for cookie in language)


def test_with_secure_cookies_set_the_cookies_are_secure_over_plain_http_too(tmp_path):
    settings = Settings(data_dir=tmp_path / "var", secure_cookies="yes")
    with TestClient(create_app(settings)) as browser:
        answer = browser.get("/signin", params={"lang": "ru"})
        cookies = answer.headers.get_list("set-cookie")
        assert len(cookies) == 2 and all("; secure" in cookie.lower() for cookie in cookies)


SECURITY_HEADERS = {
    "x-content-type-options": "nosniff",
    "x-frame-options": "DENY",
    "referrer-policy": "same-origin",
}


def test_every_answer_carries_the_security_headers_pages_records_and_problems_alike(
    client: TestClient[Any], club: Club
):
    ann, _ = club.player()
    game = club.game([ann, "bot:random"])["game_id"]
    league = club.league()
    plan = {"name": "Header cup", "format": "swiss", "table_size": 2, "rounds": 1}
    tournament = club.ok("POST", f"/leagues/{league}/tournaments", json=plan)
    position = club.log_position()  # an anonymous read waits for the tournament only when told to
    answers = {
        "page": client.get(f"/web/players/{ann}"),
        "signin": client.get("/signin"),
        "json": client.get(f"/players/{ann}"),
        "csv": client.get(f"/tournaments/{tournament['tournament_id']}/results.csv?after={position}"),
        "text": client.get(f"/games/{game}/record?sight=public"),
        "problem": client.get("/players/not-an-id"),
        "static": client.get("/web/static/live.js"),
        "api docs": client.get("/schema/swagger"),
    }
    assert answers["csv"].headers["content-type"].startswith("text/csv")
    assert answers["text"].headers["content-type"].startswith("text/plain")
    for kind, answer in answers.items():
        assert answer.status_code < 500, kind
        for name, value in SECURITY_HEADERS.items():
            assert answer.headers.get(name) == value, (kind, name)
        policy = answer.headers["content-security-policy"]
        assert "default-src 'self'" in policy and "frame-ancestors 'none'" in policy, kind
        assert "unsafe-inline" not in policy, kind

"""People join and sign in by themselves, through the pages on the whole HTTP stack: an
invitation's link and QR code, the join page, a password, one-time sign-in links, and the pages
that answer a wrong code, a wrong password or a spent link in the reader's language."""

import re
from typing import Any

import msgspec
import pytest
from litestar.testing import TestClient

from service.app import create_app
from service.settings import Settings
from tests.e2e.club import ADMIN_TOKEN, Club
from tests.e2e.test_members import invite
from tests.e2e.test_web_sessions import ANDROID_CHROME, Device, csrf_of, signed_in

PASSWORD = "correct horse battery"


@pytest.fixture
def device(client: TestClient[Any]) -> Device:
    """A browser of its own (its own cookies) on the session's app, as a phone's."""

    def new() -> TestClient[Any]:
        return browser_on(client)

    return new


def browser_on(client: TestClient[Any]) -> TestClient[Any]:
    browser = TestClient(client.app, base_url="http://testserver.local")
    browser.blocking_portal = client.blocking_portal  # the app runs where its lifespan runs
    browser.headers["user-agent"] = ANDROID_CHROME
    browser.follow_redirects = False
    return browser


def admin_browser(device: Device) -> TestClient[Any]:
    admin = device()
    admin.get("/signin", params={"token": ADMIN_TOKEN})
    assert admin.post("/signin", data={"csrf": csrf_of(admin.get("/signin").text)}).status_code == 303
    return admin


def link_in(html: str, path: str) -> str:
    found = re.search(rf'value="(https?://[^"]+{path}[^"]+)"', html)
    assert found is not None, f"no {path} link on the page"
    return found.group(1).split("testserver.local", 1)[1]


def join(browser: TestClient[Any], path: str, name: str, password: str = "") -> Any:
    csrf = csrf_of(browser.get(path).text)
    return browser.post(path, data={"csrf": csrf, "name": name, "password": password})


def password_sign_in(browser: TestClient[Any], league: str, name: str, password: str) -> Any:
    csrf = csrf_of(browser.get("/signin").text)
    form = {"csrf": csrf, "league_id": league, "name": name, "password": password}
    return browser.post("/signin/password", data=form)


def test_an_organiser_makes_an_invitation_on_the_admin_page_and_sees_its_link_and_qr_code(
    club: Club, device: Device
):
    league = club.league(name="QR league")
    admin = admin_browser(device)
    form = {"csrf": csrf_of(admin.get("/web/admin/").text), "league_id": league, "uses": "3", "days": "2"}
    made = admin.post("/web/admin/invitation", data=form)
    assert made.status_code == 200, made.text
    path = link_in(made.text, "/join/inv_")
    assert "<svg" in made.text and 'class="segno"' in made.text
    listed = club.ok("GET", f"/leagues/{league}/invitations")
    assert [i["uses"] for i in listed["invitations"]] == [3]
    # the code is in no listing, and the invitation joins people to that league
    assert path.split("/join/")[1] not in msgspec.json.encode(listed).decode()
    assert "QR league" in device().get(path).text


def test_a_person_opens_the_link_picks_a_name_and_password_and_is_signed_in_on_their_page(
    club: Club, device: Device
):
    league = club.league(name="Phone league")
    code = invite(club, league)["code"]
    phone = device()
    opened = phone.get(f"/join/{code}")
    assert opened.status_code == 200 and "Phone league" in opened.text
    joined = join(phone, f"/join/{code}", "Pia Phone", PASSWORD)
    assert joined.status_code == 303, joined.text
    page = joined.headers["location"]
    assert page.startswith("/web/players/") and signed_in(phone, page)
    assert "Pia Phone" in phone.get(page).text

    # signed out, she signs in again by league, name (any case) and password
    phone.post("/signout", data={"csrf": csrf_of(phone.get("/").text)})
    assert not signed_in(phone)
    again = password_sign_in(phone, league, "pia phone", PASSWORD)
    assert (again.status_code, again.headers["location"]) == (303, page)
    assert signed_in(phone, page)

    # each sign-in made a token for the browser alone, and signing out revoked it
    phone.post("/signout", data={"csrf": csrf_of(phone.get("/").text)})
    listed = club.ok("GET", f"/players/{page.rsplit('/', 1)[1]}/tokens")["tokens"]
    assert len(listed) == 2 and all(token["revoked_at"] for token in listed)


def test_a_wrong_password_and_an_unknown_name_answer_one_translated_page_and_sign_nobody_in(
    club: Club, device: Device
):
    league = club.league(name="Wrong league")
    code = invite(club, league)["code"]
    assert join(device(), f"/join/{code}", "Wanda", PASSWORD).status_code == 303
    browser = device()
    browser.headers["accept-language"] = "uk"
    wrong = password_sign_in(browser, league, "Wanda", "not her password")
    unknown = password_sign_in(browser, league, "Nobody Here", "not her password")
    for answer in (wrong, unknown):
        assert answer.status_code == 401
        assert "Ім'я або пароль" in answer.text.replace("&#39;", "'")
        assert "{" not in answer.text and "unauthorized" not in answer.text.split("data-code")[0]
    # the same words whether the name exists or not
    assert _refusal(wrong.text) == _refusal(unknown.text)
    assert not signed_in(browser)


def _refusal(html: str) -> str:
    found = re.search(r'<div class="refusal".*?</div>', html, re.S)
    assert found is not None
    return found.group(0)


def test_wrong_spent_and_expired_invitations_answer_a_page_saying_to_ask_for_a_new_link(
    club: Club, device: Device
):
    league = club.league(name="Spent league")
    code = invite(club, league)["code"]
    assert join(device(), f"/join/{code}", "First In").status_code == 303
    browser = device()
    browser.headers["accept-language"] = "ru"
    spent = browser.get(f"/join/{code}")
    assert spent.status_code == 410 and "новую" in spent.text
    assert "text/html" in spent.headers["content-type"]
    wrong = browser.get(f"/join/{code[:-4]}AAAA")
    assert wrong.status_code == 404 and "новую" in wrong.text
    garbage = browser.get("/join/nonsense")
    assert garbage.status_code == 404 and "text/html" in garbage.headers["content-type"]
    # a second person posting the spent form gets the page too, and nothing is made
    with club.unchanged():
        posted = browser.post(
            f"/join/{code}", data={"csrf": csrf_of(browser.get("/signin").text), "name": "Second"}
        )
    assert posted.status_code == 410 and "text/html" in posted.headers["content-type"]


def test_a_taken_name_or_a_short_password_shows_the_form_again_and_joins_nobody(club: Club, device: Device):
    league = club.league(name="Taken league")
    code = invite(club, league, uses=3)["code"]
    assert join(device(), f"/join/{code}", "Tara").status_code == 303
    browser = device()
    taken = join(browser, f"/join/{code}", "tara")
    assert taken.status_code == 409 and 'name="name"' in taken.text
    short = join(browser, f"/join/{code}", "Tom", "short")
    assert short.status_code == 422 and 'name="name"' in short.text and 'value="Tom"' in short.text
    listed = club.ok("GET", f"/leagues/{league}/invitations")["invitations"][0]
    assert listed["uses_left"] == 2


def test_an_organiser_gives_a_lost_member_a_one_time_sign_in_link_which_a_preview_does_not_spend(
    club: Club, device: Device
):
    league = club.league(name="Lost league")
    code = invite(club, league)["code"]
    joined = join(device(), f"/join/{code}", "Lou Lost")
    page = joined.headers["location"]
    player_id = page.rsplit("/", 1)[1]
    admin = admin_browser(device)
    form = {"csrf": csrf_of(admin.get("/web/admin/").text), "player_id": player_id}
    made = admin.post("/web/admin/signin-link", data=form)
    assert made.status_code == 200, made.text
    path = link_in(made.text, "/signin/link/sil_")
    assert 'class="segno"' in made.text

    phone = device()
    assert "Lou Lost" in phone.get(path).text and "Lou Lost" in phone.get(path).text  # previews
    used = phone.post(path, data={"csrf": csrf_of(phone.get(path).text)})
    assert (used.status_code, used.headers["location"]) == (303, page)
    assert signed_in(phone, page)
    other = device()
    again = other.get(path)
    assert again.status_code == 410 and "text/html" in again.headers["content-type"]
    assert other.post(path, data={"csrf": csrf_of(other.get("/signin").text)}).status_code == 410
    assert not signed_in(other, page)


def test_a_signed_in_player_makes_a_link_for_their_other_device_and_nobody_else_may(
    club: Club, device: Device
):
    league = club.league(name="Device league")
    codes = [invite(club, league)["code"] for _ in range(2)]
    laptop, stranger = device(), device()
    mine = join(laptop, f"/join/{codes[0]}", "Dee Vice").headers["location"]
    theirs = join(stranger, f"/join/{codes[1]}", "Stan Ger").headers["location"]
    own_page = laptop.get(mine).text
    # the page's own part, in its body: a title of the name alone
    assert re.search(r"<title>Dee Vice[^<]*</title>", own_page)
    assert own_page.count('<section class="access">') == 1
    assert own_page.index('<section class="access">') > own_page.index("<main")
    made = laptop.post(f"{mine}/signin-link", data={"csrf": csrf_of(own_page)})
    assert made.status_code == 200 and 'class="segno"' in made.text
    path = link_in(made.text, "/signin/link/sil_")
    phone = device()
    phone.post(path, data={"csrf": csrf_of(phone.get(path).text)})
    assert signed_in(phone, mine)
    refused = stranger.post(f"{mine}/signin-link", data={"csrf": csrf_of(stranger.get(theirs).text)})
    assert refused.status_code == 403 and "/signin/link/" not in refused.text


def test_a_player_chooses_a_password_on_their_page_and_signs_in_with_it(club: Club, device: Device):
    league = club.league(name="Later league")
    code = invite(club, league)["code"]
    laptop = device()
    mine = join(laptop, f"/join/{code}", "Lee Later").headers["location"]
    form = {"csrf": csrf_of(laptop.get(mine).text), "password": PASSWORD}
    saved = laptop.post(f"{mine}/password", data=form)
    assert saved.status_code == 200
    phone = device()
    assert password_sign_in(phone, league, "Lee Later", PASSWORD).status_code == 303
    assert signed_in(phone, mine)


def test_a_mistyped_token_answers_the_sign_in_page_not_json(device: Device):
    browser = device()
    answer = browser.post("/signin", data={"csrf": csrf_of(browser.get("/signin").text), "token": "mm_nope"})
    assert answer.status_code == 401 and "text/html" in answer.headers["content-type"]
    assert "The token is not valid" in answer.text or "the token is not valid" in answer.text


def test_wrong_passwords_from_one_address_are_limited_and_then_even_the_right_one_waits(
    settings: Settings,
):
    limited = msgspec.structs.replace(settings, redeem_refusals=2, admin_token=ADMIN_TOKEN)
    with TestClient(create_app(limited)) as client:
        club = Club(client)
        league = club.league(name="Limit league")
        code = invite(club, league)["code"]
        browser = browser_on(client)
        assert join(browser, f"/join/{code}", "Lim", PASSWORD).status_code == 303
        browser.post("/signout", data={"csrf": csrf_of(browser.get("/").text)})
        wrong = [password_sign_in(browser, league, "Lim", "wrong one").status_code for _ in range(2)]
        assert wrong == [401, 401]
        over = password_sign_in(browser, league, "Lim", PASSWORD)
        assert over.status_code == 429 and "wait a minute" in over.text
        assert not signed_in(browser)

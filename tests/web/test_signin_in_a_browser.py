"""Signing in with a token (a link fills the form, or typed into it), the session cookie, signing
out (a copy of the cookie with it), a revoked token, and a cross-site post refused."""

import pytest
from playwright.sync_api import Browser, expect

from tests.e2e.club import Club
from tests.web.conftest import Scene, Visit, sign_in


def session_cookie(visit: Visit) -> dict | None:
    return next((c for c in visit.context.cookies() if c["name"] == "maumau_session"), None)


def new_player(club: Club, scene: Scene) -> tuple[str, str, str]:
    created = club.ok("POST", "/players", json={"name": "Cleo"})
    return created["player"]["player_id"], created["token"]["token"], created["token"]["credential_id"]


def test_a_sign_in_link_from_another_site_only_fills_the_form_whose_button_signs_in_and_sign_out_ends_it(
    visit: Visit, scene: Scene
):
    ada = next(iter(scene.players))
    page = visit.page
    # another site links (or redirects) the visitor to a sign-in link of its own player
    page.goto(f"/signin?token={scene.tokens[ada]}", referer="http://evil.example/")
    assert "token" not in page.url and page.url.endswith("/signin")
    expect(page.get_by_role("button", name="Sign out")).to_have_count(0)
    expect(page.locator("form.offer")).to_contain_text(f"The link you followed signs you in as {ada}.")
    page.goto(f"/web/players/{scene.players[ada]}")
    expect(page.get_by_role("button", name="Sign out")).to_have_count(0)

    page.goto("/signin")
    page.get_by_role("button", name=f"Sign in as {ada}").click()
    page.wait_for_url(f"**/web/players/{scene.players[ada]}")
    cookie = session_cookie(visit)
    assert cookie is not None and cookie["httpOnly"] and cookie["sameSite"] == "Lax"
    assert not cookie["secure"]  # plain HTTP here: a Secure cookie would never be sent back
    assert scene.tokens[ada] not in cookie["value"]  # sealed, not only signed
    assert page.evaluate("document.cookie").find("maumau_session") == -1
    page.get_by_role("button", name="Sign out").click()
    page.wait_for_url("**/")
    expect(page.get_by_role("link", name="Sign in")).to_be_visible()
    page.goto(f"/web/players/{scene.players[ada]}")
    expect(page.get_by_role("button", name="Sign out")).to_have_count(0)


def test_signing_out_ends_the_session_for_a_copy_of_its_cookie_taken_before(
    visit: Visit, scene: Scene, browser: Browser, base: str
):
    ada = next(iter(scene.players))
    sign_in(visit.page, scene.tokens[ada])
    copied = session_cookie(visit)
    assert copied is not None
    shared_pc = browser.new_context(base_url=base)
    try:
        shared_pc.add_cookies([copied])  # type: ignore[list-item]
        theirs = shared_pc.new_page()
        theirs.goto(f"/web/games/{scene.game}/play")
        expect(theirs.get_by_role("button", name="Sign out")).to_be_visible()
        expect(theirs.locator(".hand")).to_be_visible()  # the seat's own cards: a player's page

        visit.page.get_by_role("button", name="Sign out").click()
        visit.page.wait_for_url("**/")
        theirs.reload()
        expect(theirs.get_by_role("button", name="Sign out")).to_have_count(0)
        expect(theirs.locator(".hand")).to_have_count(0)
        theirs.goto(f"/web/players/{scene.players[ada]}")
        expect(theirs.get_by_role("button", name="Sign out")).to_have_count(0)
    finally:
        shared_pc.close()


def test_the_sign_in_form_signs_in_and_a_revoked_token_ends_the_session_at_the_next_page(
    visit: Visit, scene: Scene, club: Club
):
    player, token, credential = new_player(club, scene)
    page = visit.page
    page.goto("/signin")
    page.get_by_label("Your token").fill(token)
    page.get_by_role("button", name="Sign in").last.click()
    page.wait_for_url(f"**/web/players/{player}")
    expect(page.get_by_role("button", name="Sign out")).to_be_visible()
    club.ok("DELETE", f"/tokens/{credential}")
    page.reload()
    expect(page.get_by_role("button", name="Sign out")).to_have_count(0)
    expect(page.get_by_role("link", name="Sign in")).to_be_visible()


@pytest.mark.parametrize("sent", [None, "forged"])
def test_a_cross_site_post_without_the_sessions_form_token_is_refused_and_signs_nobody_out(
    visit: Visit, scene: Scene, sent: str | None
):
    ada = next(iter(scene.players))
    page = visit.page
    sign_in(page, scene.tokens[ada])
    form = {} if sent is None else {"csrf": sent}
    # as another site's form would post it: the browser sends the cookie (a top-level POST), not the token
    answer = visit.context.request.post("/signout", form=form, headers={"Origin": "http://elsewhere.example"})
    assert answer.status == 403
    assert answer.headers["content-type"].startswith("application/problem+json")
    assert answer.json()["code"] == "csrf_failed"
    page.reload()
    expect(page.get_by_role("button", name="Sign out")).to_be_visible()

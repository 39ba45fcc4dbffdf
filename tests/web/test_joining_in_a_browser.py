"""Joining by an invitation's link and signing in with a password, in Chromium: the organiser makes
the invitation on the admin page and sees its link and QR code; a person opens the link on a phone,
picks a name and a password and is signed in; signs out; signs in with the password; and a wrong
password answers a page in the reader's language."""

from pathlib import Path

from playwright.sync_api import Browser, expect

from tests.e2e.club import ADMIN_TOKEN, Club
from tests.web.conftest import PHONE, Visit, sign_in

PASSWORD = "we play on thursdays"


def test_an_invitation_link_joins_a_person_who_then_signs_in_with_their_password(
    visit: Visit, browser: Browser, base: str, club: Club, screenshots: Path
):
    league = club.league(name="Browser join league")
    organiser = browser.new_context(base_url=base)
    try:
        office = organiser.new_page()
        sign_in(office, ADMIN_TOKEN)
        office.goto("/web/admin/")
        form = office.locator("#form-invitation")
        form.locator("select[name=league_id]").select_option(value=league)
        form.get_by_role("button", name="Make the invitation").click()
        expect(office.locator("figure.qr svg")).to_be_visible()
        link = office.locator("input.handed-link").input_value()
        assert link.startswith(base + "/join/inv_")
        office.screenshot(path=screenshots / "admin-invitation.png", full_page=True)
        office.pdf(path=screenshots / "admin-invitation.pdf")  # printed: only the link and its QR code
    finally:
        organiser.close()

    phone = visit.page
    assert phone.viewport_size == PHONE
    phone.goto(link.removeprefix(base))
    expect(phone.get_by_role("heading", level=1)).to_have_text("Join Browser join league")
    phone.screenshot(path=screenshots / "join.png", full_page=True)
    phone.get_by_label("Your name").fill("Jo Browser")
    phone.get_by_label("A password (if you like)").fill(PASSWORD)
    phone.get_by_role("button", name="Join").click()
    phone.wait_for_url("**/web/players/*")
    player_page = phone.url
    expect(phone.get_by_role("heading", level=1)).to_have_text("Jo Browser")
    expect(phone.get_by_role("button", name="Sign out")).to_be_visible()
    # a link for another device, from her own page
    phone.get_by_role("button", name="Make the sign-in link").click()
    expect(phone.locator(".access figure.qr svg")).to_be_visible()
    phone.screenshot(path=screenshots / "player-signin-link.png", full_page=True)

    phone.get_by_role("button", name="Sign out").click()
    phone.wait_for_url("**/")
    phone.goto("/signin")
    password_form = phone.locator("form.password")
    password_form.locator("select[name=league_id]").select_option(value=league)
    password_form.get_by_label("Your name").fill("Jo Browser")
    password_form.get_by_label("Password", exact=True).fill(PASSWORD)
    password_form.get_by_role("button", name="Sign in").click()
    phone.wait_for_url(player_page)
    expect(phone.get_by_role("button", name="Sign out")).to_be_visible()

    phone.get_by_role("button", name="Sign out").click()
    phone.wait_for_url("**/")
    phone.goto("/signin?lang=uk")
    password_form.locator("select[name=league_id]").select_option(value=league)
    password_form.get_by_label("Ваше ім'я").fill("Jo Browser")
    password_form.get_by_label("Пароль", exact=True).fill("not the password")
    password_form.get_by_role("button", name="Увійти").click()
    expect(phone.locator(".refusal")).to_contain_text("Ім'я або пароль неправильні")
    phone.screenshot(path=screenshots / "signin-wrong-password-uk.png", full_page=True)
    expect(phone.get_by_role("button", name="Вийти")).to_have_count(0)
    assert visit.outside == []

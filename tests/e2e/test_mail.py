"""Links by mail: with ``MAUMAU_SMTP_URL`` set the admin page mails an invitation's or a sign-in link
to an address given with it, through a real SMTP server started here (aiosmtpd); a bad address is
refused with nothing made; a server that does not answer leaves the link on the page to hand over;
without the setting the forms ask for no address."""

import re
from collections.abc import Iterator
from email import message_from_bytes
from email.message import Message
from typing import Any

import msgspec
import pytest
from aiosmtpd.controller import Controller
from litestar.testing import TestClient

from service.app import create_app
from service.settings import Settings
from tests.e2e.club import ADMIN_TOKEN, Club
from tests.e2e.test_embedded import free_port
from tests.e2e.test_joining import admin_browser, browser_on, link_in
from tests.e2e.test_web_sessions import csrf_of


class Inbox:
    """What the SMTP server was handed."""

    def __init__(self) -> None:
        self.mails: list[tuple[list[str], Message]] = []

    async def handle_DATA(
        self, server: Any, session: Any, envelope: Any
    ) -> str:  # aiosmtpd's hook, by its name
        self.mails.append((list(envelope.rcpt_tos), message_from_bytes(envelope.content)))
        return "250 OK"


@pytest.fixture
def smtp() -> Iterator[tuple[Controller, Inbox]]:
    inbox = Inbox()
    server = Controller(inbox, hostname="127.0.0.1", port=free_port())
    server.start()
    yield server, inbox
    server.stop()


@pytest.fixture
def mailing(settings: Settings, smtp: tuple[Controller, Inbox]) -> Iterator[TestClient[Any]]:
    server, _ = smtp
    url = f"smtp://127.0.0.1:{server.port}?from=club@example.org"
    with TestClient(
        create_app(msgspec.structs.replace(settings, smtp_url=url, admin_token=ADMIN_TOKEN))
    ) as client:
        yield client


def text_of(mail: Message) -> str:
    body = mail.get_payload(decode=True)
    assert isinstance(body, bytes)
    return body.decode()


def test_an_invitation_and_a_sign_in_link_go_by_mail_to_the_address_given(
    mailing: TestClient[Any], smtp: tuple[Controller, Inbox]
):
    _, inbox = smtp
    club = Club(mailing)
    league = club.league(name="Mail league")
    admin = admin_browser(lambda: browser_on(mailing))
    form = {"csrf": csrf_of(admin.get("/web/admin/").text), "league_id": league, "email": "nora@example.org"}
    made = admin.post("/web/admin/invitation", data=form)
    assert made.status_code == 200 and "It was sent by mail too." in made.text
    path = link_in(made.text, "/join/inv_")
    ((to, mail),) = inbox.mails
    assert to == ["nora@example.org"] and mail["From"] == "club@example.org"
    assert mail["Subject"] == "Your invitation to Mail league"
    assert path in text_of(mail) and "Mail league" in text_of(mail)

    phone = browser_on(mailing)
    joined = phone.post(path, data={"csrf": csrf_of(phone.get(path).text), "name": "Nora Mail"})
    player = joined.headers["location"].rsplit("/", 1)[1]
    form = {"csrf": csrf_of(admin.get("/web/admin/").text), "player_id": player, "email": "nora@example.org"}
    made = admin.post("/web/admin/signin-link", data=form)
    assert made.status_code == 200 and "It was sent by mail too." in made.text
    (_, mail) = inbox.mails[1]
    assert mail["Subject"] == "Your sign-in link" and link_in(made.text, "/signin/link/sil_") in text_of(mail)


def test_a_bad_address_is_refused_before_anything_is_made(
    mailing: TestClient[Any], smtp: tuple[Controller, Inbox]
):
    _, inbox = smtp
    club = Club(mailing)
    league = club.league(name="Bad address league")
    admin = admin_browser(lambda: browser_on(mailing))
    for address in ("nora", "nora@example.org, eve@example.org", "nora@example.org\nBcc: eve@example.org"):
        form = {"csrf": csrf_of(admin.get("/web/admin/").text), "league_id": league, "email": address}
        refused = admin.post("/web/admin/invitation", data=form)
        assert refused.status_code == 422 and 'data-code="invalid_email"' in refused.text
    assert club.ok("GET", f"/leagues/{league}/invitations")["invitations"] == []
    assert inbox.mails == []


def test_a_mail_server_that_does_not_answer_leaves_the_link_on_the_page(settings: Settings):
    nobody = f"smtp://127.0.0.1:{free_port()}"  # a port no server listens on
    with TestClient(
        create_app(msgspec.structs.replace(settings, smtp_url=nobody, admin_token=ADMIN_TOKEN))
    ) as client:
        club = Club(client)
        league = club.league(name="Down league")
        admin = admin_browser(lambda: browser_on(client))
        form = {
            "csrf": csrf_of(admin.get("/web/admin/").text),
            "league_id": league,
            "email": "nora@example.org",
        }
        made = admin.post("/web/admin/invitation", data=form)
    assert made.status_code == 200 and "The mail could not be sent" in made.text
    assert re.search(r'value="https?://[^"]+/join/inv_', made.text)


def test_without_a_mail_server_the_forms_ask_for_no_address(client: TestClient[Any]):
    admin = admin_browser(lambda: browser_on(client))
    assert 'name="email"' not in admin.get("/web/admin/").text

"""People's notifications: chosen on their own page (refusals change nothing), made from the log for
those who chose the kind, mailed through a real SMTP server started here (aiosmtpd) once at most,
and read by a person's own stream only (``usecases.notices.browser_notices``; the browser itself:
``tests/web/test_notices_in_a_browser.py``)."""

import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from aiosmtpd.controller import Controller
from litestar.testing import TestClient

from service.domain.cards import FULL_DECK, format_cards
from service.domain.roles import Actor
from service.persistence.notices import Notice
from service.usecases.notices import browser_notices
from service.usecases.services import Services
from service.web.i18n import read_catalogues
from tests.e2e.club import ADMIN_TOKEN, Club
from tests.e2e.test_embedded import FAST, free_port, serving
from tests.e2e.test_joining import browser_on
from tests.e2e.test_mail import Inbox, mailing, smtp, text_of
from tests.e2e.test_web_sessions import csrf_of, player, sign_in
from tests.web.conftest import sign_in_over_http
from workers.notices import Mailer, due_notices

__all__ = ["mailing", "smtp"]


# Bo deals, one card at a time from Ada (seat 0): Ada 9C 5H 3C, Bo 4D 6S 9D, the starter 4H; no
# card with an effect, so Ada is the first to move
DEALT = ["9C", "4D", "5H", "6S", "3C", "9D", "4H"]
TABLE = {
    "first_dealer": 1,
    "options": {"hand_size": 3},
    "deck": DEALT + [card for card in format_cards(FULL_DECK) if card not in DEALT],
}


def own_page(client: TestClient[Any], token: str) -> TestClient[Any]:
    browser = browser_on(client)
    sign_in(browser, token)
    return browser


def choose(browser: TestClient[Any], player_id: str, *fields: str, email: str = "") -> Any:
    page = browser.get(f"/web/players/{player_id}")
    form = {"csrf": csrf_of(page.text), "email": email, **{name: "on" for name in fields}}
    return browser.post(f"/web/players/{player_id}/notices", data=form)


def notices_of(services: Services, player_id: str, kind: str, count: int = 1) -> list[Notice]:
    """The person's notices of a kind, once the projection made ``count`` of them."""
    deadline = time.monotonic() + 20
    while True:
        found = [n for n in services.notices.after(player_id, 0) if n.kind == kind]
        if len(found) >= count:
            return found
        assert time.monotonic() < deadline, f"no {kind} notice for {player_id}"
        time.sleep(0.1)


def ada_to_move(
    client: TestClient[Any], name: str, *fields: str, email: str = ""
) -> tuple[str, dict[str, str], tuple[str, str], Notice]:
    """Ada (who chose ``fields``) and Bo at a new table, Ada to move: her id, her headers, Bo's id and
    token, her notice."""
    club = Club(client)
    ada, ada_token, _ = player(club, f"Ada {name}")
    bo, bo_token, _ = player(club, f"Bo {name}")
    chosen = choose(own_page(client, ada_token), ada, *fields, email=email)
    assert chosen.status_code == 200 and 'data-done="notices"' in chosen.text
    game = club.ok("POST", "/games", json={"seats": [ada, bo], **TABLE})["game_id"]
    (notice,) = notices_of(client.app.state.services, ada, "your_move")
    assert notice.data["game_id"] == game
    return ada, _bearer(ada_token), (bo, bo_token), notice


def ada_plays(client: TestClient[Any], headers: dict[str, str], notice: Notice) -> Any:
    """Ada plays 5H on the starter 4H: her turn the notice was made at is gone, Bo's comes."""
    body = {"kind": "play", "card": "5H", "version": notice.data["event_number"]}
    return Club(client).ok("POST", f"/games/{notice.data['game_id']}/moves", headers=headers, json=body)


def mailer(services: Services) -> Mailer:
    return Mailer(services.app, services.notices, services.settings, read_catalogues())


def test_a_chosen_kind_is_mailed_once_an_unchosen_one_never_and_a_stream_carries_only_its_own(
    mailing: TestClient[Any], smtp: tuple[Controller, Inbox]
):
    _, inbox = smtp
    services: Services = mailing.app.state.services
    fields = ("kind_your_move", "channel_mail", "channel_browser")
    ada, headers, (bo, bo_token), notice = ada_to_move(mailing, "Notice", *fields, email="ada@example.org")
    assert notice.mail == "pending"
    assert "cards" not in notice.data and "hand" not in notice.data  # public facts only
    assert due_notices(services.notices, 0.0, 100) == [notice.notice_id]
    assert mailer(services).mail(notice.notice_id)
    assert not mailer(services).mail(notice.notice_id)  # the task run twice: one mail
    assert due_notices(services.notices, 0.0, 100) == []
    ((to, mail),) = inbox.mails
    assert to == ["ada@example.org"] and mail["Subject"] == "It is your move."
    assert "It is your move." in text_of(mail)
    assert "http" not in text_of(mail) and "/web/" not in text_of(mail)  # no MAUMAU_PUBLIC_URL: no link

    # Bo wants mail and the browser, but of rulings only: his turn is not his to hear of
    bo_page = own_page(mailing, bo_token)
    fields = ("kind_dispute_ruled", "channel_mail", "channel_browser")
    assert choose(bo_page, bo, *fields, email="bo@example.org").status_code == 200
    played = ada_plays(mailing, headers, notice)
    # Bo draws (no heart, no five): Ada's turn again, a notice of hers made after his turn was folded
    draw = {"kind": "draw", "version": played["version"]}
    Club(mailing).ok("POST", f"/games/{notice.data['game_id']}/moves", headers=_bearer(bo_token), json=draw)
    notices_of(services, ada, "your_move", count=2)
    assert services.notices.after(bo, 0) == []
    assert browser_notices(services, _actor(bo), 0) == []  # and none of Ada's
    assert [n.player_id for n in browser_notices(services, _actor(ada), 0)] == [ada, ada]
    assert len(due_notices(services.notices, 0.0, 100)) == 1  # Ada's second turn; nothing of Bo's
    assert len(inbox.mails) == 1


def test_your_move_is_not_mailed_once_the_person_moved(
    mailing: TestClient[Any], smtp: tuple[Controller, Inbox]
):
    _, inbox = smtp
    services: Services = mailing.app.state.services
    fields = ("kind_your_move", "channel_mail")
    _, headers, _, notice = ada_to_move(mailing, "Moved", *fields, email="ada@example.org")
    ada_plays(mailing, headers, notice)
    assert not mailer(services).mail(notice.notice_id)
    assert inbox.mails == []


@pytest.mark.parametrize(
    ("fields", "email", "status", "code"),
    [
        (("kind_your_move", "kind_bogus"), "", 400, "malformed_request"),
        (("channel_pigeon",), "", 400, "malformed_request"),
        (("kind_your_move", "channel_mail"), "", 422, "invalid_email"),
        (("kind_your_move", "channel_mail"), "ada@example.org, eve@example.org", 422, "invalid_email"),
    ],
)
def test_a_bad_choice_is_refused_with_its_reason_and_changes_nothing(
    mailing: TestClient[Any], fields: tuple[str, ...], email: str, status: int, code: str
):
    club = Club(mailing)
    services: Services = mailing.app.state.services
    ada, token, _ = player(club, "Ada Refused")
    browser = own_page(mailing, token)
    assert choose(browser, ada, "kind_table_ready", "channel_browser").status_code == 200
    before = services.notices.prefs(ada)
    refused = choose(browser, ada, *fields, email=email)
    assert refused.status_code == status and f'data-code="{code}"' in refused.text
    assert "Refused: nothing was changed." in refused.text
    assert services.notices.prefs(ada) == before


def test_nobody_chooses_another_persons_notifications_and_mail_needs_a_mailing_service(
    club: Club, client: TestClient[Any]
):
    ada, ada_token, _ = player(club, "Ada Own")
    _, bo_token, _ = player(club, "Bo Other")
    refused = choose(own_page(client, bo_token), ada, "kind_your_move", "channel_browser")
    assert refused.status_code == 403 and 'data-code="forbidden"' in refused.text
    services: Services = client.app.state.services
    assert services.notices.prefs(ada).kinds == ()
    # no MAUMAU_SMTP_URL: the page offers no mail, and a mail chosen anyway is refused
    page = own_page(client, ada_token)
    assert "channel_mail" not in page.get(f"/web/players/{ada}").text
    refused = choose(page, ada, "kind_your_move", "channel_mail", email="ada@example.org")
    assert refused.status_code == 422 and "this service sends no e-mail" in refused.text


def _actor(player_id: str) -> Actor:
    return Actor("player", player_id)


def _bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def test_maumau_serve_mails_a_chosen_turn_once_by_its_tick_and_worker(
    tmp_path: Path, smtp: tuple[Controller, Inbox]
):
    """The whole way on the embedded serve: the projection makes the notice, the beat's tick queues
    its mail, the worker sends it; more ticks send nothing more."""
    server, inbox = smtp
    port = free_port()
    env = {
        **FAST,
        "MAUMAU_ADMIN_TOKEN": ADMIN_TOKEN,
        "MAUMAU_SMTP_URL": f"smtp://127.0.0.1:{server.port}?from=club@example.org",
        "MAUMAU_NOTIFY_MOVE_AFTER": "0",
    }
    base = f"http://127.0.0.1:{port}"
    with serving(tmp_path, port, env=env), httpx.Client(base_url=base, timeout=30) as client:
        club = Club(client)  # type: ignore[arg-type]  # the same request() as litestar's TestClient
        ada, ada_token, _ = player(club, "Ada Served")
        bo, _, _ = player(club, "Bo Served")
        sign_in_over_http(client, ada_token)
        page = client.get(f"/web/players/{ada}").text
        form = {
            "csrf": csrf_of(page),
            "kind_your_move": "on",
            "channel_mail": "on",
            "email": "ada@example.org",
        }
        assert client.post(f"/web/players/{ada}/notices", data=form).status_code == 200
        club.ok("POST", "/games", json={"seats": [ada, bo], **TABLE})
        deadline = time.monotonic() + 30
        while not inbox.mails:
            assert time.monotonic() < deadline, "no mail came"
            time.sleep(0.1)
        time.sleep(2)  # ten more ticks
    ((to, mail),) = inbox.mails
    assert to == ["ada@example.org"] and mail["Subject"] == "It is your move."

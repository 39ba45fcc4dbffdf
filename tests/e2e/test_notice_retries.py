"""A notice's mail the SMTP server refused, or could not take (it was down), is tried again 1, 5 and
25 minutes on (``Notices.send_failed``), each try claimed again so a task run twice still mails once;
after the fourth failed send it is failed, logged without the address, and tried no more. A claim
whose worker died before the send's outcome runs out and counts as a failed send: the mail goes
again, not lost. A real aiosmtpd server; the minutes are passed as the ``now`` the tick and the
mailer take."""

import logging
import time
from collections.abc import Iterator
from typing import Any

import pytest
from aiosmtpd.controller import Controller
from litestar.testing import TestClient

from service.persistence.notices import ATTEMPTS, LEASE, RETRY_AFTER, Notice
from service.usecases.services import Services
from tests.e2e.test_embedded import free_port
from tests.e2e.test_mail import Inbox, mailing
from tests.e2e.test_notices import ada_to_move, mailer
from workers.notices import due_notices

__all__ = ["mailing"]

MAIL = ("kind_your_move", "channel_mail")


class Refusing(Inbox):
    """An inbox whose server refuses the first ``refusals`` mails for now ("try again later")."""

    def __init__(self) -> None:
        super().__init__()
        self.refusals = 0

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        if self.refusals > 0:
            self.refusals -= 1
            return "451 4.3.0 Try again later"
        return await super().handle_DATA(server, session, envelope)


class Server:
    """An SMTP server on one port that can go down and come back (a controller is started once)."""

    def __init__(self, inbox: Inbox) -> None:
        self.inbox, self.port = inbox, free_port()
        self.controller: Controller | None = None

    def up(self) -> None:
        self.controller = Controller(self.inbox, hostname="127.0.0.1", port=self.port)
        self.controller.start()

    def down(self) -> None:
        if self.controller is not None:
            self.controller.stop()
            self.controller = None


@pytest.fixture
def smtp() -> Iterator[tuple[Server, Refusing]]:
    """``mailing``'s server (this module's fixture of the name): one that can refuse or go down."""
    inbox = Refusing()
    server = Server(inbox)
    server.up()
    yield server, inbox
    server.down()


def waiting_for_ada(mailing: TestClient[Any], name: str) -> tuple[Services, Notice]:
    """The service, and its "your move" notice to Ada, who chose it by mail."""
    _, _, _, notice = ada_to_move(mailing, name, *MAIL, email="ada@example.org")
    return mailing.app.state.services, notice


def stored(services: Services, notice: Notice) -> Notice:
    (found,) = [n for n in services.notices.after(notice.player_id, 0) if n.notice_id == notice.notice_id]
    return found


def test_a_refused_mail_is_sent_once_when_its_retry_is_due(
    mailing: TestClient[Any], smtp: tuple[Server, Refusing]
):
    _, inbox = smtp
    inbox.refusals = 1
    services: Services = mailing.app.state.services
    _, _, _, notice = ada_to_move(mailing, "Refused", *MAIL, email="ada@example.org")
    now = time.time()
    assert due_notices(services.notices, 0.0, 100, now) == [notice.notice_id]
    assert not mailer(services).mail(notice.notice_id, now)
    again = stored(services, notice)
    assert (again.mail, again.attempts, again.due) == ("pending", 1, now + RETRY_AFTER[0])
    assert not mailer(services).mail(notice.notice_id, now)  # the failed task run again: nothing
    assert due_notices(services.notices, 0.0, 100, now + RETRY_AFTER[0] - 1) == []  # not due yet
    assert due_notices(services.notices, 0.0, 100, now + RETRY_AFTER[0]) == [notice.notice_id]
    assert mailer(services).mail(notice.notice_id, now + RETRY_AFTER[0])
    assert not mailer(services).mail(notice.notice_id, now + RETRY_AFTER[0])  # the retry run twice
    ((to, mail),) = inbox.mails
    assert to == ["ada@example.org"] and mail["Subject"] == "It is your move."
    assert stored(services, notice).mail == "sent"
    assert due_notices(services.notices, 0.0, 100, now + 86400) == []


def test_a_mail_server_down_for_every_try_leaves_the_notice_failed_logged_without_its_address(
    mailing: TestClient[Any], smtp: tuple[Server, Refusing], caplog: pytest.LogCaptureFixture
):
    server, inbox = smtp
    services: Services = mailing.app.state.services
    _, _, _, notice = ada_to_move(mailing, "Down", *MAIL, email="ada@example.org")
    server.down()
    try:
        at = time.time()
        with caplog.at_level(logging.WARNING):
            for attempt in range(ATTEMPTS):
                assert due_notices(services.notices, 0.0, 100, at) == [notice.notice_id], attempt
                assert not mailer(services).mail(notice.notice_id, at)
                if attempt < len(RETRY_AFTER):
                    assert stored(services, notice).attempts == attempt + 1
                    at += RETRY_AFTER[attempt]
    finally:
        server.up()
    failed = stored(services, notice)
    assert (failed.mail, failed.attempts) == ("failed", ATTEMPTS)
    assert due_notices(services.notices, 0.0, 100, at + 86400) == []  # no more tries
    assert not mailer(services).mail(notice.notice_id, at + 86400)
    assert inbox.mails == []  # the server is back: nothing comes
    (given_up,) = [r for r in caplog.records if r.getMessage() == "notice mail failed: no more tries"]
    assert (
        given_up.__dict__["notice_id"] == str(notice.notice_id) and given_up.__dict__["kind"] == "your_move"
    )
    for record in caplog.records:
        assert "ada@example.org" not in f"{record.getMessage()} {record.__dict__}"


def test_a_mail_whose_worker_died_after_claiming_it_is_sent_once_its_claim_runs_out(
    mailing: TestClient[Any], smtp: tuple[Server, Refusing]
):
    _, inbox = smtp
    services, notice = waiting_for_ada(mailing, "Orphaned")
    now = time.time()
    assert due_notices(services.notices, 0.0, 100, now) == [notice.notice_id]
    claimed = services.notices.claim(notice.notice_id, now)  # the worker that claimed it dies here
    assert claimed is not None and stored(services, notice).mail == "sending"
    assert not mailer(services).mail(notice.notice_id, now)  # its task run again: still claimed
    assert due_notices(services.notices, 0.0, 100, now + LEASE - 1) == []  # the claim still holds
    assert inbox.mails == []
    assert due_notices(services.notices, 0.0, 100, now + LEASE) == [notice.notice_id]
    again = stored(services, notice)
    assert (again.mail, again.attempts) == ("pending", 1)
    assert mailer(services).mail(notice.notice_id, now + LEASE)
    ((to, mail),) = inbox.mails
    assert to == ["ada@example.org"] and mail["Subject"] == "It is your move."
    assert stored(services, notice).mail == "sent"
    assert due_notices(services.notices, 0.0, 100, now + 2 * LEASE + 86400) == []


def test_a_notice_whose_every_claim_runs_out_is_failed_after_the_last_try(
    mailing: TestClient[Any], smtp: tuple[Server, Refusing]
):
    _, inbox = smtp
    services, notice = waiting_for_ada(mailing, "Cursed")
    at = time.time()
    for attempt in range(ATTEMPTS):
        assert due_notices(services.notices, 0.0, 100, at) == [notice.notice_id], attempt
        assert services.notices.claim(notice.notice_id, at) is not None  # and its worker dies
        at += LEASE
    assert due_notices(services.notices, 0.0, 100, at) == []  # the last claim ran out: no more tries
    failed = stored(services, notice)
    assert (failed.mail, failed.attempts) == ("failed", ATTEMPTS)
    assert not mailer(services).mail(notice.notice_id, at)
    assert inbox.mails == []

"""Mailing people's notices: the step the task ``maumau.mail_notice`` runs, after the tick found
the notice's mail due (``Notices.due``: at once, or "your move" after ``MAUMAU_NOTIFY_MOVE_AFTER``).

``Mailer.mail(notice_id)`` claims the notice (``Notices.claim``: marked sending for a few minutes,
so a task run twice sends one mail), then sends it only if the person still wants it
(mail and that kind chosen, an address given), the notice is fresh (a rebuild makes old ones
again), and, for "your move", the turn still waits for them (the game, or the Mao match, has no
event after the one that made it: a person who moved, or whose turn passed, gets nothing). Else it
is marked skipped. The mail says what the notice says (``service.web.notice_words``), in the
language of the page the choice was saved on, ending with a link to the notice's page when
``MAUMAU_PUBLIC_URL`` says where people reach the service (a worker has no request to take it
from); never a card.

A send that fails (the SMTP server refused it, or did not answer) puts the notice back to pending,
due again 1, 5 and 25 minutes on (``Notices.send_failed``); the fourth failure marks it failed and
logs so, with its kind and id only (no address, nothing of the mail). Each try claims it again, so
a retry too is sent once. A worker that dies between its claim and its word on the send leaves the
claim to run out; the tick then counts a failed send and the mail goes again, not lost.
"""

import logging
import time
from collections.abc import Mapping
from uuid import UUID

from service.application import MauMau
from service.domain.errors import RuleError
from service.domain.mao.autoplay import seat_to_move
from service.persistence.notices import (
    ATTEMPTS,
    FAILED,
    FRESH,
    LEASE,
    RETRY_AFTER,
    YOUR_MOVE,
    Notice,
    Notices,
)
from service.projections.hooks import turn_of
from service.settings import Settings
from service.usecases import mail
from service.web.i18n import Catalogue
from service.web.notice_words import mail_of

log = logging.getLogger(__name__)


class Mailer:
    def __init__(
        self, app: MauMau, notices: Notices, settings: Settings, catalogues: Mapping[str, Catalogue]
    ):
        self.app = app
        self.notices = notices
        self.settings = settings
        self.catalogues = catalogues

    def mail(self, notice_id: UUID | str, now: float | None = None) -> bool:
        """Send the notice's mail if it is still wanted; whether a mail went."""
        now = time.time() if now is None else now
        notice = self.notices.claim(UUID(str(notice_id)), now)
        if notice is None:
            return False  # sent, skipped, failed, or another task has it
        prefs = self.notices.prefs(notice.player_id)
        wanted = "mail" in prefs.channels and notice.kind in prefs.kinds and bool(prefs.email)
        # a retry may come up to the waits' sum later than the first try, and a claim run out a lease
        late = (
            now - notice.created
            > FRESH + self.settings.notify_move_after + sum(RETRY_AFTER) + ATTEMPTS * LEASE
        )
        if not wanted or late or not mail.mails(self.settings) or not self._still_due(notice):
            self.notices.skip(notice.notice_id)
            return False
        catalogue = self.catalogues.get(prefs.language) or self.catalogues["en"]
        subject, text = mail_of(
            catalogue.gettext, notice.kind, notice.data, self._zone(notice), self.settings.public_url
        )
        sent = mail.send(self.settings, prefs.email, subject, text)
        if sent:
            self.notices.sent(notice.notice_id)
        else:
            became = self.notices.send_failed(notice, now)
            # the kind and the notice's id: never the address nor the mail's words
            extra = {"kind": notice.kind, "notice_id": str(notice.notice_id), "attempts": notice.attempts + 1}
            if became == FAILED:
                log.warning("notice mail failed: no more tries", extra=extra)
            else:
                log.warning("notice not mailed: tried again later", extra=extra)
        return sent

    def _still_due(self, notice: Notice) -> bool:
        if notice.kind != YOUR_MOVE:
            return True
        data = notice.data
        try:
            if "mao_game_id" in data:
                match = self.app.get_mao_game(data["mao_game_id"])
                version, turn = match.version, seat_to_move(match)
            else:
                game = self.app.get_game(data["game_id"])
                version, turn = game.version, turn_of(game)
        except RuleError:
            return False
        # the event that made it is still the game's last: the person has not moved since
        return version == data["event_number"] and turn == data["seat"]

    def _zone(self, notice: Notice) -> str:
        league_id = notice.data.get("league_id")
        if league_id is None:
            return "UTC"
        try:
            return self.app.get_league(league_id).time_zone
        except RuleError:
            return "UTC"


def due_notices(notices: Notices, move_after: float, limit: int, now: float | None = None) -> list[UUID]:
    """The notices whose mail is due now and no task was queued for lately: marked queued."""
    return notices.due(time.time() if now is None else now, move_after, limit)

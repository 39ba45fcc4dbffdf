"""Mailing people's notices: the step the task ``maumau.mail_notice`` runs, after the tick found
the notice's mail due (``Notices.due``: at once, or "your move" after ``MAUMAU_NOTIFY_MOVE_AFTER``).

``Mailer.mail(notice_id)`` claims the notice (``Notices.claim``: it is marked sent before the mail
goes, so a task run twice sends one mail at most), then sends it only if the person still wants it
(mail and that kind chosen, an address given), the notice is fresh (a rebuild makes old ones
again), and, for "your move", the turn still waits for them (the game has no event after the one
that made it: a person who moved, or whose turn passed, gets nothing). Else it is marked skipped.
The mail says what the notice says (``service.web.notice_words``), in the language of the page the
choice was saved on; never a card.
"""

import logging
import time
from collections.abc import Mapping
from uuid import UUID

from service.application import MauMau
from service.domain.errors import RuleError
from service.persistence.notices import FRESH, YOUR_MOVE, Notice, Notices
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
        notice = self.notices.claim(UUID(str(notice_id)))
        if notice is None:
            return False  # sent, skipped, or another task has it
        prefs = self.notices.prefs(notice.player_id)
        wanted = "mail" in prefs.channels and notice.kind in prefs.kinds and bool(prefs.email)
        late = (
            time.time() if now is None else now
        ) - notice.created > FRESH + self.settings.notify_move_after
        if not wanted or late or not self._still_due(notice):
            self.notices.skip(notice.notice_id)
            return False
        catalogue = self.catalogues.get(prefs.language) or self.catalogues["en"]
        subject, text = mail_of(catalogue.gettext, notice.kind, notice.data, self._zone(notice))
        sent = mail.send(self.settings, prefs.email, subject, text)
        if not sent:
            log.warning("notice not mailed", extra={"kind": notice.kind})
        return sent

    def _still_due(self, notice: Notice) -> bool:
        if notice.kind != YOUR_MOVE:
            return True
        try:
            game = self.app.get_game(notice.data["game_id"])
        except RuleError:
            return False
        # the event that made it is still the game's last: the person has not moved since
        return game.version == notice.data["event_number"] and turn_of(game) == notice.data["seat"]

    def _zone(self, notice: Notice) -> str:
        league_id = notice.data.get("league_id")
        if league_id is None:
            return "UTC"
        try:
            return self.app.get_league(league_id).time_zone
        except RuleError:
            return "UTC"


def due_notices(notices: Notices, move_after: float, limit: int) -> list[UUID]:
    """The notices whose mail is due now and no task was queued for lately: marked queued."""
    return notices.due(time.time(), move_after, limit)

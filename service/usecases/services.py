"""What the faces and the use cases work with, built once per process by the app's lifespan
(``service.app``).

``Services`` holds the application (writes, the event log, replay), a game's own reads as it is now
(``current``: its table, a seat's view, its totals), the read models (standings, histories,
tournaments), each actor's last write (``writes``, which reads of the read models wait for), the
authenticator of tokens, the pages' sessions, and ``games``: the facts of each game
(``service.usecases.facts``), which every authorisation and every redaction needs.
"""

import logging
import threading
from typing import Any

from service.application import MauMau, followups
from service.auth.tokens import Authenticator
from service.domain.roles import Actor
from service.observability.readiness import Probe
from service.persistence.notices import Notices
from service.persistence.sessions import Sessions
from service.projections.current import CurrentGames
from service.projections.live import LiveGames
from service.projections.reader import ReadModels
from service.projections.runner import start_projections
from service.settings import Settings
from service.usecases.consistency import READ_WAIT_SECONDS, Writes, caught_up
from service.usecases.facts import Games

log = logging.getLogger(__name__)


class Services:
    """The use cases' ``Context`` (``service.usecases.context``), and the rest the faces need."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.app = MauMau(settings)
        followups.register(self.app)  # the API's changes are answered by the workers
        self.running: Any = None
        try:
            self.reader = ReadModels(settings)
            if settings.run_projections:
                self.running = start_projections(settings)
        except BaseException:
            self.app.close()
            raise
        self.auth = Authenticator(
            self.app,
            settings.admin_token,
            note_use=self.reader.views.token_uses.note,
            cache_seconds=settings.token_cache_seconds,
        )
        self.readiness = Probe(self.app, self.reader, settings)
        self.games = Games(self.app)
        self.current = CurrentGames(self.app, self.reader.views)
        self.writes = Writes(self.reader.views)
        self.sessions = Sessions(self.reader.views)  # the web pages' (``service.auth.sessions``)
        self.notices = Notices(self.reader.views)
        self._live: LiveGames | None = None
        self._live_starting = threading.Lock()

    @property
    def live(self) -> LiveGames:
        """The games this process's streams follow (its threads start with the first stream)."""
        if self._live is None:
            with self._live_starting:
                if self._live is None:
                    self._live = LiveGames(self.app, self.reader.views, self.settings.database_url)
        return self._live

    def wrote(self, actor: Actor, position: int | None = None) -> None:
        """A write of ``actor`` succeeded, its last event at ``position`` (None: not known, the log's
        last position now, which is at or after it): their next reads of the read models wait for it."""
        try:
            if position is None:
                position = self.app.recorder.max_notification_id() or 0
            self.writes.note(actor, position)
        except Exception:
            # the write is stored: answering it as failed would make the client send it again
            log.warning("a write's position not noted: the writer's reads may not show it", exc_info=True)

    def read_after_own_writes(self, actor: Actor) -> None:
        try:
            written = self.writes.last(actor)
        except Exception:
            # the read itself goes on: it answers what the read models have, or fails on its own
            log.warning("an actor's last write not read: the read does not wait for it", exc_info=True)
            return
        if written and self.reader.position() < written:
            self.reader.wait_for(written, timeout=READ_WAIT_SECONDS)

    def read_after(self, position: int) -> None:
        caught_up(self.reader, position, lambda: position)

    def close(self) -> None:
        if self._live is not None:
            self._live.close()
        if self.running is not None:
            self.running.stop()
        self.reader.close()
        self.app.close()

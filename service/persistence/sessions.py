"""The web pages' sessions: one row per browser signed in, so a session can end on the server.

A browser's sealed cookie (``service.web.session``) names its session by a random id; every page
asks ``views_sessions`` whether that session is still open. Signing out deletes the row, so a copy
of the cookie taken before is worth nothing after, on every API process at once (no process keeps
an answer). A row holds who signed in (subject, role, the token's credential: no token nor its
hash), when, when it was last used (noted at most once per ``USE_GRANULARITY`` per process and
session) and the browser and system in a word each, which the player's page lists.

A session lasts ``LIFETIME`` after its last use, as the cookie does; older rows are deleted at the
next sign-in. A revoked token ends its sessions at their next request (the page checks the token as
well), which deletes their rows. Like the token uses (``notes``), the table is outside the event log,
in the read models' store but no read model: a rebuild keeps it (it cannot be derived from the log).
"""

import threading
import time
from datetime import UTC, datetime
from typing import Any
from uuid import UUID, uuid4

import msgspec

from service.domain.roles import Actor
from service.persistence.dialect import Dialect, Statements

LIFETIME = 14 * 24 * 3600  # seconds a session lasts after its last use
USE_GRANULARITY = 300.0  # seconds: how stale a session's "last used" may be
MEMORY = 10_000  # sessions whose last noted use a process remembers
COLUMNS = "session_id, subject, role, credential_id, created, used, browser, system"


class WebSession(msgspec.Struct, frozen=True, kw_only=True):
    session_id: UUID
    subject: str  # whom it speaks for: a player's, a referee's or an admin's id
    role: str
    credential_id: UUID | None  # the token signed in with; None: MAUMAU_ADMIN_TOKEN
    created: datetime
    used: datetime
    browser: str  # "" when the browser did not say
    system: str


def statements(d: Dialect) -> dict[str, str]:
    s, ph = d.table("sessions"), d.ph
    return {
        "session_opened": f"INSERT INTO {s} ({COLUMNS}) VALUES ({d.marks(8)})",
        "session": f"SELECT {COLUMNS} FROM {s} WHERE session_id = {ph} AND used >= {ph}",
        "session_used": f"UPDATE {s} SET used = {ph} WHERE session_id = {ph} AND used < {ph}",
        "session_ended": f"DELETE FROM {s} WHERE session_id = {ph} RETURNING subject",
        "own_session_ended": f"DELETE FROM {s} WHERE session_id = {ph} AND subject = {ph} RETURNING subject",
        "sessions_of": f"SELECT {COLUMNS} FROM {s} WHERE subject = {ph} AND role = {ph} AND used >= {ph} "
        "ORDER BY created DESC, session_id",
        "sessions_expired": f"DELETE FROM {s} WHERE used < {ph}",
        "sessions_of_ended": f"DELETE FROM {s} WHERE subject = {ph}",
    }


def create(d: Dialect) -> list[str]:
    s = d.table("sessions")
    return [
        f"CREATE TABLE IF NOT EXISTS {s} (session_id {d.uuid} PRIMARY KEY, "
        f"subject text NOT NULL, role text NOT NULL, credential_id {d.uuid}, created {d.integer} NOT NULL, "
        f"used {d.integer} NOT NULL, browser text NOT NULL, system text NOT NULL)",
        f"CREATE INDEX IF NOT EXISTS {d.prefix}_sessions_subject ON {s} (subject, role)",
        f"CREATE INDEX IF NOT EXISTS {d.prefix}_sessions_used ON {s} (used)",
    ]


class Sessions:
    """The sessions' queries over the read models' store (``store.Views``), and this process's notes
    of when it last wrote each session's use."""

    def __init__(self, store: Statements) -> None:
        self.store = store
        self._noted: dict[UUID, float] = {}  # when this process last noted each session's use (monotonic)
        self._lock = threading.Lock()

    def open(
        self,
        actor: Actor,
        credential_id: UUID | None,
        browser: str,
        system: str,
        now: float | None = None,
    ) -> UUID:
        """A new session for ``actor``; the sessions unused for ``LIFETIME`` are deleted with it."""
        at = _ms(time.time() if now is None else now)
        session_id = uuid4()
        row = (session_id, actor.id, actor.role, credential_id, at, at, browser, system)
        self.store.execute_all([("sessions_expired", (at - LIFETIME * 1000,)), ("session_opened", row)])
        return session_id

    def live(self, session_id: UUID, now: float | None = None) -> WebSession | None:
        """The session while it is open (not ended, used within ``LIFETIME``), its use noted."""
        at = _ms(time.time() if now is None else now)
        rows = self.store.query("session", (session_id, at - LIFETIME * 1000))
        if not rows:
            return None
        if self._due(session_id):
            self.store.execute("session_used", (at, session_id, at))
        return _session(rows[0])

    def _due(self, session_id: UUID) -> bool:
        now = time.monotonic()
        with self._lock:
            noted = self._noted.get(session_id)
            if noted is not None and now - noted < USE_GRANULARITY:
                return False
            if len(self._noted) >= MEMORY:
                self._noted.clear()
            self._noted[session_id] = now
            return True

    def end(self, session_id: UUID, subject: str | None = None) -> bool:
        """End the session (only ``subject``'s, when given); whether it was open and so ended now."""
        if subject is None:
            ended = self.store.change("session_ended", (session_id,))
        else:
            ended = self.store.change("own_session_ended", (session_id, subject))
        with self._lock:
            self._noted.pop(session_id, None)
        return bool(ended)

    def of(self, actor: Actor, now: float | None = None) -> list[WebSession]:
        """``actor``'s open sessions, the newest first."""
        at = _ms(time.time() if now is None else now)
        rows = self.store.query("sessions_of", (actor.id, actor.role, at - LIFETIME * 1000))
        return [_session(row) for row in rows]

    def end_all(self, subject: str) -> None:
        """End every session of ``subject`` (an erased player's)."""
        self.store.execute("sessions_of_ended", (subject,))


def _ms(seconds: float) -> int:
    return int(seconds * 1000)


def _uuid(value: Any) -> UUID:
    return value if isinstance(value, UUID) else UUID(str(value))


def _session(row: tuple[Any, ...]) -> WebSession:
    session_id, subject, role, credential_id, created, used, browser, system = row
    return WebSession(
        session_id=_uuid(session_id),
        subject=subject,
        role=role,
        credential_id=None if credential_id is None else _uuid(credential_id),
        created=datetime.fromtimestamp(created / 1000, UTC),
        used=datetime.fromtimestamp(used / 1000, UTC),
        browser=browser,
        system=system,
    )

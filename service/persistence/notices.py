"""People's notifications: what each person chose to hear of (``notice_prefs``) and the notices
made for them (``notices``), in the read models' store but no read model: a rebuild keeps both
(a choice cannot be derived from the log, nor whether a notice was mailed).

A notice is made by the projection (``service.projections.views.notices``) from an event of the
log, for one person who chose its kind, with an id that follows from the event's position, the
kind and the person: folding the log again (a rebuild) finds it there already
(``ON CONFLICT DO NOTHING``). Its ``mail`` column says where its mail stands: ``none`` (not
chosen), ``pending`` (due at ``due``), ``sending`` (a worker claimed it for ``LEASE`` seconds:
``due`` is when the claim runs out), ``sent``, ``skipped`` or ``failed``. A send the SMTP server
refused (or a server that did not answer) puts it back to ``pending``, due again after
``RETRY_AFTER``'s next wait, its ``attempts`` counted; after ``ATTEMPTS`` sends it is ``failed``,
tried no more. A claim that ran out (the worker died, or was killed, before it said how the send
went) counts as a failed send too, at the tick: the mail is sent again rather than lost (once more
at worst, when the worker died after the server took it). The per-person stream reads the notices
after a position; the tick queues the mails due.

The kinds and channels are the words stored; ``docs/web.md`` says what each means.
"""

import time
from collections.abc import Iterable
from typing import Any
from uuid import UUID

import msgspec

from service.persistence.dialect import Dialect, Statements

TABLE_READY, ROUND_STARTING, YOUR_MOVE, DISPUTE_RULED = (
    "table_ready",
    "round_starting",
    "your_move",
    "dispute_ruled",
)
KINDS = (TABLE_READY, ROUND_STARTING, YOUR_MOVE, DISPUTE_RULED)
MAIL, BROWSER = "mail", "browser"
CHANNELS = (MAIL, BROWSER)
NONE, PENDING, SENDING, SENT, SKIPPED, FAILED = "none", "pending", "sending", "sent", "skipped", "failed"
KEEP, PRUNE_EVERY = 86400.0, 3600.0  # seconds a notice is kept; how often the tick deletes older ones
FRESH = 900.0  # seconds: an older notice (one a rebuild made again) is neither streamed nor mailed
COLUMNS = "notice_id, player_id, kind, payload, created, position, mail, due"
READ = f"{COLUMNS}, attempts"  # what a notice is read back with
# seconds after a failed send before the next: 1, 5 and 25 minutes, so a mail server down for half an
# hour loses nothing; the fourth failed send is the last
RETRY_AFTER = (60.0, 300.0, 1500.0)
ATTEMPTS = len(RETRY_AFTER) + 1
# seconds a worker's claim on a notice holds: beyond the mail task's hard time limit (90 s), so a
# claim runs out only when its task is surely over
LEASE = 300.0
# columns added to the notices' table after it was first made: ``db init`` (the store's
# ``create_table``) adds them to a table made before, with their default
ADDED_COLUMNS = (("notices", "attempts", "integer NOT NULL DEFAULT 0"),)


class Prefs(msgspec.Struct, frozen=True, kw_only=True):
    kinds: tuple[str, ...] = ()
    channels: tuple[str, ...] = ()
    email: str = ""  # "" when none was given
    language: str = "en"  # the page's when the choice was saved: the mails' language


class Notice(msgspec.Struct, frozen=True, kw_only=True):
    notice_id: UUID
    player_id: str
    kind: str
    data: dict[str, Any]  # public facts only: ids, names, numbers, times (never a card)
    created: float  # Unix time of the event it was made of
    position: int  # the event's position in the log
    mail: str
    due: float
    attempts: int = 0  # sends tried and failed


_json = msgspec.json.Encoder().encode
_from_json = msgspec.json.Decoder(dict[str, Any]).decode


def create(d: Dialect) -> list[str]:
    p = d.table("notice_prefs")
    return [
        f"CREATE TABLE IF NOT EXISTS {p} (player_id text PRIMARY KEY, kinds text NOT NULL, "
        "channels text NOT NULL, email text NOT NULL, language text NOT NULL)",
    ]


def notice_tables(d: Dialect) -> list[str]:
    """The notices' table, which the projection's view makes (and a rebuild keeps)."""
    n = d.table("notices")
    return [
        f"CREATE TABLE IF NOT EXISTS {n} (notice_id {d.uuid} PRIMARY KEY, player_id text NOT NULL, "
        f"kind text NOT NULL, payload text NOT NULL, created {d.real} NOT NULL, "
        f"position {d.integer} NOT NULL, mail text NOT NULL, due {d.real} NOT NULL, "
        f"queued_at {d.real} NOT NULL DEFAULT 0, attempts integer NOT NULL DEFAULT 0)",
        f"CREATE INDEX IF NOT EXISTS {d.prefix}_notices_player ON {n} (player_id, position)",
        f"CREATE INDEX IF NOT EXISTS {d.prefix}_notices_mail ON {n} (mail, due)",
        f"CREATE INDEX IF NOT EXISTS {d.prefix}_notices_created ON {n} (created)",
    ]


def statements(d: Dialect) -> dict[str, str]:
    p, ph = d.table("notice_prefs"), d.ph
    return {
        "notice_prefs": f"SELECT kinds, channels, email, language FROM {p} WHERE player_id = {ph}",
        # the choices of several people at once (the statement ends with the store's ``IN (...)``)
        "notice_prefs_of": f"SELECT player_id, kinds, channels, email, language FROM {p} WHERE player_id",
        "notice_prefs_chosen": f"INSERT INTO {p} VALUES ({d.marks(5)}) ON CONFLICT (player_id) DO UPDATE "
        "SET kinds = excluded.kinds, channels = excluded.channels, email = excluded.email, "
        "language = excluded.language",
        "notice_prefs_forgotten": f"DELETE FROM {p} WHERE player_id = {ph}",
    }


def notice_statements(d: Dialect) -> dict[str, str]:
    n, ph = d.table("notices"), d.ph
    return {
        "notices_forgotten": f"DELETE FROM {n} WHERE player_id = {ph}",
        "notice": f"INSERT INTO {n} ({COLUMNS}) VALUES ({d.marks(8)}) ON CONFLICT (notice_id) DO NOTHING",
        "notices_after": f"SELECT {READ} FROM {n} WHERE player_id = {ph} AND position > {ph} "
        f"AND created >= {ph} ORDER BY position, notice_id LIMIT 100",
        "notices_pruned": f"DELETE FROM {n} WHERE created < {ph} AND mail NOT IN ('pending', 'sending')",
        # claims that ran out: a failed send each (``send_failed``'s count, due at once)
        "notices_abandoned": f"UPDATE {n} SET attempts = attempts + 1, due = {ph}, queued_at = 0, "
        f"mail = CASE WHEN attempts + 1 >= {ATTEMPTS} THEN 'failed' ELSE 'pending' END "
        f"WHERE mail = 'sending' AND due <= {ph}",
        # a first "your move" is due later than the rest (``due``'s second and third marks); a retry
        # is due at its ``due``
        "notices_due": f"UPDATE {n} SET queued_at = {ph} WHERE notice_id IN (SELECT notice_id FROM {n} "
        f"WHERE mail = 'pending' AND due <= (CASE WHEN kind = '{YOUR_MOVE}' AND attempts = 0 "
        f"THEN {ph} ELSE {ph} END) "
        f"AND queued_at < {ph} ORDER BY due LIMIT {ph}) "
        "RETURNING notice_id",
        # a retry only once due: the task of a failed try run again sends nothing early
        "notice_claimed": f"UPDATE {n} SET mail = 'sending', due = {ph} WHERE notice_id = {ph} "
        f"AND mail = 'pending' AND (attempts = 0 OR due <= {ph}) RETURNING {READ}",
        # only the task that claimed it (``sending``) says how the send went
        "notice_sent": f"UPDATE {n} SET mail = 'sent' WHERE notice_id = {ph} AND mail = 'sending'",
        "notice_retried": f"UPDATE {n} SET mail = 'pending', attempts = {ph}, due = {ph}, queued_at = 0 "
        f"WHERE notice_id = {ph} AND mail = 'sending'",
        "notice_failed": f"UPDATE {n} SET mail = 'failed', attempts = {ph} WHERE notice_id = {ph} "
        "AND mail = 'sending'",
        "notice_skipped": f"UPDATE {n} SET mail = 'skipped' WHERE notice_id = {ph}",
    }


def row(notice: Notice) -> tuple[Any, ...]:
    """A notice as the ``notice`` statement writes it."""
    return (
        notice.notice_id,
        notice.player_id,
        notice.kind,
        _json(notice.data).decode(),
        notice.created,
        notice.position,
        notice.mail,
        notice.due,
    )


def _notice(found: tuple[Any, ...]) -> Notice:
    notice_id, player_id, kind, payload, created, position, mail, due, attempts = found
    return Notice(
        notice_id=notice_id if isinstance(notice_id, UUID) else UUID(str(notice_id)),
        player_id=player_id,
        kind=kind,
        data=_from_json(payload),
        created=float(created),
        position=int(position),
        mail=mail,
        due=float(due),
        attempts=int(attempts),
    )


def _words(text: str) -> tuple[str, ...]:
    return tuple(word for word in text.split(",") if word)


def _prefs(found: tuple[Any, ...]) -> Prefs:
    kinds, channels, email, language = found
    return Prefs(kinds=_words(kinds), channels=_words(channels), email=email, language=language)


class Notices:
    """The choices' and notices' queries over the read models' store (``store.Views``)."""

    pruned_at: float = 0.0  # when this process last deleted old notices (at a tick)

    def __init__(self, store: Statements) -> None:
        self.store = store

    def prefs(self, player_id: str) -> Prefs:
        """What the person chose; nothing chosen when they never did."""
        found = self.store.query("notice_prefs", (player_id,))
        if not found:
            return Prefs()
        return _prefs(found[0])

    def prefs_of(self, player_ids: Iterable[str]) -> dict[str, Prefs]:
        """The choices of these people who made one, in one query."""
        ids = sorted(set(player_ids))
        if not ids:
            return {}
        rows = self.store.query("notice_prefs_of", ids, self.store._in(len(ids)))
        return {row[0]: _prefs(row[1:]) for row in rows}

    def choose(self, player_id: str, prefs: Prefs) -> None:
        self.store.execute(
            "notice_prefs_chosen",
            (player_id, ",".join(prefs.kinds), ",".join(prefs.channels), prefs.email, prefs.language),
        )

    def forget(self, player_id: str) -> None:
        """An erased person's choice (their address) and notices go."""
        self.store.execute_all(
            [("notice_prefs_forgotten", (player_id,)), ("notices_forgotten", (player_id,))]
        )

    def after(self, player_id: str, position: int, now: float | None = None) -> list[Notice]:
        """The person's fresh notices after ``position``, oldest first (a hundred at most)."""
        fresh = (time.time() if now is None else now) - FRESH
        return [_notice(found) for found in self.store.query("notices_after", (player_id, position, fresh))]

    def due(self, now: float, move_after: float, limit: int) -> list[UUID]:
        """The pending mails due that no task was queued for lately, noted as queued now: a "your
        move" once it waited ``move_after`` seconds, the others at once."""
        again = now - 60.0  # a task queued a minute ago and not done was lost: queued again
        if now - self.pruned_at > PRUNE_EVERY:
            # a notice is of use for FRESH seconds: a day on, none is kept but a mail still due
            self.store.execute("notices_pruned", (now - KEEP,))
            Notices.pruned_at = now
        self.store.execute("notices_abandoned", (now, now))
        rows = self.store.change("notices_due", (now, now - move_after, now, again, limit))
        return [value if isinstance(value, UUID) else UUID(str(value)) for (value,) in rows]

    def claim(self, notice_id: UUID, now: float) -> Notice | None:
        """The notice, marked sending for ``LEASE`` seconds, when its mail was pending (a retry: and
        due by ``now``); None when another task has it or had it (a task run twice sends once)."""
        found = self.store.change("notice_claimed", (now + LEASE, notice_id, now))
        return _notice(found[0]) if found else None

    def sent(self, notice_id: UUID) -> None:
        """A claimed notice whose mail the SMTP server took."""
        self.store.execute("notice_sent", (notice_id,))

    def skip(self, notice_id: UUID) -> None:
        self.store.execute("notice_skipped", (notice_id,))

    def send_failed(self, notice: Notice, now: float) -> str:
        """A claimed notice whose send failed: pending again, due after the next wait of
        ``RETRY_AFTER``, or ``failed`` after ``ATTEMPTS`` sends; which of the two."""
        attempts = notice.attempts + 1
        if attempts >= ATTEMPTS:
            self.store.execute("notice_failed", (attempts, notice.notice_id))
            return FAILED
        self.store.execute("notice_retried", (attempts, now + RETRY_AFTER[attempts - 1], notice.notice_id))
        return PENDING

"""Webhook deliveries and their attempts: the tables, and what the workers and the API ask of them.

The projection writes a delivery row once per (hook, event, kind) (``hooks.HookFold``), with the
rows of its batch and its tracking position: ``INSERT ... ON CONFLICT DO NOTHING``, so a rebuild of
the read models, which folds the whole log again, finds every delivery it derives already there
and sends nothing again. These two tables are therefore not in ``store.TABLES``: a rebuild keeps
them (whether a delivery was sent cannot be derived from the log).

``views_deliveries``: one row per delivery, its payload (the JSON body, fixed when it is made) and
where it is: ``pending`` (to send: due at ``next_at``), ``delivered``, ``failed`` (every try of
its budget failed) or ``cancelled`` (its hook was disabled or removed before it went). A worker
``claim``s a due pending delivery for the time one try may take, so two tasks for one delivery
(a retry's and the tick's) never send it twice at once; a worker that died holding it lets the
claim run out and the tick queues it again. ``views_attempts``: each try, numbered per delivery.

A payload may name players. When the projection folds a player's erasure, ``erase_names``
rewrites, in that batch's transaction, every stored payload naming them (found by their id in
its bytes: a scan of the table, paid once per erasure and again by a rebuild) to name "erased
player" instead: the delivery keeps its id, status and tries, and a resend sends the rewritten
body. A try's error holds no payload (the status answered, or why no answer came), so the
attempts need no rewrite.
"""

import time
from typing import Any, Protocol
from uuid import UUID

import msgspec

from service.projections.hooks import erased_from

PENDING, DELIVERED, FAILED, CANCELLED = "pending", "delivered", "failed", "cancelled"
TABLES = ("deliveries", "attempts")  # kept by a rebuild: see the module's docstring
DELIVERY_COLUMNS = "delivery_id, hook_id, position, kind, payload, created"


class Attempt(msgspec.Struct, frozen=True, kw_only=True):
    number: int  # 1 for a delivery's first try, counting on after a resend
    at: float  # Unix time the try began
    status_code: int | None  # the receiver's answer; None when none came (refused, timed out)
    error: str  # "" when delivered
    duration_ms: float


class DeliveryRow(msgspec.Struct, frozen=True, kw_only=True):
    delivery_id: UUID
    hook_id: UUID
    position: int  # the event's position in the log
    kind: str
    payload: bytes
    created: float
    status: str
    attempts: int
    next_at: float
    finished: float
    last_status: int | None
    last_error: str


class Claimed(msgspec.Struct, frozen=True, kw_only=True):
    hook_id: UUID
    kind: str
    payload: bytes
    attempts: int  # tries made so far, before any resend included
    budget_from: int  # the number of tries made before the last resend


def statements(table: Any, ph: str, holds: str) -> dict[str, str]:
    """``holds``: the store's test that ``payload`` holds the bytes of the placeholder's value."""
    d, a = table("deliveries"), table("attempts")
    row = ", ".join(DeliveryRow.__struct_fields__)  # a delivery's columns, in the order ``_row`` reads
    return {
        "delivery": f"INSERT INTO {d} ({DELIVERY_COLUMNS}, next_at) VALUES ({', '.join([ph] * 7)}) "
        "ON CONFLICT (delivery_id) DO NOTHING",
        "naming": f"SELECT delivery_id, payload FROM {d} WHERE {holds}",
        "renamed": f"UPDATE {d} SET payload = {ph} WHERE delivery_id = {ph}",
        "due_deliveries": f"UPDATE {d} SET queued_at = {ph} WHERE delivery_id IN (SELECT delivery_id "
        f"FROM {d} WHERE status = 'pending' AND next_at <= {ph} AND claimed_until < {ph} "
        f"AND (queued_at = 0 OR next_at < {ph}) ORDER BY next_at LIMIT {ph}) RETURNING delivery_id",
        "claim": f"UPDATE {d} SET claimed_until = {ph} WHERE delivery_id = {ph} AND status = 'pending' "
        f"AND next_at <= {ph} AND claimed_until < {ph} "
        "RETURNING hook_id, kind, payload, attempts, budget_from",
        "attempt": f"INSERT INTO {a} VALUES ({', '.join([ph] * 6)}) "
        "ON CONFLICT (delivery_id, number) DO NOTHING",
        "tried": f"UPDATE {d} SET attempts = {ph}, status = {ph}, next_at = {ph}, queued_at = {ph}, "
        f"claimed_until = 0, finished = {ph}, last_status = {ph}, last_error = {ph} WHERE delivery_id = {ph}",
        "cancel": f"UPDATE {d} SET status = 'cancelled', claimed_until = 0, finished = {ph}, "
        f"last_error = {ph} WHERE delivery_id = {ph} AND status = 'pending'",
        "outcomes": f"SELECT status FROM {d} WHERE hook_id = {ph} AND status IN ('delivered', 'failed') "
        f"ORDER BY finished DESC LIMIT {ph}",
        "deliveries_of": f"SELECT {row} FROM {d} WHERE hook_id = {ph} "
        f"ORDER BY position DESC, kind LIMIT {ph}",
        "delivery_of": f"SELECT {row} FROM {d} WHERE hook_id = {ph} AND delivery_id = {ph}",
        "attempts_of": f"SELECT number, at, status_code, error, duration_ms FROM {a} "
        f"WHERE delivery_id = {ph} ORDER BY number",
        "resend": f"UPDATE {d} SET status = 'pending', next_at = {ph}, queued_at = 0, claimed_until = 0, "
        f"budget_from = attempts, finished = 0 WHERE hook_id = {ph} AND delivery_id = {ph} "
        "AND status <> 'pending' RETURNING delivery_id",
    }


def tables(table: Any, uuid: str, blob: str, integer: str, real: str) -> list[str]:
    return [
        f"CREATE TABLE IF NOT EXISTS {table('deliveries')} (delivery_id {uuid} PRIMARY KEY, "
        f"hook_id {uuid} NOT NULL, position {integer} NOT NULL, kind text NOT NULL, payload {blob} NOT NULL, "
        f"created {real} NOT NULL, status text NOT NULL DEFAULT 'pending', "
        f"attempts {integer} NOT NULL DEFAULT 0, budget_from {integer} NOT NULL DEFAULT 0, "
        f"next_at {real} NOT NULL DEFAULT 0, queued_at {real} NOT NULL DEFAULT 0, "
        f"claimed_until {real} NOT NULL DEFAULT 0, finished {real} NOT NULL DEFAULT 0, "
        f"last_status {integer}, last_error text NOT NULL DEFAULT '')",
        f"CREATE INDEX IF NOT EXISTS views_deliveries_hook ON {table('deliveries')} (hook_id, position)",
        f"CREATE INDEX IF NOT EXISTS views_deliveries_due ON {table('deliveries')} (status, next_at)",
        f"CREATE TABLE IF NOT EXISTS {table('attempts')} (delivery_id {uuid} NOT NULL, "
        f"number {integer} NOT NULL, at {real} NOT NULL, status_code {integer}, error text NOT NULL, "
        f"duration_ms {real} NOT NULL, PRIMARY KEY (delivery_id, number))",
    ]


def erase_names(cursor: Any, statements: dict[str, str], player_ids: list[UUID]) -> None:
    """Rewrite the stored payloads naming these erased players, with ``cursor`` (in its transaction)."""
    for player_id in player_ids:
        cursor.execute(statements["naming"], (str(player_id).encode(),))
        for row in cursor.fetchall():
            payload = erased_from(bytes(row["payload"]), str(player_id))
            if payload is not None:
                cursor.execute(statements["renamed"], (payload, row["delivery_id"]))


class _Store(Protocol):
    def query(self, name: str, params: Any, suffix: str = "") -> list[tuple[Any, ...]]: ...

    def change(self, name: str, params: Any) -> list[tuple[Any, ...]]: ...

    def execute(self, name: str, params: Any) -> None: ...

    def execute_all(self, steps: list[tuple[str, Any]]) -> None: ...


def _uuid(value: Any) -> UUID:
    return value if isinstance(value, UUID) else UUID(value)


class Deliveries:
    """The deliveries' queries over the read models' store (``store.Views``)."""

    def __init__(self, store: _Store) -> None:
        self.store = store

    def due(self, now: float, stalled_before: float, limit: int) -> list[UUID]:
        """Mark as queued, and answer, the pending deliveries due now that no task was queued for
        (new ones, resent ones) or whose task was due before ``stalled_before`` and never ran."""
        rows = self.store.change("due_deliveries", (now, now, now, stalled_before, limit))
        return [_uuid(row[0]) for row in rows]

    def claim(self, delivery_id: UUID, now: float, until: float) -> Claimed | None:
        """Take a due pending delivery until ``until`` (Unix time); None when it is not one now."""
        rows = self.store.change("claim", (until, delivery_id, now, now))
        if not rows:
            return None
        hook_id, kind, payload, attempts, budget_from = rows[0]
        return Claimed(
            hook_id=_uuid(hook_id),
            kind=kind,
            payload=bytes(payload),
            attempts=attempts,
            budget_from=budget_from,
        )

    def tried(
        self, delivery_id: UUID, attempt: Attempt, status: str, next_at: float, queued_at: float
    ) -> None:
        """Record one try and where the delivery is after it, in one transaction."""
        finished = time.time() if status != PENDING else 0.0
        self.store.execute_all(
            [
                (
                    "attempt",
                    (
                        delivery_id,
                        attempt.number,
                        attempt.at,
                        attempt.status_code,
                        attempt.error,
                        attempt.duration_ms,
                    ),
                ),
                (
                    "tried",
                    (
                        attempt.number,
                        status,
                        next_at,
                        queued_at,
                        finished,
                        attempt.status_code,
                        attempt.error,
                        delivery_id,
                    ),
                ),
            ]
        )

    def cancel(self, delivery_id: UUID, reason: str) -> None:
        self.store.execute("cancel", (time.time(), reason, delivery_id))

    def failed_in_a_row(self, hook_id: UUID, count: int) -> bool:
        """Whether the hook's last ``count`` finished deliveries all failed."""
        statuses = [row[0] for row in self.store.query("outcomes", (hook_id, count))]
        return len(statuses) == count and all(status == FAILED for status in statuses)

    def of_hook(self, hook_id: UUID, limit: int) -> list[DeliveryRow]:
        return [_row(row) for row in self.store.query("deliveries_of", (hook_id, limit))]

    def one(self, hook_id: UUID, delivery_id: UUID) -> DeliveryRow | None:
        rows = self.store.query("delivery_of", (hook_id, delivery_id))
        return _row(rows[0]) if rows else None

    def attempts(self, delivery_id: UUID) -> list[Attempt]:
        return [
            Attempt(number=number, at=at, status_code=code, error=error, duration_ms=duration)
            for number, at, code, error, duration in self.store.query("attempts_of", (delivery_id,))
        ]

    def resend(self, hook_id: UUID, delivery_id: UUID, now: float) -> bool:
        """Make a finished delivery pending again, due now, with a fresh budget of tries; whether it was
        one (a pending delivery, or none, is left alone)."""
        return bool(self.store.change("resend", (now, hook_id, delivery_id)))


def _row(row: tuple[Any, ...]) -> DeliveryRow:
    """A delivery's columns, selected as ``DeliveryRow``'s fields (its ids and payload converted)."""
    found = dict(zip(DeliveryRow.__struct_fields__, row, strict=True))
    found.update(
        delivery_id=_uuid(found["delivery_id"]),
        hook_id=_uuid(found["hook_id"]),
        payload=bytes(found["payload"]),
    )
    return DeliveryRow(**found)

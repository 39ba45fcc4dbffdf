"""The projection runner's failure, while it lasts: no read model, the runner's own state.

``views_runner``: a row while the runner is failing (``RunnerFailure``: where, why, how often, since
when), written by the runner outside the batch's transaction and deleted by its next good batch, so
that any process's ``/ready`` learns of it. It lives in the read models' store and is replaced with
them by a rebuild (``service.projections.store.TABLES``): a failure is of the store it was written to.
"""

import msgspec

from service.persistence.dialect import Dialect, Statements

RUNNER = "runner"


class RunnerFailure(msgspec.Struct, frozen=True, kw_only=True):
    """The runner's last failure: at which log position, why, how often in a row, since when."""

    position: int  # the event that could not be folded, else the last position written
    reason: str  # names only types (the event's, the error's) and ids: /ready shows it
    failures: int = 1
    since: float = 0.0  # Unix time of the first failure in a row
    latest: float = 0.0  # Unix time of the last one


def create(d: Dialect) -> list[str]:
    return [
        f"CREATE TABLE IF NOT EXISTS {d.table(RUNNER)} (projection text PRIMARY KEY, "
        f"position {d.integer} NOT NULL, reason text NOT NULL, failures {d.integer} NOT NULL, "
        f"since {d.real} NOT NULL, latest {d.real} NOT NULL)",
    ]


def statements(d: Dialect) -> dict[str, str]:
    runner, ph = d.table(RUNNER), d.ph
    return {
        "failed": f"INSERT INTO {runner} VALUES ({ph}, {ph}, {ph}, 1, {ph}, {ph}) "
        f"ON CONFLICT (projection) DO UPDATE SET position = excluded.position, reason = excluded.reason, "
        f"failures = {runner}.failures + 1, latest = excluded.latest",
        "recovered": f"DELETE FROM {runner} WHERE projection = {ph}",
        "failure": f"SELECT position, reason, failures, since, latest FROM {runner} WHERE projection = {ph}",
    }


class RunnerFailures:
    """The failures of the projection ``name``."""

    def __init__(self, store: Statements, name: str) -> None:
        self.store = store
        self.name = name

    def failed(self, failure: RunnerFailure) -> None:
        """Record the runner's failure (counted onto the one before, its first time kept)."""
        self.store.execute(
            "failed", (self.name, failure.position, failure.reason, failure.since, failure.latest)
        )

    def recovered(self) -> None:
        """The runner wrote a batch again: forget its failures."""
        self.store.execute("recovered", (self.name,))

    def failure(self) -> RunnerFailure | None:
        """The runner's failure while it has not written a batch since; None when it is not failing."""
        rows = self.store.query("failure", (self.name,))
        if not rows:
            return None
        return RunnerFailure(**dict(zip(RunnerFailure.__struct_fields__, rows[0], strict=True)))

"""A tournament's schedule: when it starts and each round is due (``starts_at``, ``interval``),
and when its check-in window opens; a driver (the Celery beat) asks ``start_due`` and
``round_due``."""

from datetime import datetime, timedelta
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from service.domain.tournament import Tournament


def due_at(tournament: "Tournament", round_no: int) -> datetime | None:
    """When round ``round_no`` is to start; None while that is not known yet. Round 1: ``starts_at``,
    or the start when that came first (an admin started it by hand); round n, with an interval:
    ``interval * (n - 1)`` after round 1, never before round n - 1 ends."""
    if not tournament.started or not 1 <= round_no <= len(tournament.rounds):
        return None
    assert tournament.started_at is not None
    base = tournament.started_at
    if tournament.plan.starts_at is not None:
        # a start by hand before ``starts_at`` begins round 1 then, and the schedule counts from it
        base = min(tournament.plan.starts_at, base)
    if round_no == 1:
        return base
    after_previous = tournament.rounds[round_no - 2].finished_at
    if tournament.plan.interval is None or after_previous is None:
        return after_previous
    return max(base + timedelta(seconds=tournament.plan.interval * (round_no - 1)), after_previous)


def start_due(tournament: "Tournament", now: datetime) -> bool:
    """The tournament should be started now: its round 1 start time has come."""
    return (
        not tournament.started
        and not tournament.cancelled
        and tournament.plan.starts_at is not None
        and tournament.plan.starts_at <= now
    )


def check_in_opens(tournament: "Tournament") -> datetime | None:
    """When the check-in window opens (it closes at the start); None without one."""
    if tournament.plan.check_in_minutes is None or tournament.plan.starts_at is None:
        return None
    return tournament.plan.starts_at - timedelta(minutes=tournament.plan.check_in_minutes)


def round_due(tournament: "Tournament", now: datetime) -> int | None:
    """The round whose games should be created now, if any."""
    current = tournament.current_round
    if current is None or current.started or tournament.cancelled:
        return None
    due = due_at(tournament, current.round_no)
    return current.round_no if due is not None and due <= now else None

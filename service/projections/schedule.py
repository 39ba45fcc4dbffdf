"""A league's schedule as an iCalendar feed (RFC 5545) a phone subscribes to: an event per round with a time.

A round's time is the bracket's once it is paired (``TournamentRound.due_at``,
``Tournament.due_at``: never before the previous round ends). A round still to
be paired has a time only when the plan fixes one: ``starts_at`` for round 1,
``starts_at + interval * (n - 1)`` for round n when the plan has an interval
and its number of rounds is known, the earliest the workers start it. A round
that waits for the previous one to end has no time until it is paired, so no
event yet. Each event's UID is the tournament's id and the round's number, so a
calendar that fetches the feed again updates an event rather than adding it
twice; a cancelled tournament's events say ``STATUS:CANCELLED``. Times are in
UTC; the league's time zone is named in ``X-WR-TIMEZONE``.
"""

from datetime import UTC, datetime, timedelta
from uuid import UUID

from icalendar import Calendar, Event
from icalendar.enums import STATUS

from service.projections.models import TournamentView

PRODID = "-//maumau//league schedule//EN"
# how often a subscribed calendar is asked to fetch the feed again (RFC 7986 and the older X- property)
REFRESH = timedelta(hours=1)


def round_starts(view: TournamentView) -> list[tuple[int, datetime]]:
    """Each round whose start time is known, with it, in round order."""
    known = {played.round_no: played.due_at for played in view.rounds if played.due_at is not None}
    if view.starts_at is not None:
        known.setdefault(1, view.starts_at)
        if view.interval is not None and view.planned_rounds is not None:
            for round_no in range(len(view.rounds) + 1, view.planned_rounds + 1):
                known.setdefault(round_no, view.starts_at + timedelta(seconds=view.interval * (round_no - 1)))
    return sorted(known.items())


def event_uid(tournament_id: UUID, round_no: int) -> str:
    return f"{tournament_id}-r{round_no}@maumau"


def schedule(
    league_id: UUID, name: str, time_zone: str, tournaments: list[TournamentView], now: datetime
) -> bytes:
    """The feed: the league's tournaments in the order announced, each one's rounds in order."""
    calendar = Calendar.new(name=name, prodid=PRODID, uid=str(league_id), refresh_interval=REFRESH)
    calendar.add("x-wr-timezone", time_zone)
    calendar.add("x-published-ttl", REFRESH)
    for view in tournaments:
        for round_no, start in round_starts(view):
            calendar.add_component(_event(view, round_no, start, now))
    return calendar.to_ical()


def _event(view: TournamentView, round_no: int, start: datetime, now: datetime) -> Event:
    of = f" of {view.planned_rounds}" if view.planned_rounds is not None else ""
    event = Event.new(
        uid=event_uid(view.tournament_id, round_no),
        summary=f"{view.name}: round {round_no}{of}",
        description=f"{view.format.replace('_', ' ')}, {view.ruleset}, tables of {view.table_size}; "
        f"the bracket: /tournaments/{view.tournament_id}",
        start=start.astimezone(UTC),
        stamp=now.astimezone(UTC),
        status=STATUS.CANCELLED if view.status == "cancelled" else STATUS.CONFIRMED,
    )
    if view.interval is not None:  # the round's slot; without an interval its end is not known
        event.end = start.astimezone(UTC) + timedelta(seconds=view.interval)
    return event

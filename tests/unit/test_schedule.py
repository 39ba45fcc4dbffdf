"""Which rounds of a tournament have a start time in the league's calendar feed."""

from datetime import UTC, datetime, timedelta, timezone
from uuid import uuid4

from icalendar import Calendar

from service.projections.models import TournamentRound, TournamentView
from service.projections.schedule import round_starts, schedule

START = datetime(2026, 3, 6, 18, 0, tzinfo=UTC)
HOUR = timedelta(hours=1)


def view(**fields) -> TournamentView:
    base = {
        "tournament_id": uuid4(),
        "league_id": uuid4(),
        "name": "Cup",
        "format": "swiss",
        "table_size": 2,
        "planned_rounds": 3,
        "status": "running",
        "starts_at": START,
        "entrants": [],
        "rounds": [],
        "ranking": [],
        "winners": [],
        "position": 0,
        "ruleset": "club",
    }
    return TournamentView(**(base | fields))


def paired(round_no: int, due_at: datetime | None) -> TournamentRound:
    return TournamentRound(round_no=round_no, due_at=due_at, tables=[], byes=[], out=[], finished=False)


def test_a_paired_round_keeps_the_brackets_time_and_later_rounds_follow_the_plans_interval():
    late = START + 90 * timedelta(minutes=1)  # round 1 ran long: round 2 started after it, not at 19:00
    running = view(interval=3600, rounds=[paired(1, START), paired(2, late)])
    assert round_starts(running) == [(1, START), (2, late), (3, START + 2 * HOUR)]


def test_without_an_interval_only_the_rounds_paired_and_round_one_have_a_time():
    running = view(interval=None, rounds=[paired(1, START)])
    assert round_starts(running) == [(1, START)]
    assert round_starts(view(interval=None, starts_at=None, status="announced")) == []


def test_rounds_of_a_plan_whose_number_of_rounds_is_not_known_yet_have_no_time_after_the_first():
    assert round_starts(view(interval=3600, planned_rounds=None, status="announced")) == [(1, START)]


def test_a_start_time_in_another_offset_is_written_in_utc():
    berlin = datetime(2026, 3, 6, 19, 0, tzinfo=timezone(HOUR))
    feed = schedule(uuid4(), "Club", "Europe/Berlin", [view(starts_at=berlin, planned_rounds=1)], START)
    (event,) = Calendar.from_ical(feed).walk("VEVENT")
    assert event.start == START and event.start.tzinfo is not None and event.start.utcoffset() == timedelta(0)
    assert b"DTSTART:20260306T180000Z" in feed

"""A league's schedule as an iCalendar feed over HTTP, parsed back with ``icalendar``."""

from datetime import UTC, datetime, timedelta

from icalendar import Calendar

from tests.e2e.club import problem

UNKNOWN = "00000000-0000-0000-0000-0000000000ca"
# a whole hour a week ahead, so the times compare exactly and no worker starts them meanwhile
FRIDAY = (datetime.now(UTC) + timedelta(days=7)).replace(minute=0, second=0, microsecond=0)


def feed(client, league: str, position: int) -> Calendar:
    answer = client.get(f"/leagues/{league}/schedule.ics?after={position}")  # no token: a phone has none
    assert answer.status_code == 200, answer.text
    assert answer.headers["content-type"] == "text/calendar; charset=utf-8"
    return Calendar.from_ical(answer.content)


def test_the_feed_has_an_event_per_round_with_a_time_with_stable_uids_and_the_cancelled_ones_say_so(
    client, club
):
    league = club.league(name="Friday club", time_zone="Europe/Berlin")
    path = f"/leagues/{league}/tournaments"
    hourly = club.ok(
        "POST",
        path,
        json={"name": "Hourly cup", "format": "swiss", "table_size": 2, "rounds": 3, "places": 2}
        | {"starts_at": FRIDAY.isoformat(), "interval": 3600},
    )
    later = FRIDAY + timedelta(days=1, hours=2)
    as_they_end = club.ok(  # no interval: round 2 has no time until round 1 ends
        "POST",
        path,
        json={
            "name": "Open cup",
            "format": "swiss",
            "table_size": 2,
            "rounds": 2,
            "starts_at": later.isoformat(),
        },
    )
    club.ok("POST", path, json={"name": "Whenever cup", "format": "swiss", "table_size": 2, "rounds": 2})
    rained = club.ok(
        "POST",
        path,
        json={"name": "Rained off", "format": "swiss", "table_size": 2, "rounds": 2}
        | {"starts_at": later.isoformat(), "interval": 1800},
    )
    cancelled = club.ok("POST", f"/tournaments/{rained['tournament_id']}/cancel", json={"reason": "rain"})

    calendar = feed(client, league, cancelled["position"])
    assert calendar["VERSION"] == "2.0" and "maumau" in str(calendar["PRODID"])
    assert (str(calendar["X-WR-CALNAME"]), str(calendar["X-WR-TIMEZONE"])) == ("Friday club", "Europe/Berlin")
    events = {str(event["UID"]): event for event in calendar.walk("VEVENT")}
    hourly_id, open_id, rained_id = (t["tournament_id"] for t in (hourly, as_they_end, rained))
    expected = {
        f"{hourly_id}-r1@maumau": (FRIDAY, "Hourly cup: round 1 of 3", "CONFIRMED"),
        f"{hourly_id}-r2@maumau": (FRIDAY + timedelta(hours=1), "Hourly cup: round 2 of 3", "CONFIRMED"),
        f"{hourly_id}-r3@maumau": (FRIDAY + timedelta(hours=2), "Hourly cup: round 3 of 3", "CONFIRMED"),
        f"{open_id}-r1@maumau": (later, "Open cup: round 1 of 2", "CONFIRMED"),
        f"{rained_id}-r1@maumau": (later, "Rained off: round 1 of 2", "CANCELLED"),
        f"{rained_id}-r2@maumau": (later + timedelta(minutes=30), "Rained off: round 2 of 2", "CANCELLED"),
    }
    assert set(events) == set(expected)
    for uid, (start, summary, status) in expected.items():
        event = events[uid]
        assert event.start == start and event.start.utcoffset() == timedelta(0)  # in UTC
        assert (str(event["SUMMARY"]), str(event["STATUS"])) == (summary, status)
        assert event.stamp is not None
    assert events[f"{hourly_id}-r2@maumau"].end == FRIDAY + timedelta(hours=2)  # the round's slot

    again = feed(client, league, cancelled["position"])
    assert [str(e["UID"]) for e in again.walk("VEVENT")] == [str(e["UID"]) for e in calendar.walk("VEVENT")]
    # started by hand a week early (bots in its places): its rounds move with the start, the same events
    started = club.ok("POST", f"/tournaments/{hourly_id}/start")
    began = datetime.fromisoformat(started["rounds"][0]["due_at"]).replace(microsecond=0)
    moved = {f"{hourly_id}-r{n}@maumau": began + timedelta(hours=n - 1) for n in (1, 2, 3)}
    after_start = {str(e["UID"]): e.start for e in feed(client, league, started["position"]).walk("VEVENT")}
    assert after_start == {uid: start for uid, (start, _, _) in expected.items()} | moved


def test_a_league_without_tournaments_has_an_empty_feed_in_utc(client, club):
    league = club.league(name="Quiet club")
    calendar = feed(client, league, club.log_position())
    assert calendar.walk("VEVENT") == [] and str(calendar["X-WR-TIMEZONE"]) == "UTC"


def test_the_schedule_of_an_unknown_league_is_refused_with_its_code(client, club):
    with club.unchanged():
        problem(client.get(f"/leagues/{UNKNOWN}/schedule.ics"), 404, "league_not_found")

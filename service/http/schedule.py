"""A league's schedule as an iCalendar feed: public, as a phone that subscribes sends no token.

The league (its name and time zone) comes from the store, its tournaments from
the read model; ``service.projections.schedule`` says which rounds have a time.
"""

from datetime import UTC, datetime

from litestar import Response, get

from service.http.controller import ApiController
from service.http.params import After, LeagueId
from service.http.routes import file_route
from service.http.services import ServicesDep
from service.projections.schedule import schedule
from service.usecases.queries import tournaments as tournament_queries

CALENDAR = "text/calendar"  # litestar adds "; charset=utf-8" to a text/* media type


class LeagueScheduleController(ApiController, path="/leagues/{league_id:uuid}", tag="leagues"):
    @get(
        "/schedule.ics",
        operation_id="getLeagueSchedule",
        summary="A league's schedule as an iCalendar feed, to subscribe to (public; read model)",
        description="A VEVENT per tournament round whose start time is known, in UTC, with a UID "
        "that stays the same from one fetch to the next; a cancelled tournament's rounds are "
        "STATUS:CANCELLED. X-WR-TIMEZONE names the league's time zone (docs/exports.md).",
        **file_route(CALENDAR, "the schedule as iCalendar (RFC 5545, UTF-8)", 404),
    )
    def schedule(self, services: ServicesDep, league_id: LeagueId, after: After = None) -> Response[str]:
        found = tournament_queries.of_league(services, league_id, after)  # 404 league_not_found
        league = found.league
        feed = schedule(league.id, league.name, league.time_zone, found.tournaments, datetime.now(UTC))
        return Response(feed.decode(), media_type=CALENDAR)

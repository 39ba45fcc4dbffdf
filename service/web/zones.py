"""The time zone each time on a page is shown in: its league's (UTC for a friendly game)."""

from collections.abc import Iterable
from uuid import UUID

from service.domain.time_zone import DEFAULT_TIME_ZONE
from service.usecases.services import Services


def league_zones(services: Services, league_ids: Iterable[UUID | None]) -> dict[UUID | None, str]:
    zones: dict[UUID | None, str] = {None: DEFAULT_TIME_ZONE}
    for league_id in set(league_ids) - {None}:
        zones[league_id] = services.app.get_league(league_id).time_zone
    return zones

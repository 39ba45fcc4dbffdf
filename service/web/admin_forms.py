"""The admin page's forms as the API's own bodies: each form is turned into the Struct the API's route
decodes (``LeagueCreate``, ``TournamentCreate``, ...: the use cases' inputs), then handed to the use
case that route calls, so a form is checked and refused exactly as the same request to the API would be.

A form sends text; an empty field is a field left out (the API's default). Numbers and yes/no are
decoded as the API's JSON would be (msgspec's lax mode reads "5" as 5 and "true" as true). The
tournament's start is typed in the league's time zone, as its people read times.
"""

from datetime import UTC, datetime, timedelta
from typing import Any, TypeVar
from zoneinfo import ZoneInfo

import msgspec

from service.domain.errors import RuleError
from service.domain.invitation import LONGEST
from service.domain.presets import SWITCHES
from service.domain.rulesets import OPTIONS
from service.usecases.invitations import InvitationCreate
from service.usecases.leagues import LeagueCreate, LeagueRefereeCreate, MemberCreate
from service.usecases.players import PlayerCreate, RefereeCreate
from service.usecases.tournaments import TournamentCreate, TournamentEdit

Body = TypeVar("Body", bound=msgspec.Struct)
DAYS = 7  # an invitation's life when the form leaves it empty: a week to the next club evening
LEAGUE_FIELDS = ("name", "ruleset", "time_zone", "turn_clock", "forfeit_after")
# every option a league may be founded with: the shared ones and each preset's own switches
LEAGUE_OPTIONS = (*OPTIONS, *dict.fromkeys(key for switches in SWITCHES.values() for key in switches))
TOURNAMENT_FIELDS = (
    "name",
    "format",
    "table_size",
    "rounds",
    "interval",
    "places",
    "fill_bot",
    "in_person_tables",
    "seeding",
    "single_round",
    "target_score",
    "turn_clock",
)


def decoded(body: dict[str, Any], kind: type[Body]) -> Body:
    """``body`` as the API would decode it; a wrong type or a missing field is its 400."""
    try:
        return msgspec.convert(body, kind, strict=False)
    except msgspec.ValidationError as error:
        raise RuleError("malformed_request", why="decode", problem=str(error)) from error


def _given(form: dict[str, str], names: tuple[str, ...]) -> dict[str, str]:
    return {name: form[name].strip() for name in names if form.get(name, "").strip()}


def league(form: dict[str, str]) -> LeagueCreate:
    options = {name: value for name in LEAGUE_OPTIONS if (value := form.get(f"option_{name}", "").strip())}
    return decoded({**_given(form, LEAGUE_FIELDS), "options": options}, LeagueCreate)


def player(form: dict[str, str]) -> PlayerCreate:
    return decoded({"name": form.get("name", "")}, PlayerCreate)


def referee(form: dict[str, str]) -> RefereeCreate:
    return decoded({"name": form.get("name", "")}, RefereeCreate)


def member(form: dict[str, str]) -> MemberCreate:
    return decoded(_given(form, ("player_id",)), MemberCreate)


def league_referee(form: dict[str, str]) -> LeagueRefereeCreate:
    return decoded(_given(form, ("referee_id",)), LeagueRefereeCreate)


def tournament(form: dict[str, str], zone: str) -> TournamentCreate:
    body: dict[str, Any] = _given(form, TOURNAMENT_FIELDS)
    if starts := form.get("starts_at", "").strip():
        body["starts_at"] = _local(starts, zone)
    return decoded(body, TournamentCreate)


def tournament_edit(form: dict[str, str], zone: str) -> TournamentEdit:
    """An edit before the start: an empty field stays as it is. The start is cleared (the API's
    ``null``: started by hand) by ticking "no start time", a box an empty field cannot be, as it
    means "as it is"; ticked with a time typed too, it is refused as the ambiguous form it is."""
    body: dict[str, Any] = _given(form, ("name", "places", "table_size"))
    starts = form.get("starts_at", "").strip()
    if form.get("no_start"):
        if starts:
            raise RuleError("malformed_request", why="starts_or_none")
        body["starts_at"] = None
    elif starts:
        body["starts_at"] = _local(starts, zone)
    return decoded(body, TournamentEdit)


def _local(text: str, zone: str) -> str:
    """A browser's ``datetime-local`` value (no zone) read in the league's zone."""
    try:
        moment = datetime.fromisoformat(text)
    except ValueError as error:
        raise RuleError("malformed_request", why="starts_date_time") from error
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=ZoneInfo(zone))
    return moment.isoformat()


def invitation(form: dict[str, str]) -> InvitationCreate:
    """An invitation for ``uses`` people that expires in ``days`` days from now."""
    try:
        days = float(form.get("days", "").strip() or DAYS)
        expires_at = datetime.now(UTC) + timedelta(days=days)
    except (ValueError, OverflowError) as error:
        raise RuleError("invalid_expiry", why="window", days=LONGEST.days) from error
    return decoded({**_given(form, ("uses",)), "expires_at": expires_at.isoformat()}, InvitationCreate)

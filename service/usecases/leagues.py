"""Leagues: founded by an admin, who admits and removes their members and appoints and dismisses their
referees."""

from typing import Annotated
from uuid import UUID

import msgspec

from service.application import credentials
from service.domain.clock import FORFEIT_AFTER, MAX_FORFEIT_AFTER, MAX_TURN_CLOCK
from service.domain.league import League
from service.domain.roles import Actor
from service.domain.time_zone import DEFAULT_TIME_ZONE
from service.usecases import policy
from service.usecases.context import Context, write
from service.usecases.fields import PLAYER_ID, REFEREE_ID, LeagueName, ranged
from service.usecases.preset_schema import LeagueRulesetName, Options

# the ranges are documented only: outside them the rules answer 422 with their code
TurnClock = Annotated[
    int,
    ranged(
        1,
        MAX_TURN_CLOCK,
        60,
        "seconds per turn in the league's games (a tournament's plan sets its own); a late turn is "
        "played by a clock bot, flagged (422 invalid_turn_clock outside the range)",
    ),
]
ForfeitAfter = Annotated[
    int,
    ranged(
        0,
        MAX_FORFEIT_AFTER,
        FORFEIT_AFTER,
        "a seat whose turn clock runs out this many times in a row forfeits the game, a loss; 0 or "
        "null: never (422 invalid_forfeit_after outside the range)",
    ),
]

TimeZone = Annotated[
    str,
    msgspec.Meta(
        examples=["Europe/Berlin"],
        description="where the club meets, an IANA time zone name (422 invalid_time_zone for a name "
        "the service does not know); times in answers stay in UTC, the calendar feed names the zone",
        extra_json_schema={"extra": {"minLength": 1, "maxLength": 64}},
    ),
]


class LeagueCreate(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    name: LeagueName
    ruleset: LeagueRulesetName = "club"
    options: Options = msgspec.field(default_factory=dict)
    turn_clock: TurnClock | None = None
    forfeit_after: ForfeitAfter | None = FORFEIT_AFTER
    time_zone: TimeZone = DEFAULT_TIME_ZONE


class MemberCreate(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    player_id: Annotated[UUID, msgspec.Meta(examples=[PLAYER_ID])]


class LeagueRefereeCreate(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    referee_id: Annotated[UUID, msgspec.Meta(examples=[REFEREE_ID])]


@write  # its standings
def found_league(context: Context, actor: Actor, data: LeagueCreate) -> League:
    policy.check_admin(actor)
    league_id = context.app.found_league(
        data.name,
        data.ruleset,
        data.options,
        turn_clock=data.turn_clock,
        forfeit_after=data.forfeit_after,
        time_zone=data.time_zone,
    )
    return context.app.get_league(league_id)


@write
def admit_member(context: Context, actor: Actor, league_id: UUID, data: MemberCreate) -> League:
    policy.check_admin(actor)
    context.app.admit_member(league_id, data.player_id)
    return context.app.get_league(league_id)


@write  # the league's members and standings
def remove_member(context: Context, actor: Actor, league_id: UUID, player_id: UUID) -> League:
    policy.check_admin(actor)
    context.app.remove_member(league_id, player_id)
    return context.app.get_league(league_id)


@write  # the league's referees, which the open disputes' lists and ``GET /me`` read
def dismiss_referee(context: Context, actor: Actor, league_id: UUID, referee_id: UUID) -> League:
    """The referee rules on and officiates the league's games no more; their rulings stay. A referee
    who is not the league's is ``league_referee_not_found``, whether registered or not: one whose
    registration is gone may still be taken off."""
    policy.check_admin(actor)
    context.app.dismiss_referee(league_id, str(referee_id))
    return context.app.get_league(league_id)


@write
def appoint_referee(context: Context, actor: Actor, league_id: UUID, data: LeagueRefereeCreate) -> League:
    policy.check_admin(actor)
    context.app.get_league(league_id)  # an unknown league is 404 before an unknown referee
    credentials.referee(context.app, data.referee_id)
    context.app.appoint_referee(league_id, str(data.referee_id))
    return context.app.get_league(league_id)

"""Tournaments: announced in a league with their plan, edited before the start, started by hand or
cancelled, by an admin; joined, left, checked in to and dropped out of by a member for themself (or
an admin for any member). Each write answers the tournament as written, with the position to read
it after."""

from collections.abc import Callable
from datetime import datetime
from typing import TYPE_CHECKING, Annotated, Any, Literal, TypeAlias, get_type_hints
from uuid import UUID

import msgspec

from service.application import MauMau
from service.domain.clock import MAX_TURN_CLOCK
from service.domain.formats import FORMATS, MAX_ROUNDS
from service.domain.roles import Actor
from service.domain.rulesets import OPTION_BOUNDS
from service.domain.tournament import MAX_REASON
from service.domain.tournament_plan import (
    EDITABLE,
    MAX_CHECK_IN,
    MAX_ENTRANTS,
    MAX_IN_PERSON,
    MAX_INTERVAL,
    MAX_TABLE,
    Plan,
)
from service.projections.models import TournamentView
from service.projections.tournaments import tournament_view
from service.usecases import policy
from service.usecases.context import Context, UseCase, write
from service.usecases.fields import PLAYER_ID, TournamentName, ranged

TARGET = OPTION_BOUNDS["target_score"]
# the names of the registered formats, in their order: a format registered is one the API takes (a
# Literal made at run time, which a type checker cannot read: to it a format's name is a str)
if TYPE_CHECKING:
    FormatName = str
else:
    FormatName = Literal[tuple(FORMATS)]


class TournamentCreate(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """The plan; the ranges are the rules' (422 ``invalid_*`` outside them)."""

    name: TournamentName
    format: Annotated[FormatName, msgspec.Meta(examples=["swiss"])]
    table_size: Annotated[
        int, ranged(2, MAX_TABLE, 4, "the most seats at a table: 2 to 6, as the ruleset allows")
    ]
    rounds: (
        Annotated[
            int,
            ranged(
                1,
                MAX_ROUNDS,
                3,
                "1 to 50; a swiss needs it, a round robin defaults to the fewest in which everyone could "
                "meet everyone (at tables of two: does; an odd number plays one round more, a bye each), a "
                "double round robin takes none and plays that cycle twice, a single elimination plays on "
                "until one table is left (none)",
            ),
        ]
        | None
    ) = None
    starts_at: (
        Annotated[
            datetime,
            msgspec.Meta(
                description="round 1's start, with a time zone; none: an admin starts it (POST start)"
            ),
        ]
        | None
    ) = None
    interval: (
        Annotated[int, ranged(1, MAX_INTERVAL, 1800, "seconds from one round's start to the next")] | None
    ) = None
    target_score: Annotated[int, ranged(*TARGET, 100, "a match ends at this score")] | None = None
    single_round: Annotated[bool, msgspec.Meta(description="a match is one round")] = False
    turn_clock: (
        Annotated[int, ranged(1, MAX_TURN_CLOCK, 60, "seconds per turn; a late turn is a bot's, flagged")]
        | None
    ) = None
    late_policy: Annotated[Literal["bot"], msgspec.Meta(description="a late turn is played by a bot")] = "bot"
    places: (
        Annotated[int, ranged(2, MAX_ENTRANTS, 16, "places a bot fills at the start when not taken")] | None
    ) = None
    fill_bot: Annotated[str, msgspec.Meta(max_length=40, examples=["heuristic"])] = "heuristic"
    check_in_minutes: (
        Annotated[
            int,
            ranged(
                1,
                MAX_CHECK_IN,
                30,
                "the check-in opens this many minutes before starts_at; entrants not checked in at the "
                "start are dropped (bots take their places when places are set)",
            ),
        ]
        | None
    ) = None
    seeding: Annotated[
        Literal["draw", "rating"],
        msgspec.Meta(
            examples=["rating"],
            description="the seed order: the seed's draw, or the players' league ratings at the start "
            "(the best first; bots after every player)",
        ),
    ] = "draw"
    rating_tie_break: Annotated[
        bool,
        msgspec.Meta(
            description="the league rating at the start breaks ties in the ranking, before the seed"
        ),
    ] = False
    in_person_tables: Annotated[
        int,
        ranged(
            0,
            MAX_IN_PERSON,
            2,
            "the club's physical tables: in each round the first this many tables seating no bot are "
            "played with real cards, their rounds entered by a scorer (0: all on the server)",
        ),
    ] = 0

    def plan(self) -> Plan:
        fields = msgspec.structs.asdict(self)
        del fields["name"]
        return Plan(**fields)


Seconds = Annotated[int, msgspec.Meta(examples=[60])]

# the announcement's types of the plan's fields an edit may not change: an edit naming one with a value of
# that type is refused as not_editable (422), one of another type is malformed (400) like any other body
_ANNOUNCED = get_type_hints(TournamentCreate, include_extras=True)
# as a type checker reads them: the same types, which it cannot read out of the announcement
if TYPE_CHECKING:
    AnnouncedFormat: TypeAlias = Any
    AnnouncedRounds: TypeAlias = Any
    AnnouncedTargetScore: TypeAlias = Any
    AnnouncedSingleRound: TypeAlias = Any
    AnnouncedTurnClock: TypeAlias = Any
    AnnouncedLatePolicy: TypeAlias = Any
    AnnouncedFillBot: TypeAlias = Any
else:
    AnnouncedFormat = _ANNOUNCED["format"]
    AnnouncedRounds = _ANNOUNCED["rounds"]
    AnnouncedTargetScore = _ANNOUNCED["target_score"]
    AnnouncedSingleRound = _ANNOUNCED["single_round"]
    AnnouncedTurnClock = _ANNOUNCED["turn_clock"]
    AnnouncedLatePolicy = _ANNOUNCED["late_policy"]
    AnnouncedFillBot = _ANNOUNCED["fill_bot"]
# the announcement's fields an edit may not change (every other one but the name is in EDITABLE)
NOT_EDITABLE = ("format", "rounds", "target_score", "single_round", "turn_clock", "late_policy", "fill_bot")


class TournamentEdit(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """What an edit before the start changes; a field left out stays, ``null`` clears it (422
    ``invalid_*`` as at the announcement). The plan's other fields are named so that an edit of one
    is refused as ``not_editable``, not as a malformed body."""

    name: TournamentName | msgspec.UnsetType = msgspec.UNSET
    starts_at: datetime | msgspec.UnsetType | None = msgspec.UNSET
    interval: Seconds | msgspec.UnsetType | None = msgspec.UNSET
    check_in_minutes: Annotated[int, msgspec.Meta(examples=[30])] | msgspec.UnsetType | None = msgspec.UNSET
    places: Annotated[int, msgspec.Meta(examples=[16])] | msgspec.UnsetType | None = msgspec.UNSET
    table_size: Annotated[int, msgspec.Meta(examples=[4])] | msgspec.UnsetType = msgspec.UNSET
    seeding: Literal["draw", "rating"] | msgspec.UnsetType = msgspec.UNSET
    rating_tie_break: bool | msgspec.UnsetType = msgspec.UNSET
    in_person_tables: Annotated[int, msgspec.Meta(examples=[2])] | msgspec.UnsetType = msgspec.UNSET
    format: AnnouncedFormat | msgspec.UnsetType = msgspec.UNSET
    rounds: AnnouncedRounds | msgspec.UnsetType = msgspec.UNSET
    target_score: AnnouncedTargetScore | msgspec.UnsetType = msgspec.UNSET
    single_round: AnnouncedSingleRound | msgspec.UnsetType = msgspec.UNSET
    turn_clock: AnnouncedTurnClock | msgspec.UnsetType = msgspec.UNSET
    late_policy: AnnouncedLatePolicy | msgspec.UnsetType = msgspec.UNSET
    fill_bot: AnnouncedFillBot | msgspec.UnsetType = msgspec.UNSET

    def changes(self) -> dict[str, Any]:
        given = {name: getattr(self, name) for name in (*EDITABLE, *NOT_EDITABLE)}
        return {name: value for name, value in given.items() if value is not msgspec.UNSET}


class Cancellation(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    reason: Annotated[
        str,
        msgspec.Meta(
            examples=["the hall is closed"],
            description=f"said to everyone: 1 to {MAX_REASON} characters, plain text (422 invalid_reason)",
        ),
    ]


class EntrantCreate(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    player_id: Annotated[UUID, msgspec.Meta(examples=[PLAYER_ID], description="a member of the league")]


def ratings_now(context: Context, league_id: UUID) -> dict[str, float]:
    """The league's ratings with every match finished so far rated (the read models waited for, a few
    seconds at most): a start seeding or breaking ties by them records these."""
    context.read_after(context.app.recorder.max_notification_id() or 0)
    return context.reader.ordinals(league_id)


def as_written(context: Context, tournament_id: UUID) -> TournamentView:
    """The tournament right after a write, with the log position to read it after."""
    tournament = context.app.get_tournament(tournament_id)
    position = context.app.recorder.max_notification_id() or 0  # at or after the write's own events
    return context.reader.named(tournament_view(tournament, position))


@write
def announce(context: Context, actor: Actor, league_id: UUID, data: TournamentCreate) -> TournamentView:
    policy.check_admin(actor)
    return as_written(context, context.app.create_tournament(league_id, data.name, data.plan()))


@write
def start(context: Context, actor: Actor, tournament_id: UUID) -> TournamentView:
    policy.check_admin(actor)
    tournament = context.app.get_tournament(tournament_id)
    ratings = ratings_now(context, tournament.league_id) if tournament.plan.uses_ratings else None
    context.app.start_tournament(tournament_id, ratings=ratings)
    return as_written(context, tournament_id)


@write
def edit(context: Context, actor: Actor, tournament_id: UUID, data: TournamentEdit) -> TournamentView:
    policy.check_admin(actor)
    name = None if data.name is msgspec.UNSET else data.name
    context.app.edit_tournament(tournament_id, name, data.changes())
    return as_written(context, tournament_id)


@write
def cancel(context: Context, actor: Actor, tournament_id: UUID, data: Cancellation) -> TournamentView:
    policy.check_admin(actor)
    context.app.cancel_tournament(tournament_id, data.reason, by=actor)
    return as_written(context, tournament_id)


@write
def leave(context: Context, actor: Actor, tournament_id: UUID, player_id: UUID) -> TournamentView:
    policy.check_entrant(actor, player_id)
    context.app.leave_tournament(tournament_id, player_id)
    return as_written(context, tournament_id)


def _entrant_change(
    change: Callable[[MauMau, UUID, UUID], None],
) -> UseCase[[UUID, EntrantCreate], TournamentView]:
    """The use case of an entrant's own ``change`` (the application's, of a tournament by a player)."""

    @write
    def changed(context: Context, actor: Actor, tournament_id: UUID, data: EntrantCreate) -> TournamentView:
        policy.check_entrant(actor, data.player_id)
        change(context.app, tournament_id, data.player_id)
        return as_written(context, tournament_id)

    return changed


join = _entrant_change(MauMau.join_tournament)
check_in = _entrant_change(MauMau.check_in_tournament)
drop_out = _entrant_change(MauMau.drop_out_of_tournament)

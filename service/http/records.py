"""Game records over HTTP: a game's record as text, and a record imported as a game played in person.

The record is the event log written for people (docs/game-records.md), cut to the same sights: the
public one for anyone, a seated player's (their own cards too) for that player, the full one for the
game's officials.
"""

from typing import Annotated, Literal
from uuid import UUID

import msgspec
from litestar import Controller, Response, get, post
from litestar.openapi.spec import Example
from litestar.params import Body, Parameter

from service.application.records import game_record, import_record
from service.domain.errors import RuleError
from service.domain.redaction import FULL, PUBLIC, Viewer
from service.domain.roles import Actor
from service.http.auth import SIGNED_IN
from service.http.consistency import READS_STORE
from service.http.errors import problems
from service.http.log import seat_names
from service.http.params import GAME_ID, LEAGUE_ID, PLAYER_ID, GameId, IdempotencyKey
from service.http.security import BEARER, OPTIONAL_BEARER
from service.http.services import ActorDep, OptionalActorDep, ServicesDep
from service.usecases import policy
from service.usecases.context import scoped_key
from service.usecases.facts import GameFacts
from service.usecases.games import SEAT_PATTERN, SeatSpec, normalised
from service.usecases.services import Services

TEXT = "text/plain"  # litestar adds "; charset=utf-8"

Sight = Annotated[
    Literal["public", "seat", "full"],
    Parameter(
        description="public: anyone; seat: the seated player's own cards too (that player); "
        "full: every card (the game's referees and admins)",
        examples=[Example(value="public")],
    ),
]


MOST_RECORD_CHARS = 4_000_000  # a long match's full record is well under a megabyte


class RecordImport(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    record: Annotated[
        str,
        msgspec.Meta(
            min_length=1,
            max_length=MOST_RECORD_CHARS,
            description="a game record's text, as GET /games/{id}/record writes it (any sight)",
        ),
    ]
    league_id: Annotated[
        UUID | None, msgspec.Meta(description="the league the game counts in; none: a friendly game")
    ] = None
    seats: (
        Annotated[
            list[SeatSpec],
            msgspec.Meta(
                min_length=1,
                max_length=12,
                description="the player at each of the record's seats, seat order; "
                "without it the record's own player ids (a record with a bot seat needs it)",
                extra_json_schema={"extra": {"items": {"type": "string", "pattern": SEAT_PATTERN}}},
            ),
        ]
        | None
    ) = None
    copy: Annotated[
        bool,
        msgspec.Meta(
            description="import the record as a new game of its own, under a new id, though its game "
            "is in the service already (the original, or an earlier import); false: such a record is "
            "refused (409 game_exists)"
        ),
    ] = False


class RecordImported(msgspec.Struct, frozen=True, kw_only=True):
    game_id: Annotated[UUID, msgspec.Meta(examples=[GAME_ID])]
    league_id: UUID | None
    seats: list[SeatSpec]
    rounds: Annotated[int, msgspec.Meta(examples=[6], description="the rounds entered")]
    version: Annotated[int, msgspec.Meta(examples=[14])]
    position: Annotated[int, msgspec.Meta(examples=[4711], description="read with ?after= this to see it")]


IMPORT_EXAMPLES = [
    Example(
        summary="a record into a league, its seats given",
        value={
            "record": "maumau game record 1\ngame ...\n",
            "league_id": LEAGUE_ID,
            "seats": [PLAYER_ID, "8a4d2b6e-1c3f-4e5a-9b7d-2f6e8c0a4b1d"],
        },
    )
]


class RecordController(Controller):
    path = "/games"
    tags = ["records"]  # noqa: RUF012

    @get(
        "/{game_id:uuid}/record",
        operation_id="getGameRecord",
        summary="The game record: every event one numbered line, as text (public; full for officials)",
        description="Plain UTF-8 text, one line per event after a header of the game and its seats; "
        "parseable back and importable (docs/game-records.md).",
        media_type=TEXT,
        response_description="the record as text",
        responses=problems(400, 401, 403, 404),
        security=OPTIONAL_BEARER,
        sync_to_thread=True,
        opt=READS_STORE,
    )
    def record(
        self, services: ServicesDep, actor: OptionalActorDep, game_id: GameId, sight: Sight = "public"
    ) -> Response[str]:
        facts = services.games.facts(game_id)
        viewer = _viewer(services, actor, facts, sight)
        text = game_record(services.app, game_id, viewer, seat_names(services, facts))
        return Response(text, media_type=TEXT)

    @post(
        "/import",
        operation_id="importGameRecord",
        summary="Import a game record as a game played in person, its rounds entered "
        "(admin; referee: friendly or own league)",
        description="Checked whole first: a record whose rounds, totals or winners the service does "
        "not score alike is refused (record_inconsistent) and nothing is stored. The game keeps the "
        "record's id: the record of a game in the service already is refused (game_exists) unless "
        "`copy` asks for a new game.",
        opt=SIGNED_IN,
        responses=problems(400, 401, 403, 404, 409, 422, 415),
        security=BEARER,
        sync_to_thread=True,
    )
    def import_(
        self,
        services: ServicesDep,
        actor: ActorDep,
        data: Annotated[RecordImport, Body(examples=IMPORT_EXAMPLES)],
        idempotency_key: IdempotencyKey = None,
    ) -> RecordImported:
        _check_may_import(services, actor, data.league_id)
        seats = None if data.seats is None else [normalised(seat) for seat in data.seats]
        imported = import_record(
            services.app,
            data.record,
            league_id=data.league_id,
            seats=seats,
            by=actor,
            key=scoped_key(actor, idempotency_key),
            copy=data.copy,
        )
        services.wrote(actor, imported.position)
        return RecordImported(
            game_id=imported.game_id,
            league_id=imported.league_id,
            seats=imported.seats,
            rounds=imported.rounds,
            version=imported.version,
            position=imported.position,
        )


def _check_may_import(services: Services, actor: Actor, league_id: UUID | None) -> None:
    """As for creating a game others sit at: an admin, or a referee for a friendly game or their league's."""
    if actor.role == "admin":
        return
    if actor.role != "referee":
        raise RuleError("forbidden", "an admin or a referee imports a game record")
    if league_id is not None and actor.id not in services.app.get_league(league_id).referees:
        raise RuleError("forbidden", "a referee imports friendly games and games of their leagues")


def _viewer(services: Services, actor: Actor | None, facts: GameFacts, sight: str) -> Viewer:
    if sight == "public":
        return PUBLIC
    if actor is None:
        raise RuleError("unauthorized", f"the {sight} record needs a bearer token")
    if sight == "full":
        policy.check_official(services, actor, facts)
        return FULL
    seat = facts.seat_of(actor.id) if actor.role == "player" else None
    if seat is None:
        raise RuleError("not_seated", "the record with a seat's cards is for the player at that seat")
    return Viewer.at(seat)

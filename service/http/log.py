"""A game's event log and the referee's replay.

The log is for everyone, cut to what the asker may see: the game's officials
see every event whole; a seated player sees their own cards and the table;
anyone else the table only (``service.domain.redaction``). The replay is the
officials': everything on and under the table right after event ``at``, the
event itself, and links to step back and forth.
"""

from typing import Annotated
from uuid import UUID

import msgspec
from litestar import get
from litestar.openapi.spec import Example
from litestar.params import Parameter

from service.domain.views import TableView
from service.http.controller import ApiController
from service.http.params import LARGEST, GameId
from service.http.routes import public_route, signed_in_route
from service.http.services import CallerDep, OptionalActorDep, ServicesDep
from service.usecases.events import EventRead
from service.usecases.queries import log

PAGE = 200
MOST_PAGE = 1000


class EventPage(msgspec.Struct, frozen=True, kw_only=True):
    game_id: UUID
    events: list[EventRead]
    next: Annotated[
        str | None,
        msgspec.Meta(
            description="the next page, when this one is full", examples=["/games/…/events?after=200"]
        ),
    ]


class ReplayRead(msgspec.Struct, frozen=True, kw_only=True):
    game_id: UUID
    at: Annotated[int, msgspec.Meta(examples=[37], description="the state is right after this event")]
    event: EventRead
    table: TableView
    previous: Annotated[str | None, msgspec.Meta(examples=["/games/…/replay?at=36"])]
    next: Annotated[str | None, msgspec.Meta(examples=["/games/…/replay?at=38"])]
    names: Annotated[
        dict[str, str],
        msgspec.Meta(
            description="the name of each player seated, by their id (a seat's `occupant.name`), as now",
            examples=[{"3f1c6c9e-8f7a-4d52-9a53-3e1b1c0b6a77": "Ada"}],
        ),
    ] = msgspec.field(default_factory=dict)


class LogController(ApiController, path="/games/{game_id:uuid}", tag="log"):
    @get(
        "/events",
        operation_id="getGameEvents",
        summary="The event log: whole for the game's officials, redacted for players and the public",
        **public_route(404, reads_store=True),
    )
    def events(
        self,
        services: ServicesDep,
        actor: OptionalActorDep,
        game_id: GameId,
        after: Annotated[
            int,
            Parameter(
                ge=0,
                le=LARGEST,
                schema_extra={"maximum": LARGEST},  # litestar writes bounds as floats: 2**63 - 1 as 2**63
                description="events after this number",
                examples=[Example(value=0)],
            ),
        ] = 0,
        limit: Annotated[
            int,
            Parameter(ge=1, le=MOST_PAGE, description="at most this many", examples=[Example(value=PAGE)]),
        ] = PAGE,
    ) -> EventPage:
        found = log.events(services, actor, game_id, after, limit)
        more = None if found.last is None else f"/games/{game_id}/events?after={found.last}&limit={limit}"
        return EventPage(game_id=game_id, events=found.events, next=more)

    @get(
        "/replay",
        operation_id="replayGame",
        summary="The whole table right after event `at` (the game's referees and admins)",
        **signed_in_route(403, 404, reads_store=True),
    )
    def replay(
        self,
        caller: CallerDep,
        game_id: GameId,
        at: Annotated[
            int | None,
            Parameter(
                ge=1,
                le=LARGEST,
                schema_extra={"minimum": 1, "maximum": LARGEST},  # litestar writes bounds as floats
                description="an event number; the latest when left out",
                examples=[Example(value=3)],
            ),
        ] = None,
    ) -> ReplayRead:
        step = caller.run(log.replay_step, game_id, at)
        base = f"/games/{game_id}/replay?at="
        return ReplayRead(
            game_id=game_id,
            at=step.at,
            event=step.event,
            table=step.table,
            previous=f"{base}{step.at - 1}" if step.at > 1 else None,
            next=None if step.last else f"{base}{step.at + 1}",
            names=step.names,
        )

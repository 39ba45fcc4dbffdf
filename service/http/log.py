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

from service.domain.errors import RuleError
from service.domain.redaction import FULL
from service.domain.views import TableView
from service.http.controller import ApiController
from service.http.params import LARGEST, GameId
from service.http.routes import public_route, signed_in_route
from service.http.services import CallerDep, OptionalActorDep, ServicesDep
from service.usecases import policy
from service.usecases.events import EventRead, shown
from service.usecases.facts import GameFacts
from service.usecases.services import Services

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
        facts = services.games.facts(game_id)
        viewer = policy.viewer(services, actor, facts)
        events = services.app.game_events(game_id, after, limit)
        more = None
        if len(events) == limit:  # a full page: there may be more
            more = f"/games/{game_id}/events?after={events[-1].originator_version}&limit={limit}"
        return EventPage(game_id=game_id, events=shown(events, viewer, facts), next=more)

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
        facts = caller.services.games.facts(game_id)
        caller.run(policy.check_official, facts)
        table = caller.services.app.replay(game_id, at)
        number = table.number
        around = caller.services.app.game_events(game_id, number - 1, 2)
        if not around:
            raise RuleError("no_such_event", why="numbered", number=number)
        (event,) = shown(around[:1], FULL, facts)
        base = f"/games/{game_id}/replay?at="
        return ReplayRead(
            game_id=game_id,
            at=number,
            event=event,
            table=table,
            previous=f"{base}{number - 1}" if number > 1 else None,
            next=f"{base}{number + 1}" if len(around) > 1 else None,
            names=seat_names(caller.services, facts),
        )


def seat_names(services: Services, facts: GameFacts) -> dict[str, str]:
    """The players' names at the table, by id (one not in the read models yet: its id stands in)."""
    ids = [UUID(seat.name) for seat in facts.seats if seat.kind == "player"]
    found = services.reader.names(ids)
    return {str(player_id): found.get(player_id, str(player_id)) for player_id in ids}

"""Game records over HTTP: a game's record as text, and a record imported as a game played in person.

The record is the event log written for people (docs/game-records.md), cut to the same sights: the
public one for anyone, a seated player's (their own cards too) for that player, the full one for the
game's officials.
"""

from typing import Annotated, Literal

from litestar import Controller, Response, get
from litestar.openapi.spec import Example
from litestar.params import Parameter

from service.application.records import game_record
from service.domain.errors import RuleError
from service.domain.redaction import FULL, PUBLIC, Viewer
from service.domain.roles import Actor
from service.http import access
from service.http.consistency import READS_STORE
from service.http.errors import problems
from service.http.log import seat_names
from service.http.params import GameId
from service.http.security import OPTIONAL_BEARER
from service.http.services import GameFacts, OptionalActorDep, Services, ServicesDep

TEXT = "text/plain; charset=utf-8"

Sight = Annotated[
    Literal["public", "seat", "full"],
    Parameter(
        description="public: anyone; seat: the seated player's own cards too (that player); "
        "full: every card (the game's referees and admins)",
        examples=[Example(value="public")],
    ),
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


def _viewer(services: Services, actor: Actor | None, facts: GameFacts, sight: str) -> Viewer:
    if sight == "public":
        return PUBLIC
    if actor is None:
        raise RuleError("unauthorized", f"the {sight} record needs a bearer token")
    if sight == "full":
        access.check_official(services, actor, facts)
        return FULL
    seat = facts.seat_of(actor.id) if actor.role == "player" else None
    if seat is None:
        raise RuleError("not_seated", "the record with a seat's cards is for the player at that seat")
    return Viewer.at(seat)

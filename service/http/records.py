"""Game records over HTTP: a game's record as text, and a record imported as a game played in person.

The record is the event log written for people (docs/game-records.md), cut to the same sights: the
public one for anyone, a seated player's (their own cards too) for that player, the full one for the
game's officials.
"""

from typing import Annotated, Literal

from litestar import Response, get, post
from litestar.openapi.spec import Example
from litestar.params import Body, Parameter

from service.http.controller import ApiController
from service.http.params import LEAGUE_ID, PLAYER_ID, GameId
from service.http.routes import file_route, signed_in_route
from service.http.services import OptionalActorDep, ServicesDep, WriterDep
from service.usecases.queries import log
from service.usecases.records import RecordImport, RecordImported, import_game

TEXT = "text/plain"  # litestar adds "; charset=utf-8"

Sight = Annotated[
    Literal["public", "seat", "full"],
    Parameter(
        description="public: anyone; seat: the seated player's own cards too (that player); "
        "full: every card (the game's referees and admins)",
        examples=[Example(value="public")],
    ),
]


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
ImportBody = Annotated[RecordImport, Body(examples=IMPORT_EXAMPLES)]


class RecordController(ApiController, path="/games", tag="records"):
    @get(
        "/{game_id:uuid}/record",
        operation_id="getGameRecord",
        summary="The game record: every event one numbered line, as text (public; full for officials)",
        description="Plain UTF-8 text, one line per event after a header of the game and its seats; "
        "parseable back and importable (docs/game-records.md).",
        **file_route(TEXT, "the record as text", 403, 404, reads_store=True),
    )
    def record(
        self, services: ServicesDep, actor: OptionalActorDep, game_id: GameId, sight: Sight = "public"
    ) -> Response[str]:
        return Response(log.record(services, actor, game_id, sight), media_type=TEXT)

    @post(
        "/import",
        operation_id="importGameRecord",
        summary="Import a game record as a game played in person, its rounds entered "
        "(admin; referee: friendly or own league)",
        description="Checked whole first: a record whose rounds, totals or winners the service does "
        "not score alike is refused (record_inconsistent) and nothing is stored. The game keeps the "
        "record's id: the record of a game in the service already is refused (game_exists) unless "
        "`copy` asks for a new game.",
        **signed_in_route(403, 404, 409, 422, 415),
    )
    def import_(self, data: ImportBody, writer: WriterDep) -> RecordImported:
        return writer.run(import_game, data)

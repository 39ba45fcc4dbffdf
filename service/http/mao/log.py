"""A Mao match's event log, each event as the asker may see it, and the referee's replay."""

from litestar import get

from service.http.controller import ApiController
from service.http.mao.schemas import MaoLogRead, MaoReplayRead
from service.http.params import GameId
from service.http.routes import public_route, signed_in_route
from service.http.services import CallerDep, OptionalActorDep, ServicesDep
from service.usecases.queries import mao


class MaoLogController(ApiController, path="/mao-games/{game_id:uuid}", tag="mao"):
    @get(
        "/events",
        operation_id="listMaoEvents",
        summary="Every event: whole for officials, own cards for a seat, the table for the public",
        **public_route(404, reads_store=True),
    )
    def events(self, services: ServicesDep, actor: OptionalActorDep, game_id: GameId) -> MaoLogRead:
        found = mao.log(services, actor, game_id)
        return MaoLogRead(
            game_id=game_id,
            version=found.version,
            events=mao.numbered(found.events),
        )

    @get(
        "/replay",
        operation_id="getMaoReplay",
        summary="The referee's replay: every event, and for each penalty why it was given",
        **signed_in_route(403, 404, reads_store=True),
    )
    def replay(self, caller: CallerDep, game_id: GameId) -> MaoReplayRead:
        return MaoReplayRead(game_id=game_id, steps=caller.run(mao.replay, game_id))

"""The JSON API's part of the app (``service.app`` composes it with the pages): its controllers,
the check run before every handler, the dependencies the handlers take, its refusals as
problem+json and its OpenAPI document.

Who may call what: ``service.http.admit`` (the token, then the check each route's ``opt`` names,
``service.http.auth``), run first by the app's before-request hook, and ``service.usecases.policy``.
A signed-in read of the read models waits for its actor's last write
(``service.http.consistency.reads_own_writes``, run by ``admit`` too; ``docs/consistency.md``).
OpenAPI 3.1 is served at ``/schema/openapi.json``.
"""

from typing import Any
from uuid import UUID

from litestar import Request, Response
from litestar.datastructures import State
from litestar.di import Provide
from litestar.openapi import OpenAPIConfig
from litestar.openapi.plugins import OpenAPIRenderPlugin
from litestar.types import ControllerRouterHandler

from service.domain.roles import Actor
from service.http.admit import admit
from service.http.allow import options_answer
from service.http.charts import ChartController
from service.http.disputes import DisputeController, OpenDisputeController
from service.http.games import GameController
from service.http.health import HealthController
from service.http.invitations import InvitationController, LeagueInvitationController
from service.http.leagues import LeagueController
from service.http.log import LogController
from service.http.mao.acts import provide_mao_act
from service.http.mao.games import MaoGameController
from service.http.mao.log import MaoLogController
from service.http.mao.rules import MaoRuleController
from service.http.mao.stream import MaoStreamController
from service.http.mao.table import MaoTableController
from service.http.me import MeController
from service.http.moves import MoveController
from service.http.pages import provide_page
from service.http.params import After, IdempotencyKey
from service.http.play_socket import play_socket
from service.http.players import PlayerController, RefereeController
from service.http.records import RecordController
from service.http.rounds import RoundController
from service.http.security import COMPONENTS
from service.http.services import Caller, CallerDep, Reading, ServicesDep, Writer
from service.http.stream import StreamController
from service.http.strict import strict_body
from service.http.tokens import TokenController
from service.http.tournaments import TournamentController
from service.http.webhooks import LeagueWebhookController, WebhookController
from service.observability.endpoint import metrics_endpoint
from service.usecases.services import Services

CONTROLLERS: list[ControllerRouterHandler] = [
    HealthController,
    PlayerController,
    RefereeController,
    TokenController,
    LeagueController,
    LeagueInvitationController,
    InvitationController,
    GameController,
    MoveController,
    RoundController,
    DisputeController,
    LogController,
    StreamController,
    TournamentController,
    ChartController,
    LeagueWebhookController,
    WebhookController,
    OpenDisputeController,
    MeController,
    RecordController,
    MaoGameController,
    MaoTableController,
    MaoRuleController,
    MaoLogController,
    MaoStreamController,
    play_socket,
    metrics_endpoint,
]


async def before_request(request: Request[Any, Any, Any]) -> Response[None] | None:
    await admit(request, request.route_handler)
    answer = options_answer(request)
    if answer is None:
        await strict_body(request)
    return answer


def provide_services(state: State) -> Services:
    return state.services


def provide_actor(request: Request[Any, Any, Any], services: ServicesDep) -> Actor | None:
    # ``services`` only orders the two: litestar resolves independent dependencies of a handler
    # concurrently, in an anyio task group per request, which costs far more than the two calls
    return request.state.actor


def provide_caller(request: Request[Any, Any, Any], services: ServicesDep) -> Caller:
    return Caller(services, request.state.actor)  # a signed-in route's: its actor is never None


def provide_writer(
    request: Request[Any, Any, Any], services: ServicesDep, idempotency_key: IdempotencyKey = None
) -> Writer:
    return Writer(services, request.state.actor, idempotency_key)


def provide_reading(services: ServicesDep, after: After = None) -> Reading:
    return Reading(services, after)


def provide_bearer(request: Request[Any, Any, Any], caller: CallerDep) -> UUID | None:
    # ``caller`` only orders the two, as ``services`` does above; a token is a signed-in caller's
    return request.state.credential_id


DEPENDENCIES = {
    "services": Provide(provide_services, sync_to_thread=False),
    "actor": Provide(provide_actor, sync_to_thread=False),
    "caller": Provide(provide_caller, sync_to_thread=False),
    "writer": Provide(provide_writer, sync_to_thread=False),
    "bearer": Provide(provide_bearer, sync_to_thread=False),
    "page": Provide(provide_page, sync_to_thread=False),
    "reading": Provide(provide_reading, sync_to_thread=False),
    "act": Provide(provide_mao_act, sync_to_thread=False),
}


def openapi_config(render_plugins: list[OpenAPIRenderPlugin]) -> OpenAPIConfig:
    """The document's settings; ``render_plugins``: the pages that show it to people (``/schema``)."""
    return OpenAPIConfig(
        title="maumau",
        version="0.1.0",
        description=(
            "The Mau-Mau club service: players, leagues, referees and games. Send a bearer token "
            "(`Authorization: Bearer mm_...`); errors are problem+json with a stable `code`."
        ),
        path="/schema",
        components=COMPONENTS,
        render_plugins=render_plugins,
        use_handler_docstrings=False,
    )

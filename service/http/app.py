"""The litestar app: ``create_app(settings)``; ``uvicorn --factory service.http.app:create_app`` serves it.

The lifespan builds the ``Services`` (the application, the read models and,
unless ``MAUMAU_RUN_PROJECTIONS=no``, the projections in a background thread)
once the server process runs, and closes them at shutdown. Handlers that
touch the store run in the thread pool (the library is synchronous).

OpenAPI 3.1 is served at ``/schema/openapi.json``, and read by people at ``/schema`` (also
``/schema/swagger`` and ``/schema/scalar``): a page of our own that needs no internet. The web
pages for people (``service.web``) are served beside the API, outside its schema. Who may call
what: ``service.http.admit`` (the token, then the check each route's ``opt`` names,
``service.http.auth``), run first by the app's before-request hook, and ``service.usecases.policy``.
A signed-in read of the read models waits for its actor's last write
(``service.http.consistency.reads_own_writes``, run by ``admit`` too; ``docs/consistency.md``).

Every request gets an id (``X-Request-ID``), a JSON log line and its metrics
(``service.observability.requests``); ``GET /metrics`` serves the Prometheus
metrics (``service.observability.endpoint``); logging is configured from the
settings when the app is made (``service.observability.logs``).
"""

import asyncio
import gc
from collections.abc import AsyncIterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from typing import Any
from uuid import UUID

import anyio.to_thread
from litestar import Litestar, Request, Response
from litestar.datastructures import State
from litestar.di import Provide
from litestar.openapi import OpenAPIConfig

from service.domain.roles import Actor
from service.http.admit import admit
from service.http.allow import options_answer
from service.http.charts import ChartController
from service.http.disputes import DisputeController, OpenDisputeController
from service.http.errors import EXCEPTION_HANDLERS
from service.http.games import GameController
from service.http.headers import SecurityHeaders
from service.http.health import HealthController
from service.http.invitations import InvitationController, LeagueInvitationController
from service.http.leagues import LeagueController
from service.http.log import LogController
from service.http.mao.games import MaoGameController
from service.http.mao.log import MaoLogController
from service.http.mao.rules import MaoRuleController
from service.http.mao.table import MaoTableController
from service.http.me import MeController
from service.http.moves import MoveController
from service.http.openapi import StrictStructSchemaPlugin
from service.http.players import PlayerController
from service.http.records import RecordController
from service.http.referees import RefereeController
from service.http.results import TournamentResultsController
from service.http.rounds import RoundController
from service.http.schedule import LeagueScheduleController
from service.http.security import COMPONENTS
from service.http.services import ServicesDep
from service.http.stream import StreamController
from service.http.strict import strict_body
from service.http.tokens import TokenController
from service.http.tournaments import TournamentController
from service.http.webhooks import LeagueWebhookController, WebhookController
from service.observability import logs
from service.observability.endpoint import metrics_endpoint
from service.observability.requests import RequestObserver
from service.settings import Settings, get_settings
from service.usecases.services import Services
from service.web import web_router
from service.web.apidocs import ApiDocsPage
from service.web.i18n import read_catalogues
from service.web.render import template_config

HANDLER_THREADS = 40  # per process; anyio's default too

CONTROLLERS = [
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
    TournamentResultsController,
    LeagueScheduleController,
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


def provide_bearer(request: Request[Any, Any, Any], services: ServicesDep) -> UUID | None:
    return request.state.credential_id


def create_app(settings: Settings | None = None) -> Litestar:
    settings = settings or get_settings()
    logs.configure(settings)

    @asynccontextmanager
    async def lifespan(app: Litestar) -> AsyncIterator[None]:
        # sync handlers run in the loop's default executor, min(32, cores + 4) threads unless set: too
        # few while reads wait for the read models and moves wait for their commit
        asyncio.get_running_loop().set_default_executor(
            ThreadPoolExecutor(max_workers=HANDLER_THREADS, thread_name_prefix="handler")
        )
        services = await anyio.to_thread.run_sync(Services, settings)
        app.state.services = services
        # what startup made (the modules, the app's routes and schemas, the services) lives as long as
        # the process: kept out of the collector's sight, a full collection no longer scans it and
        # stalls the event loop for a few ms instead of 100-230 (bench/RESULTS.md, issue 19)
        gc.collect()
        gc.freeze()
        try:
            yield
        finally:
            await anyio.to_thread.run_sync(services.close)

    app = Litestar(
        route_handlers=[*CONTROLLERS, web_router(settings)],
        lifespan=[lifespan],
        before_request=before_request,
        dependencies={
            "services": Provide(provide_services, sync_to_thread=False),
            "actor": Provide(provide_actor, sync_to_thread=False),
            "bearer": Provide(provide_bearer, sync_to_thread=False),
        },
        exception_handlers=EXCEPTION_HANDLERS,
        plugins=[StrictStructSchemaPlugin()],
        openapi_config=OpenAPIConfig(
            title="maumau",
            version="0.1.0",
            description=(
                "The Mau-Mau club service: players, leagues, referees and games. Send a bearer token "
                "(`Authorization: Bearer mm_...`); errors are problem+json with a stable `code`."
            ),
            path="/schema",
            components=COMPONENTS,
            # our own page, no script: the API docs work without internet (service.web.apidocs)
            render_plugins=[ApiDocsPage(path=["/swagger", "/scalar"])],
            use_handler_docstrings=False,
        ),
        template_config=template_config(),
        debug=False,
        logging_config=None,  # logs.configure did it: litestar's own would reset the root logger
    )
    app.state.catalogues = read_catalogues()
    # outermost, around routing and the exception handlers: 404s and refusals get a request id too
    app.asgi_handler = RequestObserver(SecurityHeaders(app.asgi_handler))
    return app

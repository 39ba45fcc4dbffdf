"""The app: ``create_app(settings)``; ``uvicorn --factory service.app:create_app`` serves it.

It composes the two faces, neither of which imports the other: the JSON API (``service.http.api``:
its controllers, checks, dependencies and OpenAPI document) and the web pages for people
(``service.web``), served beside the API, outside its schema. Both call the use cases
(``service.usecases``) with the same ``Services``.

The lifespan builds the ``Services`` (the application, the read models and, unless
``MAUMAU_RUN_PROJECTIONS=no``, the projections in a background thread) once the server process
runs, and closes them at shutdown. Handlers that touch the store run in the thread pool (the
library is synchronous).

OpenAPI 3.1 is served at ``/schema/openapi.json``, and read by people at ``/schema`` (also
``/schema/swagger`` and ``/schema/scalar``): a page of our own that needs no internet.

Every request gets an id (``X-Request-ID``), a JSON log line and its metrics
(``service.observability.requests``); ``GET /metrics`` serves the Prometheus metrics
(``service.observability.endpoint``); logging is configured from the settings when the app is
made (``service.observability.logs``).
"""

import asyncio
import gc
from collections.abc import AsyncIterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager

import anyio.to_thread
from litestar import Litestar

from service.http.api import CONTROLLERS, DEPENDENCIES, before_request, openapi_config
from service.http.cors import cors_config
from service.http.errors import EXCEPTION_HANDLERS
from service.http.headers import POLICY, SecurityHeaders
from service.http.openapi import StrictStructSchemaPlugin
from service.observability import logs
from service.observability.requests import RequestObserver
from service.settings import Settings, get_settings
from service.usecases.services import Services
from service.web.apidocs import ApiDocsPage
from service.web.errors import for_people
from service.web.i18n import read_catalogues
from service.web.render import template_config
from service.web.router import web_router

HANDLER_THREADS = 40  # per process; anyio's default too


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
        dependencies=DEPENDENCIES,
        # the API's problems; a browser asking for a page gets one in its language instead
        exception_handlers=for_people(EXCEPTION_HANDLERS),
        plugins=[StrictStructSchemaPlugin()],
        # our own page, no script: the API docs work without internet (service.web.apidocs)
        openapi_config=openapi_config([ApiDocsPage(path=["/swagger", "/scalar"])]),
        template_config=template_config(),
        # other sites' pages call the API only where the settings name them, with a token, no cookie
        cors_config=cors_config(settings.cors_origins),
        debug=False,
        logging_config=None,  # logs.configure did it: litestar's own would reset the root logger
    )
    app.state.catalogues = read_catalogues()
    app.state.content_security_policy = POLICY  # the pages' printable sheets add their style to it
    # outermost, around routing and the exception handlers: 404s and refusals get a request id too
    app.asgi_handler = RequestObserver(SecurityHeaders(app.asgi_handler))
    return app

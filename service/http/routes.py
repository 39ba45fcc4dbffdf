"""The decorator arguments every route shares, built in one place from who may call it.

A route is public (a token welcome, not needed), for anyone signed in, or for admins only; each
also names the error statuses it may answer besides 400 and 401, which every route may
(``problems``), and, with ``reads_store``, that it reads the event store rather than a read model
(``service.http.consistency``); ``status_code`` is its answer's where litestar's (201 for a POST,
204 for a DELETE, 200 else) does not fit.
"""

from collections.abc import Mapping
from typing import Any, TypedDict

from litestar.openapi.datastructures import ResponseSpec
from litestar.openapi.spec import SecurityRequirement

from service.http.auth import ADMIN_ONLY, SIGNED_IN
from service.http.consistency import READS_STORE
from service.http.errors import problems
from service.http.security import BEARER, OPTIONAL_BEARER


class RouteArgs(TypedDict, total=False):
    responses: Mapping[int, ResponseSpec]
    security: list[SecurityRequirement]
    sync_to_thread: bool
    opt: Mapping[str, Any]
    status_code: int


def _route(
    security: list[SecurityRequirement],
    needs: Mapping[str, Any],
    statuses: tuple[int, ...],
    reads_store: bool,
    status_code: int | None,
    threaded: bool = True,
) -> RouteArgs:
    args = RouteArgs(responses=problems(*statuses), security=security)
    if status_code is not None:
        args["status_code"] = status_code
    if threaded:  # a sync handler runs in a worker thread; an async one needs none
        args["sync_to_thread"] = True
    opt = {**needs, **READS_STORE} if reads_store else needs
    if opt:
        args["opt"] = opt
    return args


def public_route(*statuses: int, reads_store: bool = False, threaded: bool = True) -> RouteArgs:
    return _route(OPTIONAL_BEARER, {}, statuses, reads_store, None, threaded)


class FileRouteArgs(RouteArgs, total=False):
    media_type: str
    response_description: str


def file_route(media_type: str, answer: str, *statuses: int, reads_store: bool = False) -> FileRouteArgs:
    """A public route that answers a file (an image, a CSV, a calendar, a page): its media type and
    what the answer is."""
    args = public_route(*statuses, reads_store=reads_store)
    return FileRouteArgs(**args, media_type=media_type, response_description=answer)


def signed_in_route(*statuses: int, reads_store: bool = False, status_code: int | None = None) -> RouteArgs:
    return _route(BEARER, SIGNED_IN, statuses, reads_store, status_code)


def admin_route(*statuses: int, reads_store: bool = False, status_code: int | None = None) -> RouteArgs:
    return _route(BEARER, ADMIN_ONLY, (403, *statuses), reads_store, status_code)  # anyone else: 403


# a game's command (a move, a round's entry or confirmation, a dispute or ruling): answered 200
# with the command's result, as it makes no resource
GAME_COMMAND = signed_in_route(403, 404, 409, 422, 415, status_code=200)

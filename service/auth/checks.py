"""The check a route runs once ``authenticate`` (``service.http.auth``) or a session's cookie
(``service.auth.sessions``) has said who is asking: someone must be."""

from typing import Any

from litestar.connection import ASGIConnection
from litestar.handlers import BaseRouteHandler

from service.domain.errors import RuleError


async def signed_in(connection: ASGIConnection[Any, Any, Any, Any], _: BaseRouteHandler) -> None:
    if connection.state.actor is None:
        raise RuleError("unauthorized", why="needs_bearer_token")

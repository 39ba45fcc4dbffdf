"""A game's command as a route: its path, operation, summary, body and use case say all of it.

A move, a challenge, a dispute, a ruling and a round's entry are each one ``POST`` on the game that
decodes a body, runs its use case with the writer's idempotency key and answers the command's result
(``GAME_COMMAND``); their routes differed only in those five things.
"""

from collections.abc import Callable
from typing import Any
from uuid import UUID

from litestar import post
from litestar.handlers import HTTPRouteHandler

from service.domain.roles import Actor
from service.http.params import GameId
from service.http.routes import GAME_COMMAND
from service.http.services import WriterDep
from service.usecases.events import CommandResult
from service.usecases.services import Services

UseCase = Callable[[Services, Actor, UUID, Any, str | None], CommandResult]


def game_command(
    path: str, operation_id: str, summary: str, body: Any, use_case: UseCase
) -> HTTPRouteHandler:
    """The route of one command on a game: ``body`` is the request body's type (with its examples)."""

    def command(self: object, game_id: GameId, data: Any, writer: WriterDep) -> CommandResult:
        return writer.run(use_case, game_id, data)

    # litestar documents and decodes the body by the handler's annotation
    command.__annotations__["data"] = body
    command.__name__ = command.__qualname__ = use_case.__name__
    return post(path, operation_id=operation_id, summary=summary, **GAME_COMMAND)(command)

"""What a use case works with, and the one place a write is noted for its writer's reads.

``Context`` is what the faces hand a use case: the application (writes, the event store) and the
read models, the facts of games, with the waits of read-your-writes (``docs/consistency.md``).
``service.usecases.services.Services`` is one; a use case names no face.
"""

import functools
from collections.abc import Callable
from typing import Concatenate, ParamSpec, Protocol, TypeVar

from service.application import MauMau
from service.auth.tokens import Authenticator
from service.domain.roles import Actor
from service.persistence.notices import Notices
from service.persistence.sessions import Sessions
from service.projections.current import CurrentGames
from service.projections.reader import ReadModels
from service.settings import Settings
from service.usecases.facts import Games


class Context(Protocol):
    app: MauMau
    reader: ReadModels
    games: Games  # each game's facts: who sits where, its league
    current: CurrentGames  # a game's own reads as it is now (its table, a seat's view)
    auth: Authenticator  # tokens: a revoked one is forgotten at once
    sessions: Sessions  # the pages' signed-in browsers
    notices: Notices  # what each person chose to hear of, and their notices
    settings: Settings

    def wrote(self, actor: Actor, position: int | None = None) -> None:
        """A write of ``actor`` succeeded, at ``position`` (None: the log's head now, at or after it)."""

    def read_after_own_writes(self, actor: Actor) -> None:
        """Wait (bounded) until the read models have applied ``actor``'s last write."""

    def read_after(self, position: int) -> None:
        """Wait (bounded) until the read models have applied ``position``."""


Input = ParamSpec("Input")
Result = TypeVar("Result")


UseCase = Callable[Concatenate[Context, Actor, Input], Result]


def write_when(
    noted: Callable[[Result], bool],
) -> Callable[[UseCase[Input, Result]], UseCase[Input, Result]]:
    """A use case that writes, noted only when ``noted`` says its answer changed what the read
    models show (a move that ends no round changes only the game's own reads, current anyway)."""

    def wrapped(use_case: UseCase[Input, Result]) -> UseCase[Input, Result]:
        @functools.wraps(use_case)
        def noting(context: Context, actor: Actor, *args: Input.args, **kwargs: Input.kwargs) -> Result:
            result = use_case(context, actor, *args, **kwargs)
            if noted(result):
                position = getattr(result, "position", None)
                context.wrote(actor, position if isinstance(position, int) else None)
            return result

        return noting

    return wrapped


def _always(result: Result) -> bool:
    return True


def write(use_case: UseCase[Input, Result]) -> UseCase[Input, Result]:
    """A use case that writes: once it succeeds, its actor's next reads of the read models wait for
    what it wrote: at the log position its answer names to read it after (``position``, as every
    write's answer that names one), else the log's head now; a refused one wrote nothing, and notes
    nothing."""
    noted: Callable[[Result], bool] = _always
    return write_when(noted)(use_case)


class Joining(Protocol):
    @property
    def writer(self) -> Actor:
        """Who the write made, and wrote for (a player who joined with an invitation)."""


Joined = TypeVar("Joined", bound=Joining)


def write_joining(
    use_case: Callable[Concatenate[Context, Input], Joined],
) -> Callable[Concatenate[Context, Input], Joined]:
    """A write by someone the service does not know yet (no token: an invitation redeemed): noted
    as ``write`` does, for whom it made, so that their first reads with their new token show it."""

    @functools.wraps(use_case)
    def noted(context: Context, *args: Input.args, **kwargs: Input.kwargs) -> Joined:
        result = use_case(context, *args, **kwargs)
        context.wrote(result.writer)
        return result

    return noted


def scoped_key(actor: Actor, key: str | None) -> str | None:
    """An idempotency key belongs to the client that sent it: another client's same key is another key."""
    return None if key is None else f"{actor.role}:{actor.id}:{key}"

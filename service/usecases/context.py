"""What a use case works with, and the one place a write is noted for its writer's reads.

``Context`` is what the faces hand a use case: the application (writes, the event store) and the
read models, the facts of games, with the waits of read-your-writes (``docs/consistency.md``).
``service.usecases.services.Services`` is one; a use case names no face.
"""

import functools
from collections.abc import Callable
from typing import Concatenate, ParamSpec, Protocol, TypeVar

from service.application import MauMau
from service.domain.roles import Actor
from service.projections.current import CurrentGames
from service.projections.reader import ReadModels
from service.usecases.facts import Games


class Context(Protocol):
    app: MauMau
    reader: ReadModels
    games: Games  # each game's facts: who sits where, its league
    current: CurrentGames  # a game's own reads as it is now (its table, a seat's view)

    def wrote(self, actor: Actor, position: int | None = None) -> None:
        """A write of ``actor`` succeeded, at ``position`` (None: the log's head now, at or after it)."""

    def read_after_own_writes(self, actor: Actor) -> None:
        """Wait (bounded) until the read models have applied ``actor``'s last write."""

    def read_after(self, position: int) -> None:
        """Wait (bounded) until the read models have applied ``position``."""


Input = ParamSpec("Input")
Result = TypeVar("Result")


def write(
    use_case: Callable[Concatenate[Context, Actor, Input], Result],
) -> Callable[Concatenate[Context, Actor, Input], Result]:
    """A use case that writes: once it succeeds, its actor's next reads of the read models wait for
    what it wrote: at the log position its answer names to read it after (``position``, as every
    write's answer that names one), else the log's head now; a refused one wrote nothing, and notes
    nothing."""

    @functools.wraps(use_case)
    def noted(context: Context, actor: Actor, *args: Input.args, **kwargs: Input.kwargs) -> Result:
        result = use_case(context, actor, *args, **kwargs)
        position = getattr(result, "position", None)
        context.wrote(actor, position if isinstance(position, int) else None)
        return result

    return noted


def scoped_key(actor: Actor, key: str | None) -> str | None:
    """An idempotency key belongs to the client that sent it: another client's same key is another key."""
    return None if key is None else f"{actor.role}:{actor.id}:{key}"

"""A command on a game as an actor asked for it: written under their scoped idempotency key at the
version they sent, its events shown as they may see them."""

from collections.abc import Callable
from typing import Any

from service.application import Outcome
from service.domain.roles import Actor
from service.usecases import policy
from service.usecases.context import Context, scoped_key
from service.usecases.events import CommandResult, command_result
from service.usecases.facts import GameFacts


def commanded(
    context: Context,
    actor: Actor,
    facts: GameFacts,
    command: Callable[..., Outcome],
    *args: Any,
    version: int | None,
    idempotency_key: str | None,
    **fields: Any,
) -> CommandResult:
    """``command(*args, **fields)`` (the application's, on the game ``facts`` describe) by ``actor``."""
    outcome = command(
        *args, **fields, by=actor, expected_version=version, key=scoped_key(actor, idempotency_key)
    )
    return command_result(outcome, policy.viewer(context, actor, facts), facts)

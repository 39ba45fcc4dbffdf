"""One act at a Mao table through the application, answered as the asker may see it."""

import hashlib
import random
from collections.abc import Callable
from typing import Any
from uuid import UUID

import msgspec

from service.domain.mao.aggregate import MaoGame
from service.domain.mao.commands import Command
from service.domain.mao.events import CardPlayed, PlayCancelled, PlayReturned
from service.domain.mao.redaction import redact_all
from service.domain.mao.views import PENALTY_TEXT
from service.domain.roles import Actor
from service.http.auth import SIGNED_IN
from service.http.errors import problems
from service.http.mao import access
from service.http.mao.schemas import MaoActRead
from service.http.security import BEARER
from service.projections.mao import LISTED
from service.usecases.context import scoped_key
from service.usecases.services import Services

_OUT_OF_TURN = "out_of_turn"
# what every act's route says of itself: a signed-in asker, an answer (no resource made), its refusals
ACT_ROUTE: dict[str, Any] = {
    "opt": SIGNED_IN,
    "responses": problems(403, 404, 409, 415, 422),
    "security": BEARER,
    "status_code": 200,
    "sync_to_thread": True,
}


def act(
    services: Services,
    actor: Actor,
    game_id: UUID,
    command_of: Callable[[MaoGame, random.Random], Command],
    is_play: bool = False,
    key: str | None = None,
    request: tuple[Any, ...] = (),
) -> MaoActRead:
    """Decide what ``command_of`` makes of the match as stored (it checks who asks first); for a
    play, say whether the judge accepted it (a bot's play after it is not this one).

    With an idempotency ``key``, the same ``request`` (the route's name and body) sent again is
    answered with what the first did, and the key sent with another request is refused."""
    scoped = scoped_key(actor, key)
    digest = hashlib.sha256(msgspec.json.encode(request)).hexdigest()[:16]
    game, events = services.app.mao_do(game_id, command_of, f"{actor.role}:{actor.id}", scoped, digest)
    if any(isinstance(event, LISTED) for event in events):
        services.wrote(actor)  # the list or standings change: the actor's next read of them waits for it
    shown = redact_all(game.facts, access.viewer(services, actor, game))
    # a request answered again: its facts are where they were recorded, not the last ones
    first = game.keys[scoped][1] if scoped is not None else len(game.facts) - len(events)
    play, reason = None, None
    for event in events if is_play else ():
        if isinstance(event, CardPlayed):
            play = "accepted"
        elif isinstance(event, PlayReturned):
            play, reason = "returned", PENALTY_TEXT[event.reason]
        elif isinstance(event, PlayCancelled):
            play, reason = "cancelled", PENALTY_TEXT[_OUT_OF_TURN]
        else:
            continue
        break
    return MaoActRead(
        game_id=game.id,
        version=game.version,
        play=play,
        reason=reason,
        events=[
            {"number": first + n, **entry} for n, entry in enumerate(shown[first : first + len(events)], 1)
        ],
    )


def seat_act(
    services: Services,
    actor: Actor,
    game_id: UUID,
    seat: int | None,
    command_for: Callable[[int], Command],
    key: str | None,
    request: tuple[Any, ...],
    is_play: bool = False,
) -> MaoActRead:
    """An act for one seat: the asker's own, or the one an official names."""

    def command(game: MaoGame, rng: random.Random) -> Command:
        return command_for(access.acting_seat(services, actor, game, seat))

    return act(services, actor, game_id, command, is_play=is_play, key=key, request=request)


def judge_act(
    services: Services,
    actor: Actor,
    game_id: UUID,
    command_for: Callable[[], Command],
    key: str | None,
    request: tuple[Any, ...],
) -> MaoActRead:
    """An act only the match's judge does."""

    def command(game: MaoGame, rng: random.Random) -> Command:
        access.check_judge(services, actor, game)
        return command_for()

    return act(services, actor, game_id, command, key=key, request=request)

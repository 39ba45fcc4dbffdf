"""One act at a Mao table through the application, answered as the asker may see it."""

import random
from collections.abc import Callable
from uuid import UUID

from service.domain.mao.aggregate import MaoGame
from service.domain.mao.commands import Command
from service.domain.mao.events import CardPlayed, PlayCancelled, PlayReturned
from service.domain.mao.redaction import redact_all
from service.domain.mao.views import PENALTY_TEXT
from service.domain.roles import Actor
from service.http.mao import access
from service.http.mao.schemas import MaoActRead
from service.http.services import Services

_OUT_OF_TURN = "out_of_turn"


def act(
    services: Services,
    actor: Actor,
    game_id: UUID,
    command_of: Callable[[MaoGame, random.Random], Command],
    is_play: bool = False,
) -> MaoActRead:
    """Decide what ``command_of`` makes of the match as stored (it checks who asks first); for a
    play, say whether the judge accepted it (a bot's play after it is not this one)."""
    game, events = services.app.mao_do(game_id, command_of, f"{actor.role}:{actor.id}")
    shown = redact_all(game.facts, access.viewer(services, actor, game))
    first = len(game.facts) - len(events)
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
        events=[{"number": first + n, **entry} for n, entry in enumerate(shown[first:], 1)],
    )

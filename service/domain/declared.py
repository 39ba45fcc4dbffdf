"""What each stored Game event declares beside its class, found by the type its entries carry.

An engine fact (``Game.CardPlayed``) declares on its engine class (``events.CardPlayed``), the
others on their class nested in ``Game``. A class without the declaration fails here, at import.
"""

from typing import Any

from service.domain.events import EVENT_TYPES, HiddenCardsReshuffled
from service.domain.events import Event as EngineEvent
from service.domain.game import Game


def declarations(attribute: str) -> dict[str, Any]:
    """Each stored Game event's type with its class's ``attribute`` (``shown``, ``line``)."""
    engine: tuple[type[EngineEvent], ...] = (*EVENT_TYPES, HiddenCardsReshuffled)
    declared = {fact.__name__: getattr(fact, attribute) for fact in engine}
    declared["Created"] = getattr(Game.Created, attribute)
    for value in vars(Game).values():
        stored = isinstance(value, type) and issubclass(value, Game.Event) and value is not Game.Event
        if stored and not issubclass(value, Game.Fact):
            declared[value.__name__] = getattr(value, attribute)
    return declared

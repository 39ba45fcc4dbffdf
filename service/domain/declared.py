"""What each stored Game event declares beside its class, found by the type its entries carry.

An engine fact (``Game.CardPlayed``) declares on its engine class (``events.CardPlayed``), the
others on their class nested in ``Game``. A class without the declaration fails here, at import.
"""

from service.domain.declaration import Declaration
from service.domain.events import EVENT_TYPES, HiddenCardsReshuffled
from service.domain.events import Event as EngineEvent
from service.domain.game import Game


def _declarations() -> dict[str, Declaration]:
    """Each stored Game event's type with its class's ``declaration``."""
    engine: tuple[type[EngineEvent], ...] = (*EVENT_TYPES, HiddenCardsReshuffled)
    found = {fact.__name__: fact.declaration for fact in engine}
    found["Created"] = Game.Created.declaration
    for value in vars(Game).values():
        stored = isinstance(value, type) and issubclass(value, Game.Event) and value is not Game.Event
        if stored and not issubclass(value, Game.Fact):
            found[value.__name__] = value.declaration
    return found


DECLARED = _declarations()

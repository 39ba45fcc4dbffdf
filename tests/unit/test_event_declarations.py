"""Every stored Game event declares beside its class what each sight keeps of it (``shown``), and
redaction reads that declaration: a new event is redacted without an edit to ``redaction``."""

from service.domain import sight
from service.domain.events import EVENT_TYPES, HiddenCardsReshuffled
from service.domain.game import Game
from service.domain.redaction import SHOWN


def test_every_game_event_and_engine_fact_has_its_sight_declared_and_registered() -> None:
    classes = [value for value in vars(Game).values() if isinstance(value, type)]
    stored = [cls for cls in classes if issubclass(cls, Game.Event) and cls is not Game.Event]
    names = {cls.__name__ for cls in stored if not issubclass(cls, (Game.Fact,))}
    names |= {fact.__name__ for fact in (*EVENT_TYPES, HiddenCardsReshuffled)} | {"Created"}
    assert names == set(SHOWN)
    assert all(callable(shown) for shown in SHOWN.values())


def test_an_engine_facts_sight_is_the_one_its_class_declares() -> None:
    assert SHOWN["CardPlayed"] is sight.card_played
    assert SHOWN["TurnPassed"] is sight.kept
    assert SHOWN["Created"] is Game.Created.shown

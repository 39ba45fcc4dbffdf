"""Every stored Game event declares beside its class (``declaration``) what each sight keeps of it,
its record line and its words, and redaction, the record and the pages read them: a new event
needs no edit there."""

from datetime import UTC, datetime

from service.domain import sight
from service.domain.events import EVENT_TYPES, HiddenCardsReshuffled
from service.domain.game import Game
from service.domain.record import GameCreated, Kept, Other
from service.domain.record_lines import copied
from service.domain.record_of import LINES, record_of
from service.domain.redaction import SHOWN, Viewer
from service.domain.views import Entry


def test_every_game_event_and_engine_fact_has_its_sight_declared_and_registered() -> None:
    classes = [value for value in vars(Game).values() if isinstance(value, type)]
    stored = [cls for cls in classes if issubclass(cls, Game.Event) and cls is not Game.Event]
    names = {cls.__name__ for cls in stored if not issubclass(cls, (Game.Fact,))}
    names |= {fact.__name__ for fact in (*EVENT_TYPES, HiddenCardsReshuffled)} | {"Created"}
    assert names == set(SHOWN) == set(LINES)
    assert all(callable(shown) for shown in SHOWN.values())
    assert all(callable(line) for line in LINES.values())


def test_an_engine_facts_sight_is_the_one_its_class_declares() -> None:
    assert SHOWN["CardPlayed"] is sight.card_played
    assert SHOWN["TurnPassed"] is sight.kept
    assert SHOWN["Created"] is Game.Created.declaration.shown


def test_a_copied_line_takes_the_entrys_fields_by_name_and_none_when_one_it_needs_is_missing() -> None:
    kept = copied(Kept)
    assert kept(7, {"seat": 2, "turn": 3}, None, Viewer(), []) == Kept(number=7, seat=2)
    assert kept(7, {}, None, Viewer(), []) is None
    assert copied(GameCreated)(1, {"seats": []}, None, Viewer(), []) == GameCreated(number=1)


def test_an_entry_whose_line_cannot_be_made_and_a_type_no_class_declares_are_other_lines() -> None:
    when = datetime(2026, 1, 1, tzinfo=UTC)
    entries = [
        Entry(number=1, type="Created", timestamp=when, data={"seats": ["ada"], "ruleset": {"name": "club"}}),
        Entry(number=2, type="Abandoned", timestamp=when, data={}),
        Entry(number=3, type="Unheard", timestamp=when, data={"x": 1}),
    ]
    lines = record_of("g", entries, {}, Viewer()).lines
    assert lines[1:] == [Other(number=2, type="Abandoned"), Other(number=3, type="Unheard", data='{"x":1}')]

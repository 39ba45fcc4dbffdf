"""Every message the pages show is in every catalogue, translated, with the same values to fill in."""

import re
from datetime import UTC, datetime

import msgspec
import pytest

from service.domain.declared import DECLARED
from service.domain.pairing import ranking_order
from service.domain.views import Entry
from service.projections.standings import TIE_BREAKS
from service.web.i18n import LANGUAGES, accepted, choose, read_catalogue
from service.web.messages import all_messages, event_messages
from service.web.words import event_words, full_event_words, order_words

PLACEHOLDER = re.compile(r"\{(\w+)\}")
SAME_IN_EVERY_LANGUAGE = {"API"}


def english_messages() -> list[str]:
    """The messages a page in Ukrainian or Russian must not show in English: those with nothing to
    fill in, and not a single letter (a rank's letter on a printed sheet, "J", is a card's corner
    anywhere else: J♥)."""
    return [m for m in all_messages() - SAME_IN_EVERY_LANGUAGE if "{" not in m and len(m) > 1]


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_message_of_the_pages_is_in_the_catalogue_and_translated(language):
    messages = read_catalogue(language).messages
    missing = sorted(all_messages() - set(messages))
    assert missing == []
    if language == "en":
        assert all(messages[m] == m for m in all_messages())
    else:
        untranslated = sorted(m for m in all_messages() - SAME_IN_EVERY_LANGUAGE if messages[m] == m)
        assert untranslated == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_translation_fills_in_the_same_values_as_its_message(language):
    messages = read_catalogue(language).messages
    wrong = [
        m for m in all_messages() if set(PLACEHOLDER.findall(m)) != set(PLACEHOLDER.findall(messages[m]))
    ]
    assert wrong == []


def test_the_catalogues_hold_no_message_the_pages_no_longer_show():
    for language in LANGUAGES:
        assert set(read_catalogue(language).messages) - all_messages() == set(), language


def test_the_language_is_the_one_asked_then_the_one_remembered_then_the_browsers_then_english():
    assert accepted("ru-RU;q=0.8, uk;q=0.9, en;q=0.1") == ["uk", "ru", "en"]
    assert choose("ru", "uk", "en") == "ru"
    assert choose("xx", "uk", "ru") == "uk"
    assert choose(None, None, "de-DE, ru;q=0.5") == "ru"
    assert choose(None, None, "de-DE, fr") == "en"
    assert choose(None, None, "uk;q=0, ru") == "ru"


def test_every_key_a_standings_table_or_a_ranking_is_ordered_by_has_words():
    english = read_catalogue("en").gettext
    for elimination in (False, True):
        for lower in (False, True):
            keys = ranking_order(lower, elimination)[0]
            assert all(
                words != key for words, key in zip(order_words(english, keys, lower), keys, strict=True)
            )
    assert all(
        words != key for words, key in zip(order_words(english, TIE_BREAKS, True), TIE_BREAKS, strict=True)
    )


def test_the_words_an_event_declares_beside_its_class_are_messages_of_the_pages():
    declared = {words for d in DECLARED.values() for words in (d.words, d.official) if words is not None}
    assert "{who} keeps the card drawn" in declared
    assert declared <= event_messages() <= all_messages()


def test_an_events_declared_words_are_translated_with_the_values_they_name():
    english, ukrainian = read_catalogue("en").gettext, read_catalogue("uk").gettext
    event = Entry(
        number=5, type="TurnPassed", timestamp=datetime(2026, 1, 1, tzinfo=UTC), data={"seat": 0, "turn": 1}
    )
    assert event_words(english, event, ["Ada", "Bo"]) == "Ada plays no more: Bo moves"
    assert event_words(ukrainian, event, ["Ada", "Bo"]) == ukrainian(
        "{who} plays no more: {next} moves", who="Ada", next="Bo"
    )
    created = msgspec.structs.replace(event, type="Created", data={})
    assert full_event_words(english, created, []) == "The game is created"
    assert event_words(english, created, []) is None

"""Redaction of jokers and second-deck cards: hidden like any card, named by their text when shown.

The engine deals neither yet, so the entries are written as a two-deck pesten game would store them.
"""

import random
from datetime import UTC, datetime
from typing import Any

from service.domain.cards import RANKS, deck_cards, format_card, format_cards, is_joker, parse_card
from service.domain.redaction import FULL, PUBLIC, Table, Viewer, redact
from service.domain.state import DEBT, PLAY
from service.domain.views import Entry
from tests.card_names import card_names

SEATS, HAND = 4, 7
TABLE = Table(seats=SEATS, hand_size=HAND)
DECK = list(deck_cards(RANKS, 2, 2))
random.Random(17).shuffle(DECK)
DEALT = SEATS * HAND
STARTER = DECK[DEALT]


def entry(kind: str, **data: Any) -> Entry:
    return Entry(number=3, type=kind, timestamp=datetime(2026, 12, 1, tzinfo=UTC), data=data)


def dealt() -> Entry:
    data = {"round_no": 1, "dealer": 0, "deck": DECK, "turn": 1, "debt": 0, "direction": 1, "phase": PLAY}
    return entry("RoundDealt", salt="5a" * 16, commitment="c0" * 32, **data)


def test_the_deal_of_two_decks_with_jokers_holds_every_kind_of_card():
    hands = set(DECK[:DEALT])
    assert any(is_joker(c) for c in hands)
    assert any(c >= 54 for c in hands)


def test_the_public_sees_of_a_two_deck_deal_only_the_starter():
    shown = redact(dealt(), PUBLIC, TABLE).data
    assert list(card_names(shown)) == [format_card(STARTER)]
    assert shown["stock"] == 108 - DEALT - 1


def test_a_seat_sees_of_a_two_deck_deal_its_own_hand_with_its_jokers_and_copies_and_the_starter():
    for seat in range(SEATS):
        shown = redact(dealt(), Viewer.at(seat), TABLE).data
        first = (seat - 0 - 1) % SEATS
        own = sorted(DECK[first:DEALT:SEATS])
        assert shown["hand"] == format_cards(own)
        assert sorted(card_names(shown)) == sorted([*format_cards(own), format_card(STARTER)])


def test_the_referee_sees_a_two_deck_deal_card_by_card_in_its_text():
    shown = redact(dealt(), FULL, TABLE).data
    assert shown["deck"] == format_cards(DECK)
    assert [parse_card(text) for text in shown["deck"]] == DECK


def test_a_drawn_joker_is_named_to_its_drawer_only():
    drawn = entry(
        "CardsDrawn", seat=2, cards=[parse_card("X2.2"), parse_card("7D.2")], reason=DEBT, turn=3, phase=PLAY
    )
    assert redact(drawn, Viewer.at(2), TABLE).data["cards"] == ["X2.2", "7D.2"]
    for viewer in (PUBLIC, Viewer.at(1), Viewer.at(3)):
        shown = redact(drawn, viewer, TABLE).data
        assert list(card_names(shown)) == [] and shown["count"] == 2


def test_a_played_joker_or_copy_is_named_for_everyone():
    for card in ("X1", "QS.2"):
        played = entry("CardPlayed", seat=1, card=parse_card(card), suit=-1, call=0, missed=0)
        assert redact(played, PUBLIC, TABLE).data["card"] == card


def test_a_score_sheets_jokers_and_copies_are_named_for_everyone():
    hands = [[], [parse_card("X1"), parse_card("7D.2")], [parse_card("7D")]]
    entered = entry("RoundEntered", entry={"winner": 0, "hands": hands, "points": None, "missed_calls": []})
    assert redact(entered, PUBLIC, TABLE).data["entry"]["hands"] == [[], ["X1", "7D.2"], ["7D"]]

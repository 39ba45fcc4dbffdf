"""Redaction of the effects' events: cards an effect makes a player draw are that player's alone."""

from datetime import UTC, datetime
from typing import Any

from service.domain.cards import format_cards, parse_card
from service.domain.redaction import FULL, PUBLIC, Table, Viewer, redact
from service.domain.state import CHOOSING, EFFECT, PLAY
from service.domain.views import Entry

TABLE = Table(seats=3, hand_size=5)


def entry(kind: str, **data: Any) -> Entry:
    return Entry(number=5, type=kind, timestamp=datetime(2026, 12, 1, tzinfo=UTC), data=data)


def test_a_card_drawn_by_an_effect_is_named_to_its_drawer_and_the_referee_only():
    drawn = entry("CardsDrawn", seat=0, cards=[parse_card("KD")], reason=EFFECT, turn=2, phase=PLAY)
    assert redact(drawn, Viewer.at(0), TABLE).data["cards"] == ["KD"]
    assert redact(drawn, FULL, TABLE).data["cards"] == ["KD"]
    for viewer in (PUBLIC, Viewer.at(1), Viewer.at(2)):
        shown = redact(drawn, viewer, TABLE).data
        assert "cards" not in shown and (shown["count"], shown["reason"]) == (1, "effect")


def test_a_choice_of_who_draws_is_public_and_holds_no_card():
    chosen = entry("PlayerChosen", seat=1, chosen=0, turn=2)
    assert redact(chosen, PUBLIC, TABLE).data == {"seat": 1, "chosen": 0, "turn": 2}


def test_a_play_that_starts_a_choice_says_so_by_the_phase_name():
    played = entry(
        "CardPlayed", seat=1, card=parse_card("2H"), suit=-1, call=0, missed=0, turn=1, phase=CHOOSING
    )
    shown = redact(played, PUBLIC, TABLE).data
    assert (shown["card"], shown["phase"]) == (format_cards([parse_card("2H")])[0], "choose_player")

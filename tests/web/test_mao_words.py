"""The Mao pages' words and form without a server: a log line says only what its entry holds (a hidden
card, a rule or a secret call's words stay unsaid), the judge's reasons are translated, and the
player's form makes the act its button names, with the words said in order."""

import pytest

from service.domain.cards import parse_card
from service.domain.errors import RuleError
from service.domain.mao.commands import PlayCard, ProposeRule, Say
from service.domain.mao.views import PENALTY_TEXT
from service.web.i18n import read_catalogue
from service.web.mao_form import seat_act_of
from service.web.mao_words import entry_words, log_lines, penalty_words, phase_words

EN = read_catalogue("en").gettext
NAMES = ["Ada", "Bo", "Cy"]


def words(entry: dict[str, object], _: object = EN) -> str:
    return entry_words(_, entry, NAMES, lambda card: f"<{card}>")  # type: ignore[arg-type]


def test_a_log_line_names_no_card_no_rule_and_no_secret_call_its_entry_hid():
    assert words({"type": "CardTaken", "seat": 1, "why": "penalty"}) == ""
    assert words({"type": "CardTaken", "seat": 0, "why": "draw", "card": "QH"}) == "Ada took <QH>"
    assert words({"type": "CallMissed", "seat": 0, "kind": "rule"}) == "Ada missed a call"
    assert (
        words({"type": "CallMissed", "seat": 0, "kind": "mao", "words": "mao"}) == "Ada missed the call “mao”"
    )
    assert (
        words({"type": "RuleWritten", "round_no": 1, "by": "referee"})
        == "The judge wrote the rule of round 1"
    )
    assert "after Q" in words(
        {"type": "RuleWritten", "round_no": 1, "by": "referee", "text": "after Q: next black"}
    )
    assert words({"type": "RuleProposed", "seat": 2}) == "Cy proposed a rule for the next round"


def test_the_judges_reasons_are_translated_and_every_reason_has_words():
    uk = read_catalogue("uk").gettext
    for reason, english in PENALTY_TEXT.items():
        assert penalty_words(EN, reason) == ("talking" if reason == "extra_utterance" else english)
        assert penalty_words(uk, reason) != penalty_words(EN, reason)
    returned = {"type": "PlayReturned", "seat": 1, "card": "5C", "reason": "wrong_suit", "turn": 2}
    assert words(returned) == "Bo played <5C>: returned, wrong suit"
    assert words(returned, uk) == "Bo грає <5C>: карту повернуто, не та масть"


def test_the_log_shows_the_newest_lines_first_and_leaves_out_the_wordless():
    entries = [
        {"type": "MatchStarted", "seats": 3},
        {"type": "CardDrawn", "seat": 0, "turn": 1},
        {"type": "CardTaken", "seat": 0, "why": "draw"},
        {"type": "PauseCalled", "seat": 1},
    ]
    lines = log_lines(EN, entries, NAMES, str, 5)
    assert lines == [(4, "Bo called a pause"), (2, "Ada drew a card")]
    assert log_lines(EN, entries, NAMES, str, 1) == [(4, "Bo called a pause")]
    assert phase_words(EN, "deal", 0) == "Waiting for the first deal"
    assert phase_words(EN, "deal", 1) == "Waiting for the next deal"


def test_a_play_says_the_ticked_calls_then_the_words_typed_in_order():
    made = seat_act_of({"act": "play:QS", "say_spade": "1", "say_mao": "1", "says": "long live, the queen ,"})
    assert made.is_play
    assert made.command_for(1) == PlayCard(
        1, parse_card("QS"), ("queen of spades", "mao", "long live", "the queen")
    )
    # a spade's name only for a spade
    assert seat_act_of({"act": "play:QH", "say_spade": "1"}).command_for(0) == PlayCard(
        0, parse_card("QH"), ()
    )
    assert seat_act_of({"act": "say", "words": "whose turn", "about": "order"}).command_for(2) == Say(
        2, "whose turn", "order"
    )
    assert seat_act_of({"act": "propose", "rule": "after K: next red"}).command_for(0) == ProposeRule(
        0, "after K: next red"
    )


@pytest.mark.parametrize(
    ("form", "code"),
    [
        ({"act": "shout"}, "malformed_request"),
        ({}, "malformed_request"),
        ({"act": "play:1Z"}, "malformed_card"),
        ({"act": "play:QH", "says": ",".join(["mao"] * 9)}, "malformed_request"),
        ({"act": "say", "words": "  "}, "malformed_request"),
        ({"act": "say", "words": "hi", "about": "weather"}, "malformed_request"),
        ({"act": "propose"}, "malformed_request"),
    ],
)
def test_a_form_that_is_no_act_is_refused(form: dict[str, str], code: str):
    with pytest.raises(RuleError) as refused:
        seat_act_of(form)
    assert refused.value.code == code

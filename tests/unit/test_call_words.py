"""Calls as data: the engine's call codes stay, each ruleset says what they are called ("Mau",
"last card", "single card", "Puke"), and a missed call may cost up to 10 cards (pesten: 5)."""

import msgspec
import pytest

from service.domain.errors import RuleError
from service.domain.events import CardsDrawn
from service.domain.presets import CLUB, PRESETS
from service.domain.ruleset_checks import check
from service.domain.ruleset_options import ruleset
from service.domain.state import PENALTY
from tests.unit.round_rulesets import club_with
from tests.unit.scenario import Game


@pytest.mark.parametrize(
    ("preset", "mau", "mau_mau"),
    [
        ("club", "Mau", "Mau Mau"),
        ("classic", "Mau", "Mau-Mau"),
        ("pesten", "last card", "last card"),
        ("haft-khabis", "single card", "single card"),
        ("puke", "Puke", "Puke-Puke"),
    ],
)
def test_each_ruleset_says_its_calls_in_its_own_words(preset, mau, mau_mau):
    assert club_with(preset).call_words == (mau, mau_mau)  # the words of the calls MAU and MAU_MAU


def test_a_club_may_set_a_penalty_of_five_cards_for_a_missed_call():
    rules = ruleset("club", hand_size=2, call_penalty=5)
    game = Game(rules, seats=3, dealer=0, hands={1: "9H 4C"}, starter="5H", stock="KD QD JD 10D 9D")
    game.play(1, "9H")  # "last card" not said
    drawn = game.challenge(2)[-1]
    assert isinstance(drawn, CardsDrawn)
    assert (drawn.seat, drawn.reason, len(drawn.cards)) == (1, PENALTY, 5)


def test_a_call_penalty_over_ten_is_refused():
    with pytest.raises(RuleError) as refused:
        ruleset("club", call_penalty=11)
    assert refused.value.code == "invalid_option"


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_every_presets_round_rules_make_a_ruleset_that_checks(preset):
    check(club_with(preset))


@pytest.mark.parametrize(
    "changes",
    [
        {"out_multiplier": {"2C": 2}, "ranks": ("7", "8", "9", "10", "J", "Q", "K", "A")},
        {"out_points": {"Z": -20}},
        {"only_points": {"QX": 20}},
        {"out_multiplier": {"J": 0}},
        {"call_words": ("Mau", "")},
    ],
)
def test_round_rules_naming_no_card_of_the_deck_or_no_word_are_refused(changes):
    fields = dict(changes)
    if "ranks" in fields:
        fields["card_points"] = {rank: CLUB.card_points[rank] for rank in fields["ranks"]}
    with pytest.raises(RuleError) as refused:
        check(msgspec.structs.replace(CLUB, **fields))
    assert refused.value.code == "invalid_ruleset"


def test_an_elimination_total_below_one_is_refused():
    with pytest.raises(RuleError) as refused:
        check(msgspec.structs.replace(CLUB, elimination_total=0))
    assert refused.value.code == "invalid_option"

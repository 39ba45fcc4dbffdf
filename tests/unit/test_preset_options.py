"""Every preset starts a match; each preset's own options change what they say and fit no other preset."""

import pytest

from service.domain.commands import StartMatch
from service.domain.engine import decide
from service.domain.events import MatchStarted
from service.domain.presets import PRESETS, SWITCHES
from service.domain.rulebook import rulebook
from service.domain.ruleset_options import check_options, ruleset
from service.domain.rulesets import CardEffect
from service.domain.state import State
from tests.refusals import refused


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_every_preset_starts_a_match_at_its_smallest_and_largest_table(name):
    rules = ruleset(name)
    for seats in (rules.min_players, rules.max_players):
        (started,) = decide(State(), StartMatch(rules, seats, 0))
        assert isinstance(started, MatchStarted) and started.rules == rules


@pytest.mark.parametrize(
    ("name", "option", "key", "effect"),
    [
        ("101", "crocodile", "KH", CardEffect(draw=5, answers=())),
        ("101", "seven_of_spades_four", "7S", CardEffect(draw=4)),
        ("prsi", "ten_of_hearts", "10H", CardEffect(others_draw=1, again=True)),
        ("prsi", "king_of_spades", "KS", CardEffect(draw=4, answers=("7S",))),
        ("faraon", "king_of_spades", "KS", CardEffect(draw=4, answers=("7S",))),
        ("russian", "ten_reverses", "10", CardEffect(reverse=True)),
        ("russian", "king_of_spades", "KS", CardEffect(draw=4, answers=())),
        ("101", "ace_skips_at_once", "A", CardEffect(skip=True)),
    ],
)
def test_a_switch_turned_on_adds_its_effect_and_turned_off_changes_nothing(name, option, key, effect):
    assert ruleset(name, **{option: True}).effects[key] == effect
    assert ruleset(name, **{option: False}) == PRESETS[name]


def test_stack_sevens_lets_sevens_answer_in_classic_and_draw_one_stops_101_searching():
    assert ruleset("classic", stack_sevens=True).debt_answers == ("7",)
    assert ruleset("101", draw_one=True).draw_until_playable is False


def test_going_out_call_asks_classic_for_a_call_on_every_going_out():
    assert ruleset("classic", going_out_call=True).mau_mau_call == "always"
    assert ruleset("classic", going_out_call=False).mau_mau_call == "on_wild"
    refused("invalid_option", lambda: ruleset("puke", going_out_call=True))


def test_every_switch_is_listed_for_a_preset_that_exists():
    assert set(SWITCHES) <= set(PRESETS)


def test_an_option_of_another_preset_is_refused_naming_the_presets_that_have_it():
    error = refused("invalid_option", lambda: ruleset("pesten", king_of_spades=True))
    assert "faraon, prsi, russian" in str(error)


def test_a_switch_is_on_or_off_only():
    refused("invalid_option", lambda: ruleset("prsi", ten_of_hearts=1))


def test_a_name_no_preset_knows_is_an_unknown_option():
    refused("unknown_option", lambda: ruleset("prsi", eleven_of_hearts=True))


def test_two_decks_double_the_deck_and_a_third_is_refused():
    assert len(rulebook(ruleset("classic", decks=2)).deck) == 64
    refused("invalid_option", lambda: ruleset("classic", decks=3))
    refused("invalid_option", lambda: check_options({"decks": 0}))

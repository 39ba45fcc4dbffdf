"""Rulesets are data: the presets, the club options table and their checks."""

import msgspec
import pytest

from service.domain.cards import RANKS
from service.domain.commands import StartMatch
from service.domain.engine import decide
from service.domain.events import MatchStarted
from service.domain.presets import CLUB, MAU_MAU_150
from service.domain.ruleset_options import ruleset, with_options
from service.domain.rulesets import OPTIONS
from service.domain.state import State
from tests.refusals import refused


def test_club_is_for_2_to_6_players_with_the_52_card_deck():
    club = ruleset("club")
    assert club == CLUB
    assert (club.min_players, club.max_players) == (2, 6)
    assert club.ranks == RANKS


def test_the_club_options_table_has_its_documented_defaults():
    club = ruleset("club")
    assert club.target_score == 100
    assert club.single_round is False
    assert club.hand_size == 5
    assert club.voluntary_draw is False
    assert club.call_penalty == 2
    assert set(OPTIONS) == {
        "target_score",
        "single_round",
        "hand_size",
        "voluntary_draw",
        "call_penalty",
        "decks",
        "quick",
        "blind",
    }
    assert club.decks == 1
    assert club.quick is False and club.blind is False


def test_club_sevens_give_a_debt_of_2_eights_skip_jacks_are_wild_and_only_sevens_answer_a_debt():
    effects = ruleset("club").effects
    assert effects["7"].draw == 2
    assert effects["8"].skip
    assert effects["J"].wild
    assert set(effects) == {"7", "8", "J"}  # aces, kings and reversals have no power
    assert ruleset("club").debt_answers == ("7",)


def test_club_card_points_are_ten_for_faces_and_aces_and_face_value_otherwise():
    points = ruleset("club").card_points
    assert {rank: points[rank] for rank in ("A", "K", "Q", "J")} == dict.fromkeys(("A", "K", "Q", "J"), 10)
    assert [points[rank] for rank in RANKS[:9]] == [2, 3, 4, 5, 6, 7, 8, 9, 10]


def test_club_calls_mau_at_one_card_and_mau_mau_on_every_last_card():
    club = ruleset("club")
    assert club.mau_call and club.mau_mau_call == "always"
    assert club.scoring == "penalty" and club.match_winner == "lowest_total"


@pytest.mark.parametrize(
    ("option", "value"),
    [
        ("target_score", 250),
        ("single_round", True),
        ("hand_size", 7),
        ("voluntary_draw", True),
        ("call_penalty", 4),
        ("call_penalty", 0),
    ],
)
def test_each_club_option_can_be_set(option, value):
    changed = ruleset("club", **{option: value})
    assert getattr(changed, option) == value
    assert changed.name == "club"


def test_setting_an_option_leaves_the_preset_unchanged():
    ruleset("club", target_score=5, voluntary_draw=True)
    assert ruleset("club") == CLUB
    assert CLUB.target_score == 100 and CLUB.voluntary_draw is False


def test_an_unknown_ruleset_is_refused():
    refused("unknown_ruleset", lambda: ruleset("skat"))


def test_an_unknown_option_is_refused():
    refused("unknown_option", lambda: ruleset("club", jokers=True))
    refused("unknown_option", lambda: ruleset("club", effects={}))


@pytest.mark.parametrize(
    "options",
    [
        {"hand_size": True},  # a bool is not an int here
        {"single_round": 1},
        {"target_score": "100"},
        {"voluntary_draw": None},
        {"call_penalty": 2.0},
    ],
)
def test_an_option_of_the_wrong_type_is_refused(options):
    refused("invalid_option", lambda: ruleset("club", **options))


@pytest.mark.parametrize(
    "options",
    [
        {"target_score": 0},
        {"call_penalty": -1},
        {"call_penalty": 11},
        {"hand_size": 0},
        {"hand_size": 26},  # 2 players x 26 + starter + a stock card > 52
    ],
)
def test_an_option_out_of_range_is_refused(options):
    refused("invalid_option", lambda: ruleset("club", **options))


def test_the_largest_hand_is_the_one_that_still_deals_to_the_smallest_table():
    assert ruleset("club", hand_size=25).hand_size == 25  # 2 x 25 + 2 <= 52
    assert ruleset("mau-mau-150", hand_size=15).hand_size == 15  # 2 x 15 + 2 <= 32
    refused("invalid_option", lambda: ruleset("mau-mau-150", hand_size=16))


def test_a_hand_size_the_deck_cannot_deal_to_the_table_is_refused_when_the_match_starts():
    rules = ruleset("club", hand_size=9)
    refused("invalid_option", lambda: decide(State(), StartMatch(rules, 6, 0)))
    (started,) = decide(State(), StartMatch(rules, 5, 0))  # 5 x 9 + 2 <= 52
    assert isinstance(started, MatchStarted) and started.seats == 5


def test_with_options_applies_to_any_base_ruleset():
    assert with_options(MAU_MAU_150, target_score=300).target_score == 300


@pytest.mark.parametrize(
    "broken",
    [
        {"min_players": 1},
        {"min_players": 5, "max_players": 4},
        {"ranks": (*RANKS, "1")},
        {"card_points": {"2": 2}},
        {"debt_answers": ("Z",)},
    ],
)
def test_a_ruleset_that_cannot_be_played_is_refused_when_the_match_starts(broken):
    rules = msgspec.structs.replace(CLUB, **broken)
    refused("invalid_ruleset", lambda: decide(State(), StartMatch(rules, 2, 0)))


def test_mau_mau_150_is_for_2_to_4_players_with_32_cards_from_7_to_ace():
    rules = ruleset("mau-mau-150")
    assert rules.ranks == ("7", "8", "9", "10", "J", "Q", "K", "A")
    assert (rules.min_players, rules.max_players, rules.hand_size) == (2, 4, 5)


def test_mau_mau_150_sevens_draw_two_eights_skip_nines_reverse_and_jacks_are_wild():
    effects = ruleset("mau-mau-150").effects
    assert effects["7"].draw == 2 and effects["8"].skip and effects["9"].reverse and effects["J"].wild
    assert ruleset("mau-mau-150").debt_answers == ("7",)


def test_mau_mau_150_scores_jacks_20_and_races_to_150_highest_first():
    rules = ruleset("mau-mau-150")
    assert rules.card_points == {"7": 7, "8": 8, "9": 9, "10": 10, "J": 20, "Q": 10, "K": 10, "A": 10}
    assert rules.scoring == "winner_takes"
    assert (rules.target_score, rules.match_winner) == (150, "highest_total")
    assert rules.voluntary_draw is True
    assert rules.mau_mau_call == "on_wild"

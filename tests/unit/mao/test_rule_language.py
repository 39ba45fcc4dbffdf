"""The secret rule language: its text form, the judge's verdict and the compatibility check, by example."""

import pytest

from service.domain.cards import parse_card
from service.domain.errors import RuleError
from service.domain.mao.compatibility import Blocked, blocked, check_compatible, situations
from service.domain.mao.judge import evaluate
from service.domain.mao.rule import (
    COLOUR,
    RANK,
    TEACHING_RULE,
    CallClause,
    Constraint,
    PlayClause,
    Rule,
    Trigger,
    format_rule,
    parse_rule,
)
from service.domain.mao.speech import calls_due


def test_the_teaching_rule_is_after_a_queen_the_next_card_must_be_black():
    assert Rule(plays=(PlayClause(Trigger(RANK, 10), Constraint(COLOUR, (1,))),)) == TEACHING_RULE
    assert format_rule(TEACHING_RULE) == "after Q: next black"


def test_a_rule_of_several_clauses_parses_and_prints_back_in_its_canonical_form():
    rule = parse_rule('on k : say "Long  live the King";  AFTER hearts: next NOT 8 7 7;after draw: next red')
    assert rule.calls == (CallClause(Trigger(RANK, 11), "long live the king"),)
    assert rule.plays[0] == PlayClause(Trigger("suit", 2), Constraint(RANK, (5, 6), negated=True))
    assert (
        format_rule(rule)
        == 'after hearts: next not 7 8; after draw: next red; on K: say "long live the king"'
    )


@pytest.mark.parametrize(
    "text",
    [
        "",
        "be nice",
        "after Z: next black",
        "after Q: next",
        "after Q: next red 7",  # two kinds at once
        "after Q: next draw",
        'on draw: say "hello"',
        'on K: say ""',
        'on K: say "mao"',  # already a call of the base rules
        'on K: say "seven of spades"',
        'on K: say "hi!"',
        "; ".join(["after Q: next black"] * 9),
    ],
)
def test_a_malformed_rule_is_refused_with_a_stable_code(text):
    with pytest.raises(RuleError) as refused:
        parse_rule(text)
    assert refused.value.code == "malformed_rule"


def test_evaluate_gives_the_judges_short_reason_without_the_rule():
    rule = parse_rule("after hearts: next not 7; after 9: next spades; after K: next red")
    heart_nine = parse_card("9H")
    both = (0, 1)
    assert evaluate(rule, heart_nine, both, parse_card("7S")) == "no_match"
    assert evaluate(rule, heart_nine, both, parse_card("9C")) == "wrong_suit"
    assert evaluate(rule, heart_nine, both, parse_card("9S")) is None
    assert evaluate(rule, parse_card("2H"), (0,), parse_card("7H")) == "wrong_rank"
    assert evaluate(rule, parse_card("KC"), (2,), parse_card("2C")) == "wrong_colour"


def test_a_call_clause_adds_its_words_after_the_base_calls():
    rule = parse_rule('on K: say "long live the king"')
    assert calls_due(rule, parse_card("KS"), 1) == ("king of spades", "mao", "long live the king")
    assert calls_due(rule, parse_card("KH"), 3) == ("long live the king",)
    assert calls_due(rule, parse_card("QH"), 3) == ()


def test_the_teaching_rule_and_rules_that_only_thin_the_choice_are_compatible():
    for text in (
        "after Q: next black",
        "after draw: next hearts",
        "after hearts: next not hearts",
        'on K: say "x"',
    ):
        check_compatible(parse_rule(text))


def test_a_rule_that_forbids_every_rank_after_a_draw_is_refused():
    rule = parse_rule("after draw: next not 2 3 4 5 6 7 8 9 10 J Q K A")
    assert blocked(rule) == Blocked(0, (0,))
    with pytest.raises(RuleError) as refused:
        check_compatible(rule)
    assert refused.value.code == "rule_incompatible"


def test_two_clauses_that_are_each_fine_can_block_together_on_one_card():
    # on a played QH both are in force: no heart and no queen is left
    rule = parse_rule("after Q: next not Q; after hearts: next not hearts")
    check_compatible(parse_rule("after Q: next not Q"))
    check_compatible(parse_rule("after hearts: next not hearts"))
    assert blocked(rule) == Blocked(parse_card("QH"), (0, 1))


def test_a_draw_clause_can_block_together_with_a_card_clause():
    # a black card played puts "black" in force; a draw adds "red"
    rule = parse_rule("after black: next black; after draw: next red")
    found = blocked(rule)
    assert found is not None and found.in_force == (0, 1)


def test_the_situations_under_a_top_card_are_none_its_own_clauses_and_each_with_the_draw_clauses():
    rule = parse_rule("after Q: next black; after hearts: next not 7; after draw: next not 8")
    assert situations(rule, parse_card("QH")) == [(), (0, 1), (0, 1, 2), (2,)]
    assert situations(rule, parse_card("2C")) == [(), (2,)]

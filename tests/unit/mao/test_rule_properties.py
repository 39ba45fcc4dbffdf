"""Properties of the rule language (hypothesis): text round trip, only forbidding, an exhaustive check."""

import random

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from service.domain.cards import FULL_DECK, format_card
from service.domain.mao.bots import RandomBot
from service.domain.mao.commands import DrawCard, PlayCard, StartMatch
from service.domain.mao.compatibility import blocked
from service.domain.mao.events import CardPlayed, RuleWritten
from service.domain.mao.judge import NO_MATCH, allowed, evaluate, matching, triggered_by
from service.domain.mao.rule import Rule, format_rule, parse_rule
from service.domain.mao.state import PLAY, State
from service.domain.mao.table import Table
from tests.unit.mao.scene import Scene
from tests.unit.mao.strategies import play_rules, rules

cards = st.integers(0, 51)


@given(rules)
def test_a_rule_prints_and_parses_back_to_itself(rule):
    text = format_rule(rule)
    assert parse_rule(text) == rule
    assert parse_rule(text.upper().replace("; ", " ;  ")) == rule or '"' in text


@given(rules, cards, cards, st.data())
def test_a_rule_only_forbids_it_never_allows_a_card_that_does_not_match(rule, top, card, data):
    in_force = (
        tuple(sorted(data.draw(st.sets(st.integers(0, max(len(rule.plays) - 1, 0)))))) if rule.plays else ()
    )
    verdict = evaluate(rule, top, in_force, card)
    plain = evaluate(Rule(), top, (), card)
    if verdict is None:
        assert plain is None
    assert (verdict == NO_MATCH) == (plain == NO_MATCH)
    assert allowed(rule, top, in_force) & ~matching(top) == 0


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(play_rules, st.integers(0, 10_000))
def test_in_a_game_under_an_accepted_rule_some_matching_card_is_always_allowed(rule, seed):
    assume(blocked(rule) is None)
    rng = random.Random(seed)
    start = StartMatch(
        rng.randint(3, 6), 0, hand_size=rng.randint(1, 7), rounds_to_win=1, secret_rule=format_rule(rule)
    )
    table = Table([RandomBot(rng) for _ in range(start.seats)], rng, start)
    table.play(max_steps=600)
    s = State()
    for event in table.events:
        event.apply(s)
        if s.phase == PLAY:
            assert allowed(rule, s.top, s.in_force), (format_card(s.top), s.in_force)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(play_rules)
def test_a_rule_the_check_refuses_really_blocks_a_table(rule):
    found = blocked(rule)
    assume(found is not None)
    assert found is not None
    top, by_card = found.top, triggered_by(rule, found.top)
    scene = Scene(seats=3, hand_size=5, first_dealer=2, rule="after Q: next black")
    # the decider refuses to write it; the fold takes the event as a fact, so the situation can be reached
    scene.record(RuleWritten(1, format_rule(rule), "referee"))
    if by_card and set(by_card) <= set(found.in_force):
        # the top card was played: put it on a starter of its suit
        starter = next(c for c in FULL_DECK if c != top and matching(top) >> c & 1 and c // 13 == top // 13)
        scene.deal({0: format_card(top)}, starter=format_card(starter))
        assert isinstance(scene.do(PlayCard(0, top))[0], CardPlayed)
        if len(found.in_force) > len(by_card):
            scene.do(DrawCard(1))
    else:
        scene.deal({}, starter=format_card(top))
        scene.do(DrawCard(0))
    s = scene.state
    assert (s.top, s.in_force) == (top, found.in_force)
    assert all(evaluate(rule, s.top, s.in_force, card) is not None for card in FULL_DECK)


def reachable(rule: Rule) -> set[tuple[int, tuple[int, ...]]]:
    """Every (top card, clauses in force) a table can reach, found by walking the moves from each
    starter: a draw adds the draw clauses, an allowed play puts its card on top with its clauses."""
    draws = tuple(i for i, clause in enumerate(rule.plays) if clause.trigger.kind == "draw")
    todo = [(top, ()) for top in FULL_DECK]
    seen: set[tuple[int, tuple[int, ...]]] = set(todo)
    while todo:
        top, in_force = todo.pop()
        nexts = [(top, tuple(sorted(set(in_force) | set(draws))))]
        mask = allowed(rule, top, in_force)
        nexts += [(card, triggered_by(rule, card)) for card in FULL_DECK if mask >> card & 1]
        for situation in nexts:
            if situation not in seen:
                seen.add(situation)
                todo.append(situation)
    return seen


@settings(max_examples=150, deadline=None)
@given(play_rules)
def test_the_check_refuses_a_rule_exactly_when_a_reachable_situation_leaves_no_card(rule):
    found = blocked(rule)
    stuck = {(top, in_force) for top, in_force in reachable(rule) if not allowed(rule, top, in_force)}
    if found is None:
        assert stuck == set()
    else:
        assert (found.top, found.in_force) in stuck

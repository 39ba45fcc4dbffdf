"""Hypothesis strategies for the rule language."""

from hypothesis import strategies as st

from service.domain.cards import RANKS, SUITS
from service.domain.mao.rule import (
    COLOUR,
    COLOURS,
    DRAW,
    RANK,
    SUIT,
    CallClause,
    Constraint,
    PlayClause,
    Rule,
    Trigger,
)
from service.domain.mao.words import is_public_call, normalise

SIZES = {RANK: len(RANKS), SUIT: len(SUITS), COLOUR: len(COLOURS)}

card_triggers = st.sampled_from([RANK, SUIT, COLOUR]).flatmap(
    lambda kind: st.integers(0, SIZES[kind] - 1).map(lambda value: Trigger(kind, value))
)
triggers = st.one_of(card_triggers, st.just(Trigger(DRAW, -1)))
constraints = st.sampled_from([RANK, SUIT, COLOUR]).flatmap(
    lambda kind: st.builds(
        lambda values, negated: Constraint(kind, tuple(sorted(values)), negated),
        st.sets(st.integers(0, SIZES[kind] - 1), min_size=1),
        st.booleans(),
    )
)
words = (
    st.text(alphabet="abcdefghijklmnopqrstuvwxyz' ", min_size=1, max_size=40)
    .map(normalise)
    .filter(lambda w: bool(w) and not is_public_call(w))
)
play_clauses = st.builds(PlayClause, triggers, constraints)
call_clauses = st.builds(CallClause, card_triggers, words)
rules = st.builds(
    lambda plays, calls: Rule(tuple(plays), tuple(calls)),
    st.lists(play_clauses, max_size=4),
    st.lists(call_clauses, max_size=2),
).filter(lambda rule: bool(rule.plays or rule.calls))
play_rules = st.lists(play_clauses, min_size=1, max_size=3).map(lambda plays: Rule(tuple(plays)))

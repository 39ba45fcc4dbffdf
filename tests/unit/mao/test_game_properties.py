"""Properties of whole bot matches (hypothesis over seeds and options): every card accounted for at
every event, the fold of the events equals the live state, no player's view holds another hand or
the rule before its reveal."""

import random
import re
from typing import Union

import msgspec
from hypothesis import given, settings
from hypothesis import strategies as st

from service.domain.cards import FULL_DECK, format_cards
from service.domain.mao.bots import RandomBot
from service.domain.mao.commands import StartMatch
from service.domain.mao.events import EVENT_TYPES
from service.domain.mao.game import fold
from service.domain.mao.learning import LearningBot
from service.domain.mao.rule import format_rule
from service.domain.mao.state import NEW, State
from service.domain.mao.table import Table
from service.domain.mao.views import player_view

RULES = (
    "after Q: next black",
    'after hearts: next not 7; after draw: next red; on K: say "long live the king"',
    "after 2: next spades clubs",
    'on A: say "hello there"',
)
QUOTED_CARD = re.compile(r'"((?:10|[2-9JQKA])[CDHS])"')


def bot_match(seed: int, seats: int, hand_size: int, rule: str) -> Table:
    rng = random.Random(seed)
    bots = [LearningBot(rng) if seat % 2 else RandomBot(rng) for seat in range(seats)]
    start = StartMatch(seats, seed % seats, hand_size=hand_size, rounds_to_win=2, secret_rule=rule)
    table = Table(bots, rng, start)
    table.play(max_steps=3000)
    return table


def check_every_card_is_accounted_for(s: State) -> None:
    if s.phase == NEW or not s.hands:
        return
    held = [c for hand in s.hands for c in format_cards(hand)]
    assert sorted(held + format_cards(s.stock) + format_cards(s.discard)) == sorted(format_cards(FULL_DECK))


def check_views(s: State) -> None:
    rule = format_rule(s.rule) if s.rule is not None else None
    for seat in range(s.seats):
        view = player_view(s, seat)
        shown = msgspec.json.encode(view).decode()
        own = set(format_cards(s.hands[seat])) if s.hands else set()
        public = set(format_cards(s.discard))
        assert set(view.hand) == own
        assert set(QUOTED_CARD.findall(shown)) <= own | public
        if rule is not None and s.revealed != rule:
            assert rule not in shown


games = st.tuples(st.integers(0, 10**6), st.integers(3, 6), st.integers(1, 8), st.sampled_from(RULES))


@settings(max_examples=12, deadline=None)
@given(games)
def test_every_card_is_accounted_for_at_every_event_and_the_fold_equals_the_live_state(game):
    table = bot_match(*game)
    s = State()
    for event in table.events:
        event.apply(s)
        check_every_card_is_accounted_for(s)
    assert s == table.state == fold(table.events)


@settings(max_examples=6, deadline=None)
@given(games)
def test_a_players_view_never_holds_another_hand_or_the_unrevealed_rule(game):
    table = bot_match(*game)
    s = State()
    for event in table.events:
        event.apply(s)
        check_views(s)


def test_bot_matches_reach_the_rare_paths_the_properties_need():
    seen: set[str] = set()
    for seed in range(12):
        table = bot_match(seed, 3 + seed % 4, 1 + seed % 8, RULES[seed % len(RULES)])
        seen |= {type(event).__name__ for event in table.events}
    assert {"PlayReturned", "CallMissed", "StockRecycled", "RuleRevealed", "MatchEnded", "CardDrawn"} <= seen


def test_the_events_of_a_match_survive_a_json_round_trip_as_the_store_will_keep_them():
    table = bot_match(3, 4, 5, RULES[1])
    decoder = msgspec.json.Decoder(list[Union[EVENT_TYPES]])  # noqa: UP007 - a Union built from a tuple
    assert decoder.decode(msgspec.json.encode(table.events)) == table.events

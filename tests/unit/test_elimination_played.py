"""Elimination matches of two played to their end by random bots, chance from a seeded shuffle:
every match ends with one seat in, every deal gives each seat its hand size (the loser's shrinking
in faraon), a deal annulled for four of a kind moves nothing, every card is always in one place,
and the fold of the events equals the live state."""

import random

import pytest

from service.domain.bots import RandomBot
from service.domain.commands import Command, DealRound, RecycleStock, StartMatch
from service.domain.engine import decide, fold
from service.domain.events import DealAnnulled, Event, HandShrank, MatchEnded, PlayerEliminated, RoundDealt
from service.domain.rulesets import Ruleset
from service.domain.state import DEAL, NAMING_SUIT, OVER, RECYCLE, State
from tests.unit.round_rulesets import club_101, club_faraon

MOST_COMMANDS = 50_000


def chance(s: State, rng: random.Random) -> Command:
    if s.phase == DEAL:
        deck = list(s.book.deck)
        rng.shuffle(deck)
        return DealRound(tuple(deck))
    under = s.discard[:-1]
    rng.shuffle(under)
    return RecycleStock(tuple(under))


def play_out(rules: Ruleset, seed: int) -> tuple[State, list[Event]]:
    rng = random.Random(seed)
    bot = RandomBot(rng, forgetfulness=0.1)
    s, events = State(), []
    command: Command = StartMatch(rules, 2, rng.randrange(2))
    for _ in range(MOST_COMMANDS):
        sizes = list(s.hand_sizes or [rules.hand_size] * 2)
        new = decide(s, command)
        for event in new:
            event.apply(s)
            if isinstance(event, RoundDealt):
                assert [hand.bit_count() for hand in s.hands] == sizes
            if isinstance(event, DealAnnulled):
                assert s.phase == DEAL
        events += new
        held = sum(hand.bit_count() for hand in s.hands) + len(s.stock) + len(s.discard)
        assert s.phase == DEAL or held == len(s.book.deck)
        if s.phase == OVER:
            return s, events
        if s.phase in (DEAL, RECYCLE):
            command = chance(s, rng)
        else:
            command = bot.choose(s, s.dealer if s.phase == NAMING_SUIT else s.turn)
    raise AssertionError("the match did not end")


@pytest.mark.parametrize("seed", range(6))
def test_a_101_match_of_two_ends_with_the_other_seat_over_the_ceiling(seed):
    s, events = play_out(club_101(hand_size=4), seed)
    assert fold(events) == s
    (out,) = [event for event in events if isinstance(event, PlayerEliminated)]
    assert out.reason == "over_ceiling" and out.total > 101
    assert events[-1] == MatchEnded((1 - out.seat,), tuple(s.totals))


@pytest.mark.parametrize("seed", range(6))
def test_a_faraon_match_of_two_ends_when_a_loser_dealt_one_card_loses(seed):
    s, events = play_out(club_faraon(hand_size=3), seed)
    assert fold(events) == s
    (out,) = [event for event in events if isinstance(event, PlayerEliminated)]
    assert out.reason == "lost_holding_one_card"
    shrank = [event.hand_size for event in events if isinstance(event, HandShrank) and event.seat == out.seat]
    assert shrank == [2, 1]
    assert events[-1] == MatchEnded((1 - out.seat,), tuple(s.totals))

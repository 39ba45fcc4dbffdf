"""A state image holds every fact of an engine state and restores an equal, independent state."""

import random

import msgspec
from hypothesis import given, settings
from hypothesis import strategies as st

from service.domain.chance import Shuffler
from service.domain.engine import decide
from service.domain.image import StateImage, copy_state, image_of, restore
from service.domain.legal import is_chance
from service.domain.presets import CLUB, MAU_MAU_150
from service.domain.state import State
from tests.gameplay import next_command


def test_the_image_has_a_field_for_every_fact_of_the_state():
    facts = set(State.__slots__) - {"book"}
    fields = set(StateImage.__struct_fields__) - {"rules"}
    assert fields == facts


def test_a_new_state_round_trips():
    assert restore(image_of(State())) == State()


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6), seats=st.integers(2, 4), rules=st.sampled_from([CLUB, MAU_MAU_150]))
def test_every_state_of_a_random_game_round_trips_through_msgpack(seed, seats, rules):
    rng = random.Random(seed)
    shuffler = Shuffler(seed)
    s = State()
    for event in decide(s, shuffler.start(rules, seats)):
        event.apply(s)
    for _ in range(150):
        if s.phase == 6:
            break
        command = shuffler.outcome(s) if is_chance(s) else next_command(s, rng)
        for event in decide(s, command):
            event.apply(s)
        image = msgspec.msgpack.decode(msgspec.msgpack.encode(image_of(s)), type=StateImage)
        assert restore(image) == s


def test_a_copy_is_independent():
    s = State()
    shuffler = Shuffler(1)
    for event in decide(s, shuffler.start(CLUB, 3)):
        event.apply(s)
    for event in decide(s, shuffler.outcome(s)):
        event.apply(s)
    copy = copy_state(s)
    copy.hands[0] = 0
    copy.stock.pop()
    assert copy != s
    assert s.hands[0] != 0

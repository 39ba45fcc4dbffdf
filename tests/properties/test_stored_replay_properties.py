"""Every preset's games read back from storage: the cards are all there at every event, and the
replay of the stored events up to any command is the game as it was played.

The events go through the store's mapper and are folded as the read models fold them
(``tests/properties/stored_games.py``), so a field the mapper drops, or a fact whose fold leans on
something no event says, shows here.
"""

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from service.domain.cards import cards_in
from service.domain.state import State
from tests.properties.invariants import every_preset, seeds
from tests.properties.stored_games import challenge_rates, stored_steps, stored_tables

EXAMPLES = settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def cards_on_the_table(s: State) -> list[int]:
    """Every card in a hand, the stock or the discard pile, a card in two places twice."""
    held = [card for hand in s.hands for card in cards_in(hand)]
    return sorted([*held, *s.stock, *s.discard])


@every_preset
@EXAMPLES
@given(data=st.data(), seed=seeds, challenge_rate=challenge_rates)
def test_every_card_of_the_deck_is_in_exactly_one_place_after_every_stored_event(
    name, data, seed, challenge_rate
):
    rules, seats = data.draw(stored_tables(name))
    for step in stored_steps(rules, seats, seed, challenge_rate):
        s = step.replica.game.state
        if s.round_no:  # once dealt, the cards stay on the table, between rounds too
            assert cards_on_the_table(s) == s.book.sorted_deck, type(step.event).__name__


@every_preset
@EXAMPLES
@given(data=st.data(), seed=seeds, challenge_rate=challenge_rates)
def test_the_stored_events_replayed_to_any_command_give_the_game_as_played(name, data, seed, challenge_rate):
    rules, seats = data.draw(stored_tables(name))
    commands = 0
    for step in stored_steps(rules, seats, seed, challenge_rate):
        live = step.live
        if live is None:
            continue
        commands += 1
        replayed = step.replica.game
        assert replayed.version == live.version
        assert replayed.state == live.state, f"the replay differs after command {commands}"
        assert replayed.image() == live.image()
    assert commands > 1

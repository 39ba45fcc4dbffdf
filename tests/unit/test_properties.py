"""The engine's properties (``tests/properties/invariants.py``), a few examples of each: fast.

The long runs are in ``tests/properties``; these catch a broken invariant at once, and show the
games still reach the rare paths the properties need.
"""

from collections import Counter

import msgspec

from service.domain.engine import fold
from service.domain.ruleset_options import ruleset
from tests.properties.invariants import (
    TALLY,
    Tally,
    play_match,
    single_round_club_games,
    single_round_mau_mau_150_games,
    single_round_preset_games,
    small_deck_club,
    small_deck_club_games,
    whole_club_matches,
    whole_mau_mau_150_matches,
    whole_preset_matches,
)

test_single_round_club_games_keep_every_invariant = single_round_club_games(40)
test_single_round_games_of_every_preset_keep_every_invariant = single_round_preset_games(3)
test_single_round_mau_mau_150_games_keep_every_invariant = single_round_mau_mau_150_games(25)
test_whole_club_matches_to_100_keep_every_invariant = whole_club_matches(5)
test_whole_mau_mau_150_matches_keep_every_invariant = whole_mau_mau_150_matches(5)
test_club_games_with_a_small_deck_keep_every_invariant = small_deck_club_games(10)
test_whole_matches_of_every_preset_keep_every_invariant = whole_preset_matches(1)


def test_a_table_replays_exactly_from_its_seed():
    first = play_match(ruleset("club"), 4, 99, ["random"], 0.3, 0.5)
    second = play_match(ruleset("club"), 4, 99, ["random"], 0.3, 0.5)
    assert first.events == second.events
    assert fold(first.events) == second.state


def test_bot_games_reach_every_way_a_round_can_end_and_every_rare_path():
    """The properties above mean little unless the games reach the rare paths; these do."""
    before = Tally(**{name: getattr(TALLY, name) for name in ("challenges", "recycles", "penalty_draws")})
    reasons_before = Counter(TALLY.reasons)
    unfinished_before = TALLY.unfinished
    sixteen_cards = msgspec.structs.replace(
        small_deck_club(("5", "7", "8", "J"), hand_size=3, max_players=4), single_round=True
    )
    for seed in range(40):
        # 16 cards, 12 of them in hands: recycles and exhausted stocks
        play_match(sixteen_cards, 4, seed, ["random"], 0.5, 0.3)
        # two cards each and forgetful players: missed calls, challenges, unchallenged Mau Mau
        play_match(ruleset("club", single_round=True, hand_size=2), 2, seed, ["random"], 0.6, 0.2)
    reasons = TALLY.reasons - reasons_before
    assert TALLY.unfinished == unfinished_before
    assert reasons["went_out"] > 0
    assert reasons["window_closed"] > 0
    assert reasons["stock_exhausted"] > 0
    assert TALLY.challenges > before.challenges
    assert TALLY.penalty_draws > before.penalty_draws
    assert TALLY.recycles > before.recycles

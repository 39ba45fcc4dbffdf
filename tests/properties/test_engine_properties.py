"""The engine's properties over thousands of bot games: the long runs (marked ``slow``).

``tests/unit/test_properties.py`` runs the same properties on a few examples each.
"""

from tests.properties.invariants import (
    single_round_club_games,
    single_round_mau_mau_150_games,
    single_round_preset_games,
    small_deck_club_games,
    whole_club_matches,
    whole_mau_mau_150_matches,
    whole_preset_matches,
)

test_single_round_club_games_keep_every_invariant = single_round_club_games(800)
test_single_round_games_of_every_preset_keep_every_invariant = single_round_preset_games(50)
test_single_round_mau_mau_150_games_keep_every_invariant = single_round_mau_mau_150_games(500)
test_whole_club_matches_to_100_keep_every_invariant = whole_club_matches(150)
test_whole_mau_mau_150_matches_keep_every_invariant = whole_mau_mau_150_matches(150)
test_club_games_with_a_small_deck_keep_every_invariant = small_deck_club_games(150)
test_whole_matches_of_every_preset_keep_every_invariant = whole_preset_matches(30)

"""The engine's properties (``tests/properties/invariants.py``), a few examples of each: fast.

The long runs are in ``tests/properties``; these catch a broken invariant at once, and show the
games still reach the rare paths the properties need.
"""

import random
from collections import Counter

import msgspec

from service.domain.bots import BOTS
from service.domain.engine import fold
from service.domain.legal import is_chance, legal_actions
from service.domain.ruleset_options import ruleset
from service.domain.state import NAMING_SUIT
from service.domain.table import Table
from tests.properties.invariants import (
    TALLY,
    Tally,
    candidate_actions,
    candidates_tried,
    command_of,
    offered_command,
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


def test_the_legal_action_check_tries_every_candidate_action_with_its_command_made_once():
    """``check_legal_actions`` builds its tries from memos: they are ``candidate_actions``, each with
    ``command_of``'s command (calls said with a small hand), and what ``legal_actions`` offers beyond
    them has ``command_of``'s command too, whatever the modifiers, decks and hand sizes."""
    tables = (("club", 2, 1), ("club", 5, 2), ("club", 12, 2), ("pesten", 1, 2), ("101", 3, 1))
    for seed, (name, hand_size, decks) in enumerate(tables):
        rules = ruleset(name, single_round=True, hand_size=hand_size, decks=decks, quick=True, blind=True)
        table = Table(rules, 3, seed)
        bots = [BOTS["random"](random.Random(seed * 10 + seat), 0.5, 0.3) for seat in range(3)]
        for _ in range(300):
            s = table.state
            if table.over:
                break
            if is_chance(s):
                table.execute(table.shuffler.outcome(s))
                continue
            for seat in range(s.seats):
                tried = candidates_tried(s, seat)
                assert len({action for action, _ in tried}) == len(tried)
                assert dict(tried) == {
                    action: command_of(s, seat, action) for action in candidate_actions(s, seat)
                }
                for action in legal_actions(s, seat):
                    assert offered_command(s, seat, action) == command_of(s, seat, action)
            actor = s.dealer if s.phase == NAMING_SUIT else s.turn
            table.execute(bots[actor].choose(s, actor))

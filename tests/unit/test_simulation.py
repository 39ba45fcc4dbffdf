"""The simulator: deterministic from its seed, and its counts add up."""

import msgspec
import pytest

from service.cli import format_summary
from service.domain.errors import RuleError
from service.domain.ruleset_options import ruleset
from service.simulation import play_match, simulate


def test_the_same_seed_gives_the_same_summary():
    assert simulate(matches=15, seed=3) == simulate(matches=15, seed=3)


def test_different_seeds_give_different_summaries():
    assert simulate(matches=15, seed=3) != simulate(matches=15, seed=4)


@pytest.mark.parametrize(
    ("ruleset_name", "players", "bot"),
    [("club", 4, "heuristic"), ("club", 2, "random"), ("mau-mau-150", 3, "heuristic"), ("club", 6, "random")],
)
def test_the_counts_add_up(ruleset_name, players, bot):
    summary = simulate(ruleset_name, players, matches=12, seed=11, bot=bot)
    assert summary.matches == 12
    assert len(summary.win_shares) == players
    assert sum(summary.win_shares) == pytest.approx(summary.matches)
    assert all(share >= 0 for share in summary.win_shares)
    assert summary.rounds >= summary.matches
    assert summary.turns > summary.rounds
    assert summary.calls_missed >= summary.calls_challenged
    ended_otherwise = summary.rounds_exhausted + summary.rounds_stalled + summary.wins_by_missed_mau_mau
    assert ended_otherwise <= summary.rounds


def test_the_101_match_at_five_seats_whose_queens_went_round_for_ever_now_ends_with_a_stalled_round():
    # `maumau simulate --ruleset 101 --players 5` stopped at this match: its heuristic bots drew the
    # four queens in turn, each naming a suit the next player lacked, recycle after recycle (its aces
    # skipped at once, as 101's did then)
    tally = play_match(ruleset("101", ace_skips_at_once=True), 5, "7:184", "heuristic")
    assert tally.rounds_stalled == 1
    assert tally.rounds_exhausted + tally.rounds_stalled <= tally.rounds


def test_the_summary_shows_stalled_rounds_only_where_there_were_some():
    summary = simulate(matches=5, seed=3)
    assert summary.rounds_stalled == 0 and "stalled" not in format_summary(summary)
    stalled = msgspec.structs.replace(summary, rounds_stalled=1)
    lines = format_summary(stalled).splitlines()
    (line,) = [line for line in lines if line.startswith("rounds ended stalled")]
    assert line.split()[-2:] == ["1", f"({100 / summary.rounds:.1f}%)"]


def test_forgetful_bots_miss_calls_and_vigilant_bots_challenge_them():
    summary = simulate(matches=10, seed=5, forgetfulness=0.5, vigilance=1.0)
    assert summary.calls_missed > 0
    assert summary.calls_challenged > 0


def test_bots_that_never_forget_miss_no_call():
    summary = simulate(matches=10, seed=5, forgetfulness=0.0)
    assert summary.calls_missed == 0
    assert summary.calls_challenged == 0
    assert summary.wins_by_missed_mau_mau == 0


def test_bots_that_never_challenge_leave_every_missed_call_standing():
    summary = simulate(matches=10, seed=5, forgetfulness=0.5, vigilance=0.0)
    assert summary.calls_missed > 0
    assert summary.calls_challenged == 0


def test_progress_is_reported_once_per_match():
    seen = []
    simulate(matches=4, seed=1, on_match=seen.append)
    assert seen == [0, 1, 2, 3]


def test_an_unknown_ruleset_is_a_rule_error():
    with pytest.raises(RuleError) as error:
        simulate("no-such-rules", matches=1)
    assert error.value.code == "unknown_ruleset"


def test_a_player_count_outside_the_ruleset_is_a_rule_error():
    with pytest.raises(RuleError) as error:
        simulate("mau-mau-150", players=5, matches=1)
    assert error.value.code == "player_count"


def test_against_seats_one_bot_in_seat_0_and_another_everywhere_else():
    mixed = simulate("club", 4, matches=60, seed=3, bot="heuristic", against="random")
    assert mixed.against == "random"
    assert mixed.win_shares[0] > max(mixed.win_shares[1:])
    alike = simulate("club", 4, matches=60, seed=3, bot="heuristic")
    assert alike.against is None
    assert alike != mixed


def test_against_an_unknown_bot_is_refused():
    with pytest.raises(ValueError, match="no bot 'genius'"):
        simulate(matches=1, against="genius")

"""The Tournament aggregate: its plan, entries, rounds, results, schedule, refusals and events."""

import uuid
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from service.domain.tournament import Tournament, seat_spec
from service.domain.tournament_plan import Plan
from tests.refusals import refused

LEAGUE = uuid.UUID(int=1)
# a start time ahead of the clock, so rounds recorded now end before the next one is due
NOW = datetime.now(UTC).replace(microsecond=0) + timedelta(days=1)


def announce(ruleset: str = "club", options: dict[str, Any] | None = None, **plan: Any) -> Tournament:
    plan = {"format": "swiss", "table_size": 4, "rounds": 3, **plan}
    return Tournament.announce(LEAGUE, "Spring cup", ruleset, options or {}, Plan(**plan))


def entered(n: int, **plan: Any) -> Tournament:
    tournament = announce(**plan)
    for i in range(n):
        tournament.join(f"p{i:02}")
    return tournament


def attach_all(tournament: Tournament) -> list[uuid.UUID]:
    current = tournament.current_round
    assert current is not None
    games = [uuid.uuid4() for _ in current.tables]
    for table, game in enumerate(games):
        tournament.attach_game(current.round_no, table, game)
    return games


def best_wins(totals: tuple[int, ...], lower: bool = True) -> tuple[int, ...]:
    best = min(totals) if lower else max(totals)
    return tuple(seat for seat, total in enumerate(totals) if total == best)


def play_round(tournament: Tournament, points: Callable[[str], int]) -> None:
    """Attach a game to every table and record totals given per player."""
    current = tournament.current_round
    assert current is not None
    lower = tournament.rules.match_winner == "lowest_total"
    for table, game in zip(current.tables, attach_all(tournament), strict=True):
        totals = tuple(points(player) for player in table)
        tournament.record_result(game, totals, best_wins(totals, lower))


def play_out(tournament: Tournament, points: Callable[[str], int]) -> int:
    rounds = 0
    while not tournament.finished:
        play_round(tournament, points)
        rounds += 1
    return rounds


def by_number(player: str) -> int:
    """Lower numbered players score fewer points: in club they do better."""
    return int(player[1:]) if player.startswith("p") else 50


# ----------------------------------------------------------------------
# the plan


@pytest.mark.parametrize(
    ("code", "ruleset", "plan"),
    [
        ("invalid_format", "club", {"format": "knockout"}),
        ("invalid_table_size", "club", {"table_size": 1}),
        ("invalid_table_size", "club", {"table_size": 7}),
        ("invalid_table_size", "mau-mau-150", {"table_size": 5}),
        ("invalid_table_size", "club", {"table_size": 4.0}),
        ("invalid_rounds", "club", {"rounds": None}),
        ("invalid_rounds", "club", {"rounds": 0}),
        ("invalid_rounds", "club", {"rounds": 51}),
        ("invalid_rounds", "club", {"format": "single_elimination", "rounds": 2}),
        ("invalid_schedule", "club", {"starts_at": datetime(2025, 5, 1, 18, 0)}),
        ("invalid_schedule", "club", {"interval": 0}),
        ("invalid_match_length", "club", {"target_score": 50, "single_round": True}),
        ("invalid_match_length", "club", {"target_score": 0}),
        ("invalid_match_length", "club", {"single_round": 1}),
        ("invalid_turn_clock", "club", {"turn_clock": 0}),
        ("invalid_late_policy", "club", {"late_policy": "forfeit"}),
        ("invalid_places", "club", {"places": 1}),
        ("invalid_places", "club", {"places": 513}),
        ("unknown_bot", "club", {"fill_bot": "genius"}),
    ],
)
def test_a_plan_that_cannot_be_played_is_refused(code, ruleset, plan):
    refused(code, lambda: announce(ruleset, **plan))


def test_a_tournament_needs_a_name_and_a_known_ruleset():
    refused(
        "malformed_name",
        lambda: Tournament.announce(LEAGUE, " ", "club", {}, Plan(format="swiss", table_size=4, rounds=1)),
    )
    refused("unknown_ruleset", lambda: announce("poker"))


def test_the_match_length_becomes_the_games_ruleset_options_over_the_leagues():
    assert announce(single_round=True).game_options == {"single_round": True}
    tournament = announce(options={"target_score": 50, "hand_size": 6}, target_score=30)
    assert tournament.game_options == {"target_score": 30, "hand_size": 6}
    assert tournament.rules.target_score == 30
    assert announce(options={"hand_size": 6}).game_options == {"hand_size": 6}


def test_a_bot_entrant_sits_as_its_bot_and_a_player_as_themselves():
    assert seat_spec("bot:heuristic#3") == "bot:heuristic"
    player = str(uuid.uuid4())
    assert seat_spec(player) == player


# ----------------------------------------------------------------------
# entries and the start


def test_players_join_and_leave_before_the_start_only():
    tournament = entered(3)
    refused("already_joined", lambda: tournament.join("p00"))
    tournament.leave("p01")
    refused("not_joined", lambda: tournament.leave("p01"))
    assert tournament.entrants == ("p00", "p02")
    tournament.start("seed")
    refused("tournament_started", lambda: tournament.join("p09"))
    refused("tournament_started", lambda: tournament.leave("p00"))
    refused("tournament_started", lambda: tournament.start("seed"))


def test_a_tournament_with_places_is_full_when_they_are_taken():
    tournament = entered(2, places=2)
    refused("tournament_full", lambda: tournament.join("p02"))


def test_a_start_needs_two_players():
    tournament = entered(1)
    refused("too_few_players", lambda: tournament.start("seed"))
    assert not tournament.started


def test_the_start_fills_empty_places_with_bots_fixes_the_seed_order_and_pairs_round_one():
    tournament = entered(5, places=8, fill_bot="random")
    tournament.start("seed")
    bots = [f"bot:random#{n}" for n in (1, 2, 3)]
    assert sorted(tournament.order) == sorted([f"p{i:02}" for i in range(5)] + bots)
    assert tournament.order != (*tournament.entrants, *bots)  # the seed decides, not the joining order
    first = tournament.current_round
    assert first is not None and first.round_no == 1 and not first.byes
    assert sorted(p for table in first.tables for p in table) == sorted(tournament.order)
    names = [type(event).__name__ for event in tournament.collect_events()]
    assert names == ["Announced", *["Joined"] * 5, "Started", "RoundPaired"]


def test_round_robin_plays_by_default_the_fewest_rounds_in_which_everyone_can_meet():
    tournament = entered(16, format="round_robin", rounds=None)
    tournament.start("seed")
    assert tournament.planned_rounds == 5
    assert play_out(tournament, by_number) == 5
    met = {frozenset((a, b)) for r in tournament.rounds for t in r.tables for a in t for b in t if a != b}
    assert len(met) == 16 * 15 // 2


# ----------------------------------------------------------------------
# games and results


def test_a_game_attaches_to_a_table_of_the_current_round_once():
    tournament = entered(8)
    refused("not_started", lambda: tournament.attach_game(1, 0, uuid.uuid4()))
    tournament.start("seed")
    game, other = uuid.uuid4(), uuid.uuid4()
    refused("no_such_table", lambda: tournament.attach_game(2, 0, game))
    refused("no_such_table", lambda: tournament.attach_game(1, 2, game))
    tournament.attach_game(1, 0, game)
    tournament.attach_game(1, 0, game)  # again: nothing new
    refused("table_has_game", lambda: tournament.attach_game(1, 0, other))
    refused("game_already_attached", lambda: tournament.attach_game(1, 1, game))
    assert [type(e).__name__ for e in tournament.collect_events()].count("TableGameCreated") == 1


def test_a_result_must_give_every_seat_and_name_the_best_totals_as_winners():
    tournament = entered(8)
    tournament.start("seed")
    game = attach_all(tournament)[0]
    refused("not_a_tournament_game", lambda: tournament.record_result(uuid.uuid4(), (0, 1, 2, 3), (0,)))
    refused("invalid_result", lambda: tournament.record_result(game, (0, 1, 2), (0,)))
    refused("invalid_result", lambda: tournament.record_result(game, (0, 1, 2, 3), (1,)))
    refused("invalid_result", lambda: tournament.record_result(game, (0, 0, 2, 3), (0,)))
    refused("invalid_result", lambda: tournament.record_result(game, (0, 1, 2, 3), (0,), (1, 0)))
    refused("invalid_result", lambda: tournament.record_result(game, (0, 1.5, 2, 3), (0,)))
    tournament.record_result(game, (0, 0, 2, 3), (1, 0), (0, 2, 0, 0))
    tournament.record_result(game, (0, 0, 2, 3), (0, 1), (0, 2, 0, 0))  # the same again: nothing new
    names = [type(e).__name__ for e in tournament.collect_events()]
    assert names.count("TableFinished") == 1 and "TableResultCorrected" not in names


def test_a_whole_swiss_tournament_is_recorded_as_events_and_ranks_by_the_tie_breaks():
    tournament = entered(8, rounds=2, single_round=True)
    tournament.start("seed")
    assert play_out(tournament, by_number) == 2
    names = [type(event).__name__ for event in tournament.collect_events()]
    one_round = ["TableGameCreated"] * 2 + ["TableFinished"] * 2 + ["RoundFinished"]
    assert names == [
        "Announced",
        *["Joined"] * 8,
        "Started",
        "RoundPaired",
        *one_round,
        "RoundPaired",
        *one_round,
        "Finished",
    ]
    assert tournament.winners == ("p00",)
    standings = tournament.standings()
    assert tournament.ranking == tuple(p.entrant for p in standings)
    assert [p.rank for p in standings] == list(range(1, 9))
    points = [p.points for p in standings]
    assert points == sorted(points)  # club: fewer is better
    refused("tournament_over", lambda: tournament.attach_game(2, 0, uuid.uuid4()))


def test_the_second_swiss_round_seats_the_winners_together():
    tournament = entered(8, rounds=2)
    tournament.start("seed")
    play_round(tournament, by_number)
    second = tournament.current_round
    assert second is not None
    winners = {p.entrant for p in tournament.standings() if p.wins}
    assert len(winners) == 2 and winners <= set(second.tables[0])  # the top table


def test_mau_mau_150_ranks_the_highest_totals_first():
    tournament = entered(4, ruleset="mau-mau-150", rounds=1)
    tournament.start("seed")
    play_out(tournament, by_number)
    assert tournament.winners == ("p03",)
    assert tournament.ranking == ("p03", "p02", "p01", "p00")


def test_a_bye_scores_one_win_and_the_mean_of_the_rounds_winning_totals():
    tournament = entered(5, table_size=2, rounds=1)
    tournament.start("seed")
    first = tournament.current_round
    assert first is not None and len(first.byes) == 1
    (bye,) = first.byes
    games = attach_all(tournament)
    tournament.record_result(games[0], (3, 20), (0,))
    tournament.record_result(games[1], (8, 20), (0,))
    assert first.bye_points == 6  # (3 + 8) / 2 = 5.5, rounded half to even
    placing = next(p for p in tournament.standings() if p.entrant == bye)
    assert (placing.points, placing.wins, placing.byes) == (6, 1, 1)


def test_byes_go_round_before_anyone_has_a_second():
    tournament = entered(3, table_size=2, rounds=3)
    tournament.start("seed")
    play_out(tournament, by_number)
    assert sorted(bye for played in tournament.rounds for bye in played.byes) == ["p00", "p01", "p02"]


def test_single_elimination_advances_each_tables_winners_until_one_table_is_left():
    tournament = entered(16, format="single_elimination", rounds=None)
    tournament.start("seed")
    play_round(tournament, by_number)
    first = tournament.rounds[0]
    assert len(first.out) == 12
    second = tournament.current_round
    assert second is not None and len(second.tables) == 1
    assert set(second.tables[0]) == {min(table) for table in first.tables}  # the fewest points win
    play_round(tournament, by_number)
    assert tournament.finished and tournament.winners == (min(second.tables[0]),)
    stages = {p.entrant: p.stage for p in tournament.standings()}
    assert stages[tournament.winners[0]] == 3 and sorted(stages.values()).count(1) == 12


def test_a_shared_win_in_an_elimination_sends_every_winner_through():
    tournament = entered(8, format="single_elimination", rounds=None)
    tournament.start("seed")
    play_round(tournament, lambda player: 0)  # every table a four-way shared win
    assert tournament.rounds[0].out == () and not tournament.finished
    assert len(tournament.current_round.tables) == 2


def test_a_shared_final_makes_joint_champions():
    tournament = entered(4, format="single_elimination", rounds=None)
    tournament.start("seed")
    play_round(tournament, lambda player: 0 if player in ("p01", "p02") else 9)
    assert tournament.finished and sorted(tournament.winners) == ["p01", "p02"]
    assert set(tournament.ranking[:2]) == {"p01", "p02"}


def test_the_events_rebuild_the_same_tournament():
    tournament = entered(6, rounds=2, places=7)
    tournament.start("seed")
    play_out(tournament, by_number)
    events = tournament.collect_events()
    rebuilt = None
    for event in events:
        rebuilt = event.mutate(rebuilt)
    assert rebuilt is not None
    assert rebuilt.standings() == tournament.standings()
    assert [(r.tables, r.byes, r.games, r.results) for r in rebuilt.rounds] == [
        (r.tables, r.byes, r.games, r.results) for r in tournament.rounds
    ]
    assert (rebuilt.ranking, rebuilt.winners) == (tournament.ranking, tournament.winners)


# ----------------------------------------------------------------------
# the schedule


def test_rounds_fall_due_at_the_start_time_and_then_every_interval():
    # the start time has just passed: the tick starts it now, as the workers do
    starts_at = datetime.now(UTC).replace(microsecond=0) - timedelta(minutes=1)
    tournament = entered(8, starts_at=starts_at, interval=3600)
    assert not tournament.start_due(starts_at - timedelta(seconds=1))
    assert tournament.start_due(starts_at)
    tournament.start("seed")
    assert not tournament.start_due(starts_at)
    assert tournament.round_due(starts_at - timedelta(seconds=1)) is None
    assert tournament.round_due(starts_at) == 1
    attach_all(tournament)
    assert tournament.round_due(starts_at) is None  # started: every table has its game
    play_round_results(tournament)
    assert tournament.due_at(2) == starts_at + timedelta(hours=1)
    assert tournament.round_due(starts_at + timedelta(minutes=59)) is None
    assert tournament.round_due(starts_at + timedelta(hours=1)) == 2


def test_a_start_by_hand_before_the_start_time_makes_round_1_due_at_once_and_the_interval_counts_from_it():
    tournament = entered(8, starts_at=NOW, interval=3600)
    assert not tournament.start_due(datetime.now(UTC))  # an admin starts it: everyone is there early
    tournament.start("seed")
    started_at = tournament.started_at
    assert started_at is not None and started_at < NOW
    assert tournament.due_at(1) == started_at
    assert tournament.round_due(started_at) == 1
    attach_all(tournament)
    play_round_results(tournament)
    assert tournament.due_at(2) == started_at + timedelta(hours=1)


def test_without_an_interval_a_round_falls_due_when_the_previous_one_ends():
    tournament = entered(8)
    assert not tournament.start_due(NOW)  # no start time: someone starts it
    tournament.start("seed")
    assert tournament.due_at(1) == tournament.started_at
    play_round(tournament, by_number)
    assert tournament.due_at(2) == tournament.rounds[0].finished_at
    assert tournament.round_due(tournament.rounds[0].finished_at) == 2
    assert tournament.due_at(9) is None


def play_round_results(tournament: Tournament) -> None:
    current = tournament.current_round
    assert current is not None
    for table, players in enumerate(current.tables):
        totals = tuple(by_number(p) for p in players)
        tournament.record_result(current.games[table], totals, best_wins(totals))

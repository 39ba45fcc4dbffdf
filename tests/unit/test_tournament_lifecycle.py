"""A tournament's lifecycle: edited before the start, checked in, dropped out of, cancelled; a game abandoned.

Every refusal is checked to record nothing (``unchanged``): the aggregate's pending events stay as they were.
"""

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest

from service.domain.errors import RuleError
from service.domain.game import Game
from service.domain.history import Cause
from service.domain.presets import CLUB
from service.domain.roles import SYSTEM, Actor
from service.domain.seats import Seat
from service.domain.tournament import Tournament
from service.domain.tournament_entries import NO_SHOW, WITHDREW
from tests.gameplay import SAME_ENTROPY
from tests.unit.test_tournament import NOW, announce, attach_all, best_wins, by_number, entered, play_round

PLAYER = Actor("player", "00000000-0000-0000-0000-000000000001")


def unchanged(code: str, aggregate: Any, act: Callable[[], Any]) -> None:
    """``act`` is refused with ``code`` and records nothing."""
    before = list(aggregate.pending_events)
    with pytest.raises(RuleError) as error:
        act()
    assert error.value.code == code
    assert list(aggregate.pending_events) == before


def recorded(aggregate: Any, kind: type) -> list[Any]:
    return [event for event in aggregate.pending_events if isinstance(event, kind)]


def rebuilt(tournament: Tournament) -> Tournament:
    folded = None
    for event in tournament.pending_events:
        folded = event.mutate(folded)
    assert isinstance(folded, Tournament)
    return folded


# ----------------------------------------------------------------------
# editing before the start


def test_an_edit_before_the_start_changes_the_name_schedule_places_and_table_size():
    tournament = entered(3)
    changes = {"starts_at": NOW, "interval": 600, "places": 6, "table_size": 3, "check_in_minutes": 30}
    tournament.edit("Autumn cup", changes)
    (edited,) = recorded(tournament, Tournament.Edited)
    assert edited.name == "Autumn cup" and tournament.name == "Autumn cup"
    assert (tournament.plan.starts_at, tournament.plan.interval, tournament.plan.places) == (NOW, 600, 6)
    assert (tournament.plan.table_size, tournament.plan.check_in_minutes) == (3, 30)
    assert tournament.plan.format == "swiss" and tournament.plan.rounds == 3  # the rest stays
    assert rebuilt(tournament).plan == tournament.plan


def test_an_edit_that_changes_nothing_records_nothing():
    tournament = entered(2)
    tournament.edit("Spring cup", {"table_size": 4})
    assert recorded(tournament, Tournament.Edited) == []


@pytest.mark.parametrize(
    ("code", "name", "changes"),
    [
        ("not_editable", None, {"format": "round_robin"}),
        ("not_editable", None, {"rounds": 5}),
        ("invalid_table_size", None, {"table_size": 7}),
        ("invalid_schedule", None, {"starts_at": NOW.replace(tzinfo=None)}),
        ("invalid_schedule", None, {"interval": 0}),
        ("invalid_places", None, {"places": 1}),
        ("invalid_places", None, {"places": 2}),  # three have joined
        ("invalid_check_in", None, {"check_in_minutes": 30}),  # no start time
        ("invalid_check_in", None, {"starts_at": NOW, "check_in_minutes": 0}),
        ("malformed_name", " ", {}),
    ],
)
def test_an_edit_is_checked_as_the_announcement_is(code, name, changes):
    tournament = entered(3)
    unchanged(code, tournament, lambda: tournament.edit(name, changes))


def test_an_edit_after_the_start_or_a_cancellation_is_refused():
    started = entered(2)
    started.start("seed")
    unchanged("tournament_started", started, lambda: started.edit("Late", {}))
    cancelled = entered(2)
    cancelled.cancel("the hall is closed")
    unchanged("tournament_cancelled", cancelled, lambda: cancelled.edit("Late", {}))


# ----------------------------------------------------------------------
# check-in


def checking_in(n: int, **plan: Any) -> Tournament:
    return entered(n, starts_at=NOW, check_in_minutes=60, **plan)


def test_entrants_check_in_in_the_window_before_the_start_only():
    tournament = checking_in(3)
    assert tournament.check_in_opens == NOW - timedelta(hours=1)
    unchanged(
        "check_in_not_open", tournament, lambda: tournament.check_in("p00", NOW - timedelta(minutes=61))
    )
    tournament.check_in("p00", NOW - timedelta(minutes=60))
    assert tournament.checked_in == ("p00",)
    unchanged("already_checked_in", tournament, lambda: tournament.check_in("p00", NOW))
    unchanged("not_joined", tournament, lambda: tournament.check_in("p09", NOW))
    tournament.leave("p00")
    assert tournament.checked_in == ()  # leaving takes the check-in along
    tournament.check_in("p01", NOW)
    tournament.check_in("p02", NOW)
    tournament.start("seed")
    unchanged("tournament_started", tournament, lambda: tournament.check_in("p01", NOW))


def test_a_tournament_without_a_check_in_window_refuses_a_check_in():
    tournament = entered(2, starts_at=NOW)
    unchanged("no_check_in", tournament, lambda: tournament.check_in("p00", NOW))


def test_at_the_start_no_shows_are_dropped_and_bots_take_the_places_the_plan_fills():
    tournament = checking_in(4, places=4, fill_bot="random")
    for entrant in ("p00", "p02"):
        tournament.check_in(entrant, NOW)
    tournament.start("seed")
    dropped = recorded(tournament, Tournament.Dropped)
    assert [(e.entrant, e.reason, e.after_round) for e in dropped] == [
        ("p01", NO_SHOW, 0),
        ("p03", NO_SHOW, 0),
    ]
    events = list(tournament.pending_events)
    assert events.index(dropped[-1]) < events.index(recorded(tournament, Tournament.Started)[0])
    assert sorted(tournament.order) == ["bot:random#1", "bot:random#2", "p00", "p02"]
    assert tournament.dropped == ("p01", "p03")
    assert rebuilt(tournament).order == tournament.order


def test_without_places_to_fill_the_no_shows_just_do_not_play():
    tournament = checking_in(3)
    tournament.check_in("p00", NOW)
    tournament.check_in("p01", NOW)
    tournament.start("seed")
    assert sorted(tournament.order) == ["p00", "p01"]


def test_a_start_with_fewer_than_two_checked_in_records_nothing():
    tournament = checking_in(3)
    tournament.check_in("p00", NOW)
    unchanged("too_few_players", tournament, lambda: tournament.start("seed"))
    assert not tournament.started and tournament.dropped == ()


# ----------------------------------------------------------------------
# dropping out of a running tournament


def record_round(tournament: Tournament, games: list[Any]) -> None:
    """Record the current round's results by ``by_number``, its games attached already."""
    current = tournament.current_round
    assert current is not None
    for table, game in zip(current.tables, games, strict=True):
        totals = tuple(by_number(entrant) for entrant in table)
        tournament.record_result(game, totals, best_wins(totals))


def test_a_player_drops_out_of_a_swiss_and_later_rounds_pair_without_them():
    tournament = entered(8, rounds=3)
    tournament.start("seed")
    games = attach_all(tournament)  # p03 sits at a table already: she plays it out (or the clock does)
    tournament.drop("p03")
    (dropped,) = recorded(tournament, Tournament.Dropped)
    assert (dropped.entrant, dropped.reason, dropped.after_round) == ("p03", WITHDREW, 1)
    first = tournament.rounds[0]
    assert any("p03" in table for table in first.tables)  # the round paired before stays as it was
    record_round(tournament, games)
    for later in tournament.rounds[1:]:
        assert all("p03" not in table for table in later.tables) and "p03" not in later.byes
    while not tournament.finished:
        play_round(tournament, by_number)
    placings = tournament.standings()
    assert placings[-1].entrant == "p03" and placings[-1].dropped  # after everyone who played on
    assert placings[-1].tables == 1  # what they played stands
    assert "p03" not in tournament.winners and tournament.ranking[-1] == "p03"


def test_a_dropped_players_table_not_yet_begun_seats_the_plans_bot():
    tournament = entered(4, rounds=2, table_size=2, fill_bot="random")
    tournament.start("seed")
    tournament.drop("p00")
    assert tournament.game_seat("p00") == "bot:random"
    assert tournament.game_seat("p01") == "p01"


def test_the_bot_that_sat_in_for_a_player_who_dropped_before_her_table_was_made_plays_for_nobody():
    tournament = entered(4, rounds=2, table_size=2)
    tournament.start("seed")
    tournament.drop("p00")  # round 1 is paired with her, its games not made yet
    (table,) = [t for t, seats in enumerate(tournament.rounds[0].tables) if "p00" in seats]
    seat = tournament.rounds[0].tables[table].index("p00")
    games = attach_all(tournament)
    assert tournament.rounds[0].stand_ins == {table: (seat,)}
    # the bot wins her seat's table: neither the win nor its points are hers
    opponent = tournament.rounds[0].tables[table][1 - seat]
    totals = (0, 9) if seat == 0 else (9, 0)
    tournament.record_result(games[table], totals, best_wins(totals))
    placings = {placing.entrant: placing for placing in tournament.standings()}
    gone = placings["p00"]
    assert (gone.tables, gone.wins, gone.points, gone.played, gone.dropped) == (0, 0, 0, False, True)
    assert (placings[opponent].tables, placings[opponent].points) == (1, 9)
    assert placings[opponent].opponents is None  # a bot sitting in is no opponent met
    assert tournament.standings()[-1].entrant == "p00"
    assert rebuilt(tournament).rounds[0].stand_ins == tournament.rounds[0].stand_ins


def test_a_player_who_drops_after_her_tables_game_was_made_keeps_its_result():
    tournament = entered(4, rounds=2, table_size=2)
    tournament.start("seed")
    games = attach_all(tournament)
    tournament.drop("p00")
    assert tournament.rounds[0].stand_ins == {}
    record_round(tournament, games)
    gone = next(placing for placing in tournament.standings() if placing.entrant == "p00")
    assert (gone.tables, gone.wins, gone.played, gone.dropped) == (1, 1, True, True)


def test_mid_round_one_those_whose_table_has_not_finished_are_placed_after_those_with_a_result():
    tournament = entered(6, rounds=2, table_size=3)
    tournament.start("seed")
    games = attach_all(tournament)
    first, waiting = tournament.rounds[0].tables
    totals = tuple(30 + by_number(entrant) for entrant in first)  # every seat some points: club's worst
    tournament.record_result(games[0], totals, best_wins(totals))
    placings = tournament.standings()
    assert [placing.played for placing in placings] == [True] * 3 + [False] * 3
    assert {placing.entrant for placing in placings[3:]} == set(waiting)
    assert placings[0].entrant == min(first, key=by_number) and placings[0].rank == 1
    assert all(placing.tables == placing.points == 0 for placing in placings[3:])


def test_a_no_show_is_placed_last_dropped_with_nothing_played():
    tournament = checking_in(3)
    tournament.check_in("p00", NOW)
    tournament.check_in("p01", NOW)
    tournament.start("seed")
    placings = tournament.standings()
    assert [placing.entrant for placing in placings][-1] == "p02"
    assert (placings[-1].played, placings[-1].dropped, placings[-1].tables) == (False, True, 0)
    play_round(tournament, by_number)
    assert [placing.played for placing in tournament.standings()] == [True, True, False]


def test_a_player_drops_out_of_a_round_robin_and_their_remaining_fixtures_are_not_played():
    tournament = entered(6, format="round_robin", rounds=None, table_size=2)
    tournament.start("seed")
    planned = tournament.planned_rounds
    play_round(tournament, by_number)
    tournament.drop("p05")
    while not tournament.finished:
        play_round(tournament, by_number)
    assert len(tournament.rounds) == planned  # the schedule's length stays
    for later in tournament.rounds[2:]:
        assert all("p05" not in table for table in later.tables) and "p05" not in later.byes


def test_drop_out_refusals_record_nothing():
    announced = entered(4)
    unchanged("not_started", announced, lambda: announced.drop("p00"))
    tournament = entered(3)
    tournament.start("seed")
    unchanged("not_joined", tournament, lambda: tournament.drop("p09"))
    tournament.drop("p00")
    unchanged("already_dropped", tournament, lambda: tournament.drop("p00"))
    unchanged("too_few_players", tournament, lambda: tournament.drop("p01"))
    knockout = entered(4, format="single_elimination", rounds=None)
    knockout.start("seed")
    unchanged("cannot_drop", knockout, lambda: knockout.drop("p00"))
    cancelled = entered(4)
    cancelled.start("seed")
    cancelled.cancel("rain")
    unchanged("tournament_cancelled", cancelled, lambda: cancelled.drop("p00"))


# ----------------------------------------------------------------------
# cancelling


def test_a_cancelled_tournament_records_its_reason_and_takes_nothing_more():
    tournament = entered(8, starts_at=NOW)
    tournament.cancel("  too few tables  ")
    (cancelled,) = recorded(tournament, Tournament.Cancelled)
    assert cancelled.reason == "too few tables" and tournament.cancelled == "too few tables"
    assert not tournament.start_due(NOW + timedelta(days=1))
    unchanged("tournament_cancelled", tournament, lambda: tournament.join("p09"))
    unchanged("tournament_cancelled", tournament, lambda: tournament.leave("p00"))
    unchanged("tournament_cancelled", tournament, lambda: tournament.start("seed"))
    unchanged("tournament_cancelled", tournament, lambda: tournament.cancel("again"))
    assert rebuilt(tournament).cancelled == "too few tables"


def test_a_running_tournament_cancelled_starts_no_round_and_records_no_result():
    tournament = entered(8)
    tournament.start("seed")
    games = attach_all(tournament)
    tournament.cancel("the club closed early")
    assert tournament.round_due(NOW + timedelta(days=9)) is None
    unchanged(
        "tournament_cancelled", tournament, lambda: tournament.record_result(games[0], (0, 5, 6, 7), (0,))
    )
    unchanged("tournament_cancelled", tournament, lambda: tournament.attach_game(1, 0, games[0]))


@pytest.mark.parametrize("reason", ["", "   ", "x" * 501, "stop\u202e", 42])
def test_a_cancellation_needs_a_plain_reason(reason):
    tournament = entered(2)
    unchanged("invalid_reason", tournament, lambda: tournament.cancel(reason))


def test_a_finished_tournament_cannot_be_cancelled():
    tournament = announce(rounds=1)
    tournament.join("p00")
    tournament.join("p01")
    tournament.start("seed")
    play_round(tournament, by_number)
    assert tournament.finished
    unchanged("tournament_over", tournament, lambda: tournament.cancel("too late"))


# ----------------------------------------------------------------------
# an abandoned game


def new_game() -> Game:
    return Game.create(
        ruleset=CLUB,
        seats=(Seat("player", PLAYER.id), Seat("bot", "random")),
        seed="abandon",
        cause=Cause(SYSTEM, "CreateGame"),
        entropy=SAME_ENTROPY,
    )


def test_an_abandoned_game_refuses_every_later_command():
    game = new_game()
    game.abandon("the tournament was cancelled", Cause(SYSTEM, "AbandonGame"))
    (abandoned,) = recorded(game, Game.Abandoned)
    assert abandoned.reason == "the tournament was cancelled" and not game.over
    seat = game.seat_to_move
    unchanged("game_abandoned", game, lambda: game.time_out_turn(seat, Cause(SYSTEM, "TimeOutTurn")))
    unchanged("game_abandoned", game, lambda: game.raise_dispute(Cause(PLAYER, "RaiseDispute")))
    unchanged("game_abandoned", game, lambda: game.abandon("again", Cause(SYSTEM, "AbandonGame")))
    assert Game.from_image(game.id, game.version, game.image()).abandoned == "the tournament was cancelled"


def test_only_the_service_or_an_official_abandons_a_game():
    game = new_game()
    unchanged("not_allowed", game, lambda: game.abandon("bored", Cause(PLAYER, "AbandonGame")))

"""Tournaments through the application, on PostgreSQL and on SQLite: stored, started, played, ranked."""

import threading
from collections import Counter
from uuid import UUID

from service.application import MauMau
from service.domain.game import Game
from service.domain.seats import Seat, TableRef
from service.domain.tournament import Tournament
from service.domain.tournament_plan import Plan
from tests.integration.tables import players
from tests.refusals import refused
from workers.conduct import bot_move

SWISS = Plan(format="swiss", table_size=4, rounds=2, single_round=True, places=8)


def league_of(app: MauMau, members: int) -> tuple[UUID, list[UUID]]:
    league = app.found_league("Tuesday club")
    joined = players(app, members)
    for player in joined:
        app.admit_member(league, player)
    return league, joined


def clock_plays_out(app: MauMau, game_id: UUID) -> None:
    """Every turn's clock runs out: the clock bot plays the whole game (and a seat that forfeited
    by clock meanwhile is played by its bot, as the workers play it)."""
    while not (game := app.get_game(game_id)).over:
        seat = game.seat_to_move
        if seat in game.forfeited:
            app.execute(game_id, bot_move(game, seat, game.bot_for(seat)), expected_version=game.version)
        else:
            app.time_out_turn(game_id, seat)


def test_a_swiss_tournament_of_members_and_bots_is_played_to_the_end_and_ranked(app):
    league, members = league_of(app, 3)
    tournament_id = app.create_tournament(league, "Spring cup", SWISS)
    for member in members:
        app.join_tournament(tournament_id, member)
    app.start_tournament(tournament_id, seed="spring")
    games_by_round = []
    for round_no in (1, 2):
        games = app.start_round(tournament_id, round_no)
        version = app.get_tournament(tournament_id).version
        assert app.start_round(tournament_id, round_no) == games  # again: the same games, nothing stored
        assert app.get_tournament(tournament_id).version == version
        for game_id in games:
            clock_plays_out(app, game_id)
            app.record_table_result(tournament_id, game_id)
        app.record_table_result(tournament_id, games[0])  # again: nothing changes
        games_by_round.append(games)

    tournament = app.get_tournament(tournament_id)
    assert tournament.finished and len(tournament.ranking) == 8
    assert [len(r.tables) for r in tournament.rounds] == [2, 2]
    points: Counter[str] = Counter()
    clock_turns: Counter[str] = Counter()
    for played, games in zip(tournament.rounds, games_by_round, strict=True):
        for table, (players_at, game_id) in enumerate(zip(played.tables, games, strict=True)):
            game = app.get_game(game_id)
            assert played.games[table] == game_id
            assert [seat.name for seat in game.seats if seat.kind == "player"] == [
                p for p in players_at if not p.startswith("bot:")
            ]
            assert game.ruleset.single_round
            for seat, entrant in enumerate(players_at):
                points[entrant] += game.result().totals[seat]  # a forfeit by clock: the table's worst
            for event in app.game_events(game_id):
                if isinstance(event, Game.TurnTimedOut):
                    clock_turns[players_at[event.seat]] += 1
    standings = tournament.standings()
    assert {p.entrant: p.points for p in standings} == {e: points[e] for e in tournament.order}
    assert {p.entrant: p.bot_turns for p in standings} == {e: clock_turns[e] for e in tournament.order}
    assert tournament.winners == (standings[0].entrant,)
    assert {str(m) for m in members} <= set(tournament.ranking)


def test_each_tables_game_carries_its_tournament_round_and_table_in_its_created_event(app):
    league, members = league_of(app, 3)
    tournament_id = app.create_tournament(league, "Table cup", SWISS)
    for member in members:
        app.join_tournament(tournament_id, member)
    app.start_tournament(tournament_id, seed="tables")
    games = app.start_round(tournament_id, 1)
    assert len(games) == 2
    for table, game_id in enumerate(games):
        created = app.game_events(game_id)[0]
        assert isinstance(created, Game.Created)
        assert created.table == TableRef(tournament_id, 1, table)
        assert app.get_game(game_id).table == created.table
        assert app.tournament_of(app.get_game(game_id)) == tournament_id
    # a key like a table's names no table: nothing reads a game's table from its key
    key = f"tournament:{tournament_id}:round:2:table:0"
    other = app.get_game(app.create_game(["bot:random", "bot:random"], key=key).game_id)
    assert other.table is None and app.tournament_of(other) is None


def test_the_stored_events_tell_the_tournament_in_order(app):
    league, members = league_of(app, 2)
    tournament_id = app.create_tournament(
        league, "Cup", Plan(format="single_elimination", table_size=2, single_round=True)
    )
    for member in members:
        app.join_tournament(tournament_id, member)
    app.start_tournament(tournament_id)
    (game_id,) = app.start_round(tournament_id, 1)
    clock_plays_out(app, game_id)
    app.record_table_result(tournament_id, game_id)
    names = [type(event).__name__ for event in app.events.get(tournament_id)]
    assert names == [
        "Announced",
        "Joined",
        "Joined",
        "Started",
        "RoundPaired",
        "TableGameCreated",
        "TableFinished",
        "RoundFinished",
        "Finished",
    ]
    tournament = app.get_tournament(tournament_id)
    game = app.get_game(game_id)
    assert tournament.winners == tuple(tournament.rounds[0].tables[0][seat] for seat in game.state.winners)


def test_two_processes_starting_one_round_at_once_create_each_table_game_once(app):
    league, _ = league_of(app, 0)
    tournament_id = app.create_tournament(
        league, "Cup", Plan(format="swiss", table_size=4, rounds=1, places=12)
    )
    app.start_tournament(tournament_id)
    barrier = threading.Barrier(2)
    answers: list[list[UUID]] = []

    def start() -> None:
        barrier.wait()
        answers.append(app.start_round(tournament_id, 1))

    threads = [threading.Thread(target=start) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(answers) == 2 and answers[0] == answers[1] and len(set(answers[0])) == 3
    created = [e for e in app.events.get(tournament_id) if isinstance(e, Tournament.TableGameCreated)]
    assert sorted(e.game_id for e in created) == sorted(answers[0])


def test_tournament_refusals_change_nothing(app):
    league, (ann, bob) = league_of(app, 2)
    outsider = app.register_player("Outsider")
    refused("league_not_found", lambda: app.create_tournament(UUID(int=5), "Cup", SWISS))
    refused(
        "invalid_table_size",
        lambda: app.create_tournament(league, "Cup", Plan(format="swiss", table_size=9, rounds=1)),
    )
    tournament_id = app.create_tournament(league, "Cup", Plan(format="swiss", table_size=2, rounds=1))
    refused("tournament_not_found", lambda: app.get_tournament(UUID(int=7)))
    refused("tournament_not_found", lambda: app.get_tournament(league))
    refused("player_not_found", lambda: app.join_tournament(tournament_id, UUID(int=9)))
    refused("not_a_member", lambda: app.join_tournament(tournament_id, outsider))
    refused("not_joined", lambda: app.leave_tournament(tournament_id, ann))
    refused("not_started", lambda: app.start_round(tournament_id, 1))
    refused("too_few_players", lambda: app.start_tournament(tournament_id))
    version = app.get_tournament(tournament_id).version
    app.join_tournament(tournament_id, ann)
    app.join_tournament(tournament_id, bob)
    refused("already_joined", lambda: app.join_tournament(tournament_id, bob))
    app.start_tournament(tournament_id)
    refused("no_such_round", lambda: app.start_round(tournament_id, 2))
    (game_id,) = app.start_round(tournament_id, 1)
    refused("game_not_over", lambda: app.record_table_result(tournament_id, game_id))
    stray = app.create_game(["bot:random", "bot:random"], seed=1).game_id
    clock_plays_out(app, stray)
    refused("not_a_tournament_game", lambda: app.record_table_result(tournament_id, stray))
    # stored: two joins, the start and round 1's pairing, the table's game; nothing of the refusals
    assert app.get_tournament(tournament_id).version == version + 5


def test_a_cancellation_abandons_the_games_in_play_and_keeps_the_finished_ones(app):
    league, members = league_of(app, 4)
    tournament_id = app.create_tournament(league, "Cup", Plan(format="swiss", table_size=2, rounds=2))
    for member in members:
        app.join_tournament(tournament_id, member)
    app.start_tournament(tournament_id, seed="cancel")
    first, second = app.start_round(tournament_id, 1)
    clock_plays_out(app, first)
    app.record_table_result(tournament_id, first)
    refused("invalid_reason", lambda: app.cancel_tournament(tournament_id, " "))
    assert not app.get_game(second).abandoned  # a refused cancellation abandoned nothing
    assert app.cancel_tournament(tournament_id, "the hall is closed") == [second]
    assert app.get_game(second).abandoned == "the hall is closed" and not app.get_game(first).abandoned
    refused("game_abandoned", lambda: app.time_out_turn(second, app.get_game(second).seat_to_move))
    refused("tournament_cancelled", lambda: app.cancel_tournament(tournament_id, "again"))
    tournament = app.get_tournament(tournament_id)
    assert tournament.cancelled == "the hall is closed" and 1 not in tournament.rounds[0].results


def test_a_dropped_players_table_made_after_the_drop_seats_the_plans_bot(app):
    league, (ann, bob, cat, dan) = league_of(app, 4)
    plan = Plan(format="swiss", table_size=2, rounds=2, fill_bot="random")
    tournament_id = app.create_tournament(league, "Cup", plan)
    for member in (ann, bob, cat, dan):
        app.join_tournament(tournament_id, member)
    app.start_tournament(tournament_id, seed="drop")
    app.drop_out_of_tournament(tournament_id, ann)
    seats = [app.get_game(game_id).seats for game_id in app.start_round(tournament_id, 1)]
    everyone = [seat for table in seats for seat in table]
    assert Seat("player", str(ann)) not in everyone and Seat("bot", "random") in everyone
    refused("already_dropped", lambda: app.drop_out_of_tournament(tournament_id, ann))


def test_results_recorded_by_two_processes_in_turn_all_count_though_each_keeps_its_last_saved_copy(
    app, settings
):
    """Each process changes a tournament from the copy it saved last (``last_saved``), caught up
    with what the other stored since: no result is lost, none is recorded twice, and a refused
    change keeps no copy."""
    league, _ = league_of(app, 0)
    plan = Plan(format="swiss", table_size=2, rounds=1, single_round=True, places=8)
    tournament_id = app.create_tournament(league, "Relay cup", plan)
    app.start_tournament(tournament_id)
    games = app.start_round(tournament_id, 1)
    other = MauMau(settings)
    try:
        for game_id in games:
            clock_plays_out(app, game_id)
        for turn, game_id in enumerate(games):
            (app if turn % 2 == 0 else other).record_table_result(tournament_id, game_id)
        app.record_table_result(tournament_id, games[1])  # again, from a copy behind the store
        stored = app.get_tournament(tournament_id)
        assert stored.finished and stored.version == other.get_tournament(tournament_id).version
        recorded = [e for e in app.events.get(tournament_id) if isinstance(e, Tournament.TableFinished)]
        assert sorted(e.game_id for e in recorded) == sorted(games)
        assert app.read_tournament(tournament_id, lambda t: t.version) == stored.version
        kept = app.saved_tournaments.take(tournament_id)  # what the next change starts from
        assert kept is not None and kept.version == stored.version and kept.finished
        app.saved_tournaments.put(kept)
        late = app.register_player("Late")
        app.admit_member(league, late)
        refused("tournament_started", lambda: app.join_tournament(tournament_id, late))
        assert app.saved_tournaments.take(tournament_id) is None  # the refused change kept no copy
    finally:
        other.close()

"""Ratings through the whole path (application, log, projection, reader) against openskill itself.

Whole matches are played with random legal moves on both stores; the expected ratings are
recomputed here, independently of ``service.domain.rating``, with openskill's Plackett-Luce
over each finished match's placing, in the order the matches finished.
"""

import contextlib
import random
import sqlite3
from uuid import UUID

import psycopg
import pytest
from openskill.models import PlackettLuce
from psycopg import sql

from service.application import MauMau
from service.domain.adjudication import Void
from service.domain.rating import places
from service.projections.reader import ReadModels
from service.projections.runner import Runner, rebuild
from service.projections.store import SQLITE_FILE_NAME, close_views, open_views
from service.settings import Settings
from tests.gameplay import next_command
from tests.integration.tables import REFEREE

pytestmark = pytest.mark.own_store  # each test reads the whole log: a store of the test's own


SHORT = {"target_score": 20}


def play_match(
    app: MauMau,
    league: UUID,
    players: list[UUID],
    seed: int,
    clocked_seat: int | None = None,
    deal: str | None = None,
) -> UUID:
    """A whole match of random legal moves; every turn of ``clocked_seat`` is played by the clock bot.
    ``deal``: the game's seed, so its deals are the same at each run."""
    game_id = app.create_game(players, league_id=league, seed=deal).game_id
    rng = random.Random(seed)
    while not (game := app.get_game(game_id)).over:
        state = game.state
        if clocked_seat is not None and game.seat_to_move == clocked_seat and state.missed is None:
            app.time_out_turn(game_id, clocked_seat, expected_version=game.version)
        else:
            app.execute(game_id, next_command(state, rng), expected_version=game.version)
    return game_id


def expected_ratings(
    app: MauMau, games: list[UUID], clocked: dict[UUID, int]
) -> dict[UUID, tuple[float, float, int]]:
    """openskill over the matches in this order: placing by total (winners first, ties sharing);
    a clock-played seat placed last and never raised."""
    model = PlackettLuce()
    ratings: dict[UUID, tuple[float, float, int]] = {}
    for game_id in games:
        game = app.get_game(game_id)
        s = game.state
        lowest = game.ruleset.match_winner == "lowest_total"
        players = [UUID(seat.name) for seat in game.seats]

        def key(seat: int, s=s, lowest=lowest) -> tuple[int, int]:
            return (0 if seat in s.winners else 1, s.totals[seat] if lowest else -s.totals[seat])

        ranks = [
            sorted(key(other) for other in range(len(players))).index(key(seat)) + 1
            for seat in range(len(players))
        ]
        if game_id in clocked:
            ranks[clocked[game_id]] = len(players) + 1
        before = [ratings.get(player, (model.mu, model.sigma, 0)) for player in players]
        teams = model.rate([[model.rating(mu=mu, sigma=sigma)] for mu, sigma, _ in before], ranks=ranks)
        for seat, (player, (mu, sigma, matches), (new,)) in enumerate(
            zip(players, before, teams, strict=True)
        ):
            if clocked.get(game_id) == seat and (new.mu > mu or new.ordinal() > mu - 3 * sigma):
                ratings[player] = (mu, sigma, matches + 1)
            else:
                ratings[player] = (new.mu, new.sigma, matches + 1)
    return ratings


def project(settings: Settings, until: int | None = None) -> None:
    runner = Runner(settings)
    try:
        runner.catch_up(until)
    finally:
        runner.close()


def read(settings: Settings, league: UUID, players: list[UUID]):
    reader = ReadModels(settings)
    try:
        return reader.ratings(league), {player: reader.rating_history(player) for player in players}
    finally:
        reader.close()


def as_expected(answer) -> dict[UUID, tuple[float, float, int]]:
    return {row.player_id: (row.mu, row.sigma, row.matches) for row in answer.rows}


def assert_equal(found: dict, expected: dict) -> None:
    assert found.keys() == expected.keys()
    for player, (mu, sigma, matches) in expected.items():
        assert found[player] == (pytest.approx(mu, rel=1e-12), pytest.approx(sigma, rel=1e-12), matches)


@pytest.fixture
def four(app: MauMau) -> tuple[UUID, list[UUID]]:
    players = [app.register_player(name) for name in ("Ann", "Bob", "Cy", "Dee")]
    # no forfeits: the clock bot may play a seat's every turn here (the rule for clock-played seats)
    league = app.found_league("Rated", "club", SHORT, forfeit_after=0)
    for player in players:
        app.admit_member(league, player)
    return league, players


def test_ratings_after_real_matches_equal_openskill_recomputed_and_a_rebuild_gives_the_same(
    app, settings, four
):
    league, (ann, bob, cy, dee) = four
    tables = [[ann, bob], [ann, bob, cy], [cy, dee, bob, ann], [dee, ann], [bob, cy, dee]]
    games = [play_match(app, league, table, seed) for seed, table in enumerate(tables)]
    clocked_game = play_match(app, league, [ann, bob, cy], seed=9, clocked_seat=0)
    games.append(clocked_game)
    expected = expected_ratings(app, games, {clocked_game: 0})
    project(settings)
    answer, histories = read(settings, league, [ann, bob, cy, dee])
    assert_equal(as_expected(answer), expected)
    assert [row.rating for row in answer.rows] == sorted((row.rating for row in answer.rows), reverse=True)
    assert all(row.rating == pytest.approx(row.mu - 3 * row.sigma) for row in answer.rows)
    assert [row.provisional for row in answer.rows] == [row.matches < 5 for row in answer.rows]
    # one history row per rated match, newest first; the clock-played seat is marked so
    assert [change.game_id for change in histories[ann].history] == [
        clocked_game,
        games[3],
        games[2],
        games[1],
        games[0],
    ]
    assert histories[ann].history[0].clock_played and not histories[bob].history[0].clock_played
    newest = histories[dee].history[0]
    assert (newest.mu, newest.sigma) == (pytest.approx(expected[dee][0]), pytest.approx(expected[dee][1]))

    rebuild(settings)
    again, histories_again = read(settings, league, [ann, bob, cy, dee])
    assert_equal(as_expected(again), expected)
    assert [change.game_id for change in histories_again[ann].history] == [
        change.game_id for change in histories[ann].history
    ]


def test_a_projection_stopped_between_matches_and_started_again_rates_each_match_exactly_once(
    app, settings, four
):
    league, (ann, bob, cy, dee) = four
    first = [play_match(app, league, table, seed) for seed, table in enumerate([[ann, bob, cy], [bob, dee]])]
    # the first runner stops partway through the log: inside the second match
    project(settings, until=app.recorder.max_notification_id() - 3)
    second = [play_match(app, league, table, 10 + seed) for seed, table in enumerate([[dee, cy], [ann, dee]])]
    project(settings)
    project(settings)  # nothing new: nothing rated again
    answer, histories = read(settings, league, [ann, bob, cy, dee])
    assert_equal(as_expected(answer), expected_ratings(app, first + second, {}))
    assert [len(histories[player].history) for player in (ann, bob, cy, dee)] == [2, 2, 2, 3]


def test_standings_show_each_players_rating_beside_their_row(app, settings, four):
    league, (ann, bob, cy, dee) = four
    play_match(app, league, [ann, bob], seed=3)
    project(settings)
    reader = ReadModels(settings)
    try:
        standings = reader.standings(league)
        ratings = {row.player_id: row for row in reader.ratings(league).rows}
    finally:
        reader.close()
    assert {row.player_id for row in standings.rows} == {ann, bob, cy, dee}  # every member
    for row in standings.rows:
        if row.player_id in (ann, bob):
            assert row.rating == ratings[row.player_id].rating and row.rating_provisional
        else:  # no match yet: no rating
            assert row.rating is None and row.player_id not in ratings


def test_ratings_of_a_league_not_in_the_read_models_are_none(app, settings):
    project(settings)
    reader = ReadModels(settings)
    try:
        assert reader.ratings(UUID(int=7)) is None
    finally:
        reader.close()


def drop_rating_history(settings: Settings) -> None:
    """Take the history table away under the runner: its next write fails, as a real store's can."""
    if settings.uses_postgres:
        with psycopg.connect(settings.database_url, autocommit=True) as conn:
            table = sql.Identifier(settings.database_schema, "views_rating_history")
            conn.execute(sql.SQL("DROP TABLE {}").format(table))
    else:
        with contextlib.closing(sqlite3.connect(settings.data_dir / SQLITE_FILE_NAME)) as conn:
            conn.execute("DROP TABLE views_rating_history")
            conn.commit()


def test_a_write_that_fails_after_the_ratings_were_computed_rates_nothing_twice(app, settings, four):
    league, (ann, bob, cy, dee) = four
    first = play_match(app, league, [ann, bob, cy], seed=1)
    runner = Runner(settings)
    try:
        runner.catch_up()
        second = play_match(app, league, [ann, bob, dee], seed=2)
        drop_rating_history(settings)
        with pytest.raises(Exception, match="views_rating_history"):
            runner.catch_up()  # the second match was rated in memory, then its batch failed
        close_views(open_views(settings))  # the table made again
        runner.projection.reset()  # as the runner does after a failed write
        runner.catch_up()
    finally:
        runner.close()
    answer, histories = read(settings, league, [ann, bob, cy, dee])
    assert_equal(as_expected(answer), expected_ratings(app, [first, second], {}))
    # the first match's history rows went with the table; the second's were written once
    assert [len(histories[player].history) for player in (ann, bob, cy, dee)] == [1, 1, 0, 1]


def test_a_match_voided_back_and_finished_again_is_rated_as_it_first_finished_whatever_the_batches(
    app, settings, four
):
    """A match is rated once, at its first finish: a referee's void back into it, stored after, and
    its second finish change nothing of it, whether the read models fold them in the batch of the
    first finish (a rebuild, a busy runner) or in a later one."""
    league, (ann, bob, cy, _) = four
    seats = [ann, bob, cy]
    game_id = play_match(app, league, seats, seed=5, deal="voided")
    first_finish = app.recorder.max_notification_id() or 0
    first = places_of(app, game_id)
    expected = expected_ratings(app, [game_id], {})
    events = app.game_events(game_id)
    # voided back to the start of the tenth change from the end and played on, until the places differ
    back_to = [number for number, event in enumerate(events, 1) if getattr(event, "cause", None)][-10]
    app.appoint_referee(league, REFEREE.id)
    for attempt in range(20):
        app.raise_dispute(game_id, by=REFEREE)
        app.give_ruling(game_id, Void(back_to), by=REFEREE)
        rng = random.Random(attempt)
        while not (game := app.get_game(game_id)).over:
            app.execute(game_id, next_command(game.state, rng), expected_version=game.version)
        if places_of(app, game_id) != first:
            break
    assert places_of(app, game_id) != first  # the case in question came up

    project(settings, until=first_finish)  # a batch up to the first finish
    project(settings)  # then the void and the second finish
    by_batches, _ = read(settings, league, seats)
    assert_equal(as_expected(by_batches), expected)

    rebuild(settings)  # one batch: the first finish, the void and the second finish
    in_one, histories = read(settings, league, seats)
    assert_equal(as_expected(in_one), expected)
    assert [histories[player].history[0].place for player in seats] == first
    assert [len(histories[player].history) for player in seats] == [1, 1, 1]


def places_of(app: MauMau, game_id: UUID) -> list[int]:
    """Each seat's place in the match as it stands (1 is best; ties share)."""
    game = app.get_game(game_id)
    result = game.result()
    lowest = game.ruleset.match_winner == "lowest_total"
    return places(list(result.totals), result.winners, lowest, result.out_round)

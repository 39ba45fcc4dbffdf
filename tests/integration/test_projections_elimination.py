"""Standings, ratings and histories of matches the last seat standing wins (101, faraon) and of a
race (mau-mau-150), each played to its end through the application by random legal moves and
projected from the log.

The expected figures are worked out here from the game's own engine events, not from the code under
test: the winners are ``MatchEnded``'s, and a seat's place in the match follows the order the seats
were eliminated (``PlayerEliminated``, later out is better; out in the same round: the better total),
whatever the totals say. The seeds were chosen so that each match shows what totals alone would get
wrong, and each test asserts that first.
"""

import random
from collections import Counter
from uuid import UUID

import pytest

from service.application import MauMau
from service.domain.events import MatchEnded, PlayerEliminated, RoundEnded
from service.domain.game import Game
from service.domain.state import OVER
from service.projections.reader import ReadModels
from service.settings import Settings
from tests.gameplay import next_command
from tests.integration.projecting import catch_up

pytestmark = pytest.mark.own_store  # each test reads the whole log: a store of the test's own


def play_match(app: MauMau, league: UUID, seats: list[UUID], seed: int) -> Game:
    """A league match dealt from ``seed`` and played to its end by random legal moves."""
    game_id = app.create_game(seats, league_id=league, seed=seed).game_id
    rng = random.Random(seed)
    for _ in range(5000):
        game = app.get_game(game_id)
        if game.state.phase == OVER:
            return game
        app.execute(game_id, next_command(game.state, rng, challenge_rate=0), expected_version=game.version)
    raise AssertionError("the match did not end")


def engine_facts(app: MauMau, game_id: UUID) -> list:
    return [event.fact for event in app.game_events(game_id) if isinstance(event, Game.Fact)]


def expected_places(app: MauMau, game: Game) -> list[int]:
    """Each seat's place from the engine events: the winners, then the later out, then the better total."""
    facts = engine_facts(app, game.id)
    (end,) = [fact for fact in facts if isinstance(fact, MatchEnded)]
    round_no, out_at = 0, {}
    for fact in facts:
        if isinstance(fact, RoundEnded):
            round_no = fact.round_no
        elif isinstance(fact, PlayerEliminated):
            out_at[fact.seat] = round_no
    lowest = game.ruleset.match_winner == "lowest_total"
    never = round_no + 1  # still in: later than any seat out

    def better(a: int, b: int) -> bool:
        if (a in end.winners) != (b in end.winners):
            return a in end.winners
        if out_at.get(a, never) != out_at.get(b, never):
            return out_at.get(a, never) > out_at.get(b, never)
        return end.totals[a] < end.totals[b] if lowest else end.totals[a] > end.totals[b]

    seats = range(len(game.seats))
    return [1 + sum(better(other, seat) for other in seats) for seat in seats]


def out_order(app: MauMau, game: Game) -> list[int]:
    """The seats in the order they were eliminated."""
    return [fact.seat for fact in engine_facts(app, game.id) if isinstance(fact, PlayerEliminated)]


def league_of(app: MauMau, ruleset: str) -> tuple[UUID, list[UUID]]:
    league = app.found_league(f"{ruleset} club", ruleset)
    players = [app.register_player(name) for name in ("Ann", "Bob", "Cy")]
    for player in players:
        app.admit_member(league, player)
    return league, players


def projected(settings: Settings, league: UUID, players: list[UUID]):
    """The league's standings, and each player's places by game and history lines by game."""
    catch_up(settings)
    reader = ReadModels(settings)
    try:
        standings = reader.standings(league)
        places = {
            player: {change.game_id: change.place for change in reader.rating_history(player).history}
            for player in players
        }
        lines = {player: {line.game_id: line for line in reader.history(player).games} for player in players}
    finally:
        reader.close()
    return standings, places, lines


def check_league(
    app: MauMau, settings: Settings, league: UUID, players: list[UUID], games: list[Game]
) -> None:
    """Wins, points, places and history lines as the matches' events give them."""
    standings, places, lines = projected(settings, league, players)
    wins = Counter(game.seats[game.state.winners[0]].name for game in games if len(game.state.winners) == 1)
    rows = {str(row.player_id): row for row in standings.rows}
    for player in players:
        row = rows[str(player)]
        assert row.matches_played == len(games)
        assert row.matches_won == wins[str(player)]
        assert row.points == sum(game.state.totals[seat_of(game, player)] for game in games)
    assert [row.matches_won for row in standings.rows] == sorted(wins[str(p)] for p in players)[::-1]
    for game in games:
        expected = expected_places(app, game)
        for player in players:
            seat = seat_of(game, player)
            assert places[player][game.id] == expected[seat]
            won = seat in game.state.winners
            assert lines[player][game.id].result == ("won" if won else "lost")
            assert lines[player][game.id].total == game.state.totals[seat]


def seat_of(game: Game, player: UUID) -> int:
    return next(seat for seat, occupant in enumerate(game.seats) if occupant.name == str(player))


def test_a_101_season_places_a_seat_out_later_above_one_out_earlier_whatever_their_totals(app, settings):
    league, players = league_of(app, "101")
    games = [play_match(app, league, players, seed) for seed in (5, 7)]
    for game in games:
        first_out, last_out = out_order(app, game)
        # the premise: the seat out later ends on the worse (higher) total
        assert game.state.totals[last_out] > game.state.totals[first_out]
        assert len(game.state.winners) == 1
        assert expected_places(app, game)[last_out] == 2
    check_league(app, settings, league, players, games)


def test_a_faraon_season_counts_the_last_seat_standing_as_the_winner_even_on_a_worse_total(app, settings):
    league, players = league_of(app, "faraon")
    games = [play_match(app, league, players, seed) for seed in (1, 4)]
    for game in games:
        (winner,) = game.state.winners
        # the premise: the lowest total (faraon's better direction) is not the winner's
        assert min(game.state.totals) < game.state.totals[winner]
    check_league(app, settings, league, players, games)
    standings, _, _ = projected(settings, league, players)
    assert standings.rows[0].matches_won == 2 and standings.order == "lowest_points"


def test_a_mau_mau_150_season_places_the_highest_total_first(app, settings):
    league, players = league_of(app, "mau-mau-150")
    games = [play_match(app, league, players, seed) for seed in (0, 3)]
    for game in games:
        assert not out_order(app, game)
        assert [game.state.totals[seat] for seat in game.state.winners] == [max(game.state.totals)]
        assert max(game.state.totals) >= 150
    check_league(app, settings, league, players, games)
    standings, _, _ = projected(settings, league, players)
    assert standings.order == "highest_points"

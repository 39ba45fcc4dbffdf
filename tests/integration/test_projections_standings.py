"""Standings through the whole path (application, log, projection, reader) with scripted results.

Scripted matches: one round, one card each; the dealer's neighbour holds a
card that follows the starter and goes out with it at once, so the winner
and the loser's points are chosen by the deck.
"""

import random
from uuid import UUID

import pytest

from service.application import MauMau
from service.domain.cards import parse_card
from service.domain.legal import call_due
from service.domain.roles import Actor
from service.domain.rulebook import rulebook
from service.projections.reader import ReadModels
from service.projections.runner import Runner
from service.settings import Settings
from tests.gameplay import next_command

pytestmark = pytest.mark.own_store  # each test reads the whole log: a store of the test's own

# the first deal of a test below, first card dealt first
TIE_DECK = (
    "KS KH 3C 6D 8H 10H 7H JS 7D AD 5D 8C 6S 9H 9C 2S 10D 10C AS 4D 7S 2C 8S 6C QS 5H "
    "JC KD 4C 9D 3D QH 9S 5C 5S AC 10S JD 3S 4H QC JH 3H 4S AH 2H QD KC 8D 2D 7C 6H"
)


ADMIN = Actor("admin", "ada")
SCRIPTED = {"single_round": True, "hand_size": 1}


def scripted_match(
    app: MauMau, league: UUID, loser: UUID, winner: UUID, losers_card: str, starter: str, play: str
):
    """``winner`` goes out with ``play`` on ``starter``; ``loser`` keeps ``losers_card``."""
    rules = app.get_league(league).rules
    named = [parse_card(play), parse_card(losers_card), parse_card(starter)]
    deck = named + [card for card in rulebook(rules).sorted_deck if card not in named]
    # dealer 0: the first card goes to seat 1, the second to seat 0, the third is the starter
    outcome = app.create_game([loser, winner], league_id=league, deck=deck, first_dealer=0, by=ADMIN)
    state = app.get_game(outcome.game_id).state
    app.play(outcome.game_id, 1, play, call=call_due(state, 1, parse_card(play)))
    game = app.get_game(outcome.game_id)
    assert game.over and list(game.state.winners) == [1]


def read_standings(settings: Settings, league: UUID):
    runner = Runner(settings)
    try:
        runner.catch_up()
    finally:
        runner.close()
    reader = ReadModels(settings)
    try:
        return reader.standings(league)
    finally:
        reader.close()


def summary(standings) -> list[tuple[int, str, int, int, int, float]]:
    return [
        (row.rank, row.name, row.matches_won, row.matches_shared, row.points, row.average_points)
        for row in standings.rows
    ]


@pytest.fixture
def trio(app):
    return [app.register_player(name) for name in ("Ann", "Bob", "Cy")]


def test_club_standings_put_the_lowest_points_first_among_equal_wins(app, settings, trio):
    ann, bob, cy = trio
    league = app.found_league("Club", "club", SCRIPTED)
    for player in trio:
        app.admit_member(league, player)
    scripted_match(app, league, loser=ann, winner=bob, losers_card="KS", starter="5C", play="5H")  # Ann 10
    scripted_match(app, league, loser=cy, winner=ann, losers_card="3S", starter="6C", play="6H")  # Cy 3
    scripted_match(app, league, loser=bob, winner=cy, losers_card="2S", starter="4C", play="4H")  # Bob 2
    standings = read_standings(settings, league)
    assert standings.order == "lowest_points" and standings.ruleset == "club"
    assert summary(standings) == [
        (1, "Bob", 1, 0, 2, 1.0),
        (2, "Cy", 1, 0, 3, 1.5),
        (3, "Ann", 1, 0, 10, 5.0),
    ]
    assert all(
        row.matches_played == 2 and row.rounds_played == 2 and row.rounds_won == 1 for row in standings.rows
    )


def test_mau_mau_150_standings_put_the_highest_points_first_among_equal_wins(app, settings, trio):
    ann, bob, cy = trio
    league = app.found_league("Race", "mau-mau-150", SCRIPTED)
    for player in trio:
        app.admit_member(league, player)
    # the winner takes the loser's card: Bob 10 (a king), Ann 8, Cy 9
    scripted_match(app, league, loser=ann, winner=bob, losers_card="KS", starter="10C", play="10H")
    scripted_match(app, league, loser=cy, winner=ann, losers_card="8S", starter="QC", play="QH")
    scripted_match(app, league, loser=bob, winner=cy, losers_card="9S", starter="AC", play="AH")
    standings = read_standings(settings, league)
    assert standings.order == "highest_points" and standings.ruleset == "mau-mau-150"
    assert summary(standings) == [
        (1, "Bob", 1, 0, 10, 5.0),
        (2, "Cy", 1, 0, 9, 4.5),
        (3, "Ann", 1, 0, 8, 4.0),
    ]


def test_a_club_match_ending_in_a_tie_for_the_lowest_total_is_a_shared_win_for_both(app, settings, trio):
    # this deal, dealt by seat 2, with these moves ends 23/0/0 after one round without a recycle
    # (found by playing seeds in memory; a seed no longer fixes a deal, the store mixes entropy in)
    league = app.found_league("Ties", "club", {"target_score": 15})
    for player in trio:
        app.admit_member(league, player)
    deck = TIE_DECK.split()
    game_id = app.create_game(trio, league_id=league, deck=deck, first_dealer=2, by=ADMIN).game_id
    rng = random.Random(25)
    while not (game := app.get_game(game_id)).over:
        app.execute(game_id, next_command(game.state, rng), expected_version=game.version)
    assert game.state.winners == (1, 2) and list(game.state.totals) == [23, 0, 0]
    standings = read_standings(settings, league)
    rows = {row.name: row for row in standings.rows}
    assert (rows["Bob"].matches_won, rows["Bob"].matches_shared) == (0, 1)
    assert (rows["Cy"].matches_won, rows["Cy"].matches_shared) == (0, 1)
    assert (rows["Ann"].matches_won, rows["Ann"].matches_shared, rows["Ann"].points) == (0, 0, 23)
    assert rows["Ann"].rank == 3 and {rows["Bob"].rank, rows["Cy"].rank} <= {1, 2}

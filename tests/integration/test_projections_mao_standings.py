"""A finished Mao match reaches its league's standings through the projection runner, as a card
game's does: matches played and won, rounds played, and rounds won as the points."""

import random

import pytest

from service.application import MauMau
from service.application.mao import shuffled_deck
from service.domain.mao.autoplay import BOTS, bot_to_move
from service.domain.mao.bots import calls_after
from service.domain.mao.commands import PlayCard, Say
from service.domain.mao.events import CardPlayed, MatchEnded
from service.domain.mao.state import DEAL, OVER
from service.domain.mao.views import player_view
from service.domain.roles import SYSTEM, Actor
from service.projections.reader import ReadModels
from service.settings import Settings
from tests.integration.test_projections_standings import read_standings

pytestmark = pytest.mark.own_store  # each test reads the whole log: a store of the test's own


def play_out(app: MauMau, game_id: str, player: str) -> MatchEnded:
    """Ada's turns chosen as a learning bot would, the server dealing and the bots taking their
    turns (the workers' step), until the match ends."""
    rng = random.Random(7)
    for _ in range(4_000):
        match = app.get_mao_game(game_id)
        state = match.state
        if state.phase == OVER:
            break
        if bot_to_move(match) is not None:
            app.mao_bot_turn(game_id, match.version)
            continue
        if state.phase == DEAL:
            app.mao_do(game_id, lambda game, rng: shuffled_deck(rng), SYSTEM)
            continue
        command = BOTS["bot:learning"](rng).choose(player_view(state, 0))
        game, events, _ = app.mao_do(
            game_id, lambda game, _, command=command: command, Actor("player", player)
        )
        if isinstance(command, PlayCard) and any(isinstance(e, CardPlayed) for e in events):
            for words in calls_after(command.card, player_view(game.state, 0)):
                window = app.get_mao_game(game_id).state.window
                if window is None or window.seat != 0:
                    break
                app.mao_do(game_id, lambda game, _, words=words: Say(0, words), Actor("player", player))
    ended = [fact for fact in app.get_mao_game(game_id).facts if isinstance(fact, MatchEnded)]
    assert len(ended) == 1
    return ended[0]


def test_a_finished_mao_match_counts_in_its_leagues_standings(app: MauMau, settings: Settings):
    league = app.found_league("Mao night", "mao", {"hand_size": 3, "rounds_to_win": 2})
    ada, bo = app.register_player("Ada"), app.register_player("Bo")
    for player in (ada, bo):
        app.admit_member(league, player)
    game = app.create_mao_game(league, [str(ada), "bot:learning", "bot:random"], "server", first_dealer=2)
    ended = play_out(app, str(game.id), str(ada))
    rows = {row.name: row for row in read_standings(settings, league).rows}
    assert rows["Ada"].matches_played == 1
    assert rows["Ada"].matches_won == int(ended.winner == 0)
    assert rows["Ada"].rounds_won == rows["Ada"].points == ended.wins[0]
    assert rows["Ada"].rounds_played >= sum(ended.wins)
    assert rows["Bo"].matches_played == 0  # a member who did not play keeps zeros


def test_a_mao_match_started_before_the_runner_restarted_counts_when_it_ends(app: MauMau, settings: Settings):
    league = app.found_league("Mao night", "mao", {"hand_size": 3, "rounds_to_win": 1})
    ada = app.register_player("Ada")
    app.admit_member(league, ada)
    game = app.create_mao_game(league, [str(ada), "bot:learning", "bot:random"], "server", first_dealer=2)
    read_standings(settings, league)  # a runner folds the start, then stops: its memory is gone
    ended = play_out(app, str(game.id), str(ada))
    (row,) = read_standings(settings, league).rows  # a new runner reads the seats back
    assert (row.matches_played, row.matches_won, row.rounds_won) == (1, int(ended.winner == 0), ended.wins[0])
    reader = ReadModels(settings)
    try:
        (listed,), more = reader.mao_games(league, "over", None, 10)
    finally:
        reader.close()
    assert more is None
    assert (listed.game_id, listed.winner, listed.wins) == (game.id, ended.winner, list(ended.wins))
    assert [seat.name for seat in listed.seats] == ["Ada", "bot:learning", "bot:random"]

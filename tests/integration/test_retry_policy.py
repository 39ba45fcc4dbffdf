"""The application's one retry policy, on both stores: a save that keeps meeting a concurrent write
is decided again at most ``ATTEMPTS`` times, then refused with ``stale_version`` (409), nothing of
it stored; one that meets fewer succeeds once."""

import random

import pytest

from service.application import MauMau
from service.application.saving import ATTEMPTS, retried
from service.domain.errors import RuleError
from service.domain.game import Cause, Game
from service.domain.league import Player
from service.domain.roles import SYSTEM
from service.usecases.refusals import status_of
from tests.gameplay import next_command


def admission_meeting_a_concurrent_write(app: MauMau, league_id, concurrent: int):
    """An attempt that admits a new player (two aggregates in one save) and, its first ``concurrent``
    times, lets another writer appoint a referee of the league between its load and its save."""
    tries: list[Player] = []

    def attempt() -> Player:
        mine = app.get_league(league_id)
        if len(tries) < concurrent:
            theirs = app.get_league(league_id)
            theirs.appoint_referee(f"referee-{len(tries)}")
            app.save(theirs)
        player = Player.register(f"Late {len(tries)}")
        tries.append(player)
        mine.admit(player.id, player.name, [])
        app.save(player, mine)
        return player

    return attempt, tries


def test_a_save_that_keeps_meeting_a_concurrent_one_gives_up_after_the_limit_as_stale_and_stores_none(
    app: MauMau,
):
    league_id = app.found_league("Busy club")
    attempt, tries = admission_meeting_a_concurrent_write(app, league_id, concurrent=ATTEMPTS)
    with pytest.raises(RuleError) as refused:
        retried(attempt)
    assert refused.value.code == "stale_version" and status_of("stale_version") == 409
    assert refused.value.__cause__ is None and refused.value.__suppress_context__  # raised ``from None``
    assert len(tries) == ATTEMPTS
    league = app.get_league(league_id)
    assert league.members == () and len(league.referees) == ATTEMPTS  # every concurrent write stored
    assert all(not app.recorder.select_events(player.id, limit=1) for player in tries)  # no half save


def test_a_save_that_meets_a_concurrent_one_fewer_times_than_the_limit_is_stored_once(app: MauMau):
    league_id = app.found_league("Busy club")
    attempt, tries = admission_meeting_a_concurrent_write(app, league_id, concurrent=ATTEMPTS - 1)
    admitted = retried(attempt)
    assert len(tries) == ATTEMPTS
    assert app.get_league(league_id).members == (admitted.id,)
    assert app.get_player(admitted.id).name == admitted.name
    assert [player for player in tries if app.recorder.select_events(player.id, limit=1)] == [admitted]


def test_a_game_command_that_keeps_meeting_another_process_s_moves_gives_up_after_the_limit(
    app: MauMau, settings
):
    other = MauMau(settings)  # another process, with its own game cache
    rng = random.Random(6)
    try:
        game_id = app.create_game(["bot:random"] * 2, seed=6).game_id
        decided: list[int] = []
        stored = [app.get_game(game_id).version]

        def change(game: Game, cause: Cause) -> None:
            decided.append(game.version)
            stored.append(other.execute(game_id, next_command(other.get_game(game_id).state, rng)).version)
            game.execute(next_command(game.state, rng), cause)

        with pytest.raises(RuleError) as refused:
            app._change(game_id, Cause(SYSTEM, "Test"), None, change)
        assert refused.value.code == "stale_version"
        assert len(decided) == ATTEMPTS
        assert decided == stored[:-1]  # each attempt decided on the game as stored then
        assert app.get_game(game_id).version == stored[-1]  # the other's moves, none of this one
        assert app.games.get(game_id) is None  # the copy that lost is not kept
    finally:
        other.close()


def test_a_save_takes_aggregates_only_and_stores_nothing_else(app: MauMau):
    player = Player.register("Solo")
    with pytest.raises(TypeError):
        app.save(player, "not an aggregate")
    with pytest.raises(TypeError):
        app.save(player, tracking=None)
    assert not app.recorder.select_events(player.id, limit=1)
    assert app.save() == ((), 0)  # nothing new: no transaction

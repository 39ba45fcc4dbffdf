"""A Mao match's live readers (its streams, ``service.http.mao.stream``) are woken by its acts as a
card game's are: by the store's note of another process's save, and without notes (SQLite, or the
listener down) by this process's own save; and the readers woken by one change share one read."""

import asyncio
from uuid import UUID

import pytest

from service.application import MauMau
from service.domain.mao.commands import Say
from service.domain.roles import Actor
from service.projections.live import LiveGames
from tests.integration.test_mao_application import server_judged
from tests.loops import run_apart


def talk(app: MauMau, game_id: str, ada: str) -> int:
    """Ada's table talk (a penalty): a change of the match; its version after."""
    game, _, _ = app.mao_do(game_id, lambda game, rng: Say(0, "hello"), Actor("player", ada))
    return int(game.version)


def woken_by_a_talk(games: LiveGames, app: MauMau, game_id: str, ada: str) -> None:
    async def watch_and_act() -> None:
        waiter = games.watch(UUID(game_id), asyncio.get_running_loop())
        await waiter.changed(1)  # the note of the match's making, if it comes after the watch
        waiter.clear()
        await asyncio.to_thread(talk, app, game_id, ada)
        assert await waiter.changed(10)
        games.unwatch(waiter)

    run_apart(watch_and_act)


def test_a_mao_act_of_this_process_wakes_the_match_s_readers_without_notes(app, reader):
    game_id, ada = server_judged(app)
    # told of nothing by the store (no notes, no poll within the test): only the save itself tells
    games = LiveGames(app, reader.views, None, poll=60.0)
    try:
        woken_by_a_talk(games, app, game_id, ada)
    finally:
        games.close()


def test_a_mao_act_of_another_process_wakes_the_match_s_readers_by_the_store_s_note(app, reader, settings):
    if not settings.uses_postgres:
        pytest.skip("SQLite sends no notes: another process's act is seen by the poll")
    game_id, ada = server_judged(app)
    follower = MauMau(settings)
    games = LiveGames(follower, reader.views, settings.database_url, poll=60.0)
    try:
        woken_by_a_talk(games, app, game_id, ada)
    finally:
        games.close()
        follower.close()


def test_the_readers_of_a_match_woken_by_one_change_share_one_read(app, reader):
    game_id, ada = server_judged(app)
    games = LiveGames(app, reader.views, None, poll=60.0)
    reads: list[int] = []

    def read() -> int:
        reads.append(1)
        return int(app.get_mao_game(game_id).version)

    async def watch_and_act() -> None:
        loop = asyncio.get_running_loop()
        readers = [games.watch(UUID(game_id), loop) for _ in range(4)]
        for each in readers:
            each.clear()
        opening = {await asyncio.to_thread(games.shared, each, 0, read) for each in readers}
        version = await asyncio.to_thread(talk, app, game_id, ada)
        for each in readers:
            assert await each.changed(10)
            each.clear()
        after = {await asyncio.to_thread(games.shared, each, 0, read) for each in readers}
        assert (len(opening), after, len(reads)) == (1, {version}, 2)  # two reads for eight asks
        for each in readers:
            games.unwatch(each)

    try:
        run_apart(watch_and_act)
    finally:
        games.close()

"""A cached game behind another process's moves catches up from what the live fold here read already."""

import asyncio
import random
from collections.abc import Iterator
from typing import Any

import pytest

from service.application import MauMau
from service.projections.live import RECENT, LiveGames
from service.projections.reader import ReadModels
from service.settings import Settings
from tests.gameplay import next_command
from tests.integration.tables import players


@pytest.fixture
def two_processes(fresh_settings: Settings) -> Iterator[tuple[MauMau, MauMau, LiveGames]]:
    """Another process's application, and this one's with the live games its streams follow."""
    other, here, reader = MauMau(fresh_settings), MauMau(fresh_settings), ReadModels(fresh_settings)
    live = LiveGames(here, reader.views, fresh_settings.database_url)
    yield other, here, live
    live.close()
    reader.close()
    here.close()
    other.close()


def reads_of_the_store(app: MauMau, monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """The game reads ``app``'s commands make from now on (each still reads the real store)."""
    reads: list[Any] = []
    read = app.events.get

    def counted(*args: Any, **kwargs: Any) -> Any:
        reads.append(args)
        return read(*args, **kwargs)

    monkeypatch.setattr(app.events, "get", counted)
    return reads


def move(app: MauMau, game_id: Any, rng: random.Random, version: int, looking: MauMau | None = None) -> Any:
    """A legal move by ``app`` at the client's ``version``, chosen on the game as ``looking`` loads it
    (a load reads the store: a load by the application whose reads are counted would count)."""
    state = (looking or app).get_game(game_id).state
    return app.execute(game_id, next_command(state, rng, challenge_rate=0), expected_version=version)


def test_a_move_on_a_copy_behind_another_process_s_moves_takes_them_from_the_live_fold(
    two_processes, monkeypatch
):
    other, here, live = two_processes
    rng = random.Random(3)

    async def play() -> None:
        loop = asyncio.get_running_loop()
        game_id = other.create_game(players(other, 2), seed="catch-up").game_id
        version = move(here, game_id, rng, other.get_game(game_id).version).version  # cached here
        follower = await asyncio.to_thread(live.follow, game_id, 0, loop)
        for _ in range(6):
            version = move(other, game_id, rng, version).version
            while (view := await follower.next(10)) is not None and view.version < version:
                pass
            assert view is not None and view.version == version  # folded here
            reads = reads_of_the_store(here, monkeypatch)
            version = move(here, game_id, rng, version, looking=other).version
            assert reads == []  # the other process's move came from the live fold
            monkeypatch.undo()
            stored, cached = other.get_game(game_id), here.games.get(game_id)
            assert cached is not None and cached.version == stored.version == version
            assert cached.state.hands == stored.state.hands and cached.state.stock == stored.state.stock
        live.leave(follower)

    asyncio.run(play())


def test_a_copy_the_live_fold_cannot_bring_up_to_the_client_s_version_reads_the_store(
    two_processes, monkeypatch
):
    other, here, live = two_processes
    rng = random.Random(5)
    game_id = other.create_game(players(other, 2), seed="catch-up-gap").game_id
    first = move(here, game_id, rng, other.get_game(game_id).version).version
    version = first
    # not followed here: nothing read, nothing to take
    version = move(other, game_id, rng, version).version
    assert live.recent_events(game_id, first, version) is None
    reads = reads_of_the_store(here, monkeypatch)
    version = move(here, game_id, rng, version, looking=other).version
    assert len(reads) == 1
    monkeypatch.undo()

    async def follow_and_fall_behind() -> None:
        nonlocal version
        loop = asyncio.get_running_loop()
        follower = await asyncio.to_thread(live.follow, game_id, 0, loop)
        cached = version
        # more moves elsewhere than the fold keeps: the copy's next event is no longer among them
        for _ in range(RECENT + 2):
            version = move(other, game_id, rng, version).version
        while (view := await follower.next(10)) is not None and view.version < version:
            pass
        assert view is not None and view.version == version
        assert live.recent_events(game_id, cached, version) is None
        assert [e.originator_version for e in live.recent_events(game_id, version - 3, version)] == [
            version - 2,
            version - 1,
            version,
        ]
        # the fold has not seen a version the client claims: not taken from it either
        assert live.recent_events(game_id, version - 1, version + 1) is None
        reads = reads_of_the_store(here, monkeypatch)
        version = move(here, game_id, rng, version, looking=other).version
        assert len(reads) == 1
        live.leave(follower)

    asyncio.run(follow_and_fall_behind())

"""Games followed live: every command another process stores reaches the followers, each their own seat."""

import asyncio
import json
import random
from collections.abc import Iterator

import pytest

from service.application import MauMau
from service.domain.adjudication import Void
from service.domain.cards import format_cards
from service.domain.game import Game
from service.projections.live import LiveGames
from service.projections.reader import ReadModels
from service.settings import Settings
from tests.gameplay import next_command
from tests.integration.projecting import catch_up
from tests.integration.tables import REFEREE, play_out, players
from tests.loops import run_apart


@pytest.fixture
def live(fresh_settings: Settings) -> Iterator[tuple[MauMau, LiveGames]]:
    """A writer, and the live games of another process (its own application and read models)."""
    writer, follower, reader = MauMau(fresh_settings), MauMau(fresh_settings), ReadModels(fresh_settings)
    games = LiveGames(follower, reader.views, fresh_settings.database_url)
    yield writer, games
    games.close()
    reader.close()
    follower.close()
    writer.close()


def test_every_move_another_process_stores_is_pushed_to_each_seat_that_follows(live):
    writer, games = live
    rng = random.Random(4)

    async def follow_and_play() -> None:
        loop = asyncio.get_running_loop()
        game_ids = [writer.create_game(players(writer, 3), seed=f"live-{n}").game_id for n in range(3)]
        followers = {
            game_id: [await asyncio.to_thread(games.follow, game_id, seat, loop) for seat in range(3)]
            for game_id in game_ids
        }
        for _ in range(24):
            game_id = rng.choice(game_ids)
            state = writer.get_game(game_id).state
            outcome = await asyncio.to_thread(writer.execute, game_id, next_command(state, rng))
            for subscription in followers[game_id]:
                view = await subscription.next(10)
                while view is not None and view.version < outcome.version:
                    view = await subscription.next(10)
                assert view is not None and view.version == outcome.version
                seen = json.loads(view.data)
                assert seen["seat"] == subscription.seat
                hand = writer.get_game(game_id).state.hands[subscription.seat]
                assert sorted(seen["cards"]) == sorted(format_cards(hand))
        for subscriptions in followers.values():
            for subscription in subscriptions:
                games.leave(subscription)
        assert games._followed == {} and games._keys == {}

    run_apart(follow_and_play)


def test_what_a_new_stream_s_fold_brings_in_reaches_the_streams_already_open(fresh_settings):
    # told of nothing (no notes, no poll within the test): only the new stream's own fold finds the move
    writer, follower, reader = MauMau(fresh_settings), MauMau(fresh_settings), ReadModels(fresh_settings)
    games = LiveGames(follower, reader.views, None, poll=60.0)

    async def follow_move_follow() -> None:
        loop = asyncio.get_running_loop()
        game_id = writer.create_game(players(writer, 2), seed="live-late").game_id
        first = await asyncio.to_thread(games.follow, game_id, 0, loop)
        assert (await first.next(10)).version == writer.get_game(game_id).version
        state = writer.get_game(game_id).state
        outcome = await asyncio.to_thread(writer.execute, game_id, next_command(state, random.Random(1)))
        await asyncio.to_thread(games.follow, game_id, 1, loop)
        view = await first.next(10)
        assert view is not None and view.version == outcome.version

    try:
        run_apart(follow_move_follow)
    finally:
        games.close()
        reader.close()
        follower.close()
        writer.close()


def test_a_followed_game_that_cannot_be_folded_ends_its_streams(live):
    writer, games = live

    async def follow_break_move() -> None:
        loop = asyncio.get_running_loop()
        game_id = writer.create_game(players(writer, 2), seed="live-broken").game_id
        subscription = await asyncio.to_thread(games.follow, game_id, 0, loop)
        assert (await subscription.next(10)).data
        games._followed[game_id].tracked.game._version = -5  # the next events do not follow on
        state = writer.get_game(game_id).state
        await asyncio.to_thread(writer.execute, game_id, next_command(state, random.Random(2)))
        ended = await subscription.next(10)
        assert ended is not None and ended.data == b"" and ended.over
        assert game_id not in games._followed and str(game_id) not in games._keys
        # a new stream follows the game afresh before the ended one lets go: its leaving must not
        # touch the new fold
        again = await asyncio.to_thread(games.follow, game_id, 1, loop)
        assert (await again.next(10)).data
        games.leave(subscription)
        state = writer.get_game(game_id).state
        await asyncio.to_thread(writer.execute, game_id, next_command(state, random.Random(3)))
        moved = await again.next(10)
        assert moved is not None and moved.version == writer.get_game(game_id).version
        games.leave(again)
        assert games._followed == {} and games._keys == {}

    run_apart(follow_break_move)


def test_a_reader_watching_a_game_is_woken_when_another_process_stores_a_move(live):
    writer, games = live

    async def watch_and_move() -> None:
        game_id = writer.create_game(players(writer, 2), seed="live-watch").game_id
        waiter = games.watch(game_id, asyncio.get_running_loop())
        waiter.clear()
        state = writer.get_game(game_id).state
        await asyncio.to_thread(writer.execute, game_id, next_command(state, random.Random(3)))
        assert await waiter.changed(10)
        games.unwatch(waiter)
        assert games._waiters == {} and games._keys == {}

    run_apart(watch_and_move)


def test_the_readers_of_a_game_woken_by_one_note_share_one_read_of_its_new_events(live):
    writer, games = live

    async def watch_and_move() -> None:
        loop = asyncio.get_running_loop()
        game_id = writer.create_game(players(writer, 2), seed="live-shared").game_id
        readers = [games.watch(game_id, loop) for _ in range(5)]
        await readers[0].changed(1)  # the note of the game's creation, if it comes after the watch
        for reader in readers:
            reader.clear()
        opening = [await asyncio.to_thread(games.events_after, reader, 0, 500) for reader in readers]
        assert all(found is opening[0] for found in opening)  # one read, five readers
        seen = opening[0][-1].originator_version
        state = writer.get_game(game_id).state
        outcome = await asyncio.to_thread(writer.execute, game_id, next_command(state, random.Random(5)))
        for reader in readers:
            assert await reader.changed(10)
            reader.clear()
        new = [await asyncio.to_thread(games.events_after, reader, seen, 500) for reader in readers]
        assert all(found is new[0] for found in new)
        assert [event.originator_version for event in new[0]] == list(range(seen + 1, outcome.version + 1))
        for reader in readers:
            games.unwatch(reader)

    run_apart(watch_and_move)


def test_a_reader_woken_after_a_shared_read_began_reads_again_and_misses_nothing(live):
    writer, games = live

    async def watch_and_move() -> None:
        loop = asyncio.get_running_loop()
        game_id = writer.create_game(players(writer, 2), seed="live-later").game_id
        early, late = games.watch(game_id, loop), games.watch(game_id, loop)
        # the note of the game's creation may come before the watch or after it: once it has come (or
        # a second has passed without it), it cannot wake the late reader in the move's stead
        await late.changed(1)
        early.clear()
        late.clear()
        opening = await asyncio.to_thread(games.events_after, early, 0, 500)
        state = writer.get_game(game_id).state
        outcome = await asyncio.to_thread(writer.execute, game_id, next_command(state, random.Random(6)))
        assert await late.changed(10)  # the note of the move has come
        late.clear()
        found = await asyncio.to_thread(games.events_after, late, 0, 500)
        assert found is not opening
        assert found[-1].originator_version == outcome.version
        games.unwatch(early)
        games.unwatch(late)

    run_apart(watch_and_move)


def test_a_stream_of_a_finished_game_restored_from_the_runner_s_row_follows_a_void_back_into_the_match(
    live, fresh_settings
):
    writer, games = live
    game_id = writer.create_game(players(writer, 2), seed="live-void").game_id
    play_out(writer, game_id, seed=5)
    raised = writer.raise_dispute(game_id, by=REFEREE).version
    catch_up(fresh_settings)  # the runner's row of the game holds the finished match and the dispute
    ended = next(
        event.originator_version
        for event in writer.game_events(game_id)
        if isinstance(event, Game.MatchEnded)  # type: ignore[attr-defined]
    )

    async def follow_and_rule() -> None:
        subscription = await asyncio.to_thread(games.follow, game_id, 0, asyncio.get_running_loop())
        first = await subscription.next(10)
        assert first is not None and first.version == raised and first.over
        outcome = await asyncio.to_thread(writer.give_ruling, game_id, Void(ended), by=REFEREE)
        view = await subscription.next(10)
        while view is not None and view.version < outcome.version:
            view = await subscription.next(10)
        assert view is not None and view.version == outcome.version and not view.over
        seen = json.loads(view.data)
        assert not seen["table"]["paused"] and not seen["table"]["over"]
        hand = writer.get_game(game_id).state.hands[0]
        assert sorted(seen["cards"]) == sorted(format_cards(hand))
        games.leave(subscription)

    run_apart(follow_and_rule)


def test_a_move_whose_note_carries_its_events_is_pushed_without_reading_the_store(live):
    writer, games = live
    reads: list[dict] = []
    read = games.new_events.after

    def counted(versions: dict) -> dict:
        reads.append(versions)
        return read(versions)

    async def follow_and_move() -> None:
        loop = asyncio.get_running_loop()
        game_id = writer.create_game(players(writer, 2), seed="live-carried").game_id
        subscription = await asyncio.to_thread(games.follow, game_id, 0, loop)
        assert (await subscription.next(10)).data
        games.new_events.after = counted
        for turn in range(4):
            state = writer.get_game(game_id).state
            outcome = await asyncio.to_thread(
                writer.execute, game_id, next_command(state, random.Random(turn))
            )
            view = await subscription.next(10)
            while view is not None and view.version < outcome.version:
                view = await subscription.next(10)
            assert view is not None and view.version == outcome.version
            hand = writer.get_game(game_id).state.hands[0]
            assert sorted(json.loads(view.data)["cards"]) == sorted(format_cards(hand))
        if writer.settings.uses_postgres:  # the notes carried every move's events
            assert reads == []
        else:  # SQLite sends no notes: a save is told by its game's id, and the fold reads it
            assert len(reads) >= 4
        games.leave(subscription)

    run_apart(follow_and_move)


def test_events_that_do_not_follow_on_from_the_fold_are_read_from_the_store_instead(fresh_settings):
    # told of nothing (no notes, no poll within the test): the fold is given events with one missing
    writer, follower, reader = MauMau(fresh_settings), MauMau(fresh_settings), ReadModels(fresh_settings)
    games = LiveGames(follower, reader.views, None, poll=60.0)

    async def follow_and_skip() -> None:
        loop = asyncio.get_running_loop()
        game_id = writer.create_game(players(writer, 2), seed="live-gap").game_id
        subscription = await asyncio.to_thread(games.follow, game_id, 0, loop)
        assert (await subscription.next(10)).data
        followed = games._followed[game_id]
        was = followed.tracked.game.version
        for turn in range(2):
            state = writer.get_game(game_id).state
            await asyncio.to_thread(writer.execute, game_id, next_command(state, random.Random(turn)))
        newer = games.new_events.after({game_id: was})[game_id]
        first_move = [event.originator_version for event, _ in newer].index(was + 1)
        gap = newer[first_move + 1 :]
        with followed.lock:
            assert games._fold_in(game_id, followed, gap)
        assert followed.tracked.game.version == writer.get_game(game_id).version
        assert followed.position == newer[-1][1]
        games.leave(subscription)

    try:
        run_apart(follow_and_skip)
    finally:
        games.close()
        reader.close()
        follower.close()
        writer.close()

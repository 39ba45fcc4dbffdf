"""Two processes' game caches: each brings its copy up to date with the other's moves, and
nothing decided on a copy that is behind the store, or kept after a failed save, is final."""

import random

import psycopg
import pytest
from eventsourcing.persistence import OperationalError

from service.application import MauMau
from service.domain.adjudication import Void
from service.domain.errors import RuleError
from service.persistence.group_commit import GroupCommitRecorder
from service.settings import Settings
from tests.gameplay import next_command
from tests.integration.tables import REFEREE


def test_two_processes_taking_turns_on_a_game_bring_their_cached_copies_up_to_date(settings):
    first, second = MauMau(settings), MauMau(settings)
    try:
        game_id = first.create_game(["bot:random"] * 4, seed=5, options={"target_score": 1000}).game_id
        second.get_game(game_id)  # nothing cached yet: its first move loads the game
        rng = random.Random(5)
        version, cached = first.get_game(game_id).version, {}
        for move in range(40):
            app = (first, second)[move % 2]
            state = app.get_game(game_id).state  # a fresh load, as a client reads the table
            outcome = app.execute(game_id, next_command(state, rng), expected_version=version)
            assert outcome.version > version
            version = outcome.version
            copy = app.games.get(game_id)
            assert copy is not None and copy.version == version
            if move >= 2:  # the same object, brought up to date, not loaded again
                assert copy is cached[move % 2]
            cached[move % 2] = copy
        for app in (first, second):
            loaded = app.get_game(game_id)
            assert loaded.version == version
        assert second.games.get(game_id).state == first.get_game(game_id).state
    finally:
        first.close()
        second.close()


def test_a_version_the_store_has_not_got_is_refused_as_stale_after_the_cache_catches_up(settings):
    first = MauMau(settings)
    try:
        game_id = first.create_game(["bot:random"] * 4, seed=6, options={"target_score": 1000}).game_id
        state = first.get_game(game_id).state
        version = first.execute(game_id, next_command(state, random.Random(6))).version
        with pytest.raises(RuleError) as refused:
            first.execute(
                game_id,
                next_command(first.get_game(game_id).state, random.Random(6)),
                expected_version=version + 5,
            )
        assert refused.value.code == "stale_version"
        assert first.get_game(game_id).version == version  # nothing stored
    finally:
        first.close()


def test_a_game_loaded_for_a_command_that_is_refused_is_kept_for_the_next(settings):
    first, second = MauMau(settings), MauMau(settings)
    try:
        game_id = first.create_game(["bot:random"] * 2, seed=6).game_id
        version = first.get_game(game_id).version
        assert second.games.get(game_id) is None
        state = first.get_game(game_id).state
        with pytest.raises(RuleError) as refused:
            second.execute(game_id, next_command(state, random.Random(6)), expected_version=version - 1)
        assert refused.value.code == "stale_version"
        kept = second.games.get(game_id)
        assert kept is not None and kept.version == version  # as stored: the refusal changed nothing
        outcome = second.execute(game_id, next_command(state, random.Random(6)), expected_version=version)
        assert second.games.get(game_id) is kept and outcome.version > version
    finally:
        first.close()
        second.close()


def _moved_elsewhere(first, second, moves: int, seed: int, stop=None):
    """A game ``second`` has cached, then moved ``moves`` times (or until ``stop(state)``) by ``first``."""
    game_id = first.create_game(["bot:random"] * 3, seed=seed, options={"target_score": 1000}).game_id
    rng = random.Random(seed)
    game = second.get_game(game_id)
    second.execute(game_id, next_command(game.state, rng, challenge_rate=0), expected_version=game.version)
    cached = second.games.get(game_id)
    assert cached is not None
    for _ in range(moves):
        game = first.get_game(game_id)
        if stop is not None and stop(game.state):
            break
        first.execute(game_id, next_command(game.state, rng, challenge_rate=0), expected_version=game.version)
    assert first.get_game(game_id).version > cached.version  # the cached copy is behind the store
    return game_id


def test_a_dispute_about_the_newest_event_is_judged_on_the_game_as_stored(settings):
    first, second = MauMau(settings), MauMau(settings)
    try:
        game_id = _moved_elsewhere(first, second, 6, seed=11)
        newest = first.get_game(game_id).version
        outcome = second.raise_dispute(game_id, about=newest, by=REFEREE)
        (raised,) = outcome.events
        assert raised.dispute.about == newest and outcome.version == newest + 1
        assert first.get_game(game_id).paused
    finally:
        first.close()
        second.close()


def test_a_challenge_inside_the_window_is_judged_on_the_game_as_stored(settings):
    first, second = MauMau(settings), MauMau(settings)
    try:
        game_id = _moved_elsewhere(first, second, 400, seed=12, stop=lambda s: s.missed is not None)
        state = first.get_game(game_id).state
        assert state.missed is not None, "no call was missed in 400 moves"
        offender = state.missed[0]
        challenger = (offender + 1) % state.seats
        outcome = second.challenge(game_id, challenger)
        assert type(outcome.events[0]).__name__ == "MissedCallChallenged"
        assert first.get_game(game_id).state.missed is None
    finally:
        first.close()
        second.close()


def test_a_ruling_is_judged_against_the_events_as_stored(settings):
    first, second = MauMau(settings), MauMau(settings)
    try:
        game_id = _moved_elsewhere(first, second, 6, seed=13)
        first.raise_dispute(game_id, by=REFEREE)
        voided = first.get_game(game_id).version - 1  # the last move, stored after ``second`` cached the game
        state_before = first.state_at(game_id, voided - 1)
        second.give_ruling(game_id, Void(voided), by=REFEREE)
        game = first.get_game(game_id)
        assert not game.paused and game.state == state_before
    finally:
        first.close()
        second.close()


def test_a_refusal_on_a_cached_copy_that_the_store_confirms_costs_nothing_more(settings):
    first = MauMau(settings)
    try:
        game_id = first.create_game(["bot:random"] * 3, seed=14).game_id
        first.execute(game_id, next_command(first.get_game(game_id).state, random.Random(14)))
        cached = first.games.get(game_id)
        with pytest.raises(RuleError) as refused:
            first.raise_dispute(game_id, about=cached.version + 1, by=REFEREE)
        assert refused.value.code == "no_such_event"
        assert first.games.get(game_id) is cached and not cached.pending_events
    finally:
        first.close()


def test_a_key_sent_again_with_another_version_is_refused_as_reused(settings):
    app = MauMau(settings)
    try:
        game_id = app.create_game(["bot:random"] * 3, seed=15).game_id
        game = app.get_game(game_id)
        command = next_command(game.state, random.Random(15), challenge_rate=0)
        first = app.execute(game_id, command, expected_version=game.version, key="k1")
        assert app.execute(game_id, command, expected_version=game.version, key="k1") == first
        for version in (game.version + 1, game.version - 1, None):
            with pytest.raises(RuleError) as refused:
                app.execute(game_id, command, expected_version=version, key="k1")
            assert refused.value.code == "idempotency_key_reused", version
        assert app.get_game(game_id).version == first.version  # nothing stored
    finally:
        app.close()


def test_a_save_the_database_failed_leaves_the_cache_as_the_store_is(database_url, postgres_schema):
    """The store's connection breaks under a move: the copy that recorded it must not be kept, or
    every later move would be refused as stale, and a retry with the key answered from events
    the store never got."""
    settings = Settings(database_url=database_url, database_schema=postgres_schema, pool_size=2)
    app = MauMau(settings)
    try:
        recorder = app.recorder
        assert isinstance(recorder, GroupCommitRecorder)
        game_id = app.create_game(["bot:random"] * 3, seed=16).game_id
        (held,) = recorder._held  # the connection the next batch is sent on
        with psycopg.connect(database_url, autocommit=True) as admin:
            admin.execute("select pg_terminate_backend(%s)", (held.connection.info.backend_pid,))
        game = app.get_game(game_id)
        command = next_command(game.state, random.Random(16), challenge_rate=0)
        with pytest.raises(OperationalError):
            app.execute(game_id, command, expected_version=game.version, key="k")
        assert app.get_game(game_id).version == game.version  # the store has nothing of it
        cached = app.games.get(game_id)
        assert cached is None or cached.version == game.version
        outcome = app.execute(game_id, command, expected_version=game.version, key="k")  # the retry
        assert outcome.version > game.version and outcome.events[0].originator_version == game.version + 1
        assert app.get_game(game_id).version == outcome.version
    finally:
        app.close()


def test_a_move_at_the_cached_version_reads_nothing_from_the_store(settings):
    """The hot path stays one write: refusals may be checked against the store, moves are not."""
    app = MauMau(settings)
    try:
        game_id = app.create_game(["bot:random"] * 3, seed=17).game_id
        rng = random.Random(17)
        game = app.get_game(game_id)
        app.execute(game_id, next_command(game.state, rng, challenge_rate=0), expected_version=game.version)
        reads = []
        select_events = app.recorder.select_events

        def counted(*args, **kwargs):
            reads.append(args)
            return select_events(*args, **kwargs)

        app.recorder.select_events = counted  # a spy on the real recorder: every read still goes to it
        for _ in range(10):
            cached = app.games.get(game_id)
            command = next_command(cached.state, rng, challenge_rate=0)
            app.execute(game_id, command, expected_version=cached.version, key=f"k{cached.version}")
        assert reads == []
    finally:
        app.close()

"""Two processes' game caches: each brings its copy up to date with the other's moves."""

import random

import pytest

from service.application import MauMau
from service.domain.errors import RuleError
from tests.gameplay import next_command


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

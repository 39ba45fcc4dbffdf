"""Many threads racing commands on one game: one winner per version, nothing lost or doubled."""

import random
import threading
import time
from collections import Counter

from service.domain.engine import fold
from service.domain.errors import RuleError
from service.domain.game import Game
from tests.gameplay import next_command

THREADS = 8


def run_threads(target, count: int = THREADS) -> None:
    errors: list[BaseException] = []

    def guarded(index: int) -> None:
        try:
            target(index)
        except BaseException as error:  # reported below, in the test's thread
            errors.append(error)

    threads = [threading.Thread(target=guarded, args=(i,), daemon=True) for i in range(count)]
    for thread in threads:
        thread.start()
    give_up = time.monotonic() + 120  # a hang fails the test instead of holding up the run
    for thread in threads:
        thread.join(timeout=max(0.1, give_up - time.monotonic()))
    assert not any(thread.is_alive() for thread in threads), "threads stuck"
    assert not errors, errors


def test_threads_racing_on_the_same_version_let_exactly_one_win_each_round(app):
    game_id = app.create_game(["bot:random"] * 4, seed=3, options={"target_score": 1000}).game_id
    rounds = 12
    start = threading.Barrier(THREADS)
    winners: list[list[int]] = [[] for _ in range(rounds)]
    losers = Counter()

    def racer(index: int) -> None:
        rng = random.Random(index)
        for race in range(rounds):
            start.wait()  # everyone loads the same version ...
            game = app.get_game(game_id)
            command = next_command(game.state, rng, challenge_rate=0)
            start.wait()  # ... and sends at once
            try:
                outcome = app.execute(game_id, command, expected_version=game.version)
            except RuleError as error:
                assert error.code == "stale_version", error
                losers[race] += 1
            else:
                winners[race].append(outcome.events[0].originator_version)

    run_threads(racer)
    for race in range(rounds):
        assert len(winners[race]) == 1, winners[race]
        assert losers[race] == THREADS - 1
    stored = app.game_events(game_id)
    assert [event.originator_version for event in stored] == list(range(1, len(stored) + 1))


def test_threads_playing_as_fast_as_they_can_lose_nothing_and_double_nothing(app):
    game_id = app.create_game(["bot:random"] * 4, seed=4, options={"target_score": 1000}).game_id
    won: dict[int, list] = {}
    lock = threading.Lock()
    stale = Counter()

    def player(index: int) -> None:
        rng = random.Random(100 + index)
        for _ in range(25):
            game = app.get_game(game_id)
            if game.over:
                return
            command = next_command(game.state, rng)
            try:
                outcome = app.execute(game_id, command, expected_version=game.version)
            except RuleError as error:
                assert error.code == "stale_version", error
                stale[index] += 1
                continue
            with lock:
                for event in outcome.events:
                    assert event.originator_version not in won
                    won[event.originator_version] = event

    run_threads(player)
    stored = app.game_events(game_id)
    numbers = [event.originator_version for event in stored]
    assert numbers == list(range(1, len(stored) + 1))  # no gap, no duplicate
    # every stored event after the creation batch came from exactly one winning command
    assert {n: e for n, e in won.items()} == {e.originator_version: e for e in stored[3:]}
    assert app.get_game(game_id).state == fold(e.fact for e in stored if isinstance(e, Game.Fact))
    assert len(won) > 25


def test_the_same_keyed_command_sent_at_once_by_many_threads_is_stored_once(app):
    game_id = app.create_game(["bot:random"] * 3, seed=5).game_id
    game = app.get_game(game_id)
    command = next_command(game.state, random.Random(0), challenge_rate=0)
    start = threading.Barrier(THREADS)
    outcomes = []

    def sender(index: int) -> None:
        start.wait()
        outcomes.append(app.execute(game_id, command, key="only-once", expected_version=game.version))

    run_threads(sender)
    assert len(outcomes) == THREADS
    assert all(outcome == outcomes[0] for outcome in outcomes)
    stored = app.game_events(game_id)
    assert stored[3:] == list(outcomes[0].events)

"""Projection speed on PostgreSQL: a rebuild beside the raw read of the log, and the lag under load.

Rebuild: 200,000 stored events (league games of 2-4 players, many at a time,
so games interleave in the log as they do in play) are folded into every
read model from scratch (``maumau projections rebuild``'s code: drop, fold,
write in batches). Beside it, in the same run and interleaved slice by
slice, the raw read: the same events read from the notification log the way
any subscriber gets them, pages of ``select_notifications`` decoded into
domain events by the application's mapper. (The select alone, without
decoding, is printed too.)

Lag: while ``bench/store.py``'s load runs (writer threads, each moving its
own game through the application), a probe plays one-move league matches
(one round, one card each) and times each from the start of its finishing
move to the standings showing the match, read through ``ReadModels``. The
projection runner is its own process (``python -m service.projections.cli
run``), as in the distributed mode.

    ./run bench projections [--events 200000] [--slices 5] [--seconds 20] [--writers 8] [--url ...]
                            [--busy 0]

The URL defaults to MAUMAU_DATABASE_URL, else the local test database. The
bench works in a schema of its own and drops it at the end. ``--busy N`` keeps N
cores busy with other processes all through (``bench/load``): the targets on a
loaded machine, as issue 34 states them (``--busy 1`` on two cores).
"""

import argparse
import os
import random
import statistics
import subprocess
import sys
import threading
import time
import uuid
from pathlib import Path

import psycopg
from psycopg import sql

from service.application import MauMau
from service.domain.bots import RandomBot
from service.domain.cards import parse_card
from service.domain.game import Game
from service.domain.history import Cause
from service.domain.legal import call_due
from service.domain.roles import SYSTEM, Actor
from service.domain.rulebook import rulebook
from service.domain.seats import Seat
from service.domain.state import NAMING_SUIT
from service.projections.reader import ReadModels
from service.projections.runner import rebuild
from service.settings import Settings

# bench/store.py's writer (one game moved by random bots, following it from its outcomes); ./run runs
# benchmarks with -P, so bench/ is not on the path: it goes last, after the standard library
sys.path.append(str(Path(__file__).resolve().parent))
from load import busy, stop_on_sigterm
from store import Player

LOCAL_URL = "postgresql://postgres@127.0.0.1:5432/test"
ROOT = Path(__file__).resolve().parents[1]
ADMIN = Actor("admin", "bench")
PAGE = 1000  # as the runner reads
REBUILD_GOAL = 0.8  # of the raw read's events/s (issue 34; 0.5 before)


# ---------------------------------------------------------------------------
# the stored events


def fill(app: MauMau, events: int, seed: int = 1) -> float:
    """League games, many in play at once, until the log holds ``events``; the seconds it took."""
    started = time.perf_counter()
    rng = random.Random(seed)
    players = [app.register_player(f"Player {n}") for n in range(120)]
    leagues = []
    for index, (name, options) in enumerate(
        [
            ("club", {}),
            ("club", {"target_score": 50}),
            ("mau-mau-150", {}),
            ("mau-mau-150", {"target_score": 80}),
        ]
    ):
        league = app.found_league(f"League {index}", name, options)
        members = players[index * 30 : (index + 1) * 30]
        for player in members:
            app.admit_member(league, player)
        leagues.append((league, app.get_league(league).rules, members))
    cause = Cause(SYSTEM, "Bench")

    def new_game() -> Game:
        league, rules, members = rng.choice(leagues)
        seats = tuple(Seat("player", str(p)) for p in rng.sample(members, rng.randint(2, 4)))
        return Game.create(ruleset=rules, seats=seats, seed=str(rng.random()), cause=cause, league_id=league)

    bot = RandomBot(rng, forgetfulness=0.2)
    games = [new_game() for _ in range(150)]
    while (app.recorder.max_notification_id() or 0) < events:
        for index, game in enumerate(games):
            if game.over:
                games[index] = game = new_game()
            s = game.state
            game.execute(bot.choose(s, s.dealer if s.phase == NAMING_SUIT else s.turn), cause)
        app.save(*games)  # every game's new events, interleaved in one transaction
    return time.perf_counter() - started


def raw_read(app: MauMau, decode: bool) -> tuple[int, float]:
    started = time.perf_counter()
    after, count = 0, 0
    to_event = app.mapper.to_domain_event
    while True:
        page = app.recorder.select_notifications(after, PAGE, inclusive_of_start=False)
        if not page:
            return count, time.perf_counter() - started
        if decode:
            for notification in page:
                to_event(notification)
        count += len(page)
        after = page[-1].id


def timed_rebuild(settings: Settings) -> tuple[int, float]:
    started = time.perf_counter()
    position = rebuild(settings)
    return position, time.perf_counter() - started


# ---------------------------------------------------------------------------
# the lag


def runner_process(settings: Settings) -> subprocess.Popen:
    env = {
        **os.environ,
        "MAUMAU_DATABASE_URL": settings.database_url or "",
        "MAUMAU_DATABASE_SCHEMA": settings.database_schema,
    }
    return subprocess.Popen([sys.executable, "-m", "service.projections.cli", "run"], cwd=ROOT, env=env)


def probe(app: MauMau, reader: ReadModels, league: uuid.UUID, seats: list[uuid.UUID], played: int) -> float:
    """One one-move match in ``league``; seconds from its finishing move to the standings showing it."""
    rules = app.get_league(league).rules
    named = [parse_card("5H"), parse_card("KS"), parse_card("5C")]  # seat 1's card, seat 0's, the starter
    deck = named + [card for card in rulebook(rules).sorted_deck if card not in named]
    created = app.create_game(seats, league_id=league, deck=deck, first_dealer=0, by=ADMIN)
    state = app.get_game(created.game_id).state
    started = time.perf_counter()
    app.play(
        created.game_id, 1, "5H", call=call_due(state, 1, parse_card("5H")), expected_version=created.version
    )
    while True:
        standings = reader.standings(league)
        if standings is not None and sum(row.matches_played for row in standings.rows) >= 2 * played:
            return time.perf_counter() - started
        time.sleep(0.002)


def lag_under_load(settings: Settings, writers: int, seconds: float) -> tuple[list[float], int, float]:
    """Lags of the probe matches, and the moves the load made in how many seconds."""
    app = MauMau(settings)
    reader = ReadModels(settings)
    ann, bob = app.register_player("Probe Ann"), app.register_player("Probe Bob")
    league = app.found_league("Probe", "club", {"single_round": True, "hand_size": 1})
    app.admit_member(league, ann)
    app.admit_member(league, bob)
    runner = runner_process(settings)
    try:
        reader.wait_for(app.recorder.max_notification_id() or 0, timeout=300)
        stop = threading.Event()
        moves = [0] * writers

        def load(index: int) -> None:
            player = Player(app, seed=1000 + index)
            while not stop.is_set():
                player.move()
                moves[index] += 1

        threads = [threading.Thread(target=load, args=(i,)) for i in range(writers)]
        for thread in threads:
            thread.start()
        lags = []
        started = time.perf_counter()
        time.sleep(1.0)  # the load settles first
        while not lags or time.perf_counter() - started < seconds:  # one probe at least, however short
            lags.append(probe(app, reader, league, [ann, bob], len(lags) + 1))
            time.sleep(0.05)
        stop.set()
        for thread in threads:
            thread.join()
        return lags, sum(moves), time.perf_counter() - started
    finally:
        runner.terminate()
        runner.wait(timeout=60)
        reader.close()
        app.close()


# ---------------------------------------------------------------------------


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p * len(ordered)))]


def main() -> None:
    stop_on_sigterm()
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--url", default=os.environ.get("MAUMAU_DATABASE_URL") or LOCAL_URL)
    parser.add_argument("--events", type=int, default=200_000)
    parser.add_argument("--slices", type=int, default=5, help="rounds of raw read and rebuild, interleaved")
    parser.add_argument("--seconds", type=float, default=20.0, help="of load while the lag is probed")
    parser.add_argument("--writers", type=int, default=8)
    parser.add_argument(
        "--busy", type=int, default=0, help="cores kept busy by other processes all through the run"
    )
    args = parser.parse_args()
    if args.busy < 0:
        parser.error(f"--busy is a number of cores, 0 or more: not {args.busy}")
    with busy(args.busy):
        measure(args)


def measure(args: argparse.Namespace) -> None:

    schemas = [f"bench_{uuid.uuid4().hex[:8]}" for _ in range(2)]
    with psycopg.connect(args.url, autocommit=True) as conn:
        for schema in schemas:
            conn.execute(sql.SQL("create schema {}").format(sql.Identifier(schema)))
        server = conn.info.server_version
    print(
        f"PostgreSQL {server // 10000}.{server % 10000}, {os.cpu_count()} CPUs"
        + (f"; {args.busy} core(s) kept busy by other processes all through" if args.busy else "")
    )
    try:
        settings = Settings(database_url=args.url, database_schema=schemas[0], pool_size=10)
        app = MauMau(settings)
        took = fill(app, args.events)
        events = app.recorder.max_notification_id() or 0
        print(f"stored {events} events in {took:.1f} s; {args.slices} interleaved slices, ratios are medians")
        print()
        print(f"{'':<34} {'events/s':>9} {'of raw':>7}")
        selects, raws, rebuilds, ratios, select_ratios = [], [], [], [], []
        for _ in range(args.slices):
            count, seconds = raw_read(app, decode=False)
            selects.append(count / seconds)
            count, seconds = raw_read(app, decode=True)
            raws.append(count / seconds)
            position, seconds = timed_rebuild(settings)
            assert position == events, (position, events)
            rebuilds.append(events / seconds)
            ratios.append(rebuilds[-1] / raws[-1])
            select_ratios.append(rebuilds[-1] / selects[-1])
        app.close()
        ratio = statistics.median(ratios)
        print(f"{'raw read (select + decode)':<34} {statistics.median(raws):>9.0f} {'100%':>7}")
        print(f"{'raw select only (not decoded)':<34} {statistics.median(selects):>9.0f}")
        print(f"{'rebuild, every read model':<34} {statistics.median(rebuilds):>9.0f} {ratio:>7.0%}")
        spread = f"{min(ratios):.0%}-{max(ratios):.0%}"
        of_select = statistics.median(select_ratios)
        print(f"  (per slice: {spread} of raw; rebuild / select only: {of_select:.0%})")
        print()

        load_settings = Settings(
            database_url=args.url, database_schema=schemas[1], pool_size=args.writers + 2
        )
        lags, moves, seconds = lag_under_load(load_settings, args.writers, args.seconds)
        p50, p99 = percentile(lags, 0.5) * 1000, percentile(lags, 0.99) * 1000
        load = f"{args.writers} writers, {moves / seconds:.0f} moves/s"
        print(
            f"lag, finishing move to standings, under {load}: {len(lags)} probes, "
            f"p50 {p50:.1f} ms, p99 {p99:.1f} ms, worst {max(lags) * 1000:.1f} ms"
        )
        print()
        verdict = "met" if ratio >= REBUILD_GOAL else "missed"
        print(f"target rebuild_vs_raw_read measured={ratio:.2f} goal=>={REBUILD_GOAL} {verdict}")
        print(f"target lag_p99_ms measured={p99:.1f} goal=<=500 {'met' if p99 <= 500 else 'missed'}")
    finally:
        with psycopg.connect(args.url, autocommit=True) as conn:
            for schema in schemas:
                conn.execute(sql.SQL("drop schema if exists {} cascade").format(sql.Identifier(schema)))


if __name__ == "__main__":
    main()

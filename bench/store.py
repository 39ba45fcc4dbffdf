"""Store speed on PostgreSQL: moves per second through the application, beside raw INSERTs.

Each move is a real command through the application: the game is loaded (from
the process's game cache, or the store), the engine decides, the events are
saved. Writers are threads of one process, each playing its own game (four
random bots), following the game from its commands' outcomes the way a client
would. The raw baseline runs in the same process and the same run: psycopg,
one single-row INSERT per transaction into a table shaped like the events
table, one connection per writer.

Three stores are measured:

- ``group``: the group-commit recorder (the default on PostgreSQL);
- ``stock``: eventsourcing's own recorder, one save per transaction (``MAUMAU_GROUP_COMMIT=no``; since
  2026-12-04 under the log's advisory lock, ``service.persistence.log_lock``);
- ``stock, no cache``: the stock recorder, and every move loads its game.

Then the time to rebuild a 500-event game (from the store, through
snapshots) at its last event, at event 250 and at the worst event number.

    ./run bench store [--seconds 2] [--slices 5] [--writers 1,8] [--url postgresql://...]

Raw and each store run in interleaved slices, so machine noise hits them
alike; the share of raw is the median of the per-slice ratios.

The URL defaults to MAUMAU_DATABASE_URL, else the local test database. The
bench works in a schema of its own and drops it at the end.
"""

import argparse
import os
import random
import statistics
import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field

import msgspec
import psycopg
from psycopg import sql

from service.application import MauMau
from service.domain.bots import RandomBot
from service.domain.commands import Challenge, Command
from service.domain.game import Game
from service.domain.image import restore
from service.domain.state import DRAWN, NAMING_SUIT, OVER, PLAY, State
from service.settings import Settings

LOCAL_URL = "postgresql://postgres@127.0.0.1:5432/test"
OPTIONS = {"target_score": 1000}  # the longest match a club may set (a game that ends is replaced)


@dataclass
class Run:
    moves: int = 0
    seconds: float = 0.0
    latencies: list[float] = field(default_factory=list)
    stale: int = 0

    @property
    def rate(self) -> float:
        return self.moves / self.seconds

    def percentile(self, p: float) -> float:
        ordered = sorted(self.latencies)
        return ordered[min(len(ordered) - 1, int(p * len(ordered)))] * 1000 if ordered else 0.0


def in_threads(writers: int, seconds: float, work: Callable[[int, float, Run], None]) -> Run:
    total = Run()
    runs = [Run() for _ in range(writers)]
    ready = threading.Barrier(writers + 1)

    def guarded(index: int) -> None:
        ready.wait()
        work(index, deadline[0], runs[index])

    deadline = [0.0]
    threads = [threading.Thread(target=guarded, args=(i,)) for i in range(writers)]
    for thread in threads:
        thread.start()
    started = time.perf_counter()
    deadline[0] = started + seconds
    ready.wait()
    for thread in threads:
        thread.join()
    total.seconds = time.perf_counter() - started
    for run in runs:
        total.moves += run.moves
        total.latencies += run.latencies
        total.stale += run.stale
    return total


# ---------------------------------------------------------------------------
# the raw baseline


def raw_table(url: str, schema: str) -> sql.Composed:
    table = sql.SQL("{}.raw_events").format(sql.Identifier(schema))
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(
            sql.SQL(
                "create table if not exists {} (originator_id uuid not null,"
                " originator_version bigint not null, topic text, state bytea, notification_id bigserial,"
                " primary key (originator_id, originator_version))"
            ).format(table)
        )
    return table


def raw(url: str, table: sql.Composed, writers: int, seconds: float) -> Run:
    insert = sql.SQL(
        "insert into {} (originator_id, originator_version, topic, state) values (%s, %s, %s, %s)"
    )
    statement = insert.format(table)
    state = b"\x95\xd7\xff" + bytes(20)
    connections = [psycopg.connect(url, autocommit=True) for _ in range(writers)]

    def work(index: int, deadline: float, run: Run) -> None:
        conn, game, version = connections[index], uuid.uuid4(), 0
        while (now := time.perf_counter()) < deadline:
            version += 1
            conn.execute(
                statement, (game, version, "service.domain.game:Game.CardPlayed", state), prepare=True
            )
            run.latencies.append(time.perf_counter() - now)
            run.moves += 1

    try:
        return in_threads(writers, seconds, work)
    finally:
        for conn in connections:
            conn.close()


# ---------------------------------------------------------------------------
# moves through the application


class Player:
    """One writer's game, followed from the outcomes of its own commands."""

    def __init__(self, app: MauMau, seed: int) -> None:
        self.app = app
        self.rng = random.Random(seed)
        self.bot = RandomBot(self.rng, forgetfulness=0.2)
        self.seed = seed
        self.new_game()

    def new_game(self) -> None:
        outcome = self.app.create_game(["bot:random"] * 4, seed=self.seed, options=OPTIONS)
        self.game_id = outcome.game_id
        self.version = outcome.version
        self.state = State()
        self.follow(outcome.events)

    def follow(self, events) -> None:
        for event in events:
            if isinstance(event, Game.Fact):
                event.fact.apply(self.state)
            elif isinstance(event, Game.RulingGiven) and event.restored is not None:
                self.state = restore(event.restored)

    def command(self) -> Command:
        s = self.state
        if s.missed is not None and s.phase in (PLAY, DRAWN) and self.rng.random() < 0.5:
            return Challenge((s.missed[0] + 1) % s.seats)
        seat = s.dealer if s.phase == NAMING_SUIT else s.turn
        return self.bot.choose(s, seat)

    def move(self) -> bool:
        if self.state.phase == OVER:
            self.new_game()
        outcome = self.app.execute(self.game_id, self.command(), expected_version=self.version)
        self.follow(outcome.events)
        self.version = outcome.version
        return True


def moves(app: MauMau, writers: int, seconds: float, seed: int) -> Run:
    players = [Player(app, seed * 100 + i) for i in range(writers)]

    def work(index: int, deadline: float, run: Run) -> None:
        player = players[index]
        while (now := time.perf_counter()) < deadline:
            player.move()
            run.latencies.append(time.perf_counter() - now)
            run.moves += 1

    return in_threads(writers, seconds, work)


# ---------------------------------------------------------------------------
# rebuilding a game at an event


def long_game(app: MauMau, events: int) -> uuid.UUID:
    player = Player(app, seed=500)
    while player.version < events:
        player.move()
        if player.state.phase == OVER:
            raise RuntimeError("the long game ended early")
    return player.game_id


def rebuild_ms(app: MauMau, game_id: uuid.UUID, number: int, repeat: int = 30) -> float:
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        game = app.game_at(game_id, number)
        times.append(time.perf_counter() - started)
        assert game.version == number
    return statistics.median(times) * 1000


# ---------------------------------------------------------------------------


def settings_for(url: str, schema: str, **kwargs) -> Settings:
    return Settings(database_url=url, database_schema=schema, pool_size=10, **kwargs)


def median_run(runs: list[Run]) -> Run:
    pooled = Run(moves=sum(r.moves for r in runs), seconds=sum(r.seconds for r in runs))
    for run in runs:
        pooled.latencies += run.latencies
    return pooled


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--url", default=os.environ.get("MAUMAU_DATABASE_URL") or LOCAL_URL)
    parser.add_argument("--seconds", type=float, default=2.0, help="per slice")
    parser.add_argument("--slices", type=int, default=5, help="rounds of raw and each store, interleaved")
    parser.add_argument("--writers", default="1,8", help="writer counts, comma-separated")
    args = parser.parse_args()
    counts = [int(n) for n in args.writers.split(",")]

    schema = f"bench_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(args.url, autocommit=True) as conn:
        conn.execute(sql.SQL("create schema {}").format(sql.Identifier(schema)))
        server = conn.info.server_version
    print(
        f"PostgreSQL {server // 10000}.{server % 10000}, {os.cpu_count()} CPUs; "
        f"{args.slices} interleaved slices of {args.seconds:g} s each; "
        "share of raw = median of the per-slice ratios"
    )
    stores = {
        "group": settings_for(args.url, schema),
        "stock": settings_for(args.url, schema, group_commit=False),
        "stock, no cache": settings_for(args.url, schema, group_commit=False, game_cache=0),
    }
    shares: dict[tuple[int, str], float] = {}
    try:
        table = raw_table(args.url, schema)
        apps = {name: MauMau(settings) for name, settings in stores.items()}
        print()
        print(f"{'writers':>7}  {'store':<16} {'moves/s':>8} {'of raw':>7} {'p50 ms':>7} {'p99 ms':>7}")
        for writers in counts:
            runs: dict[str, list[Run]] = {"raw INSERT": [], **{name: [] for name in apps}}
            batch_counts = {name: [0, 0] for name in apps}
            for index in range(args.slices):
                runs["raw INSERT"].append(raw(args.url, table, writers, args.seconds))
                for name, app in apps.items():
                    recorder = app.recorder
                    before = (getattr(recorder, "saves", 0), getattr(recorder, "batches", 0))
                    runs[name].append(moves(app, writers, args.seconds, seed=writers * 100 + index))
                    batch_counts[name][0] += getattr(recorder, "saves", 0) - before[0]
                    batch_counts[name][1] += getattr(recorder, "batches", 0) - before[1]
            raw_rates = [run.rate for run in runs["raw INSERT"]]
            for name, slices in runs.items():
                share = statistics.median(
                    run.rate / base for run, base in zip(slices, raw_rates, strict=True)
                )
                shares[(writers, name)] = share
                pooled = median_run(slices)
                saves, batches = batch_counts.get(name, (0, 0))
                note = f"  {saves / batches:.1f} saves/commit" if batches else ""
                label = f"{writers:>7}" if name == "raw INSERT" else " " * 7
                print(
                    f"{label}  {name:<16} {pooled.rate:>8.0f} {share:>7.0%} "
                    f"{pooled.percentile(0.5):>7.2f} {pooled.percentile(0.99):>7.2f}{note}"
                )
        print()
        app = apps["group"]
        game_id = long_game(app, 500)
        interval = app.settings.snapshot_interval
        print(f"rebuild a 500-event game from the store (snapshot every {interval} events), median of 30:")
        every = {number: rebuild_ms(app, game_id, number, 15) for number in range(1, 501, 7)}
        worst = max(range(interval - 1, 500, interval), key=lambda n: rebuild_ms(app, game_id, n, 5))
        figures = {}
        for label, number in (
            ("at its last event", 500),
            ("at event 250", 250),
            ("at the worst event", worst),
        ):
            figures[label] = rebuild_ms(app, game_id, number)
            print(f"  {label:<20} (event {number:>3}): {figures[label]:.2f} ms")
        slow = max(every, key=every.__getitem__)
        print(f"  every 7th event, median of 15 each: the slowest {every[slow]:.2f} ms (event {slow})")
        no_snapshots = MauMau(msgspec.structs.replace(stores["group"], snapshot_interval=10**9))
        no_snapshots.snapshots = None
        no_snapshots.repository.snapshot_store = None
        print(f"  without snapshots    (event 500): {rebuild_ms(no_snapshots, game_id, 500):.2f} ms")
        no_snapshots.close()
        for app in apps.values():
            app.close()
        print()
        if 8 in counts:
            share = shares[(8, "group")]
            verdict = "met" if share >= 0.5 else "missed"
            print(f"target store_8_writers_vs_raw measured={share:.2f} goal=>=0.50 {verdict}")
        # the worst event is the one just before a snapshot; the sweep's maximum also catches
        # whatever else the machine was doing, so it is printed, not judged
        slowest = figures["at the worst event"]
        verdict = "met" if slowest <= 2 else "missed"
        print(f"target rebuild_any_event_ms measured={slowest:.2f} goal=<=2.0 {verdict}")
    finally:
        with psycopg.connect(args.url, autocommit=True) as conn:
            conn.execute(sql.SQL("drop schema {} cascade").format(sql.Identifier(schema)))


if __name__ == "__main__":
    main()

"""Ratings speed: the projection's rating of 20,000 finished league matches against plain openskill.

The matches: one-round league matches of 2 to 4 of a league's 200 players, played in memory
through the Game aggregate by random bots and folded as the projection folds them
(``fold.Tracked``), before anything is timed. The projection's way (what a rebuild does for
ratings): ``RatingsFold.fold`` rates a batch of finished matches in the order they finished
and the store writes the rows they add (``views_ratings``, ``views_rating_history``) with a
tracking position in one transaction, as the runner's flush does; a batch holds the matches
whose events fill the runner's batch while it catches up (``runner.BATCH``, 50,000 events).
The direct way: a plain loop of openskill ``PlackettLuce.rate`` calls over the same matches'
placings, ratings kept in a dict. Both run slice by slice, interleaved, in the same process;
the figure is the median over slices of (direct seconds / projection seconds), so 0.5 means
the projection takes twice as long. At the end both ways' ratings are checked equal.

Folding the games' own events (what every read model shares) is not in it: the standings
and the other read models pay for that with or without ratings (``bench/projections.py``
measures a whole rebuild).

    ./run bench ratings [--matches 20000] [--slices 8] [--url postgresql://...] [--busy 0]

Without ``--url`` the store is an SQLite file in a temporary folder (the embedded default);
with it, PostgreSQL in a schema of the bench's own, dropped at the end. ``--busy N`` keeps N cores
busy with other processes all through (``bench/load``): the target on a loaded machine, as issue 34
states it (``--busy 1`` on two cores).
"""

import argparse
import random
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path
from uuid import UUID

import psycopg
from eventsourcing.persistence import Tracking
from openskill.models import PlackettLuce
from psycopg import sql

from service.domain.bots import RandomBot
from service.domain.game import Game
from service.domain.history import Cause
from service.domain.roles import SYSTEM
from service.domain.ruleset_options import ruleset
from service.domain.seats import Seat
from service.domain.state import NAMING_SUIT
from service.projections.fold import Tracked, rated_seats
from service.projections.runner import BATCH
from service.projections.store import Views, close_views, open_views
from service.projections.views.base import APPLICATION, Changes
from service.projections.views.ratings import RatingsFold
from service.settings import Settings

sys.path.append(str(Path(__file__).resolve().parent.parent))  # ./run runs benches with -P
from bench.load import busy, stop_on_sigterm

GOAL = 0.8  # the projection's matches/s against openskill's (issue 34; 0.5 before)


def finished_matches(count: int, seed: int = 1) -> tuple[list[Tracked], list[int]]:
    """``count`` finished one-round league matches, folded as the projection folds them, and
    the number of events of each."""
    rng = random.Random(seed)
    league = UUID(int=rng.getrandbits(128))
    players = [str(UUID(int=rng.getrandbits(128))) for _ in range(200)]
    rules = ruleset("club", single_round=True)
    cause = Cause(SYSTEM, "Bench")
    bot = RandomBot(rng)
    done, sizes = [], []
    for _ in range(count):
        seats = tuple(Seat("player", player) for player in rng.sample(players, rng.randint(2, 4)))
        game = Game.create(ruleset=rules, seats=seats, seed=str(rng.random()), cause=cause, league_id=league)
        while not game.over:
            s = game.state
            game.execute(bot.choose(s, s.dealer if s.phase == NAMING_SUIT else s.turn), cause)
        events = game.collect_events()
        tracked = Tracked.created(events[0], 0)
        for event in events[1:]:
            tracked.apply(event)
        done.append(tracked)
        sizes.append(len(events))
    return done, sizes


def batches(sizes: list[int]) -> list[tuple[int, int]]:
    """(start, end) of each run of matches whose events fill the runner's batch."""
    found, start, events = [], 0, 0
    for index, size in enumerate(sizes):
        events += size
        if events >= BATCH:
            found.append((start, index + 1))
            start, events = index + 1, 0
    if start < len(sizes):
        found.append((start, len(sizes)))
    return found


def through_projection(fold: RatingsFold, views: Views, batch: list[Tracked], position: int) -> int:
    """Rate and write one batch of matches as a flush does (each one's seats taken as the games' fold
    takes them at its finish); the position written."""
    changes = Changes(position=position + len(batch))
    fold.fold([(position + n + 1, tracked, rated_seats(tracked)) for n, tracked in enumerate(batch)], changes)
    views.write(changes, Tracking(APPLICATION, changes.position))
    return changes.position


def direct(
    model: PlackettLuce, ratings: dict[str, tuple[float, float]], placings: list[list[tuple[str, int]]]
) -> None:
    for placing in placings:
        before = [ratings.get(player, (model.mu, model.sigma)) for player, _ in placing]
        ranks = [place for _, place in placing]
        teams = model.rate([[model.rating(mu=mu, sigma=sigma)] for mu, sigma in before], ranks=ranks)
        for (player, _), (new,) in zip(placing, teams, strict=True):
            ratings[player] = (new.mu, new.sigma)


def run(settings: Settings, matches: int, slices: int) -> float:
    started = time.perf_counter()
    games, sizes = finished_matches(matches)
    # the same matches' placings as plain data, for the direct loop (no game clocked here)
    placings = [[(player, place) for player, place, _ in rated_seats(game)] for game in games]
    flushes = batches(sizes)
    print(
        f"{matches} finished matches of 2-4 players ({sum(sizes)} events, {len(flushes)} batches) "
        f"made in {time.perf_counter() - started:.1f} s"
    )
    views = open_views(settings)
    fold = RatingsFold(views)
    model = PlackettLuce()
    direct_ratings: dict[str, tuple[float, float]] = {}
    per_slice = -(-len(flushes) // slices)
    position = 0
    ratios, projection_seconds, direct_seconds = [], 0.0, 0.0
    try:
        for first in range(0, len(flushes), per_slice):
            chosen = flushes[first : first + per_slice]
            t0 = time.perf_counter()
            for start, end in chosen:
                position = through_projection(fold, views, games[start:end], position)
            t1 = time.perf_counter()
            direct(model, direct_ratings, placings[chosen[0][0] : chosen[-1][1]])
            t2 = time.perf_counter()
            projection_seconds += t1 - t0
            direct_seconds += t2 - t1
            ratios.append((t2 - t1) / (t1 - t0))
        # the same ratings both ways (the store's, read back)
        league = games[0].game.league_id
        assert league is not None
        stored, _ = views.league_ratings(league)
        assert len(stored) == len(direct_ratings)
        for player, _, mu, sigma, _ in stored:
            assert (mu, sigma) == direct_ratings[str(player)], player
    finally:
        close_views(views)
    print(f"{'':<28} {'matches/s':>10}")
    print(f"{'through the projection':<28} {matches / projection_seconds:>10.0f}")
    print(f"{'openskill directly':<28} {matches / direct_seconds:>10.0f}")
    print(f"per slice: {min(ratios):.2f}-{max(ratios):.2f}; {len(ratios)} slices, the median below")
    return statistics.median(ratios)


def main() -> None:
    stop_on_sigterm()
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=20_000)
    parser.add_argument("--slices", type=int, default=8, help="interleaved rounds of both ways")
    parser.add_argument("--url", default=None, help="PostgreSQL; the default is an SQLite file")
    parser.add_argument(
        "--busy", type=int, default=0, help="cores kept busy by other processes all through the run"
    )
    args = parser.parse_args()
    if args.busy < 0:
        parser.error(f"--busy is a number of cores, 0 or more: not {args.busy}")
    if args.busy:
        print(f"{args.busy} core(s) kept busy by other processes all through")
    with busy(args.busy):
        ratio = measure(args)
    verdict = "met" if ratio >= GOAL else "missed"
    print(f"target ratings_rebuild_vs_direct measured={ratio:.2f} goal=>={GOAL} {verdict}")


def measure(args: argparse.Namespace) -> float:
    """The median ratio on the store the arguments name."""
    if args.url is None:
        with tempfile.TemporaryDirectory() as folder:
            print("store: SQLite (the embedded default)")
            return run(Settings(data_dir=Path(folder)), args.matches, args.slices)
    schema = f"bench_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(args.url, autocommit=True) as conn:
        conn.execute(sql.SQL("create schema {}").format(sql.Identifier(schema)))
    try:
        print(f"store: PostgreSQL, schema {schema}")
        return run(Settings(database_url=args.url, database_schema=schema), args.matches, args.slices)
    finally:
        with psycopg.connect(args.url, autocommit=True) as conn:
            conn.execute(sql.SQL("drop schema if exists {} cascade").format(sql.Identifier(schema)))


if __name__ == "__main__":
    main()

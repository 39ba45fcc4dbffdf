"""Page speed: a league's standings page and a tournament's page, served as HTML, beside the same data
as JSON from the API, in the same run against the same server.

The data: a league of 500 players (all members, each with a name), and a Swiss of 128 entrants (bots
filling the places) at 4-seat tables, 4 rounds of single-round matches, played to its end (the sizes
are flags, so the suite's smoke run can be small). It is written straight through the application
(``MauMau``; the tournament's games played by the workers' own steps run inline, as
``bench/tournament.py``'s direct run plays them): no HTTP while building.

The server is ``bench/http.py``'s: ``uvicorn --workers 1`` as deploy/ starts an API container, with
one ``maumau projections run`` keeping the read models, in a fresh schema dropped at the end. The
client is ``bench/http.py``'s lean keep-alive client, 8 loops of GETs at a time, no token (the
pages and reads are public). Four kinds of slice, interleaved, so machine noise hits all alike:

- ``GET /web/leagues/{id}`` (the standings page) and ``GET /leagues/{id}/standings`` (its JSON);
- ``GET /web/tournaments/{id}`` (the tournament page) and ``GET /tournaments/{id}`` (its JSON).

Each target is the median over the slices of the page's requests/s over its JSON's in the same
round; the goal is at least half.

    ./run bench pages [--seconds 3] [--slices 5] [--loops 8] [--workers 1] [--members 500] [--entrants 128]
                      [--rounds 4]

The URL defaults to MAUMAU_DATABASE_URL, else the local test database.
"""

import argparse
import asyncio
import importlib.util
import os
import statistics
import tempfile
import time
from pathlib import Path
from uuid import UUID

import uvloop

from service.application import MauMau
from service.domain.league import League, Player
from service.domain.tournament_plan import Plan
from service.settings import Settings
from workers.conduct import Conductor
from workers.inline import Inline

# bench/http.py's server and client, loaded by its path: as ``http`` it would be the standard library's
_spec = importlib.util.spec_from_file_location("bench_http", Path(__file__).resolve().parent / "http.py")
assert _spec is not None and _spec.loader is not None
bench_http = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(bench_http)

GOAL = 0.5


def build(args: argparse.Namespace, schema: str) -> tuple[UUID, UUID]:
    """The league and its finished Swiss, written through the application."""
    app = MauMau(Settings(database_url=args.url, database_schema=schema, pool_size=2))
    try:
        players = [Player.register(f"Player {n:03d}") for n in range(args.members)]
        league = League.found("Bench club")
        for player in players:
            league.admit(player.id)  # the names differ by their numbers: no check of each against all
        app.save(*players, league)
        plan = Plan(format="swiss", table_size=4, rounds=args.rounds, single_round=True, places=args.entrants)
        tournament_id = app.create_tournament(league.id, "Bench open", plan)
        inline = Inline()
        conductor = Conductor(app, inline)
        app.start_tournament(tournament_id, seed="bench")
        conductor.conduct_tournament(tournament_id)
        inline.run(conductor)
        assert app.get_tournament(tournament_id).finished
        return league.id, tournament_id
    finally:
        app.close()


async def caught_up(host: str, port: int, league: UUID, tournament: UUID, members: int) -> None:
    """The read models hold every member and the finished tournament."""
    connection = bench_http.Connection(host, port)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        try:
            standings = await connection.request("GET", f"/leagues/{league}/standings")
            bracket = await connection.request("GET", f"/tournaments/{tournament}")
            if len(standings["rows"]) == members and bracket["status"] == "finished":
                await connection.close()
                return
        except bench_http.HTTPError as error:
            if error.status != 404:
                raise
        await asyncio.sleep(0.5)
    raise RuntimeError("the read models did not catch up in two minutes")


class Getter:
    """A loop of GETs of one address over its own keep-alive connection."""

    def __init__(self, host: str, port: int, path: str) -> None:
        self.connection = bench_http.Connection(host, port)
        self.path = path
        self.bytes = 0

    async def turn(self, run: "bench_http.Run") -> None:
        body = await self.connection.request("GET", self.path, raw=True)
        self.bytes = len(body)
        run.requests += 1
        run.moves += 1


async def measure(
    args: argparse.Namespace, host: str, port: int, paths: dict[str, str]
) -> dict[str, list[float]]:
    loops = {kind: [Getter(host, port, path) for _ in range(args.loops)] for kind, path in paths.items()}
    rates: dict[str, list[float]] = {kind: [] for kind in paths}
    for kind, each in loops.items():  # a warm-up: connections open, caches and templates loaded
        await bench_http.slice_of(each, 1.0)
        print(f"  {kind:<18} {paths[kind]:<56} {each[0].bytes:>9,} bytes")
    for number in range(args.slices):
        said = []
        for kind, each in loops.items():
            run = await bench_http.slice_of(each, args.seconds)
            rates[kind].append(run.request_rate)
            said.append(f"{kind} {run.request_rate:.0f}/s")
        print(f"  slice {number + 1}: " + ", ".join(said))
    for each in loops.values():
        for getter in each:
            await getter.connection.close()
    return rates


def target(name: str, pages: list[float], json: list[float]) -> None:
    ratios = [page / data for page, data in zip(pages, json, strict=True)]
    share = statistics.median(ratios)
    print(f"  {name}: per-slice ratios {', '.join(f'{ratio:.2f}' for ratio in ratios)}")
    verdict = "met" if share >= GOAL else "missed"
    print(f"target {name} measured={share:.2f} goal=>={GOAL} {verdict}")


def main() -> None:
    bench_http.stop_on_sigterm()  # bench/http.py, loaded by path: pages puts no package on sys.path
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--url", default=os.environ.get("MAUMAU_DATABASE_URL") or bench_http.LOCAL_URL)
    parser.add_argument("--seconds", type=float, default=3.0, help="per slice")
    parser.add_argument("--slices", type=int, default=5, help="rounds of the four kinds, interleaved")
    parser.add_argument("--loops", type=int, default=8, help="concurrent GET loops per kind")
    parser.add_argument(
        "--workers", type=int, default=1, help="uvicorn workers (production: one per API container, deploy/)"
    )
    parser.add_argument("--members", type=int, default=500, help="the league's players")
    parser.add_argument("--entrants", type=int, default=128, help="the Swiss's places, bots filling them")
    parser.add_argument("--rounds", type=int, default=4, help="the Swiss's rounds")
    args = parser.parse_args()
    print(
        f"{os.cpu_count()} CPUs; uvicorn --workers {args.workers} + maumau projections run; a league of "
        f"{args.members}, a Swiss of {args.entrants} ({args.rounds} rounds); {args.slices} interleaved "
        f"slices of {args.seconds:g} s per kind, {args.loops} loops each; "
        "ratio = median of the per-slice ratios"
    )
    with (
        tempfile.TemporaryDirectory(prefix="bench-pages-") as logs,
        bench_http.own_schema(args.url, "bench_pages") as schema,
    ):
        processes = bench_http.Processes(args.url, schema, "uvicorn", args.workers, Path(logs))
        try:
            started = time.perf_counter()
            league, tournament = build(args, schema)
            print(f"data written in {time.perf_counter() - started:.1f} s")
            processes.wait_until_ready(args.workers)
            host, port = "127.0.0.1", processes.port
            uvloop.run(caught_up(host, port, league, tournament, args.members))
            paths = {
                "standings page": f"/web/leagues/{league}",
                "standings json": f"/leagues/{league}/standings",
                "tournament page": f"/web/tournaments/{tournament}",
                "tournament json": f"/tournaments/{tournament}",
            }
            rates = uvloop.run(measure(args, host, port, paths))
        finally:
            processes.stop()
    print()
    for kind, values in rates.items():
        print(f"  {kind:<18} median {statistics.median(values):>7.0f} requests/s")
    target("pages_standings_vs_json", rates["standings page"], rates["standings json"])
    target("pages_tournament_vs_json", rates["tournament page"], rates["tournament json"])


if __name__ == "__main__":
    main()

"""Moves over the play socket against moves over POST and SSE, on the real server (issue 34, part 2).

``target moves_socket_vs_post`` (goal >= 1.5): saturated moves/s over each seat's play socket
(``/games/{id}/me/socket``: a move is a message, its answer and the next mover's view come back on the
sockets) over saturated moves/s of ``bench/http.py``'s default load (a move is ``POST
/games/{id}/moves``, the next mover learns of it on its ``GET /games/{id}/me/stream``), the median of
the per-slice ratios. The same server and games (``bench/http.py``'s ``Processes``: uvicorn with one
process as deploy/ starts it, one projection runner, PostgreSQL), ``--games`` games of 4 players for
each channel, every seat a client of its own; slices of the two alternate, so the machine's other
work falls on both. Printed beside: each channel's moves/s per slice and the CPU each part of the
machine used per move (the API workers, the projection runner, PostgreSQL, this client).

The socket's client is the ``websockets`` library (a dependency of ``uvicorn[standard]``); the
HTTP side's is bench/http.py's own lean HTTP/1.1 client, so the client's CPU per move is not
alike: the server's parts are what the ratio is about.
"""

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import msgspec
import uvloop
from websockets.asyncio.client import ClientConnection, connect

# the repository after the standard library: `bench` is a package, and bench/ is not on the path
sys.path.append(str(Path(__file__).resolve().parent.parent))
from bench.http import (
    LOCAL_URL,
    Follower,
    Processes,
    Run,
    Usage,
    choose,
    cpu_parts,
    cpu_used,
    freshen,
    machine_line,
    pooled,
    serving,
    set_up,
    slice_of,
    verdict,
)
from bench.load import stop_on_sigterm
from tests.schemas import own_schema

GOAL = 1.5
_VIEW = '{"type":"view","version":'
_decode = msgspec.json.decode
_encode = msgspec.json.encode


class SocketFollower(Follower):
    """One game, its four players each on their play socket: a move is a message on the mover's
    socket, answered there; every seat's next view is pushed on its own."""

    def __init__(self, host: str, port: int, game: dict[str, Any], tokens: list[str], seed: int) -> None:
        super().__init__(host, port, game, tokens, seed)
        self.connections = []  # no HTTP connection: ``freshen`` finds none to open
        self.url = f"ws://{host}:{port}{self.path}/me/socket"
        self.tokens = tokens
        self.sockets: list[ClientConnection] = []
        self.answers: list[asyncio.Future[dict[str, Any]] | None] = [None] * len(tokens)

    async def open(self) -> None:
        for seat, token in enumerate(self.tokens):
            socket = await connect(self.url, additional_headers={"Authorization": f"Bearer {token}"})
            self.sockets.append(socket)
            self.following.append(asyncio.create_task(self.listen(seat, socket)))

    async def listen(self, seat: int, socket: ClientConnection) -> None:
        async for text in socket:
            assert isinstance(text, str)
            if text.startswith(_VIEW):
                at = text.index(",", len(_VIEW))
                # the view's JSON as the SSE stream's data (``socket_messages.view`` wraps it so)
                self.seen(seat, int(text[len(_VIEW) : at]), text[at + 8 : -1].encode())
                continue
            waiting = self.answers[seat]
            self.answers[seat] = None
            if waiting is not None:
                waiting.set_result(_decode(text))

    async def move(self, view: dict[str, Any], run: Run, since: float | None = None) -> None:
        seat = view["seat"]
        path, body = choose(self.path, view, self.rng)
        kind = "challenge" if path.endswith("/challenges") else "move"
        answered = self.answers[seat] = asyncio.get_running_loop().create_future()
        started = time.perf_counter()
        await self.sockets[seat].send(_encode({"type": kind, "body": body}).decode())
        answer = await asyncio.wait_for(answered, 10)
        run.latencies.append(time.perf_counter() - started)
        run.requests += 1
        run.moves += 1
        if answer["type"] != "answer":
            run.refused += 1
            if run.refused <= 3:
                print(f"  refused: {answer}", file=sys.stderr)
            self.version = max(v[0] for v in self.views if v is not None)
            self.answered = None
            return
        self.answered = time.perf_counter()
        self.version = answer["data"]["version"]

    async def close(self) -> None:
        for task in self.following:
            task.cancel()
        for socket in self.sockets:
            await socket.close()


async def measure(
    args: argparse.Namespace, processes: Processes
) -> tuple[dict[str, list[Run]], dict[str, Usage]]:
    host, port = "127.0.0.1", processes.port
    made = await set_up(host, port, processes.admin, 2 * args.games)
    posts = [
        Follower(host, port, game, tokens, seed=n) for n, (game, tokens) in enumerate(made[: args.games])
    ]
    sockets = [
        SocketFollower(host, port, game, tokens, seed=n)
        for n, (game, tokens) in enumerate(made[args.games :])
    ]
    for each in posts:
        each.start()
    for each in sockets:
        await each.open()
    kinds: dict[str, list[Any]] = {"post": posts, "socket": sockets}
    runs: dict[str, list[Run]] = {name: [] for name in kinds}
    usage = {name: Usage() for name in kinds}
    for loops in kinds.values():  # warm-up: connections opened, tokens and games cached
        await slice_of(loops, min(1.0, args.seconds))
    for number in range(args.slices):
        # the order alternates: neither always follows the other's backlog
        for name in sorted(kinds, reverse=number % 2 == 1):
            loops = kinds[name]
            await freshen(loops)
            before = cpu_parts(processes)
            run = await slice_of(loops, args.seconds)
            runs[name].append(run)
            usage[name].add(run.seconds, cpu_used(before, cpu_parts(processes)))
            print(f"  slice {number + 1} {name:<7}{run.rate:>9.1f} moves/s", flush=True)
    for each in [*posts, *sockets]:
        for connection in each.connections:
            await connection.close()
        await each.close()
    return runs, usage


def report(runs: dict[str, list[Run]], usage: dict[str, Usage], load: tuple[float, float]) -> None:
    print()
    print(f"load average before the run: {load[0]:.2f} (1 min), {load[1]:.2f} (5 min)")
    done = {}
    for name, slices in runs.items():
        total = pooled(slices)
        done[name] = total.moves
        latencies = sorted(total.latencies)
        p99 = latencies[int(0.99 * (len(latencies) - 1))] * 1000 if latencies else 0.0
        print(
            f"{name:<7}{total.rate:>9.1f} moves/s  answer p99 {p99:.1f} ms  "
            f"refused {total.refused}  per slice: {' '.join(f'{r.rate:.0f}' for r in slices)}"
        )
    print()
    print(f"  {'CPU ms per move':<28}" + "".join(f"{name:>10}" for name in runs))
    for part in next(iter(usage.values())).parts:
        row = "".join(f"{1000 * usage[name].parts[part] / max(done[name], 1):>10.3f}" for name in runs)
        print(f"  {part:<28}{row}")
    ratios = [s.rate / p.rate for s, p in zip(runs["socket"], runs["post"], strict=True) if p.moves]
    print()
    verdict(">=", "moves_socket_vs_post", statistics.median(ratios) if ratios else 0.0, GOAL)


def main() -> None:
    stop_on_sigterm()
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--url", default=os.environ.get("MAUMAU_DATABASE_URL") or LOCAL_URL)
    parser.add_argument("--seconds", type=float, default=3.0, help="per slice")
    parser.add_argument("--slices", type=int, default=5, help="rounds of POST and socket moves, interleaved")
    parser.add_argument("--games", type=int, default=32, help="concurrent games on each channel")
    parser.add_argument(
        "--workers", type=int, default=1, help="server workers (production: one per API container, deploy/)"
    )
    args = parser.parse_args()
    print(
        f"{machine_line(args.url)}; uvicorn --workers {args.workers} + maumau projections run; "
        f"{args.games} games of 4 players "
        f"per channel; {args.slices} interleaved slices of {args.seconds:g} s each; "
        "ratio = median of the per-slice ratios"
    )
    load = os.getloadavg()[:2]
    with (
        tempfile.TemporaryDirectory(prefix="bench-socket-") as logs,
        own_schema(args.url, "bench_socket") as schema,
    ):
        processes = Processes(args.url, schema, "uvicorn", args.workers, Path(logs))
        with serving(processes, args.workers):
            runs, usage = uvloop.run(measure(args, processes))
    report(runs, usage, load)


if __name__ == "__main__":
    main()

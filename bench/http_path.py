"""The app's own path per request, without a server or a network: CPU milliseconds per request.

``bench/http.py`` measures the whole stack on a machine it shares; its figures move with whatever
else runs. This drives the bench's app (``bench/floor/app.py``: the production app plus the write
floor) in this one process, calling its ASGI entry with hand-made requests one after another, and
divides the process's CPU time (every thread's: the handler threads' too) by the requests. What it
leaves out (the server's parsing and writing, the client) is the same for every version of the
app, so two versions compare on what they do themselves, even on a busy machine.

Requests: ``GET /health`` (anonymous), ``POST /bench/floor`` with a player's token (the checks, a
body, a handler thread, one INSERT) and the same POST refused at once (no token). Logs go to
/dev/null as JSON lines; the metrics count in this process.

    ./run bench http_path [--requests 3000] [--rounds 5]
"""

import argparse
import asyncio
import os
import secrets
import statistics
import sys
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import msgspec
import psycopg
from psycopg import sql

# this checkout's code first, before an installed copy of the service (bench/ itself is not on the path)
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from bench.floor import table as floor
from bench.floor.app import create_app
from service.settings import Settings

LOCAL_URL = "postgresql://postgres@127.0.0.1:5432/test"


@contextmanager
def schema_on(url: str) -> Iterator[str]:
    schema = f"bench_path_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(sql.SQL("create schema {}").format(sql.Identifier(schema)))
        conn.execute(sql.SQL(floor.TABLE_SQL).format(sql.Identifier(schema), sql.Identifier(floor.TABLE)))
    try:
        yield schema
    finally:
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute(sql.SQL("drop schema {} cascade").format(sql.Identifier(schema)))


class Caller:
    """Calls the ASGI app as a server would, one request at a time; answers (status, body)."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(
        self, method: str, path: str, body: bytes = b"", headers: dict[str, str] | None = None
    ) -> tuple[int, bytes]:
        raw = [(name.lower().encode(), value.encode()) for name, value in (headers or {}).items()]
        if body:
            raw += [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
        scope = {
            "type": "http",
            "asgi": {"version": "3.0", "spec_version": "2.3"},
            "http_version": "1.1",
            "method": method,
            "scheme": "http",
            "path": path,
            "raw_path": path.encode(),
            "query_string": b"",
            "root_path": "",
            "headers": raw,
            "client": ("127.0.0.1", 40000),
            "server": ("127.0.0.1", 8000),
            "state": {},
        }
        sent = False
        status = 0
        chunks: list[bytes] = []

        async def receive() -> dict[str, Any]:
            nonlocal sent
            if sent:
                await asyncio.sleep(3600)
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}

        async def send(message: dict[str, Any]) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
            elif message["type"] == "http.response.body":
                chunks.append(message.get("body", b""))

        await self.app(scope, receive, send)
        return status, b"".join(chunks)


async def lifespan(app: Any) -> tuple[asyncio.Task[None], asyncio.Queue[dict[str, Any]]]:
    inbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
    started = asyncio.Event()

    async def send(message: dict[str, Any]) -> None:
        if message["type"].startswith("lifespan.startup"):
            if message["type"].endswith("failed"):
                raise SystemExit(message.get("message"))
            started.set()

    await inbox.put({"type": "lifespan.startup"})
    task = asyncio.create_task(
        app({"type": "lifespan", "asgi": {"version": "3.0"}, "state": {}}, inbox.get, send)
    )
    await started.wait()
    return task, inbox


async def measure(url: str, schema: str, requests: int, rounds: int) -> None:
    admin = "bench-admin-" + secrets.token_hex(16)
    settings = Settings(
        database_url=url,
        database_schema=schema,
        admin_token=admin,
        run_projections=False,
        log_format="json",
        pool_size=5,
    )
    app = create_app(settings)
    task, inbox = await lifespan(app)
    call = Caller(app)
    status, body = await call(
        "POST", "/players", msgspec.json.encode({"name": "Path"}), {"Authorization": f"Bearer {admin}"}
    )
    assert status == 201, (status, body)
    token = msgspec.json.decode(body)["token"]["token"]
    floor_body = msgspec.json.encode({"kind": "draw", "version": 7})
    kinds = {
        "GET /health": ("GET", "/health", b"", None, 200),
        "POST /bench/floor": ("POST", "/bench/floor", floor_body, {"Authorization": f"Bearer {token}"}, 200),
        "POST /bench/floor refused": ("POST", "/bench/floor", floor_body, None, 401),
    }
    per: dict[str, list[float]] = {name: [] for name in kinds}
    for _ in range(rounds):  # interleaved, so a busy moment falls on every kind
        for name, (method, path, data, headers, expected) in kinds.items():
            for _ in range(requests // 10):  # warm
                await call(method, path, data, headers)
            cpu = time.process_time()
            for _ in range(requests):
                status, body = await call(method, path, data, headers)
                assert status == expected, (name, status, body)
            per[name].append((time.process_time() - cpu) * 1000 / requests)
    for name, values in per.items():
        print(
            f"{name:28s} CPU ms per request: median {statistics.median(values):.3f} "
            f"(rounds {', '.join(f'{v:.3f}' for v in values)})"
        )
    await inbox.put({"type": "lifespan.shutdown"})
    await task


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--url", default=os.environ.get("MAUMAU_DATABASE_URL") or LOCAL_URL)
    parser.add_argument("--requests", type=int, default=3000, help="per kind and round")
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    sys.stderr = open(os.devnull, "w")  # noqa: SIM115 (the JSON log lines: written, not kept)
    print(f"load average before: {os.getloadavg()[0]:.2f}", file=sys.stdout)
    with schema_on(args.url) as schema:
        asyncio.run(measure(args.url, schema, args.requests, args.rounds))
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()

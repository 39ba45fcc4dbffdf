"""A real HTTP receiver for webhook deliveries, on 127.0.0.1 in a thread of the test: it keeps what
it was sent and answers what the test tells it to (``answers``: a status per request in turn, then
``then`` for every later one)."""

import json
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import msgspec


class Received(msgspec.Struct, frozen=True, kw_only=True):
    path: str
    headers: dict[str, str]
    body: bytes
    answered: int

    @property
    def json(self) -> Any:
        return json.loads(self.body)


class Receiver:
    def __init__(self) -> None:
        self.received: list[Received] = []
        self.answers: list[int] = []
        self.then = 200
        self._lock = threading.Lock()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                with receiver._lock:
                    status = receiver.answers.pop(0) if receiver.answers else receiver.then
                    receiver.received.append(
                        Received(
                            path=self.path, headers=dict(self.headers.items()), body=body, answered=status
                        )
                    )
                self.send_response(status)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass  # the test reads ``received``

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/hook"
        self._thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def taken(self, event: str | None = None) -> list[Received]:
        """What it answered 2xx to (of one event kind)."""
        with self._lock:
            return [
                r
                for r in self.received
                if 200 <= r.answered < 300 and (event is None or r.headers.get("Maumau-Event") == event)
            ]

    def wait_for(self, done: Callable[[], bool], what: str, timeout: float = 60.0) -> None:
        deadline = time.monotonic() + timeout
        while not done():
            if time.monotonic() > deadline:
                kinds = [(r.headers.get("Maumau-Event"), r.answered) for r in self.received]
                raise AssertionError(f"no {what} after {timeout:.0f} s; received: {kinds}")
            time.sleep(0.02)


@contextmanager
def receiving() -> Iterator[Receiver]:
    receiver = Receiver()
    receiver._thread.start()
    try:
        yield receiver
    finally:
        receiver.server.shutdown()
        receiver.server.server_close()

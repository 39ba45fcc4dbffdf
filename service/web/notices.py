"""A signed-in player's notifications while any page of the club is open: ``/web/notices/stream``,
a stream of their own notices (``usecases.notices.browser_notices``: none unless they chose the
browser), which ``static/notify.js`` shows as the browser's notifications. Taken with the session
cookie only: it carries nobody else's. A message's id is the notice's log position, so a browser
that lost the stream asks again after it (``Last-Event-ID``); the session is checked again every
``RECHECK`` seconds and the stream ends with it.

The store is looked at every ``POLL`` seconds per open stream (one query by the person's index):
a notice comes at most that long after the projection made it.
"""

import time
from collections.abc import AsyncIterator
from typing import Any

import anyio
import anyio.to_thread
import msgspec
from litestar import Controller, Request, get
from litestar.response import ServerSentEvent, ServerSentEventMessage

from service.domain.errors import RuleError
from service.domain.roles import Actor
from service.usecases.notices import browser_notices, notices_head
from service.usecases.services import Services
from service.web.notice_words import page_of
from service.web.session import signed_in_actor

POLL = 1.5  # seconds between looks at the store
KEEP_ALIVE = 15.0  # seconds of silence before a comment keeps proxies from closing the stream
RECHECK = 60.0  # seconds between checks that the session is still open

_json = msgspec.json.Encoder().encode


async def _notices(request: Request[Any, Any, Any], actor: Actor, after: int) -> AsyncIterator[Any]:
    services: Services = request.app.state.services
    spoke = checked = time.monotonic()
    while True:
        found = await anyio.to_thread.run_sync(browser_notices, services, actor, after)
        for notice in found:
            after = notice.position
            # the page it leads to: the one a mail of it links to (``notice_words.page_of``)
            page = page_of(notice.kind, notice.data)
            body = {"id": str(notice.notice_id), "kind": notice.kind, "data": notice.data, "page": page}
            yield ServerSentEventMessage(data=_json(body).decode(), event="notice", id=str(after))
            spoke = time.monotonic()
        now = time.monotonic()
        if now - spoke > KEEP_ALIVE:
            yield ServerSentEventMessage(comment="waiting")
            spoke = now
        if now - checked > RECHECK:
            if await signed_in_actor(request) != actor:
                return
            checked = now
        await anyio.sleep(POLL)


class NoticeStream(Controller):
    path = "/web/notices"

    @get("/stream", name="web-notices-stream")
    async def stream(self, request: Request[Any, Any, Any]) -> ServerSentEvent:
        actor = await signed_in_actor(request)
        if actor is None or actor.role != "player":
            raise RuleError("unauthorized", why="sign_in_first")
        services: Services = request.app.state.services
        resumed = request.headers.get("last-event-id", "")
        after = int(resumed) if resumed.isdigit() else await anyio.to_thread.run_sync(notices_head, services)
        return ServerSentEvent(_notices(request, actor, after))

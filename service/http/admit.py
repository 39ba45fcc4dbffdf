"""Who is asking, what the route needs, and a read that waits for its writer: run before every handler.

Not as litestar guards: litestar calls each guard with a fresh copy of the route handler, on every
request, and the copy cost more than the checks. The app's before-request hook
(``service.app``) calls ``admit`` first, before the body is read or a dependency made, in
order: ``auth.authenticate`` (the token to an actor), the check the route's ``opt`` names under
``needs`` (``auth.SIGNED_IN``, ``auth.ADMIN_ONLY``, ``auth.sessions.SIGNED_IN_OR_SESSION``; none: a
public route), then ``consistency.reads_own_writes``. A refusal raised here is answered as any
other: problem+json, nothing done.
"""

from typing import Any

from litestar.connection import ASGIConnection
from litestar.handlers import BaseRouteHandler

from service.http.auth import authenticate
from service.http.consistency import reads_own_writes


async def admit(connection: ASGIConnection[Any, Any, Any, Any], handler: BaseRouteHandler) -> None:
    await authenticate(connection, handler)
    needs = handler.opt.get("needs")
    if needs is not None:
        await needs(connection, handler)
    await reads_own_writes(connection, handler)

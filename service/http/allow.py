"""OPTIONS answers with every method of the path.

litestar makes a path's OPTIONS handler when it registers the path's first
handler, and that handler's ``Allow`` lists the methods the path had then:
``/leagues/{id}/tournaments`` (POST, then GET) answered ``Allow: OPTIONS, POST``.
This hook answers OPTIONS itself from the route as it is once every handler is
registered.
"""

from typing import Any

from litestar import Request, Response
from litestar.routes import HTTPRoute
from litestar.status_codes import HTTP_204_NO_CONTENT


def options_answer(request: Request[Any, Any, Any]) -> Response[None] | None:
    """For an OPTIONS request: 204 with ``Allow`` listing every method of the path; else None."""
    if request.method != "OPTIONS":
        return None
    paths = request.route_handler.paths
    methods = {
        method
        for route in request.app.routes
        if isinstance(route, HTTPRoute) and route.path in paths
        for method in route.methods
    }
    return Response(
        content=None, status_code=HTTP_204_NO_CONTENT, headers={"Allow": ", ".join(sorted(methods))}
    )

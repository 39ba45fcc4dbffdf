"""A refusal or a failure met by a person in a browser: a page in their language, not problem+json.

The app's exception handlers are the API's (``service.http.errors``: problem+json from one table,
the status by the code). ``for_people`` wraps each of them: it lets the API's handler answer first
(so the status, the code and the log line stay exactly the API's), and only when the request is a
browser's asking for a page (``text/html`` in its ``Accept``, a page's address) it answers the same
status with a page that says what happened and what to do, in the page's language. A program, and
every address of the API, gets the problem as before.
"""

from collections.abc import Callable
from typing import Any

from litestar import Request, Response
from litestar.enums import MediaType
from litestar.types import ExceptionHandlersMap

from service.domain.errors import RuleError
from service.web.i18n import Translate
from service.web.render import Page, wants_html

# the pages' addresses: the API's routes are everywhere else
PAGES = ("/", "/signin", "/signout")
PAGE_PREFIX = "/web/"
Handler = Callable[[Request[Any, Any, Any], Any], Response[Any]]


def page_address(path: str) -> bool:
    return path in PAGES or path.startswith(PAGE_PREFIX)


def for_people(handlers: ExceptionHandlersMap) -> ExceptionHandlersMap:
    """The same handlers, each answering a browser's page request with a page of the same status."""
    return {kind: _or_a_page(handler) for kind, handler in handlers.items()}


def _or_a_page(handler: Handler) -> Handler:
    def handle(request: Request[Any, Any, Any], error: Any) -> Response[Any]:
        answer = handler(request, error)
        if not (wants_html(request) and page_address(request.url.path)):
            return answer
        code = getattr(answer.content, "code", "internal_error")
        return error_page(request, error, answer.status_code or 500, code)

    return handle


def _sentence(_: Translate, error: Any, status: int) -> str:
    """What happened, in a sentence: the refusal's own, else the status's."""
    if isinstance(error, RuleError):
        said = error.sentence(_)
    elif status == 404:
        said = _("there is no page at this address")
    elif status >= 500:
        said = _("the service failed; the fault is logged")
    else:
        said = _("the address or the form was not understood")
    return said[:1].upper() + said[1:] + ("" if said.endswith((".", "!", "?")) else ".")


def error_page(request: Request[Any, Any, Any], error: Any, status: int, code: str) -> Response[bytes]:
    # the session is not read: a failure may come before it (an address no route has), and a page
    # that says "sign in again" should not depend on the session that failed
    page = Page(request, None)
    template = page.render("error.html", status=status, code=code, sentence=_sentence(page._, error, status))
    engine = request.app.template_engine
    assert engine is not None  # the app is made with its template engine: it serves pages
    body = engine.get_template("error.html").render(**template.context, request=request).encode()
    return Response(body, status_code=status, media_type=MediaType.HTML, cookies=template.cookies)

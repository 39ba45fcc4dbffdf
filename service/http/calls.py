"""The handler of a route that only runs one use case or query and encodes its answer.

Most routes decode their path's ids (and a body), run one use case for the signed-in caller
(``Caller``), one query of the read models with its ``?after=`` (``Reading``) or one with the
services alone (the event store's reads, a list's page), and answer the result, encoded for the
API; their handlers differed only in those things. ``calls``, ``reads`` and ``looks_up`` make such
a handler from them: the use case, the answer's type, its encoding and the parameters (name:
annotated type, in the document's order), which litestar reads from the signature made here as
from one written out. ``public_read`` is the whole route of a public read of the read models.
"""

import inspect
from collections.abc import Callable
from typing import Any, cast

from litestar import get
from litestar.handlers import HTTPRouteHandler

from service.http.routes import public_route
from service.http.services import Caller, CallerDep, Reading, ReadingDep, ServicesDep
from service.usecases.services import Services

Handler = Callable[..., Any]
# litestar's route decorators (``get``, ``post``, ``patch``, ``delete``), for the routes made here
Method = Callable[..., Callable[[Handler], HTTPRouteHandler]]


def _same(answer: Any) -> Any:
    return answer


def handler(name: str, params: dict[str, Any], answer: Any, run: Handler) -> Handler:
    """A handler (a controller's method) named ``name`` that takes ``params`` by name and answers
    ``run(**params)``: litestar documents and decodes them by the signature made here."""

    def handle(self: object, **given: Any) -> Any:
        return run(**given)

    keyword = inspect.Parameter.KEYWORD_ONLY
    handle.__signature__ = inspect.Signature(  # type: ignore[attr-defined]
        [inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD)]
        + [inspect.Parameter(key, keyword, annotation=hint) for key, hint in params.items()],
        return_annotation=answer,
    )
    handle.__annotations__ = {**params, "return": answer}
    handle.__name__ = handle.__qualname__ = name
    return handle


def calls(
    use_case: Callable[..., Any],
    answer: Any,
    *first: Any,
    encode: Callable[[Any], Any] = _same,
    **params: Any,
) -> Handler:
    """A signed-in route's handler: ``encode(caller.run(use_case, *first, *params))`` (``answer``
    None: nothing, whatever the use case returns)."""

    def run(caller: Caller, **given: Any) -> Any:
        done = caller.run(use_case, *first, *(given[key] for key in params))
        return None if answer is None else encode(done)  # an answer of None: 204, no content

    return handler(use_case.__name__, {"caller": CallerDep, **params}, answer, run)


def reads(
    query: Callable[..., Any], answer: Any, encode: Callable[[Any], Any] = _same, **params: Any
) -> Handler:
    """A read model's route's handler: ``encode(reading.run(query, *params))``, the reading taken
    last (the document names ``after`` after the path's parameters)."""

    def run(reading: Reading, **given: Any) -> Any:
        # ``Reading.run`` checks a query's arguments where it is written out; here they are the route's
        return encode(
            reading.run(
                cast("Callable[[Services, *tuple[Any, ...], int | None], Any]", query),
                *(given[key] for key in params),
            )
        )

    return handler(query.__name__, {**params, "reading": ReadingDep}, answer, run)


def looks_up(
    query: Callable[..., Any], answer: Any, encode: Callable[[Any], Any] = _same, **params: Any
) -> Handler:
    """A route's handler that runs ``query`` with the services and its parameters, and encodes the
    answer: a read of the event store (current at once), or a page of a list without filters."""

    def run(services: Services, **given: Any) -> Any:
        return encode(query(services, *(given[key] for key in params)))

    return handler(query.__name__, {"services": ServicesDep, **params}, answer, run)


def public_read(
    path: str,
    operation_id: str,
    summary: str,
    query: Callable[..., Any],
    answer: Any,
    description: str | None = None,
    **params: Any,
) -> HTTPRouteHandler:
    """A public ``GET`` of the read models (404: what it reads is not there): ``reads``'s handler."""
    return get(
        path, operation_id=operation_id, summary=summary, description=description, **public_route(404)
    )(reads(query, answer, **params))

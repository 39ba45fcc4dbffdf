"""Every refusal as problem+json (RFC 9457), from one table: the stable code decides the status.

A response body is a ``Problem``: ``type`` (``urn:maumau:problem:<code>``),
``title`` (the status's phrase), ``status``, ``detail`` (for people; it never
names a card the asker does not hold), ``code`` (for programs) and, for
malformed requests, ``errors`` (which field, what was wrong). The media type is
``application/problem+json``. A refused request has changed nothing.

The status of each code is the refusals' registry's (``service.usecases.refusals``).
"""

import logging
from http import HTTPStatus
from typing import Any

import msgspec
from eventsourcing.persistence import InterfaceError, OperationalError
from litestar import Request, Response
from litestar.exceptions import HTTPException, ValidationException
from litestar.openapi.datastructures import ResponseSpec
from litestar.openapi.spec import Example
from litestar.types import ExceptionHandlersMap

from service.domain.errors import RuleError
from service.usecases.refusals import CODES, UNPROCESSABLE, status_of

PROBLEM_MEDIA_TYPE = "application/problem+json"

log = logging.getLogger(__name__)


class FieldError(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    message: str
    key: str | None = None  # the field, parameter or header
    source: str | None = None  # "body", "query", "header", "path"


class Problem(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    type: str
    title: str
    status: int
    detail: str
    code: str
    errors: list[FieldError] | None = None


def problem(
    code: str, detail: str, errors: list[FieldError] | None = None, status: int | None = None
) -> Problem:
    """The refusal of this code; ``status`` only where litestar chose it (``on_http_exception``)."""
    status = status_of(code) if status is None else status
    return Problem(
        type=f"urn:maumau:problem:{code}",
        title=HTTPStatus(status).phrase,
        status=status,
        detail=detail,
        code=code,
        errors=errors,
    )


def respond(found: Problem, headers: dict[str, str] | None = None) -> Response[Problem]:
    return Response(found, status_code=found.status, media_type=PROBLEM_MEDIA_TYPE, headers=headers)


def _headers(code: str) -> dict[str, str] | None:
    return {"WWW-Authenticate": 'Bearer realm="maumau"'} if code == "unauthorized" else None


def on_rule_error(_: Request[Any, Any, Any], error: RuleError) -> Response[Problem]:
    return respond(problem(error.code, error.message), _headers(error.code))


_CODE_OF_STATUS = {400: "malformed_request", 401: "unauthorized", 403: "forbidden", 404: "not_found"}
_CODE_OF_STATUS |= {405: "method_not_allowed", 413: "request_too_large", 415: "unsupported_media_type"}
_CODE_OF_STATUS |= {503: "unavailable"}


def on_http_exception(_: Request[Any, Any, Any], error: HTTPException) -> Response[Problem]:
    """litestar's own refusals: a body or a parameter that does not decode, no such route, ..."""
    status = error.status_code
    if status >= 500:
        log.error("HTTP %s: %s", status, error.detail, exc_info=error)
        return respond(problem("internal_error", "the service failed; the fault is logged"))
    code = _CODE_OF_STATUS.get(status, "malformed_request")
    errors = None
    if isinstance(error, ValidationException) and isinstance(error.extra, list):
        errors = [
            FieldError(message=str(item.get("message", "")), key=item.get("key"), source=item.get("source"))
            for item in error.extra
            if isinstance(item, dict)
        ]
    if errors:
        detail = "the request is malformed: " + "; ".join(
            f"{item.key}: {item.message}" if item.key else item.message for item in errors
        )
    elif status == 400:
        detail = f"the request is malformed: {error.detail}"
    else:
        detail = str(error.detail)
    return respond(problem(code, detail, errors, status), error.headers or _headers(code))


def on_database_error(_: Request[Any, Any, Any], error: Exception) -> Response[Problem]:
    log.error("the database does not answer: %s", error)
    return respond(problem("unavailable", "the database does not answer; try again shortly"))


def on_unexpected(_: Request[Any, Any, Any], error: Exception) -> Response[Problem]:
    log.exception("unexpected error", exc_info=error)
    return respond(problem("internal_error", "the service failed; the fault is logged"))


EXCEPTION_HANDLERS: ExceptionHandlersMap = {
    RuleError: on_rule_error,
    HTTPException: on_http_exception,
    OperationalError: on_database_error,
    InterfaceError: on_database_error,
    Exception: on_unexpected,
}


def problems(*statuses: int) -> dict[int, ResponseSpec]:
    """The OpenAPI responses of these error statuses, each listing its codes.

    400 and 401 are on every route: any parameter may be malformed, any token bad.
    """
    specs = {}
    for status in sorted({400, 401, *statuses}):
        codes = CODES.get(status, ()) if status != 422 else UNPROCESSABLE
        example = codes[0] if codes else "malformed_request"
        specs[status] = ResponseSpec(
            data_container=Problem,
            media_type=PROBLEM_MEDIA_TYPE,
            description=f"{HTTPStatus(status).phrase}; code is one of: {', '.join(codes)}",
            generate_examples=False,
            examples=[
                Example(
                    summary=example,
                    value=msgspec.to_builtins(problem(example, "what went wrong, for people")),
                )
            ],
        )
    return specs

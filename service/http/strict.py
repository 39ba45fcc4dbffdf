"""Request bodies are decoded strictly: in JSON a string is not a number and a number not a boolean.

litestar turns a decoded body into the handler's ``data`` type in msgspec's
lax mode (the mode query strings need, where "17" must become 17), so a
body's ``{"version": "17"}`` or ``{"first_dealer": "0"}`` would pass. The
error table promises 400 ``malformed_request`` for wrong types; this
before-request hook decodes the body once more, strictly, against the
handler's ``data`` type and refuses what the lax pass would bend. A body that
is not JSON at all is left to litestar's own answer.

A body is JSON: one sent as another media type (``text/plain``, a form) is
refused with 415 ``unsupported_media_type`` rather than read as JSON anyway;
``application/json`` and ``application/*+json`` (with any parameters, a
charset say) are JSON. A body without a ``Content-Type`` is read as JSON, as
before (curl's ``--data-binary`` without ``-H`` sends one, clients rarely omit it).

A whole number written as a float (``17.0``, ``1e3``) is an integer, as JSON
Schema's ``integer`` says.

Every integer in a body must also fit in a signed 64-bit integer, as the
stores keep them: a larger one (a first dealer of 2**64, say) would otherwise
pass the rules and fail when the event is written, as a 500.
"""

from typing import Any

import msgspec
from litestar import Request
from litestar.exceptions import HTTPException, ValidationException

from service.http.params import LARGEST

SMALLEST = -LARGEST - 1


async def strict_body(request: Request[Any, Any, Any]) -> None:
    field = request.route_handler.parsed_data_field
    if field is None:
        return
    body = await request.body()  # kept by litestar for the handler's own decoding
    if not body:
        if not field.is_optional:  # litestar would say no more than "data: 'data'"
            raise _malformed("a JSON body is required", "data")
        return
    media_type = request.headers.get("content-type")
    if media_type is not None and not is_json(media_type):
        raise HTTPException(
            status_code=415, detail=f"the body must be JSON (application/json), not {media_type}"
        )
    try:
        decoded = msgspec.json.decode(body)
    except msgspec.DecodeError:
        return
    strictly(decoded, field.annotation)


def strictly(decoded: Any, annotation: Any) -> Any:
    """A body decoded from JSON as ``annotation``, by the rules above (a 400 ``ValidationException``
    otherwise): the move POST's and the play socket's (``service.http.play_socket``) alike."""
    decoded = _whole_numbers_as_ints(decoded)
    try:
        converted = msgspec.convert(decoded, type=annotation, strict=True)
    except msgspec.ValidationError as error:
        message, _, where = str(error).partition(" - at `$")
        raise _malformed(message, where.rstrip("`").lstrip(".") or "data") from None
    outside = _out_of_range(decoded, "")
    if outside is not None:
        raise _malformed(f"a number outside {SMALLEST}..{LARGEST}", outside or "data")
    return converted


def _whole_numbers_as_ints(value: Any) -> Any:
    """``17.0`` and ``1e3`` as the integers they are: JSON Schema's ``integer`` is any number without a
    fraction, so a client may send an integer field so (litestar's lax decoding takes them too)."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, dict):
        return {key: _whole_numbers_as_ints(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_whole_numbers_as_ints(item) for item in value]
    return value


def is_json(content_type: str) -> bool:
    """``application/json`` or ``application/<anything>+json``, parameters aside, any case."""
    kind, _, subtype = content_type.partition(";")[0].strip().lower().partition("/")
    return kind == "application" and (subtype == "json" or subtype.endswith("+json"))


def _out_of_range(value: Any, at: str) -> str | None:
    """Where in a decoded body an integer does not fit in the 64 bits the stores keep, if anywhere."""
    if isinstance(value, int) and not isinstance(value, bool):
        return None if SMALLEST <= value <= LARGEST else at
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for key, item in items:
        found = _out_of_range(item, f"{at}.{key}" if isinstance(key, str) else f"{at}[{key}]")
        if found is not None:
            return found.lstrip(".")
    return None


def _malformed(message: str, key: str) -> ValidationException:
    return ValidationException(
        detail=f"{key}: {message}", extra=[{"message": message, "key": key, "source": "body"}]
    )

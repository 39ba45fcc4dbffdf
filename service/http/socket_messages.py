"""The play socket's messages (``service.http.play_socket``): what a client sends, and the three kinds
the server sends, each a JSON object with a ``type``.

Sent by the client: ``{"type": "move", "key": "...", "body": {...}}``, the body of ``POST
/games/{id}/moves`` (``Move``: the expected ``version`` in it), the key its ``Idempotency-Key``
header (optional, 1-200 characters); ``"type": "challenge"`` takes the body of ``POST
/games/{id}/challenges``. Decoded as strictly as the POST's body (``service.http.strict``).

Sent by the server: ``answer`` (``key``, ``status`` 200 and in ``data`` the JSON the POST answers),
``problem`` (``key``, ``status`` and in ``data`` the problem+json body the POST would answer:
``code``, ``detail``, ...) and ``view`` (``version`` and in ``data`` the view the seat's SSE stream
sends: the same bytes).
"""

from typing import Annotated, Any, Literal, cast

import msgspec
from litestar.exceptions import ValidationException

from service.http.errors import EXCEPTION_HANDLERS, Problem
from service.http.strict import strictly
from service.usecases.events import CommandResult
from service.usecases.games import ChallengeCreate, Move

Key = Annotated[str, msgspec.Meta(min_length=1, max_length=200)]  # as the POST's Idempotency-Key


class Sent(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A client's message, its body not yet decoded (``command``)."""

    type: Literal["move", "challenge"]
    body: Any
    key: Key | None = None


class Reply(msgspec.Struct, frozen=True):
    type: Literal["answer", "problem"]
    key: str | None
    status: int
    data: CommandResult | Problem


_decode = msgspec.json.Decoder(Sent).decode
_encode = msgspec.json.Encoder().encode
_BODIES: dict[str, Any] = {"move": Move, "challenge": ChallengeCreate}


def received(data: str | bytes) -> Sent:
    """A client's message; a 400 ``ValidationException`` for one that is not JSON or not of this form."""
    try:
        return _decode(data)
    except msgspec.ValidationError as error:
        message, _, where = str(error).partition(" - at `$")
        key = where.rstrip("`").lstrip(".") or "message"
        raise ValidationException(
            detail=f"{key}: {message}", extra=[{"message": message, "key": key, "source": "message"}]
        ) from None
    except msgspec.DecodeError as error:
        raise ValidationException(detail=f"the message is not JSON: {error}") from None


def command(sent: Sent) -> Move | ChallengeCreate:
    """The message's body as its POST's, decoded as strictly (400 where the POST's would be)."""
    found: Move | ChallengeCreate = strictly(sent.body, _BODIES[sent.type])
    return found


def problem_of(error: Exception) -> Problem:
    """The problem+json body the API answers ``error`` with (its exception handlers', unchanged)."""
    for kind in type(error).__mro__:
        handler = EXCEPTION_HANDLERS.get(kind)
        if handler is not None:
            # the handlers read nothing of the request
            return cast("Problem", handler(cast("Any", None), error).content)
    raise error  # pragma: no cover - ``Exception`` has its handler


def answer(key: str | None, result: CommandResult) -> bytes:
    return _encode(Reply("answer", key, 200, result))


def refusal(key: str | None, found: Problem) -> bytes:
    return _encode(Reply("problem", key, found.status, found))


def view(version: int, data: bytes) -> bytes:
    """A view as the seat's SSE stream sends it (``data``: its JSON), in the socket's envelope."""
    return b'{"type":"view","version":%d,"data":%s}' % (version, data)

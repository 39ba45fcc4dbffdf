"""Logging: one configuration per process, JSON lines or text, every line with its request id.

``configure(settings)`` sets the root logger's level (``MAUMAU_LOG_LEVEL``) and
one handler on standard error whose format is ``MAUMAU_LOG_FORMAT``: ``json``
(one object per line: ``time``, ``level``, ``logger``, ``message``, the
request id while a request is served, any ``extra`` fields, ``exception``),
``text`` (the same, for people) or ``auto`` (text on a terminal, else json).
uvicorn's loggers are led to the same handler; its access log is quietened,
since ``service.observability.requests`` logs every request itself (by route
template, never the raw path or query). Configuring again replaces the handler.

``uvicorn_log_config(settings)`` is the same for ``uvicorn.run(log_config=...)``,
so the server's own first lines are formatted alike.

What is logged is the caller's business, with one rule: never a token, a
card or a stock order (the request line holds the method, route template,
status, duration, request id and the actor's role only).
"""

import contextvars
import logging
import sys
from datetime import UTC, datetime
from functools import lru_cache
from typing import Any, TextIO

import msgspec

from service.settings import Settings

HANDLER_NAME = "maumau"
# the request being served (set by the request middleware, copied into the handler's threads)
REQUEST_ID: contextvars.ContextVar[str | None] = contextvars.ContextVar("maumau_request_id", default=None)

# attributes every LogRecord has: anything else on a record came as ``extra``
_RECORD_FIELDS = frozenset(vars(logging.LogRecord("", 0, "", 0, "", (), None))) | {
    "message",
    "asctime",
    "color_message",  # uvicorn's copy of the message with terminal colours
    "taskName",
}
_encode = msgspec.json.Encoder(enc_hook=str).encode


def _extras(record: logging.LogRecord) -> dict[str, Any]:
    found = {key: value for key, value in vars(record).items() if key not in _RECORD_FIELDS}
    request_id = REQUEST_ID.get()
    if request_id is not None:
        found.setdefault("request_id", request_id)
    return found


def _time(record: logging.LogRecord) -> str:
    """``2026-12-01T15:03:40.123+00:00``: the date and time made once per second (a line per request)."""
    second, fraction = divmod(record.created, 1)
    return f"{_second(int(second))}.{int(fraction * 1000):03d}+00:00"


@lru_cache(maxsize=4)
def _second(second: int) -> str:
    return datetime.fromtimestamp(second, UTC).strftime("%Y-%m-%dT%H:%M:%S")


class JsonFormatter(logging.Formatter):
    """One JSON object per line."""

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "time": _time(record),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
            **_extras(record),
        }
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        if record.stack_info:
            entry["stack"] = self.formatStack(record.stack_info)
        return _encode(entry).decode()


class TextFormatter(logging.Formatter):
    """``time level logger: message key=value ...``, then the traceback."""

    def format(self, record: logging.LogRecord) -> str:
        fields = " ".join(f"{key}={value}" for key, value in _extras(record).items())
        line = f"{_time(record)} {record.levelname:<7} {record.name}: {record.getMessage()}"
        if fields:
            line = f"{line}  {fields}"
        if record.exc_info:
            line = f"{line}\n{self.formatException(record.exc_info)}"
        if record.stack_info:
            line = f"{line}\n{self.formatStack(record.stack_info)}"
        return line


class StderrHandler(logging.Handler):
    """Writes to ``sys.stderr`` as it is when a line is written (a redirect or capture made later)."""

    terminator = "\n"

    @property
    def stream(self) -> TextIO:
        return sys.stderr

    def emit(self, record: logging.LogRecord) -> None:
        try:
            self.stream.write(self.format(record) + self.terminator)
            self.stream.flush()
        except Exception:
            self.handleError(record)


def formatter(log_format: str) -> logging.Formatter:
    """The formatter ``MAUMAU_LOG_FORMAT`` names (``auto``: text when standard error is a terminal)."""
    if log_format == "auto":
        log_format = "text" if _terminal(sys.stderr) else "json"
    return TextFormatter() if log_format == "text" else JsonFormatter()


def _terminal(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):  # replaced by something without a descriptor, or closed
        return False


def configure(settings: Settings) -> None:
    """Log to standard error in the configured format and level, uvicorn's loggers included."""
    handler = StderrHandler()
    handler.set_name(HANDLER_NAME)
    handler.setFormatter(formatter(settings.log_format))
    root = logging.getLogger()
    for old in [h for h in root.handlers if h.get_name() == HANDLER_NAME]:
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(settings.log_level)
    for name in ("uvicorn", "uvicorn.error", "uvicorn.access"):
        logger = logging.getLogger(name)
        logger.handlers.clear()
        logger.propagate = True
        logger.setLevel(logging.NOTSET)
    # the request middleware logs each request (by route template); uvicorn's line would repeat it
    logging.getLogger("uvicorn.access").setLevel(logging.WARNING)


def uvicorn_log_config(settings: Settings) -> dict[str, Any]:
    """A ``logging.config.dictConfig`` for ``uvicorn.run(log_config=...)``: the same as ``configure``."""
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"maumau": {"()": f"{__name__}.formatter", "log_format": settings.log_format}},
        "handlers": {"maumau": {"()": f"{__name__}.StderrHandler", "formatter": "maumau"}},
        "root": {"level": settings.log_level, "handlers": ["maumau"]},
        "loggers": {
            "uvicorn": {"handlers": [], "propagate": True, "level": "NOTSET"},
            "uvicorn.error": {"handlers": [], "propagate": True, "level": "NOTSET"},
            "uvicorn.access": {"handlers": [], "propagate": True, "level": "WARNING"},
        },
    }

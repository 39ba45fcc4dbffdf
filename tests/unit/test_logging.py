"""The log formats, the request id in every line, and one configuration per process."""

import json
import logging
import logging.config
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from service.observability import logs
from service.observability.requests import request_id_of
from service.settings import Settings


def record(message: str = "hello %s", *args: object, **extra: object) -> logging.LogRecord:
    made = logging.getLogger("maumau.test").makeRecord(
        "maumau.test", logging.INFO, __file__, 1, message, args or ("world",), None
    )
    for key, value in extra.items():
        setattr(made, key, value)
    return made


@pytest.fixture
def restored_logging() -> Iterator[None]:
    """Put the root and uvicorn loggers back as they were: configure() changes them for the process."""
    names = ["", "uvicorn", "uvicorn.error", "uvicorn.access"]
    saved = {
        name: (
            list(logging.getLogger(name).handlers),
            logging.getLogger(name).level,
            logging.getLogger(name).propagate,
        )
        for name in names
    }
    yield
    for name, (handlers, level, propagate) in saved.items():
        logger = logging.getLogger(name)
        logger.handlers[:] = handlers
        logger.setLevel(level)
        logger.propagate = propagate


def test_a_json_line_has_the_time_level_logger_message_and_the_extra_fields():
    line = logs.JsonFormatter().format(record(route="/games/{game_id:uuid}", status=200))
    entry = json.loads(line)
    assert entry["level"] == "INFO" and entry["logger"] == "maumau.test"
    assert entry["message"] == "hello world"
    assert entry["route"] == "/games/{game_id:uuid}" and entry["status"] == 200
    assert entry["time"].endswith("+00:00") and "T" in entry["time"]
    assert "\n" not in line


def test_a_json_line_carries_the_request_id_of_the_request_being_served():
    token = logs.REQUEST_ID.set("req-42")
    try:
        entry = json.loads(logs.JsonFormatter().format(record()))
    finally:
        logs.REQUEST_ID.reset(token)
    assert entry["request_id"] == "req-42"
    assert "request_id" not in json.loads(logs.JsonFormatter().format(record()))


def test_a_json_line_keeps_an_exception_on_the_same_line_and_survives_values_json_does_not_know():
    try:
        raise ValueError("boom")
    except ValueError:
        failed = record(exc_info=sys.exc_info(), thing=object())
    line = logs.JsonFormatter().format(failed)
    entry = json.loads(line)
    assert "ValueError: boom" in entry["exception"] and "\n" not in line
    assert entry["thing"].startswith("<object object")


def test_a_text_line_shows_the_message_then_the_fields():
    line = logs.TextFormatter().format(record(status=404, route="unmatched"))
    assert " INFO    maumau.test: hello world  status=404 route=unmatched" in line


def test_uvicorns_coloured_copy_of_the_message_is_left_out():
    entry = json.loads(logs.JsonFormatter().format(record(color_message="\x1b[1mhello\x1b[0m")))
    assert "color_message" not in entry


def test_auto_is_text_on_a_terminal_and_json_otherwise(monkeypatch):
    class Terminal:
        def isatty(self) -> bool:
            return True

    monkeypatch.setattr(sys, "stderr", Terminal())
    assert isinstance(logs.formatter("auto"), logs.TextFormatter)
    assert isinstance(logs.formatter("json"), logs.JsonFormatter)
    monkeypatch.undo()
    monkeypatch.setattr(sys, "stderr", object())  # no isatty at all: not a terminal
    assert isinstance(logs.formatter("auto"), logs.JsonFormatter)
    assert isinstance(logs.formatter("text"), logs.TextFormatter)


@pytest.mark.usefixtures("restored_logging")
def test_configuring_twice_leaves_one_handler_and_leads_uvicorns_loggers_to_it(capsys):
    logs.configure(Settings(log_format="json", log_level="WARNING"))
    logs.configure(Settings(log_format="json", log_level="INFO"))
    root = logging.getLogger()
    ours = [handler for handler in root.handlers if handler.get_name() == logs.HANDLER_NAME]
    assert len(ours) == 1 and root.level == logging.INFO
    logging.getLogger("uvicorn.error").info("Started server process [%d]", 7)
    logging.getLogger("uvicorn.access").info('127.0.0.1 - "GET /games/x?token=secret HTTP/1.1" 200')
    lines = [json.loads(line) for line in capsys.readouterr().err.splitlines()]
    assert [(entry["logger"], entry["message"]) for entry in lines] == [
        ("uvicorn.error", "Started server process [7]")
    ]


@pytest.mark.usefixtures("restored_logging")
def test_the_uvicorn_log_config_formats_as_configure_does(capsys):
    logging.config.dictConfig(logs.uvicorn_log_config(Settings(log_format="text", log_level="DEBUG")))
    logging.getLogger("uvicorn.error").debug("Waiting for application startup.")
    logging.getLogger("uvicorn.access").info("an access line")
    err = capsys.readouterr().err
    assert "DEBUG   uvicorn.error: Waiting for application startup." in err
    assert "an access line" not in err
    assert logging.getLogger().level == logging.DEBUG


@pytest.mark.parametrize("sent", ["abc-123", "2f1c.9:x_y", "a" * 128])
def test_a_plain_request_id_from_the_client_is_kept(sent):
    assert request_id_of({"headers": [(b"x-request-id", sent.encode())]}) == sent


@pytest.mark.parametrize("sent", [b"", b"a" * 129, b"two words", b"line\nbreak", b'{"level":"ERROR"}'])
def test_a_request_id_that_could_forge_a_log_line_is_replaced_by_a_new_one(sent):
    found = request_id_of({"headers": [(b"x-request-id", sent)]})
    assert found != sent.decode() and len(found) == 32 and int(found, 16) >= 0


def test_without_a_request_id_each_request_gets_a_new_one():
    assert request_id_of({"headers": []}) != request_id_of({"headers": []})


@pytest.mark.usefixtures("restored_logging")
def test_the_deploy_log_config_for_uvicorn_writes_json_and_configure_then_takes_its_place(capsys):
    config = json.loads((Path(__file__).parents[2] / "deploy" / "uvicorn-logging.json").read_text())
    logging.config.dictConfig(config)
    logging.getLogger("uvicorn.error").info("Started parent process [%d]", 1)
    assert json.loads(capsys.readouterr().err)["message"] == "Started parent process [1]"
    logs.configure(Settings(log_format="text"))
    logging.getLogger("uvicorn.error").info("Application startup complete.")
    assert capsys.readouterr().err.count("Application startup complete.") == 1  # one handler, not two

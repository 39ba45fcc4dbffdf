"""A refusal or a failure met by a browser on a page's address is a page in its language with the
API's status; a program, and every address of the API, gets the problem+json as before
(``service/web/errors.py`` around the API's handlers). Without a server: a small app whose routes
fail as the real ones can (a server error, the database gone, a refusal), with the app's handlers."""

import logging
from types import SimpleNamespace
from typing import Any

import pytest
from eventsourcing.persistence import OperationalError
from litestar import Litestar, get
from litestar.testing import TestClient

from service.domain.errors import RuleError
from service.http.errors import EXCEPTION_HANDLERS
from service.web.errors import for_people
from service.web.i18n import read_catalogues
from service.web.render import template_config

HTML = {"Accept": "text/html,application/xhtml+xml,*/*;q=0.8"}


@get("/web/boom")
async def boom() -> None:
    raise ValueError("a bug")


@get("/web/gone")
async def gone() -> None:
    raise OperationalError("the database went away")


@get("/web/refused")
async def refused() -> None:
    raise RuleError("csrf_failed")


@get("/leagues/boom")
async def api_boom() -> None:
    raise ValueError("a bug")


@pytest.fixture(scope="module")
def client() -> Any:
    app = Litestar(
        route_handlers=[boom, gone, refused, api_boom],
        exception_handlers=for_people(EXCEPTION_HANDLERS),
        template_config=template_config(),
        debug=False,
    )
    app.state.catalogues = read_catalogues()
    app.state.services = SimpleNamespace(settings=SimpleNamespace(secure_cookies="no"))
    with TestClient(app, raise_server_exceptions=False) as found:
        yield found


def test_a_server_error_on_a_page_is_a_500_page_in_the_readers_language_and_still_logged(
    client: Any, caplog: pytest.LogCaptureFixture
):
    with caplog.at_level(logging.ERROR):
        answer = client.get("/web/boom", params={"lang": "ru"}, headers=HTML)
    assert (answer.status_code, answer.headers["content-type"]) == (500, "text/html; charset=utf-8")
    assert "Что-то пошло не так" in answer.text and 'data-code="internal_error"' in answer.text
    assert "a bug" not in answer.text and 'href="/"' in answer.text
    assert any(record.levelno == logging.ERROR for record in caplog.records)


def test_the_database_gone_is_a_503_page_for_a_browser(client: Any):
    answer = client.get("/web/gone", params={"lang": "uk"}, headers=HTML)
    assert answer.status_code == 503 and "Щось пішло не так" in answer.text
    assert 'data-code="unavailable"' in answer.text


def test_a_refusal_on_a_page_says_what_to_do_in_the_readers_language(client: Any):
    answer = client.get("/web/refused", headers={**HTML, "Accept-Language": "uk"})
    assert answer.status_code == 403 and '<html lang="uk">' in answer.text
    assert "оновіть сторінку" in answer.text and 'data-code="csrf_failed"' in answer.text


@pytest.mark.parametrize("path", ["/web/boom", "/web/refused", "/web/nothing"])
def test_a_program_gets_the_problem_as_before(client: Any, path: str):
    answer = client.get(path)  # no text/html in its Accept
    assert answer.headers["content-type"] == "application/problem+json"
    assert answer.json()["status"] == answer.status_code


def test_an_address_of_the_api_answers_a_browser_with_the_problem(client: Any):
    answer = client.get("/leagues/boom", headers=HTML)
    assert (answer.status_code, answer.headers["content-type"]) == (500, "application/problem+json")
    assert answer.json()["code"] == "internal_error"


def test_an_unknown_page_is_a_404_page(client: Any):
    answer = client.get("/web/nothing", params={"lang": "en"}, headers=HTML)
    assert answer.status_code == 404 and "There is no page at this address." in answer.text

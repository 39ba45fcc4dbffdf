"""The pages in a real browser: ``maumau serve`` on a real PostgreSQL (a schema of its own, dropped
at the end) with its embedded worker and beat, and Debian's chromium driven by Playwright.

The browser is launched by its path: Playwright's own browser download cannot reach the internet
here, and ``.ci/run`` installs the ``chromium`` and ``chromium-headless-shell`` packages when they
are missing. The tests drive the headless shell (Debian's build of Chromium's own headless browser,
as Playwright's headless default is): the same Blink at a third less CPU than the full browser run
headless. The full browser drives the notification tests (``notifying_browser``): the shell denies
the notification permission a context is granted. Every test's browser
context refuses any request that is not to the service and says so (``outside``), so a page that
needed the internet would fail here as it would in a club's back room.
"""

import re
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx
import pytest
from playwright.sync_api import Browser, BrowserContext, Page, Playwright, Route, sync_playwright

from tests.e2e.club import ADMIN_TOKEN, Club
from tests.e2e.test_embedded import WAIT, free_port, serving
from tests.schemas import own_schema

CHROMIUM = "/usr/bin/chromium"
HEADLESS_SHELL = "/usr/lib/chromium/chromium-headless-shell"
PHONE = {"width": 360, "height": 740}
FAST = {"MAUMAU_BOT_THINK": "0.02", "MAUMAU_TICK": "0.2"}


@pytest.fixture(scope="session")
def web_schema(database_url: str) -> Iterator[str]:
    with own_schema(database_url, "maumau_web") as schema:
        yield schema


@pytest.fixture(scope="session")
def base(database_url: str, web_schema: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The address of a real ``maumau serve``."""
    port = free_port()
    env = {
        "MAUMAU_DATABASE_URL": database_url,
        "MAUMAU_DATABASE_SCHEMA": web_schema,
        "MAUMAU_ADMIN_TOKEN": ADMIN_TOKEN,
        **FAST,
    }
    with serving(tmp_path_factory.mktemp("web"), port, env=env):
        yield f"http://127.0.0.1:{port}"


@pytest.fixture(scope="session")
def club(base: str) -> Iterator[Club]:
    with httpx.Client(base_url=base, timeout=30) as client:
        yield Club(client)  # type: ignore[arg-type]  # the same request() as litestar's TestClient


@dataclass
class Scene:
    """A league of two players with a tournament of one table between them, under way."""

    league: str
    players: dict[str, str]  # name -> id
    tokens: dict[str, str]  # name -> token
    tournament: str
    game: str


@pytest.fixture(scope="session")
def scene(club: Club) -> Scene:
    return new_scene(club)


def new_scene(club: Club) -> Scene:
    names = [f"Ada {uuid.uuid4().hex[:4]}", f"Bo {uuid.uuid4().hex[:4]}"]
    players, tokens = {}, {}
    for name in names:
        created = club.ok("POST", "/players", json={"name": name})
        players[name] = created["player"]["player_id"]
        tokens[name] = created["token"]["token"]
    league = club.league(
        members=list(players.values()), name=f"Wiener {uuid.uuid4().hex[:6]}", options={"hand_size": 3}
    )
    plan = {"name": "Tuesday cup", "format": "swiss", "table_size": 2, "rounds": 1, "single_round": True}
    tournament = club.ok("POST", f"/leagues/{league}/tournaments", json=plan)["tournament_id"]
    for player in players.values():
        club.ok("POST", f"/tournaments/{tournament}/entrants", json={"player_id": player})
    club.ok("POST", f"/tournaments/{tournament}/start")
    return Scene(league, players, tokens, tournament, first_game(club, tournament))


def first_game(club: Club, tournament: str) -> str:
    """The game of the tournament's first table, once the workers have made it."""
    deadline = time.monotonic() + WAIT
    while True:
        rounds = club.ok("GET", f"/tournaments/{tournament}")["rounds"]
        if rounds and rounds[0]["tables"][0]["game_id"]:
            return rounds[0]["tables"][0]["game_id"]
        assert time.monotonic() < deadline, "the round's game was not made"
        time.sleep(0.1)


@pytest.fixture(scope="session")
def playwright() -> Iterator[Playwright]:
    with sync_playwright() as driver:
        yield driver


@pytest.fixture(scope="session")
def browser(playwright: Playwright) -> Iterator[Browser]:
    launched = playwright.chromium.launch(executable_path=HEADLESS_SHELL)
    yield launched
    launched.close()


@pytest.fixture(scope="session")
def notifying_browser(playwright: Playwright) -> Iterator[Browser]:
    """The full browser, which grants a context the notification permission it is given."""
    launched = playwright.chromium.launch(executable_path=CHROMIUM)
    yield launched
    launched.close()


@dataclass
class Visit:
    context: BrowserContext
    page: Page
    outside: list[str] = field(default_factory=list)  # requests refused: not to the service


@pytest.fixture
def visit(browser: Browser, base: str, request: pytest.FixtureRequest) -> Iterator[Visit]:
    """A fresh browser context on a 360 px wide screen that reaches nothing but the service."""
    options: dict[str, Any] = getattr(request, "param", {})
    context = browser.new_context(viewport=PHONE, base_url=base, **options)
    found = Visit(context, context.new_page())
    only_the_service(context, base, found.outside)
    yield found
    context.close()


def only_the_service(context: BrowserContext, base: str, outside: list[str] | None = None) -> None:
    """Refuse the context's every request that is not to the service (kept in ``outside``). Only
    those are routed: the browser matches the pattern itself, so the service's own requests never
    make a round trip through this process."""

    def refuse(route: Route) -> None:
        if outside is not None:
            outside.append(route.request.url)
        route.abort()

    context.route(re.compile(rf"^(?!{re.escape(base)}/)"), refuse)


def sign_in(page: Page, token: str) -> None:
    """As a person signs in with a link: the link fills the form, its button signs in."""
    page.goto(f"/signin?token={token}")
    page.locator("form.offer button").click()
    page.wait_for_url(lambda url: not url.endswith("/signin"))


def sign_out(page: Page) -> None:
    """The header's sign-out button, and its answer waited for: a sign-in begun while the sign-out is
    under way can have its new session cleared by the sign-out's answer."""
    page.locator("form[action='/signout'] button").click()
    page.wait_for_url(lambda url: urlsplit(url).path == "/")


def sign_in_over_http(client: httpx.Client, token: str) -> None:
    """The same without a browser: the link, then the form posted with the session's form token."""
    assert client.get("/signin", params={"token": token}).status_code == 302
    found = re.search(r'name="csrf" value="([^"]+)"', client.get("/signin").text)
    assert found is not None, "the sign-in page has no form token"
    assert client.post("/signin", data={"csrf": found.group(1)}).status_code == 303


@pytest.fixture(scope="session")
def screenshots() -> Path:
    """Where the tests keep a picture of each page (the test artefacts)."""
    folder = Path(__file__).resolve().parents[2] / "var" / "screenshots"
    folder.mkdir(parents=True, exist_ok=True)
    return folder

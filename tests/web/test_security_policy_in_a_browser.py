"""The pages under their Content-Security-Policy in a real browser: the main pages, for the public,
for a seated player and for a referee, draw and run their scripts (the live parts fetch, the streams
open, the play page's form works) with no violation of the policy. An inline script, which the
policy forbids, is refused and seen: the watch below would notice a page that needed one."""

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from tests.e2e.club import Club
from tests.web.conftest import Scene, Visit, new_scene, sign_in
from tests.web.refereeing import disputed_game

# every violation, as the page's own event reports it (an init script runs outside the policy)
WATCH = """
window.violations = [];
document.addEventListener("securitypolicyviolation", (event) => {
  window.violations.push(event.violatedDirective + " " + event.blockedURI);
});
"""


class Watched:
    """A page whose policy violations are kept, from its console and from its own events."""

    def __init__(self, context: BrowserContext) -> None:
        context.add_init_script(WATCH)
        self.page: Page = context.new_page()
        self.console: list[str] = []
        self.page.on("console", self._keep)

    def _keep(self, message: object) -> None:
        text = getattr(message, "text", "")
        if "Content Security Policy" in text or "Content-Security-Policy" in text:
            self.console.append(text)

    def violations(self) -> list[str]:
        return [*self.console, *self.page.evaluate("window.violations")]

    def open(self, path: str) -> None:
        answer = self.page.goto(path)
        assert answer is not None and answer.status < 400, (path, answer and answer.status)
        assert "frame-ancestors 'none'" in answer.headers["content-security-policy"], path
        assert answer.headers["x-content-type-options"] == "nosniff", path
        assert self.violations() == [], path


@pytest.fixture
def watched(visit: Visit) -> Watched:
    return Watched(visit.context)


@pytest.fixture
def other(browser: Browser, base: str) -> Iterator[BrowserContext]:
    context = browser.new_context(base_url=base)
    yield context
    context.close()


def test_the_public_pages_run_their_scripts_with_no_policy_violation(watched: Watched, scene: Scene):
    page = watched.page
    ada = next(iter(scene.players))
    for path in ("/", f"/web/leagues/{scene.league}", f"/web/players/{scene.players[ada]}", "/signin"):
        watched.open(path)
    watched.open("/schema/swagger")
    expect(page.locator("h1")).to_be_visible()
    with page.expect_request(lambda request: "fragment=1" in request.url):  # live.js polls
        watched.open(f"/web/tournaments/{scene.tournament}")
    with page.expect_request(lambda request: "fragment=1" in request.url):
        watched.open(f"/web/tournaments/{scene.tournament}?display=1")
    with page.expect_request(lambda request: request.url.endswith(f"/games/{scene.game}/stream")):
        watched.open(f"/web/games/{scene.game}")
    assert watched.violations() == []


def test_a_seated_players_pages_and_the_play_pages_script_work_under_the_policy(watched: Watched, club: Club):
    scene = new_scene(club)
    ada = next(iter(scene.players))
    sign_in(watched.page, scene.tokens[ada])
    watched.open(f"/web/players/{scene.players[ada]}")
    expect(watched.page.get_by_role("button", name="End")).to_have_count(1)
    watched.open(f"/web/games/{scene.game}/score")
    # play.js opens the seat's play socket: the policy's 'self' allows it (a socket it refused would
    # never be opened, and be a violation)
    with watched.page.expect_websocket(lambda socket: "/me/socket" in socket.url):
        watched.open(f"/web/games/{scene.game}/play")
    assert watched.violations() == []


def test_the_referee_console_and_its_replay_script_work_under_the_policy(club: Club, other: BrowserContext):
    case = disputed_game(club)
    watched = Watched(other)
    sign_in(watched.page, case.referee)
    watched.open("/web/referee")
    watched.open(f"/web/referee/games/{case.game}")
    with watched.page.expect_request(lambda request: "/replay" in request.url):  # referee.js steps
        watched.page.get_by_role("button", name="Previous").click()
    assert watched.violations() == []


def test_an_inline_script_is_refused_by_the_policy_and_the_watch_sees_it(watched: Watched):
    watched.open("/")
    watched.page.evaluate(
        "() => { const s = document.createElement('script'); s.textContent = 'window.ran = true';"
        " document.body.append(s); }"
    )
    watched.page.wait_for_function("window.violations.length > 0")
    assert watched.page.evaluate("window.ran") is None
    assert any("script-src" in violation for violation in watched.violations())

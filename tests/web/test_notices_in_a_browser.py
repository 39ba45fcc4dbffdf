"""Browser notifications in Chromium: a player chooses "it is my move" in the browser on their own
page, allows notifications by the header's button, and while another page of the club is open (the
home page, in Ukrainian) their turn at a new table shows a Notification in that page's language;
the other player at the table, who chose the browser too but not their turn, is shown nothing. A
Mao match's seat is told of its table and its turn in Russian, and the notification leads to the
match's play page. ``window.Notification`` is wrapped by an init script that records each one made
(and its click)."""

import time
from typing import Any

from playwright.sync_api import Browser, BrowserContext, Page, expect

from tests.e2e.club import Club
from tests.e2e.test_notices import TABLE
from tests.web.conftest import PHONE, new_scene, sign_in

RECORD = """
window.__shown = [];
window.__clicks = [];
window.__streams = 0;
const Real = window.Notification;
function Recorded(title, options) {
  window.__shown.push({ title, body: (options || {}).body });
  this.addEventListener = (type, listener) => { if (type === "click") window.__clicks.push(listener); };
}
Object.defineProperty(Recorded, "permission", { get: () => Real.permission });
Recorded.requestPermission = (...args) => Real.requestPermission(...args);
window.Notification = Recorded;
const RealSource = window.EventSource;
window.EventSource = class extends RealSource {
  constructor(...args) { super(...args); this.addEventListener("open", () => { window.__streams += 1; }); }
};
"""


def _until(page: Page, expression: str, seconds: float = 20.0) -> None:
    """Poll ``expression`` in the page (the pages' policy forbids the eval ``wait_for_function`` uses)."""
    deadline = time.monotonic() + seconds
    while not page.evaluate(expression):
        assert time.monotonic() < deadline, f"never {expression}"
        page.wait_for_timeout(100)


def _context(browser: Browser, base: str, token: str) -> BrowserContext:
    context = browser.new_context(viewport=PHONE, base_url=base, permissions=["notifications"])
    context.add_init_script(RECORD)
    sign_in(context.new_page(), token)
    return context


IN_THE_BROWSER = "in this browser, while a page of the club is open"
TABLE_READY = "my table is ready (a tournament's, or a Mao match's)"


def _choose(context: BrowserContext, player_id: str, *kinds: str) -> Any:
    """The player's own page, these kinds chosen in the browser and saved."""
    page = context.pages[0]
    page.goto(f"/web/players/{player_id}")
    for label in (*kinds, IN_THE_BROWSER):
        page.get_by_label(label).check()
    page.get_by_role("button", name="Save the notifications").click()
    expect(page.locator('[data-done="notices"]')).to_be_visible()
    return page


def test_a_player_sees_it_is_your_move_on_any_open_page_and_the_other_player_nothing(
    club: Club, notifying_browser: Browser, base: str
):
    scene = new_scene(club)
    ada, bo = scene.players
    ada_context = _context(notifying_browser, base, scene.tokens[ada])
    bo_context = _context(notifying_browser, base, scene.tokens[bo])
    try:
        page = _choose(ada_context, scene.players[ada], "it is my move")
        # the permission is granted to the context already: the button has nothing to ask
        expect(page.locator("[data-notify-ask]")).to_be_hidden()
        other = _choose(bo_context, scene.players[bo], TABLE_READY)
        page.goto("/?lang=uk")
        other.goto("/")
        for opened in (page, other):
            _until(opened, "window.__streams > 0")
        club.ok("POST", "/games", json={"seats": [scene.players[ada], scene.players[bo]], **TABLE})
        _until(page, "window.__shown.length > 0")
        shown = page.evaluate("window.__shown")
        assert shown == [{"title": "Клуб Мау-Мау", "body": "Ваш хід."}]
        other.wait_for_timeout(3000)  # three looks of its stream at the store
        assert other.evaluate("window.__shown") == []
    finally:
        ada_context.close()
        bo_context.close()


def test_a_mao_seat_is_shown_its_table_and_its_turn_and_led_to_the_matchs_play_page(
    club: Club, notifying_browser: Browser, base: str
):
    scene = new_scene(club)
    ada, bo = scene.players
    league = club.league(members=list(scene.players.values()), ruleset="mao", options={"hand_size": 3})
    context = _context(notifying_browser, base, scene.tokens[ada])
    try:
        page = _choose(context, scene.players[ada], TABLE_READY, "it is my move")
        page.goto("/?lang=ru")
        _until(page, "window.__streams > 0")
        seats = [scene.players[ada], scene.players[bo], "bot:learning"]
        body = {"league_id": league, "seats": seats, "judge": "server", "first_dealer": 2}
        match = club.ok("POST", "/mao-games", json=body)["game_id"]
        _until(page, "window.__shown.length > 1")
        bodies = [shown["body"] for shown in page.evaluate("window.__shown")]
        assert bodies == ["Ваш стол Мао готов.", "Ваш ход за столом Мао."]
        page.evaluate("window.__clicks[1]()")
        page.wait_for_url(f"**/web/mao-games/{match}/play")
    finally:
        context.close()


def test_the_headers_notification_button_and_sign_out_stand_in_one_row_on_a_wide_screen(
    browser: Browser, base: str, club: Club
):
    scene = new_scene(club)
    name = next(iter(scene.players))
    context = browser.new_context(viewport={"width": 1200, "height": 800}, base_url=base)
    try:
        page = context.new_page()
        sign_in(page, scene.tokens[name])
        page.goto(f"/web/players/{scene.players[name]}")
        page.evaluate("document.querySelector('[data-notify-ask]').hidden = false")  # as notify.js shows it
        ask = page.locator("[data-notify-ask]").bounding_box()
        out = page.get_by_role("button", name="Sign out").bounding_box()
        assert ask is not None and out is not None
        assert abs(ask["y"] - out["y"]) < 2 and ask["x"] + ask["width"] <= out["x"]  # side by side
    finally:
        context.close()

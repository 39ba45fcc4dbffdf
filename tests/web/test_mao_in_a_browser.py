"""Mao's pages in a real browser: a round played through them, and their refusals.

Rita, the league's referee, writes the secret rule on the judge's console (a refused rule first,
then one checked and written) and deals her own deck; Ada and Bo play on their pages (Cy, the third
seat, acts through the API), a spectator follows the table from the league's page. Bo plays out of
turn and breaks the rule, Ada misses the rule's call and wins the round; she proposes the next rule
on her page and Rita approves it, then reads why each penalty was given. Until the reveal the rule
is on no page or fragment a player's or the spectator's browser received, nor in the seat's or the
public stream; after it, it is on their pages. No page breaks the Content-Security-Policy.
"""

import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page, Response, expect

from tests.e2e.club import Club
from tests.web.conftest import PHONE, only_the_service, sign_in, sign_in_over_http
from tests.web.mao_match import Match, deck, mao_match

RULE = 'after 5: next not clubs; on 9: say "purple giraffe"'
TELLS = ("purple giraffe", "not clubs", "after 5")
NEXT_RULE = "after K: next red"
# Ada: 5H 9H KH, Bo: 8C 5C 4H, Cy: spades; the stock, top first: what each draw and penalty takes
FIRST = deck({0: "5H 9H KH", 1: "8C 5C 4H", 2: "2S 3S 4S"}, starter="3H", stock="10D JD QD 6H 7D AD 2D")
LIVE = 20_000  # ms: a change another browser or the API made reaches a page by its stream


class Person:
    """One person's browser on a 360 px phone, every response it received kept (a stream's body
    never ends while the page lives: the streams are read apart)."""

    def __init__(self, browser: Browser, base: str, token: str | None) -> None:
        self.context = browser.new_context(viewport=PHONE, base_url=base)
        only_the_service(self.context, base)
        self.page = self.context.new_page()
        self.received: list[str] = []
        self.violations: list[str] = []  # of the Content-Security-Policy, as the console reports them
        self.page.on("response", self._keep)
        self.page.on("console", self._watch)
        if token is not None:
            sign_in(self.page, token)

    def _keep(self, response: Response) -> None:
        streamed = "text/event-stream" in response.headers.get("content-type", "")
        if not streamed and not 300 <= response.status < 400:
            self.received.append(response.text())

    def _watch(self, message: Any) -> None:
        if "Content Security Policy" in message.text or "Content-Security-Policy" in message.text:
            self.violations.append(message.text)

    def told(self) -> list[str]:
        """The tells of the rule in anything this browser received."""
        return [tell for tell in TELLS for text in self.received if tell in text]


class Stream(threading.Thread):
    """A stream read line by line as it comes, by a client signed in as a browser is (or nobody)."""

    def __init__(self, base: str, path: str, token: str | None = None) -> None:
        super().__init__(daemon=True)
        self.client = httpx.Client(base_url=base, timeout=httpx.Timeout(30, read=None))
        if token is not None:
            sign_in_over_http(self.client, token)
        self.path = path
        self.lines: list[str] = []
        self.status = 0

    def run(self) -> None:
        try:
            with self.client.stream("GET", self.path) as response:
                self.status = response.status_code
                for line in response.iter_lines():
                    self.lines.append(line)
        except httpx.HTTPError:
            pass  # let go at the test's end

    def until(self, text: str) -> list[str]:
        """The lines up to the first that holds ``text`` (waiting for it), that one last."""
        for _ in range(200):
            for n, line in enumerate(self.lines):
                if text in line:
                    return self.lines[: n + 1]
            threading.Event().wait(0.1)
        raise AssertionError(f"{text!r} never came on {self.path}")


@pytest.fixture
def people(browser: Browser, base: str, club: Club) -> Iterator[tuple[Match, dict[str, Person]]]:
    match = mao_match(club)
    found = {
        "rita": Person(browser, base, match.referee),
        "ada": Person(browser, base, match.tokens[0]),
        "bo": Person(browser, base, match.tokens[1]),
        "spectator": Person(browser, base, None),
    }
    yield match, found
    for person in found.values():
        person.context.close()


def log(page: Page) -> Any:
    return page.locator("#live .log")


def play(page: Page, card: str, mao: bool = False) -> None:
    """Play the card (ticking "mao" first) and wait for the page drawn after it."""
    if mao:
        page.get_by_label("“mao”").check()
    with page.expect_navigation():
        page.get_by_role("button", name=f"Play {card}", exact=True).click()


def press(page: Page, name: str) -> None:
    with page.expect_navigation():
        page.get_by_role("button", name=name, exact=True).click()


def test_a_round_of_mao_is_judged_and_played_through_the_pages_and_the_rule_stays_secret_until_its_reveal(
    people: tuple[Match, dict[str, Person]], club: Club, base: str, screenshots: Path
):
    match, p = people
    rita, ada, bo, spectator = (p[name].page for name in ("rita", "ada", "bo", "spectator"))
    seat_stream = Stream(base, f"/mao-games/{match.game}/me/stream", match.tokens[0])
    seat_stream.start()

    # the spectator finds the match on the league's page; the players open theirs before the deal
    spectator.goto(f"/web/leagues/{match.league}")
    with spectator.expect_navigation():
        spectator.locator(".mao-matches a").first.click()
    expect(spectator.locator("#live .status")).to_contain_text("Waiting for the first deal")
    ada.goto(f"/web/mao-games/{match.game}/play")
    bo.goto(f"/web/mao-games/{match.game}/play")

    # Rita: a rule that could leave nothing to play is refused, then hers is checked and written
    rita.goto(f"/web/mao-games/{match.game}/judge")
    rita.get_by_label("Rule", exact=True).fill("after Q: next not Q; after hearts: next not hearts")
    press(rita, "Write it")
    expect(rita.locator(".notice.refusal")).to_have_attribute("data-code", "rule_incompatible")
    rita.get_by_label("Rule", exact=True).fill(RULE)
    press(rita, "Check it")
    expect(rita.locator(".notice.checked")).to_contain_text(RULE)
    press(rita, "Write it")
    expect(rita.locator(".rule-text")).to_contain_text(RULE)
    rita.get_by_label("Your own deck", exact=False).fill(" ".join(FIRST))
    press(rita, "Deal the next round")
    expect(rita.locator(".notice.done")).to_be_visible()

    # the deal reaches the players' pages by their streams
    expect(ada.get_by_role("button", name="Play 5 of hearts")).to_be_visible(timeout=LIVE)
    expect(ada.locator("#live .status")).to_contain_text("Your turn")
    expect(bo.get_by_role("button", name="Play 8 of clubs")).to_be_visible(timeout=LIVE)

    # Bo plays out of turn: the card comes back with a penalty card and its reason
    play(bo, "8 of clubs")
    expect(log(bo)).to_contain_text("out of turn: taken back")
    expect(log(bo)).to_contain_text("takes a penalty card: out of turn")
    play(ada, "5 of hearts")
    expect(ada.locator("#live .top")).to_contain_text("5 of hearts")
    # after a 5 no club: Bo's is returned with the judge's short reason, never the rule
    expect(bo.locator("#live .status")).to_contain_text("Your turn", timeout=LIVE)
    play(bo, "5 of clubs")
    expect(log(bo)).to_contain_text("returned, wrong suit")
    match.act(club, 2, "POST", "/draws")

    # Ada says "mao" with her 9 but not the rule's call: Bo's play closes her window
    expect(ada.locator("#live .status")).to_contain_text("Your turn", timeout=LIVE)
    play(ada, "9 of hearts", mao=True)
    expect(bo.locator("#live .status")).to_contain_text("Your turn", timeout=LIVE)
    play(bo, "4 of hearts")
    expect(log(bo)).to_contain_text("missed a call")
    expect(log(bo)).to_contain_text("takes a penalty card: missed call")
    match.act(club, 2, "POST", "/draws")
    expect(ada.locator("#live .status")).to_contain_text("Your turn", timeout=LIVE)
    play(ada, "king of hearts", mao=True)
    expect(bo.locator("#live .status")).to_contain_text("Your turn", timeout=LIVE)
    press(bo, "Draw")
    match.act(club, 2, "POST", "/draws")
    expect(ada.locator("#live .status")).to_contain_text("Your turn", timeout=LIVE)
    expect(spectator.locator("#live .log")).to_contain_text("drew a card", timeout=LIVE)

    # until the reveal, no player's nor the spectator's browser was sent the rule, nor a stream
    for name in ("ada", "bo", "spectator"):
        assert p[name].told() == [], name
    play(ada, "6 of hearts", mao=True)
    expect(log(ada)).to_contain_text("won round 1")
    expect(ada.locator("#live .revealed")).to_contain_text(RULE)
    expect(spectator.locator("#live .revealed")).to_contain_text(RULE, timeout=LIVE)
    expect(bo.locator("#live .revealed")).to_contain_text(RULE, timeout=LIVE)
    views = seat_stream.until("not clubs")
    assert len([line for line in views if line.startswith("event: view")]) >= 8
    assert not [line for line in views[:-1] if any(tell in line for tell in TELLS)]
    public = Stream(base, f"/mao-games/{match.game}/stream")
    public.start()
    facts = public.until("event: RuleRevealed")
    assert len(facts) > 40 and public.status == seat_stream.status == 200
    assert not [line for line in facts if any(tell in line for tell in TELLS)]
    assert "not clubs" in public.until("not clubs")[-1]

    # the winner proposes the next rule; Rita approves it and reads why each penalty was given
    ada.get_by_label("Rule", exact=True).fill(NEXT_RULE)
    press(ada, "Propose")
    expect(ada.locator(".proposal")).to_contain_text(NEXT_RULE)
    rita.goto(f"/web/mao-games/{match.game}/judge")
    expect(rita.locator("fieldset.proposal")).to_contain_text(NEXT_RULE)
    press(rita, "Approve")
    expect(rita.locator(".notice.done")).to_contain_text("approved")
    expect(rita.locator(".rule-text")).to_contain_text(NEXT_RULE)
    whys = rita.locator(".whys")
    expect(whys).to_contain_text("wrong suit — 5 of clubs on 5 of hearts")
    expect(whys).to_contain_text("after 5: next not clubs")
    expect(whys).to_contain_text("out of turn — 8 of clubs on 3 of hearts")
    expect(whys).to_contain_text("missed call — “purple giraffe”")
    rita.screenshot(path=str(screenshots / "mao-judge.png"), full_page=True)
    ada.screenshot(path=str(screenshots / "mao-play.png"), full_page=True)
    # the next rule is Rita's and Ada's only: Bo's page never got it
    bo.reload()
    assert not [text for text in p["bo"].received if NEXT_RULE in text]
    for stream in (seat_stream, public):
        stream.client.close()
    # the pages ran their scripts (the live parts followed the streams) with no inline script or style
    assert [person.violations for person in p.values()] == [[]] * 4


def test_a_player_is_refused_the_judges_console_and_an_act_out_of_turn_in_their_language(
    browser: Browser, base: str, club: Club
):
    match = mao_match(club)
    club.ok(
        "POST",
        f"/mao-games/{match.game}/deals",
        headers={"Authorization": f"Bearer {match.referee}"},
        json={"deck": FIRST},
    )
    bo = Person(browser, base, match.tokens[1])
    try:
        page = bo.page
        answer = page.goto(f"/web/mao-games/{match.game}/judge?lang=uk")
        assert answer is not None and answer.status == 403
        expect(page.locator(".refusal")).to_contain_text("Цей пульт — для судді матчу")
        page.goto(f"/web/mao-games/{match.game}/play")
        with page.expect_navigation():
            page.get_by_role("button", name="Взяти карту", exact=True).click()
        notice = page.locator(".notice")
        expect(notice).to_have_attribute("data-code", "not_your_turn")
        expect(notice).to_contain_text("Відмовлено")
        assert [name for name in ("Draw", "Your turn", "refused") if name in notice.inner_text()] == []
        assert bo.told() == []
    finally:
        bo.context.close()

"""The play page in a real browser: two people play a whole game against a bot, by mouse and by
keyboard, on 360 px phones, and never see a card of another hand or of the stock."""

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, Request, Response, WebSocket, WebSocketRoute, expect

from service.domain.cards import FULL_DECK, format_cards
from tests.e2e.club import ADMIN, Club, cards_named, unseen_cards, whole_log
from tests.web.conftest import PHONE, Visit, new_scene, only_the_service, sign_in
from tests.web.playing import DECK_TWO
from tests.web.test_catalogues import english_messages

# the bot (seat 2) deals; one card at a time from seat 0: Ada 7C JH 9S, Bo 7D 5S KS, the bot
# 2H 3H QC (no seven, no jack), the starter 4C
DEALT = ["7C", "7D", "2H", "JH", "5S", "3H", "9S", "KS", "QC", "4C"]
DECK = DEALT + [card for card in format_cards(FULL_DECK) if card not in DEALT]
SHORT = {"hand_size": 3, "target_score": 1}


class Player:
    """One person's browser on the play page, every response it received kept."""

    def __init__(self, browser: Browser, base: str, token: str, game: str) -> None:
        self.context = browser.new_context(viewport=PHONE, base_url=base)
        only_the_service(self.context, base)
        self.page = self.context.new_page()
        self.received: list[str] = []
        self.sent: list[str] = []  # the play socket's messages the page sent
        self.requests: list[Request] = []
        self.page.on("response", self._keep)
        self.page.on("websocket", self._socket)
        self.page.on("request", lambda request: self.requests.append(request))
        sign_in(self.page, token)
        self.page.goto(f"/web/games/{game}/play")
        self.doms: list[str] = []

    def _keep(self, response: Response) -> None:
        # a stream's body never ends while the page lives: its views are the player's own (tested
        # apart, tests/web/test_play_stream.py)
        # a redirect has no body to read
        streamed = "text/event-stream" in response.headers.get("content-type", "")
        if not streamed and not 300 <= response.status < 400:
            self.received.append(response.text())

    def _socket(self, socket: WebSocket) -> None:
        # the play socket's messages, views and answers alike, are checked as the responses are
        socket.on("framereceived", lambda payload: self.received.append(str(payload)))
        socket.on("framesent", lambda payload: self.sent.append(str(payload)))

    def status(self) -> Any:
        return self.page.locator("#play .status")

    def my_move(self) -> None:
        expect(self.status()).to_contain_text("Your move", timeout=20_000)
        self.doms.append(self.page.content())

    def play(self, card_name: str, call: str | None = None) -> None:
        """Play the card, and wait for the answer: until it comes the page still says "Your move"."""
        was = shown_version(self.page)
        if call:
            self.page.get_by_label(call, exact=True).check()
        self.page.get_by_role("button", name=f"Play {card_name}", exact=True).click()
        answered(self.page, was)


@pytest.fixture
def table(club: Club, browser: Browser, base: str) -> Iterator[tuple[str, Player, Player]]:
    scene = new_scene(club)
    ada, bo = scene.players
    game = club.ok(
        "POST",
        "/games",
        json={
            "seats": [scene.players[ada], scene.players[bo], "bot:heuristic"],
            "options": SHORT,
            "deck": DECK,
            "first_dealer": 2,
        },
    )["game_id"]
    players = Player(browser, base, scene.tokens[ada], game), Player(browser, base, scene.tokens[bo], game)
    yield game, *players
    for player in players:
        player.context.close()


def tab_to(page: Page, name: str) -> None:
    """Tab until the focused element's accessible text is ``name``: keyboard alone."""
    for _ in range(80):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.innerText.trim()").endswith(name):
            return
    raise AssertionError(f"{name!r} is not reached by Tab")


def test_two_people_play_a_whole_game_against_a_bot_with_a_jack_a_seven_chain_a_call_and_a_challenge(
    table: tuple[str, Player, Player], club: Club, screenshots: Path
):
    game, ada, bo = table
    ada.my_move()
    assert ada.page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    ada.page.screenshot(path=screenshots / "play.png", full_page=True)
    ada.play("7 of clubs")
    bo.my_move()
    expect(bo.page.locator(".facts")).to_contain_text("2")  # the debt the seven left
    tab_to(bo.page, "Play 7 of diamonds")  # the chain answered by keyboard alone
    bo.page.keyboard.press("Enter")
    ada.my_move()  # the bot drew the debt of 4
    expect(ada.page.locator("table.seats tbody tr").nth(2).locator("td").nth(2)).to_have_text("7")
    ada.page.get_by_label("Mau", exact=True).check()  # the jack leaves one card: "Mau" is due
    ada.page.locator("summary", has_text="Play jack of hearts").click()
    ada.page.get_by_role("button", name="♠ spades").click()
    bo.my_move()
    expect(bo.page.locator(".facts")).to_contain_text("spades")
    bo.play("5 of spades")  # "Mau" was due: the bot challenges at once
    play_to_the_end(club, game, ada, bo)
    log = whole_log(club.client, game, ADMIN)  # type: ignore[arg-type]
    plays = [(e["data"]["seat"], e["data"]) for e in log if e["type"] == "CardPlayed"]
    assert [card["card"] for _, card in plays[:2]] == ["7C", "7D"]  # the chain, answered
    assert any(
        seat == 0 and card["card"] == "JH" and card["suit"] == "S" and card["call"] for seat, card in plays
    )
    assert any(seat == 1 and card["card"] == "5S" and card["missed"] for seat, card in plays)
    assert "MissedCallChallenged" in {e["type"] for e in log}
    for seat, player in enumerate((ada, bo)):
        hidden = unseen_cards(log, seat)
        assert cards_named(player.doms) & hidden == set()
        assert cards_named(player.received) & hidden == set()


def play_to_the_end(club: Club, game: str, *players: Player) -> None:
    """Each person makes the first move their page offers until the match is over; the bot plays
    its own turns."""
    for _ in range(300):
        if club.ok("GET", f"/games/{game}")["over"]:
            break
        for player in players:
            if "Your move" in player.status().inner_text():
                player.doms.append(player.page.content())
                any_move(player)
        players[0].page.wait_for_timeout(50)
    assert club.ok("GET", f"/games/{game}")["over"]
    for player in players:
        expect(player.status()).to_contain_text("The match is over")
        player.doms.append(player.page.content())


def any_move(player: Player) -> None:
    """The first move the page offers, the call due said with it; a page that moved on meanwhile
    is left as it is."""
    page = player.page
    was = shown_version(page)
    hand = page.locator(".hand li").count()
    call = {2: "Mau", 1: "Mau Mau"}.get(hand)
    playable = page.locator(".hand button, .hand summary")
    if playable.count():
        if call:
            page.get_by_label(call, exact=True).check()
        first = playable.first
        if first.evaluate("e => e.tagName") == "SUMMARY":
            first.click()
            page.locator(".jack .suits button").first.click()
        else:
            first.click()
        answered(page, was)
        return
    for name in ("Draw", "Keep the card"):
        button = page.get_by_role("button", name=re.compile(f"^{name}"))
        if button.count():
            button.first.click()
            answered(page, was)
            return


def shown_version(page: Page) -> str | None:
    """The version of the game the page's live part shows."""
    return page.locator("#play .play").get_attribute("data-version")


def answered(page: Page, was: str | None = None) -> None:
    """Until the move's answer has replaced the page's moves: while it is on its way the old page
    still says "Your move" (its buttons disabled), and a move read off it would be stale. With
    ``was``, the version the page showed before the move: until it shows another."""
    page.wait_for_function(
        """was => {
            const shown = document.querySelector("#play .play")?.dataset.version;
            const waiting = document.querySelector("#play form.moves button[disabled]");
            return !waiting && (was === null || shown !== was);
        }""",
        arg=was,
    )


def test_a_missed_call_is_challenged_from_the_other_players_page(
    club: Club, browser: Browser, base: str, screenshots: Path
):
    scene = new_scene(club)
    ada, bo = scene.players
    seats = [scene.players[ada], scene.players[bo]]
    # Bo deals two cards each: Ada JH 9S, Bo 5S KS, the starter 4C
    deck = ["JH", "5S", "9S", "KS", "4C"]
    deck += [card for card in format_cards(FULL_DECK) if card not in deck]
    options = {"hand_size": 2, "target_score": 1}
    body = {"seats": seats, "options": options, "deck": deck, "first_dealer": 1}
    game = club.ok("POST", "/games", json=body)["game_id"]
    players = Player(browser, base, scene.tokens[ada], game), Player(browser, base, scene.tokens[bo], game)
    first, second = players
    first.my_move()
    first.page.locator("summary", has_text="Play jack of hearts").click()
    first.page.get_by_role("button", name="♠ spades").click()  # "Mau" was due and not said
    expect(second.page.locator(".missed")).to_be_visible()
    second.page.screenshot(path=screenshots / "play-challenge.png", full_page=True)
    second.page.get_by_role("button", name="Challenge the missed call").click()
    expect(second.page.locator(".missed")).to_have_count(0)
    expect(second.page.locator("table.seats tbody tr").first.locator("td").nth(2)).not_to_have_text("1")
    second.play("5 of spades", call="Mau")
    play_to_the_end(club, game, *players)
    log = whole_log(club.client, game, ADMIN)  # type: ignore[arg-type]
    challenged = [e["data"] for e in log if e["type"] == "MissedCallChallenged"]
    assert len(challenged) == 1 and challenged[0]["seat"] == 1, challenged  # Bo, the challenger
    for player in players:
        player.context.close()


def test_a_move_on_a_stale_view_resynchronises_quietly(club: Club, browser: Browser, base: str):
    scene = new_scene(club)
    ada, bo = scene.players
    game = club.ok(
        "POST",
        "/games",
        json={
            "seats": [scene.players[ada], scene.players[bo]],
            "options": SHORT,
            "deck": DECK_TWO,
            "first_dealer": 1,
        },
    )["game_id"]
    player = Player(browser, base, scene.tokens[ada], game)
    # the page hears nothing more: the move below is made behind its back
    player.context.route("**/me/stream*", lambda route: route.abort())
    player.context.route_web_socket("**/me/socket*", lambda socket: socket.close())
    player.page.reload()
    player.my_move()
    version = club.ok("GET", f"/games/{game}")["version"]
    club.ok(
        "POST", f"/games/{game}/moves", json={"kind": "play", "card": "7C", "seat": 0, "version": version}
    )
    player.play("7 of clubs")  # the view still offers it
    expect(player.page.locator(".notice")).to_contain_text("The table had moved on")
    expect(player.page.locator(".facts")).to_contain_text("7 of clubs")
    expect(player.status()).not_to_contain_text("Your move")
    player.context.close()


@pytest.mark.parametrize("language", ["uk", "ru"])
def test_the_play_page_in_ukrainian_or_russian_shows_no_english_message(
    table: tuple[str, Player, Player], language: str
):
    game, ada, _ = table
    english = english_messages()
    ada.page.goto(f"/web/games/{game}/play?lang={language}")
    expect(ada.page.locator("#play .play")).to_be_visible()
    shown = ada.page.locator("body").inner_text()
    assert [m for m in english if re.search(rf"(?<!\w){re.escape(m)}(?!\w)", shown)] == []


def test_a_person_without_a_seat_is_told_so_and_sent_to_the_spectators_table(visit: Visit, club: Club):
    scene = new_scene(club)
    page = visit.page
    response = page.goto(f"/web/games/{scene.game}/play")
    assert response is not None and response.status == 200
    expect(page.locator("main")).to_contain_text("Sign in to play at your table.")
    page.get_by_role("link", name="Watch the table as a spectator").click()
    expect(page.locator("h1")).to_contain_text("Tuesday cup · Round 1 · Table 1")


def test_a_move_goes_over_the_play_socket_and_the_other_seat_hears_of_it_there(
    table: tuple[str, Player, Player], club: Club
):
    game, ada, bo = table
    ada.my_move()
    ada.play("7 of clubs")
    expect(ada.page.locator(".facts")).to_contain_text("7 of clubs")
    bo.my_move()  # announced on Bo's socket
    moves = [message for message in ada.sent if '"type": "move"' in message or '"type":"move"' in message]
    assert len(moves) == 1 and '"card":"7C"' in moves[0].replace(" ", ""), ada.sent
    for player in (ada, bo):
        posted = [r.url for r in player.requests if r.method == "POST" and "/web/games/" in r.url]
        assert posted == []  # no form posted: the socket carried the move
        assert not [r.url for r in player.requests if "/me/stream" in r.url]  # nor a stream followed
        assert any('"type":"view"' in text for text in player.received)
    log = whole_log(club.client, game, ADMIN)  # type: ignore[arg-type]
    assert [e["data"]["card"] for e in log if e["type"] == "CardPlayed"][:1] == ["7C"]
    for seat, player in enumerate((ada, bo)):
        assert cards_named(player.received) & unseen_cards(log, seat) == set()


def test_a_move_the_socket_refuses_is_posted_and_its_notice_shown(club: Club, browser: Browser, base: str):
    scene = new_scene(club)
    ada, bo = scene.players
    body = {"seats": [scene.players[ada], scene.players[bo]], "options": SHORT}
    game = club.ok("POST", "/games", json={**body, "deck": DECK_TWO, "first_dealer": 1})["game_id"]
    deaf = {"views": False}  # from when on the socket's views do not reach the page

    def through(socket: WebSocketRoute) -> None:
        server = socket.connect_to_server()
        server.on_message(lambda m: None if deaf["views"] and '"type":"view"' in str(m) else socket.send(m))

    player = Player(browser, base, scene.tokens[ada], game)
    player.context.route_web_socket("**/me/socket*", through)
    player.page.reload()
    player.my_move()
    deaf["views"] = True
    version = club.ok("GET", f"/games/{game}")["version"]
    club.ok(
        "POST", f"/games/{game}/moves", json={"kind": "play", "card": "7C", "seat": 0, "version": version}
    )
    player.play("7 of clubs")  # the view still offers it: refused on the socket (stale), then posted
    expect(player.page.locator(".notice")).to_contain_text("The table had moved on")
    assert any('"card":"7C"' in sent.replace(" ", "") for sent in player.sent)
    assert [
        r.url for r in player.requests if r.method == "POST" and r.url.endswith(f"/web/games/{game}/play")
    ]
    player.context.close()

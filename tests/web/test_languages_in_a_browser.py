"""The browser's Accept-Language picks the language; the switch on every page changes it and a
cookie remembers it; card and suit names come translated."""

import re
import uuid
from datetime import UTC, datetime, timedelta
from html.parser import HTMLParser
from zoneinfo import available_timezones

import httpx
import pytest
from playwright.sync_api import expect

from service.web.session import BROWSERS, SYSTEMS
from tests.e2e.club import ADMIN_TOKEN, Club
from tests.web.conftest import Scene, Visit, first_game, sign_in_over_http
from tests.web.refereeing import disputed_game
from tests.web.test_real_cards_in_a_browser import enter, real_table

UNKNOWN = "00000000-0000-4000-8000-000000000000"


@pytest.mark.parametrize("visit", [{"locale": "uk-UA"}], indirect=True)
def test_a_ukrainian_browser_gets_ukrainian_and_the_switch_turns_every_page_russian(
    visit: Visit, scene: Scene
):
    page = visit.page
    page.goto("/")
    expect(page.locator("html")).to_have_attribute("lang", "uk")
    expect(page.locator("h2").first).to_have_text("Столи, за якими зараз грають")
    page.get_by_role("link", name="Русский").click()
    expect(page.locator("h2").first).to_have_text("Столы, за которыми сейчас играют")
    page.goto(f"/web/leagues/{scene.league}")  # no ?lang=: the cookie remembers
    expect(page.locator("h2").first).to_have_text("Турнирная таблица")
    page.goto(f"/web/games/{scene.game}")
    expect(page.locator("main")).to_contain_text("Верхняя карта")
    top = page.locator(".facts dd").first.inner_text()
    assert any(suit in top for suit in ("треф", "бубен", "червей", "пик")), top


@pytest.mark.parametrize("visit", [{"locale": "de-DE"}], indirect=True)
def test_a_browser_asking_for_a_language_the_club_has_not_gets_english(visit: Visit):
    visit.page.goto("/")
    expect(visit.page.locator("html")).to_have_attribute("lang", "en")
    expect(visit.page.locator("h2").first).to_have_text("Tables being played now")


def test_a_page_that_fails_in_a_browser_says_so_in_its_language_and_a_program_still_gets_the_problem(
    base: str,
):
    unknown = f"/web/leagues/{UNKNOWN}"
    with httpx.Client(base_url=base, headers={"Accept": "text/html"}) as browser:
        answer = browser.get(unknown, params={"lang": "uk"})
        assert (answer.status_code, answer.headers["content-type"]) == (404, "text/html; charset=utf-8")
        assert "Не знайдено" in answer.text and 'data-code="league_not_found"' in answer.text
        answer = browser.get("/signin", params={"token": "mm_not_a_token", "lang": "ru"})
        assert answer.status_code == 401 and "Войдите снова" in answer.text
        assert 'href="/signin"' in answer.text
        assert browser.get("/web/nothing/here").status_code == 404
        # the API's own routes answer a browser with the problem, as before
        assert browser.get(f"/leagues/{UNKNOWN}").headers["content-type"] == "application/problem+json"
    answer = httpx.get(base + unknown)
    assert answer.headers["content-type"] == "application/problem+json"
    assert (answer.status_code, answer.json()["code"]) == (404, "league_not_found")


@pytest.mark.parametrize("language", ["uk", "ru"])
def test_no_page_chart_or_sheet_in_ukrainian_or_russian_shows_an_english_word(
    base: str, club: Club, scene: Scene, language: str
):
    """Every page, chart, printable sheet and error page, read without a browser: each word of Latin
    letters in what a reader sees (text, a title, an aria-label, a placeholder, an option, SVG text)
    is a name the club gave or one of the few words that stay in any language."""
    real = real_table(club)
    for _ in range(20):  # a real game played to its end: its sheet and totals chart are full
        if club.ok("GET", f"/games/{real.game}")["over"]:
            break
        enter(club, real, 1, winner=0, points=[0, 40])
    disputed = disputed_game(club)
    cup = printable_round(club)
    against_a_bot = club.game([real.ids[0], "bot:heuristic"])["game_id"]  # a bot's seat by its name
    # a Mao league: the home and league pages name its ruleset too
    mao = club.league(name=f"Kitchen {uuid.uuid4().hex[:6]}", ruleset="mao")
    # the names this test made (the referee's test players are Ada and Bo too), a player's own words
    names = [*scene.players, *real.names, real.referee, "Wiener", "Tuesday cup", "Ada", "Bo", "Cid", "Cup"]
    names += ["Kitchen", "Evening", "a card went missing"]
    # a session's browser and system as their makers name them ("Chrome on Linux"): there when a
    # browser test signed in as one of these players before
    names += [word for _, name in (*BROWSERS, *SYSTEMS) for word in name.split()]
    ada = scene.players[next(iter(scene.players))]
    # an invitation of each state the admin's list of them names: open, and revoked
    until = (datetime.now(UTC) + timedelta(days=2)).isoformat()
    for _ in range(2):
        made = club.ok("POST", f"/leagues/{real.league}/invitations", json={"expires_at": until})
    club.ok("DELETE", f"/invitations/{made['invitation']['invitation_id']}")
    anonymous = [
        "/",
        f"/web/leagues/{scene.league}",
        f"/web/leagues/{real.league}",
        f"/web/leagues/{real.league}/progression.svg",
        f"/web/leagues/{mao}",
        f"/web/tournaments/{scene.tournament}",
        f"/web/tournaments/{scene.tournament}?display=1",
        f"/web/games/{scene.game}",
        f"/web/games/{scene.game}/totals.svg",
        f"/web/games/{real.game}",
        f"/web/games/{real.game}/totals.svg",
        f"/web/games/{against_a_bot}",
        f"/web/players/{ada}",
        f"/web/players/{real.ids[0]}",
        "/signin",
        f"/web/games/{scene.game}/play",
        f"/web/games/{real.game}/score",
        "/web/admin",
        "/web/referee",
        f"/web/leagues/{UNKNOWN}",
        f"/web/games/{UNKNOWN}",
        "/web/nothing",
        "/signin?token=mm_not_a_token",
        *cup_pages(club, cup),
    ]
    signed_in = {
        scene.tokens[next(iter(scene.tokens))]: [f"/web/players/{ada}", f"/web/games/{scene.game}/play"],
        real.players[0]["Authorization"].removeprefix("Bearer "): [
            f"/web/games/{real.game}/score",
            f"/web/games/{real.game}/score?disputed=1",
        ],
        # an official's: the seats to play, every ruling form and the replay
        ADMIN_TOKEN: [
            "/web/admin",
            f"/web/games/{scene.game}/play",
            f"/web/referee/games/{real.game}",
            # the admin's lists, each with rows (every test's tournaments, leagues and referees)
            "/web/admin/tournaments",
            "/web/admin/tournaments?page=2",
            "/web/admin/leagues",
            "/web/admin/referees",
            f"/web/admin/leagues/{scene.league}",
            f"/web/admin/leagues/{real.league}",  # with its referee, and the form that takes them off
            f"/web/admin/leagues/{real.league}/invitations",
        ],
        disputed.referee: [
            "/web/referee",
            f"/web/referee/games/{disputed.game}",
            f"/web/referee/games/{disputed.game}/replay?at=3",
        ],
    }
    left: list[str] = []
    headers = {"Accept": "text/html", "Accept-Language": language}
    with httpx.Client(base_url=base, headers=headers, timeout=30) as reader:
        assert len(english_words(reader, "/", "en", names)) > 10  # it does see the words of a page
        for path in anonymous:
            left += english_words(reader, path, language, names)
    for token, paths in signed_in.items():
        with httpx.Client(base_url=base, headers=headers, timeout=30) as reader:
            sign_in_over_http(reader, token)
            for path in paths:
                assert reader.get(path).status_code == 200, path  # the page itself, not a refusal
                left += english_words(reader, path, language, names)
    assert left == []


def printable_round(club: Club) -> str:
    """A tournament with a table played with real cards: its round's sheets print; its name."""
    players = [club.player(f"Cid {uuid.uuid4().hex[:4]}")[0] for _ in range(4)]
    league = club.league(members=players, name=f"Evening {uuid.uuid4().hex[:6]}")
    name = f"Cup {uuid.uuid4().hex[:4]}"
    plan = {"name": name, "format": "swiss", "table_size": 2, "rounds": 1, "in_person_tables": 1}
    tournament = club.ok("POST", f"/leagues/{league}/tournaments", json=plan)["tournament_id"]
    for player in players:
        club.ok("POST", f"/tournaments/{tournament}/entrants", json={"player_id": player})
    club.ok("POST", f"/tournaments/{tournament}/start")
    first_game(club, tournament)
    return tournament


def cup_pages(club: Club, tournament: str) -> list[str]:
    return [f"/web/tournaments/{tournament}", f"/web/tournaments/{tournament}/rounds/1/sheets"]


# what stays in any language: the service's name, the API, a QR code ("QR-код"), a token's prefix
# (mm_), the card codes a scorer types (KC 7D 10H), the time zones' names as the IANA writes them
# (Europe/Kyiv); a card's corner (Q♥) and the language switch's own names (marked with their lang)
# are left out before
STAYING = (
    {"maumau", "API", "QR", "mm_", "KC", "7D", "10H"}
    | {part for zone in available_timezones() for part in (*zone.split("/"), *re.split(r"[/_-]", zone))}
    | set(available_timezones())
)
UUID_TEXT = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
CARD_CORNER = re.compile(r"(?:10|[2-9JQKA])[♣♦♥♠]")
# the tests' names: a word and a few hex digits ("Ada 0f3c", "Cup 9a1e"), whichever test made them
TEST_NAME = re.compile(r"(?<!\w)[A-Z][a-z]+ [0-9a-f]{4,6}(?!\w)")
LATIN_WORD = re.compile(r"[A-Za-z][A-Za-z0-9_'’]*")
SHOWN_ATTRIBUTES = ("title", "aria-label", "placeholder", "alt")
# the links whose text is a name: a league's, a tournament's, a player's (and, on the home page, the
# players at a table), whoever made them (other tests share the service); and a choice of a league,
# a player or a tournament by its id (the admin's lists)
NAMED = re.compile(r"^/web/(leagues|tournaments|players)/[0-9a-f-]+$")


class Shown(HTMLParser):
    """The text a reader sees, and reads aloud, of a page or an SVG chart."""

    def __init__(self, language: str, home: bool) -> None:
        super().__init__()
        self.language, self.home = language, home
        self.skipping: list[str] = []  # the open elements whose text is no word of the page
        self.words: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        href = found.get("href") or ""
        named = tag == "a" and (NAMED.match(href) or (self.home and href.startswith("/web/games/")))
        named = named or (tag == "option" and UUID_TEXT.fullmatch(found.get("value") or "") is not None)
        other_language = found.get("lang") not in (None, self.language)
        # a name the page marks as no word of its own (a referee's, a league's heading on the admin's lists)
        named = named or found.get("translate") == "no"
        if self.skipping or tag in ("script", "style", "code") or named or other_language:
            if tag not in VOID:
                self.skipping.append(tag)
            return
        self.words += [found[name] or "" for name in SHOWN_ATTRIBUTES if name in found]
        if tag == "input" and found.get("type") in ("submit", "button"):
            self.words.append(found.get("value") or "")

    def handle_endtag(self, tag: str) -> None:
        if self.skipping and tag not in VOID:
            self.skipping.pop()

    def handle_data(self, data: str) -> None:
        if not self.skipping:
            self.words.append(data)


VOID = {"br", "img", "input", "meta", "link", "hr", "source", "wbr"}


def english_words(reader: httpx.Client, path: str, language: str, names: list[str]) -> list[str]:
    """The words of Latin letters on ``path`` in ``language`` that are no name and do not stay."""
    answer = reader.get(path, params={"lang": language})
    assert answer.status_code < 500, (path, answer.status_code)
    shown = Shown(language, home=path == "/")
    shown.feed(answer.text)
    text = TEST_NAME.sub(" ", CARD_CORNER.sub(" ", UUID_TEXT.sub(" ", " ".join(shown.words))))
    for name in sorted(names, key=len, reverse=True):
        text = re.sub(rf"(?<!\w){re.escape(name)}(?!\w)", " ", text)
    words = LATIN_WORD.findall(text)
    return [f"{path}: {word}" for word in words if word not in STAYING]

"""The screenshots of docs/web.md: every page, drawn by a real service, photographed by Chromium.

Run from the project's root: ``PYTHONPATH=. .venv/bin/python docs/screenshots/make.py``. It starts
``maumau serve`` on the embedded default (SQLite and the filesystem broker in a temporary data
dir, the bots fast), builds a club over the API (a league with finished and running tables, a
dispute, a table played with real cards, tournaments of bots finished and a round of real tables,
an invitation, a Mao match), then drives Debian's Chromium (by its path, as tests/web does) and
writes one PNG per page into this folder, printing each. Nothing of the club is kept.

The names are fixed and the decks of the tables the pages show are dealt from fixed orders where
the API takes one, so a new run draws the same scene; the bots' games and the clock still vary.
``tests/unit/test_page_screenshots.py`` checks that every page route has its picture in
docs/web.md: a new page needs a shot here and its image there.
"""

import itertools
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx
from playwright.sync_api import Browser, BrowserContext, Page, ViewportSize, sync_playwright

from service.domain.cards import FULL_DECK, format_cards
from tests.e2e.club import ADMIN_TOKEN, Club, bearer
from tests.e2e.test_embedded import free_port
from tests.environment import without_settings
from tests.web.conftest import CHROMIUM, FAST, first_game, sign_in
from tests.web.mao_match import deck as mao_deck
from tests.web.playing import move_once

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
DESKTOP: ViewportSize = {"width": 1200, "height": 900}
PHONE: ViewportSize = {"width": 390, "height": 844}
TALLEST = 1800  # px: a longer page is cut there, so the folder stays a few megabytes
UNKNOWN = "00000000-0000-4000-8000-000000000000"
WRITTEN: set[Path] = set()  # this run's pictures: any other in the folder is a page's old name
WAIT = 120.0  # seconds for the workers: bots playing tournaments through, rounds made


@contextmanager
def served(data_dir: Path) -> Iterator[str]:
    """``maumau serve`` (never ``./run``, which would set the venv up again) until it answers."""
    port = free_port()
    env = without_settings(
        MAUMAU_DATA_DIR=str(data_dir), MAUMAU_PORT=str(port), MAUMAU_ADMIN_TOKEN=ADMIN_TOKEN, **FAST
    )
    maumau = str(Path(sys.executable).parent / "maumau")
    server = subprocess.Popen(
        [maumau, "serve"],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                if httpx.get(f"{base}/health").status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if server.poll() is not None or time.monotonic() > deadline:
                raise SystemExit("maumau serve did not start")
            time.sleep(0.1)
        yield base
    finally:
        os.killpg(server.pid, signal.SIGTERM)  # its group: the server and the worker and beat it started
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:  # a worker finishing its task: the data is thrown away anyway
            os.killpg(server.pid, signal.SIGKILL)
            server.wait()


@dataclass
class Scene:
    league: str
    mao_league: str
    players: dict[str, str]  # name -> id
    tokens: dict[str, str]  # name -> token
    referee: str  # Rita's token
    played: str  # Ada against Bo on the server, disputed by Bo
    friendly: str  # Ada against Cid on the server, Ada to lead
    real: str  # Ada, Bo and Cid with real cards, two rounds entered
    knockout: str
    robin: str
    evening: str  # a round of tables played in person: its sheets print
    invitation: str  # the code
    mao: str
    mao_tokens: list[str]  # by seat


def player(club: Club, name: str) -> tuple[str, str]:
    created = club.ok("POST", "/players", json={"name": name})
    return created["player"]["player_id"], created["token"]["token"]


def tournament(club: Club, league: str, plan: dict[str, Any], entrants: list[str] = ()) -> str:  # type: ignore[assignment]
    made = str(club.ok("POST", f"/leagues/{league}/tournaments", json=plan)["tournament_id"])
    for entrant in entrants:
        club.ok("POST", f"/tournaments/{made}/entrants", json={"player_id": entrant})
    return made


def play_in_person(club: Club, seats: list[str], tokens: list[str], league: str, loser: int) -> str:
    """A table of two played with real cards to its end, ``loser`` losing most rounds: rounds of
    points of their own, so the league's chart has slopes to show."""
    game = club.game(seats, league_id=league, in_person=True)["game_id"]
    taken = itertools.cycle((25, 10, 40, 30, 15))
    for round_no in itertools.count():
        if club.ok("GET", f"/games/{game}")["over"]:
            return str(game)
        out = loser if round_no % 3 == 2 else 1 - loser  # who went out: now and then the loser
        points = [0 if seat == out else next(taken) for seat in range(2)]
        body = {"winner": out, "points": points}
        club.ok("POST", f"/games/{game}/rounds", headers=bearer(tokens[0]), json=body)
    raise AssertionError("unreachable")  # itertools.count never ends


def dealt(seed: int) -> list[str]:
    """A deck in an order of its own, the same every run."""
    cards = format_cards(FULL_DECK)
    random.Random(seed).shuffle(cards)
    return cards


def build(club: Club) -> Scene:
    names = ["Ada", "Bo", "Cid", "Dana", "Eve", "Finn", "Gus", "Hana"]
    made = {name: player(club, name) for name in names}
    ids = {name: made[name][0] for name in names}
    tokens = {name: made[name][1] for name in names}
    rita_id, rita = club.referee("Rita")
    rita_token = rita["Authorization"].removeprefix("Bearer ")
    league = club.league(list(ids.values()), [rita_id], name="Thursday club", time_zone="Europe/Kyiv")
    # two tournaments of bots, started first: the workers play them through meanwhile
    bots = {"format": "single_elimination", "table_size": 2, "places": 6, "single_round": True}
    knockout = tournament(club, league, {"name": "Autumn knockout", **bots})
    robin_plan = {**bots, "name": "Winter round robin", "format": "round_robin", "places": 4}
    robin = tournament(club, league, robin_plan)
    for started in (knockout, robin):
        club.ok("POST", f"/tournaments/{started}/start")
    # the standings: a few tables played with real cards to their ends
    for first, second, loser in (("Ada", "Cid", 1), ("Bo", "Dana", 1), ("Cid", "Dana", 0), ("Ada", "Bo", 1)):
        play_in_person(club, [ids[first], ids[second]], [tokens[first], tokens[second]], league, loser)
    # a table on the server, a few moves in, and Bo's dispute for the referee
    played = club.game([ids["Ada"], ids["Bo"]], league_id=league, first_dealer=1, deck=dealt(1))["game_id"]
    for _ in range(3):
        move_once(club, played)
    about = club.ok("GET", f"/games/{played}")["version"] + 1
    move_once(club, played)
    body = {"reason": "a card went missing", "about": about}
    club.ok("POST", f"/games/{played}/disputes", headers=bearer(tokens["Bo"]), json=body)
    # Ada leads; a few moves in, her turn again (the play page shows her moves)
    friendly = club.game([ids["Ada"], ids["Cid"]], league_id=league, first_dealer=1, deck=dealt(2))["game_id"]
    move_once(club, friendly)
    while club.ok("GET", f"/games/{friendly}")["turn"] != 0:
        move_once(club, friendly)
    # a table played with real cards under way: one round confirmed, one waiting
    seated = [ids["Ada"], ids["Bo"], ids["Cid"]]
    real = club.game(seated, league_id=league, in_person=True)["game_id"]
    entry = {"winner": 1, "hands": [["KC", "7D"], [], ["2S"]]}
    club.ok("POST", f"/games/{real}/rounds", headers=bearer(tokens["Ada"]), json=entry)
    club.ok("POST", f"/games/{real}/rounds/1/confirmation", headers=bearer(tokens["Bo"]), json={})
    entry = {"winner": 2, "points": [12, 8, 0], "missed_calls": [1, 0, 0]}
    club.ok("POST", f"/games/{real}/rounds", headers=bearer(tokens["Bo"]), json=entry)
    # tournaments: one coming, one round at real tables
    starts = (datetime.now(UTC) + timedelta(days=5)).replace(hour=17, minute=0, second=0, microsecond=0)
    coming = {"name": "Spring open", "format": "swiss", "table_size": 4, "rounds": 3}
    tournament(club, league, {**coming, "starts_at": starts.isoformat()}, [ids["Ada"], ids["Bo"]])
    in_person = {"name": "Evening cup", "format": "swiss", "table_size": 2, "rounds": 1}
    in_person["in_person_tables"] = 2  # both tables: the round's sheets print
    evening = tournament(club, league, in_person, [ids[name] for name in ("Eve", "Finn", "Gus", "Hana")])
    club.ok("POST", f"/tournaments/{evening}/start")
    first_game(club, evening)
    expires = (datetime.now(UTC) + timedelta(days=7)).isoformat()
    invitation = club.ok("POST", f"/leagues/{league}/invitations", json={"expires_at": expires, "uses": 5})
    mao_league, mao, mao_tokens = mao_match(club, rita_id, rita_token)
    return Scene(
        league, mao_league, ids, tokens, rita_token, played, friendly, real, knockout, robin, evening,
        invitation["code"], mao, mao_tokens,
    )  # fmt: skip


def mao_match(club: Club, rita_id: str, rita: str) -> tuple[str, str, list[str]]:
    """Ivy, Jon and Kim at a Mao table judged by Rita, dealt: Jon plays out of turn, Ivy plays."""
    made = [player(club, name) for name in ("Ivy", "Jon", "Kim")]
    ids, tokens = [found[0] for found in made], [found[1] for found in made]
    options = {"hand_size": 3, "rounds_to_win": 2}
    league = club.league(ids, [rita_id], name="Kitchen Mao", ruleset="mao", options=options)
    body = {"league_id": league, "seats": ids, "judge": "referee", "first_dealer": 2}
    game = club.ok("POST", "/mao-games", headers=bearer(rita), json=body)["game_id"]
    dealt = mao_deck({0: "5H 9H KH", 1: "8C 5C 4H"}, starter="3H", stock="10D")
    club.ok("POST", f"/mao-games/{game}/deals", headers=bearer(rita), json={"deck": dealt})
    club.ok("POST", f"/mao-games/{game}/plays", headers=bearer(tokens[1]), json={"card": "8C"})
    club.ok("POST", f"/mao-games/{game}/plays", headers=bearer(tokens[0]), json={"card": "5H"})
    return league, game, tokens


def finished(club: Club, *tournaments: str) -> None:
    deadline = time.monotonic() + WAIT
    for each in tournaments:
        while club.ok("GET", f"/tournaments/{each}")["status"] != "finished":
            if time.monotonic() > deadline:
                raise SystemExit(f"the bots' tournament {each} did not finish")
            time.sleep(0.3)


def shot(page: Page, name: str, path: str | None = None) -> None:
    """The page at ``path`` (else as it is), as tall as it is up to ``TALLEST``, into NAME.png."""
    if path is not None:
        page.goto(path, wait_until="load")
    page.wait_for_timeout(150)  # the live parts' first fetch
    width = page.viewport_size["width"] if page.viewport_size else DESKTOP["width"]
    # the page's own height (the body's), not the window's: no empty screen below a short page
    height = min(int(page.evaluate("Math.ceil(document.body.getBoundingClientRect().bottom)")), TALLEST)
    target = HERE / f"{name}.png"
    WRITTEN.add(target)
    page.screenshot(path=target, full_page=True, clip={"x": 0, "y": 0, "width": width, "height": height})
    address = urlsplit(page.url)._replace(scheme="", netloc="").geturl()
    print(f"{target.relative_to(ROOT)}  {width}x{height}  {target.stat().st_size // 1024} KiB  {address}")


def person(browser: Browser, base: str, viewport: ViewportSize, token: str | None = None) -> Page:
    context: BrowserContext = browser.new_context(viewport=viewport, base_url=base, locale="en-GB")
    page = context.new_page()
    if token is not None:
        sign_in(page, token)
    return page


def photograph(browser: Browser, base: str, club: Club, scene: Scene) -> None:
    public = person(browser, base, DESKTOP)
    shot(public, "home", "/")
    shot(public, "mao-league", f"/web/leagues/{scene.mao_league}")
    shot(public, "table", f"/web/games/{scene.friendly}")
    shot(public, "table-real-cards", f"/web/games/{scene.real}")
    shot(public, "tournament-sheets", f"/web/tournaments/{scene.evening}")
    shot(public, "sheets", f"/web/tournaments/{scene.evening}/rounds/1/sheets")
    shot(public, "mao-table", f"/web/mao-games/{scene.mao}")
    shot(public, "signin", "/signin")
    shot(public, "join", f"/join/{scene.invitation}")
    shot(public, "error", f"/web/leagues/{UNKNOWN}")
    shot(public, "apidocs", "/schema")

    ukrainian = person(browser, base, DESKTOP)
    shot(ukrainian, "home-uk", "/?lang=uk")

    phone = person(browser, base, PHONE)
    shot(phone, "home-phone", "/")
    shot(phone, "table-phone", f"/web/games/{scene.friendly}")

    ada = person(browser, base, PHONE, scene.tokens["Ada"])
    shot(ada, "play", f"/web/games/{scene.friendly}/play")
    shot(ada, "score", f"/web/games/{scene.real}/score")
    ada_wide = person(browser, base, DESKTOP, scene.tokens["Ada"])
    ada_wide.goto(f"/web/players/{scene.players['Ada']}")
    ada_wide.get_by_role("button", name="Make the sign-in link").click()
    ada_wide.locator("input.handed-link").wait_for()
    link = ada_wide.locator("input.handed-link").input_value()
    shot(ada_wide, "player")
    shot(public, "signin-link", link.removeprefix(base))

    rita = person(browser, base, DESKTOP, scene.referee)
    shot(rita, "referee", "/web/referee")
    shot(rita, "referee-game", f"/web/referee/games/{scene.played}")
    shot(rita, "referee-replay", f"/web/referee/games/{scene.played}/replay?at=3")
    shot(rita, "mao-judge", f"/web/mao-games/{scene.mao}/judge")
    ivy = person(browser, base, PHONE, scene.mao_tokens[0])
    shot(ivy, "mao-play", f"/web/mao-games/{scene.mao}/play")
    admin = person(browser, base, DESKTOP, ADMIN_TOKEN)
    shot(admin, "admin", "/web/admin")
    shot(admin, "admin-tournaments", "/web/admin/tournaments")
    shot(admin, "admin-leagues", "/web/admin/leagues")
    shot(admin, "admin-league", f"/web/admin/leagues/{scene.league}")
    shot(admin, "admin-invitations", f"/web/admin/leagues/{scene.league}/invitations")
    shot(admin, "admin-referees", "/web/admin/referees")

    waited = time.monotonic()
    finished(club, scene.knockout, scene.robin)
    print(f"waited {time.monotonic() - waited:.0f} s for the bots' tournaments")
    shot(public, "tournament", f"/web/tournaments/{scene.knockout}")
    shot(public, "tournament-crosstable", f"/web/tournaments/{scene.robin}")
    shot(public, "tournament-display", f"/web/tournaments/{scene.knockout}?display=1")
    shot(public, "league", f"/web/leagues/{scene.league}")  # its tournaments past


def main() -> None:
    began = time.monotonic()
    with (
        tempfile.TemporaryDirectory(prefix="maumau-screenshots-") as data,
        served(Path(data)) as base,
        httpx.Client(base_url=base, timeout=30) as http,
    ):
        club = Club(http)  # type: ignore[arg-type]  # the same request() as litestar's TestClient
        scene = build(club)
        print(f"the club built in {time.monotonic() - began:.0f} s (the service started, the scene made)")
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM)
            try:
                photograph(browser, base, club, scene)
            finally:
                browser.close()
    for stale in sorted(set(HERE.glob("*.png")) - WRITTEN):
        print(f"{stale.relative_to(ROOT)}: not made by this run (a page renamed? remove it)")
    pictures = list(HERE.glob("*.png"))
    total = sum(found.stat().st_size for found in pictures) // 1024
    print(f"{len(pictures)} screenshots, {total} KiB, {time.monotonic() - began:.0f} s")


if __name__ == "__main__":
    main()

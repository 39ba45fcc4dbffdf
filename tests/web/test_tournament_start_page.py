"""Start now, from the tournament page: offered to an admin once every entrant is there, done by the
API's own start, refused as the API refuses it, on a page in the reader's language."""

import re
import uuid

import httpx

from tests.e2e.club import ADMIN_TOKEN, Club
from tests.web.conftest import sign_in_over_http

START_NOW = 'class="start-now"'


def token_of(page: str) -> str:
    found = re.search(r'name="csrf" value="([^"]+)"', page)
    assert found is not None, "the page has no form token"
    return found.group(1)


PLAN = {"name": "Friday cup", "format": "swiss", "table_size": 2, "rounds": 1, "single_round": True}


def announced(club: Club, entrants: int) -> str:
    players = [club.player()[0] for _ in range(entrants)]
    league = club.league(members=players, name=f"Start {uuid.uuid4().hex[:6]}", options={"hand_size": 3})
    tournament = club.ok("POST", f"/leagues/{league}/tournaments", json=PLAN)["tournament_id"]
    for player in players:
        club.ok("POST", f"/tournaments/{tournament}/entrants", json={"player_id": player})
    return str(tournament)


def test_an_admin_starts_a_tournament_whose_entrants_are_all_there_from_its_page(base: str, club: Club):
    tournament = announced(club, 2)
    page = f"/web/tournaments/{tournament}"
    assert START_NOW not in httpx.get(base + page).text  # nobody signed in: no button
    with httpx.Client(base_url=base) as browser:
        sign_in_over_http(browser, ADMIN_TOKEN)
        shown = browser.get(page)
        assert START_NOW in shown.text and "Start now" in shown.text
        answer = browser.post(f"{page}/start", data={"csrf": token_of(shown.text)})
        assert answer.status_code == 303 and answer.headers["location"].startswith(f"{page}?after=")
        after = browser.get(answer.headers["location"])
        assert after.status_code == 200 and "Running" in after.text and START_NOW not in after.text
    assert club.ok("GET", f"/tournaments/{tournament}")["status"] == "running"


def test_a_start_refused_is_a_page_in_the_readers_language_and_nothing_starts(base: str, club: Club):
    alone = announced(club, 1)  # one entrant, no places for bots: too few to play
    page = f"/web/tournaments/{alone}"
    with httpx.Client(base_url=base) as browser:
        sign_in_over_http(browser, ADMIN_TOKEN)
        shown = browser.get(page, params={"lang": "uk"})
        assert START_NOW not in shown.text  # not offered: not everyone who would play is there
        refused = browser.post(f"{page}/start", data={"csrf": token_of(shown.text)})
        assert refused.status_code == 422
        assert 'data-code="too_few_players"' in refused.text
        assert "турніру потрібні щонайменше два гравці; грали б 1" in refused.text
        assert '<html lang="uk">' in refused.text
    assert club.ok("GET", f"/tournaments/{alone}")["status"] == "announced"

    # a player sees no button on a tournament ready to start, and a start posted anyway is refused
    ready = announced(club, 2)
    created = club.ok("POST", "/players", json={"name": f"Pat {uuid.uuid4().hex[:4]}"})
    page = f"/web/tournaments/{ready}"
    with httpx.Client(base_url=base) as browser:
        sign_in_over_http(browser, created["token"]["token"])
        shown = browser.get(page)
        assert START_NOW not in shown.text
        refused = browser.post(f"{page}/start", data={"csrf": token_of(shown.text)})
        assert refused.status_code == 403 and 'data-code="forbidden"' in refused.text
        assert "only an admin may do this" in refused.text
    assert club.ok("GET", f"/tournaments/{ready}")["status"] == "announced"

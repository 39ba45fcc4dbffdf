"""The admin's lists refused through the real HTTP stack (``maumau serve``, its session and form token):
nobody but an admin sees them or acts on them; a stale, unknown or malformed id, a finished
tournament cancelled, an invitation revoked twice or another league's, a referee or league unknown, a
referee taken off who is not the league's, each answers the list again with the API's status and code
and the reason in the page's language, and the API shows that nothing changed."""

import re
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import pytest

from tests.e2e.club import ADMIN_TOKEN, Club
from tests.web.conftest import Scene, sign_in_over_http
from tests.web.test_admin_in_a_browser import finished

HTML = {"Accept": "text/html"}
JSON = {"Accept": "application/json"}  # a program's ask: the problem, not the page
UNKNOWN = "00000000-0000-4000-8000-000000000000"
LISTS = ("/web/admin/tournaments", "/web/admin/leagues", "/web/admin/referees")


@contextmanager
def signed_in(base: str, token: str = ADMIN_TOKEN) -> Iterator[tuple[httpx.Client, str]]:
    """A browser signed in with ``token`` and its session's form token."""
    with httpx.Client(base_url=base, headers=HTML) as browser:
        sign_in_over_http(browser, token)
        page = browser.get("/web/admin/tournaments" if token == ADMIN_TOKEN else "/")
        found = re.search(r'name="csrf" value="([^"]+)"', page.text)
        assert found is not None
        yield browser, found.group(1)


def refused(answer: httpx.Response, status: int, code: str) -> str:
    """The list page again, with the refusal's box carrying ``code``; its text."""
    assert answer.status_code == status, (answer.status_code, answer.text[-2000:])
    assert answer.headers["content-type"].startswith("text/html")
    assert f'data-code="{code}"' in answer.text, answer.text[-2000:]
    return answer.text


def announced(club: Club, league: str) -> str:
    plan = {"name": f"Cup {uuid.uuid4().hex[:6]}", "format": "swiss", "table_size": 2, "rounds": 1}
    return str(club.ok("POST", f"/leagues/{league}/tournaments", json=plan)["tournament_id"])


def test_nobody_but_an_admin_sees_the_lists_or_acts_on_them_and_nothing_is_done(
    base: str, club: Club, scene: Scene
):
    cup = announced(club, scene.league)
    pages = [*LISTS, f"/web/admin/leagues/{scene.league}", f"/web/admin/leagues/{scene.league}/invitations"]
    with httpx.Client(base_url=base) as program:
        for path in pages:
            answer = program.get(path)  # a program, not a browser: the API's problem
            assert (answer.status_code, answer.json()["code"]) == (401, "unauthorized")
            answer = program.get(path, headers=HTML)
            assert answer.status_code == 401 and "Only an admin may use this page." in answer.text
            assert 'id="tournaments"' not in answer.text
    player = next(iter(scene.tokens.values()))
    with signed_in(base, player) as (browser, csrf):
        for path in pages:
            answer = browser.get(path)
            assert answer.status_code == 403 and "Only an admin may use this page." in answer.text
        answer = browser.post(f"/web/admin/tournaments/{cup}/cancel", data={"csrf": csrf, "reason": "mine"})
        assert answer.status_code == 403 and "Only an admin may use this page." in answer.text
        member = next(iter(scene.players.values()))
        answer = browser.post(
            f"/web/admin/leagues/{scene.league}/remove", data={"csrf": csrf, "player_id": member}
        )
        assert answer.status_code == 403
        answer = browser.post(f"/web/admin/tournaments/{cup}/cancel", data={"reason": "mine"}, headers=JSON)
        assert (answer.status_code, answer.json()["code"]) == (403, "csrf_failed")
    assert club.ok("GET", f"/tournaments/{cup}")["status"] == "announced"
    assert member in club.ok("GET", f"/leagues/{scene.league}")["members"]
    with signed_in(base) as (browser, _):  # an admin's post without the form's token: nothing done
        answer = browser.post(f"/web/admin/tournaments/{cup}/start", data={}, headers=JSON)
        assert (answer.status_code, answer.json()["code"]) == (403, "csrf_failed")
    assert club.ok("GET", f"/tournaments/{cup}")["status"] == "announced"


def test_a_finished_tournament_is_not_cancelled_nor_an_unknown_or_malformed_one(
    base: str, club: Club, scene: Scene
):
    plan = {
        "name": "Bots",
        "format": "swiss",
        "table_size": 2,
        "rounds": 1,
        "places": 2,
        "single_round": True,
    }
    bots = club.ok("POST", f"/leagues/{scene.league}/tournaments", json=plan)["tournament_id"]
    club.ok("POST", f"/tournaments/{bots}/start")
    finished(club, bots)
    cup = announced(club, scene.league)
    with signed_in(base) as (browser, csrf):
        said = {"csrf": csrf, "reason": "the hall is closed", "q": "bots", "page": "1"}
        text = refused(
            browser.post(f"/web/admin/tournaments/{bots}/cancel", data=said), 409, "tournament_over"
        )
        assert "Refused: nothing was changed." in text and "<h1>Tournaments</h1>" in text
        assert 'name="q" value="bots"' in text  # the list as it was searched
        refused(browser.post(f"/web/admin/tournaments/{bots}/start", data=said), 409, "tournament_started")
        refused(
            browser.post(f"/web/admin/tournaments/{UNKNOWN}/cancel", data=said), 404, "tournament_not_found"
        )
        refused(
            browser.post(f"/web/admin/tournaments/{UNKNOWN}/edit", data=said), 404, "tournament_not_found"
        )
        refused(browser.post("/web/admin/tournaments/not-an-id/cancel", data=said), 400, "malformed_request")
        # no reason given, a table of one seat: the rules' refusals, nothing cancelled or edited
        refused(
            browser.post(f"/web/admin/tournaments/{cup}/cancel", data={"csrf": csrf}), 422, "invalid_reason"
        )
        edit = {"csrf": csrf, "name": "Renamed", "table_size": "1"}
        answer = browser.post(f"/web/admin/tournaments/{cup}/edit", data=edit)
        assert answer.status_code == 422 and 'class="refusal"' in answer.text
        answer = browser.post(f"/web/admin/tournaments/{cup}/shred", data=said)
        assert answer.status_code == 404
        assert browser.post(f"/web/admin/shelves/{cup}/cancel", data=said).status_code in (
            404,
            405,
        )  # no list
    assert club.ok("GET", f"/tournaments/{bots}")["status"] == "finished"
    found = club.ok("GET", f"/tournaments/{cup}")
    assert (found["status"], found["name"]) == ("announced", cup_name(found))


def cup_name(found: dict[str, Any]) -> str:
    assert found["name"].startswith("Cup ")
    return str(found["name"])


def test_a_stale_member_invitation_or_referee_is_refused_in_the_pages_language(base: str, club: Club):
    ada, _ = club.player(f"Ada {uuid.uuid4().hex[:4]}")
    outsider, _ = club.player(f"Cid {uuid.uuid4().hex[:4]}")
    league = club.league(members=[ada], name=f"Elmwood {uuid.uuid4().hex[:6]}")
    other = club.league(name=f"Birchley {uuid.uuid4().hex[:6]}")
    until = (datetime.now(UTC) + timedelta(days=2)).isoformat()
    theirs = club.ok("POST", f"/leagues/{other}/invitations", json={"expires_at": until})["invitation"]
    ours = club.ok("POST", f"/leagues/{league}/invitations", json={"expires_at": until})["invitation"]
    club.ok("DELETE", f"/invitations/{ours['invitation_id']}")
    here = f"/web/admin/leagues/{league}"
    with signed_in(base) as (browser, csrf):
        browser.cookies.set("lang", "uk")
        text = refused(
            browser.post(f"{here}/remove", data={"csrf": csrf, "player_id": outsider}),
            404,
            "member_not_found",
        )
        assert "Відмовлено: нічого не змінено." in text and "Refused" not in text
        refused(
            browser.post(f"{here}/remove", data={"csrf": csrf, "player_id": "nobody"}),
            400,
            "malformed_request",
        )
        revoke = {"csrf": csrf, "invitation_id": ours["invitation_id"]}
        refused(browser.post(f"{here}/revoke", data=revoke), 409, "already_revoked")
        revoke["invitation_id"] = theirs["invitation_id"]  # another league's: not on this page
        refused(browser.post(f"{here}/revoke", data=revoke), 404, "invitation_not_found")
        refused(
            browser.post(f"{here}/appoint", data={"csrf": csrf, "referee_id": UNKNOWN}),
            404,
            "referee_not_found",
        )
        refused(browser.post(f"{here}/admit", data={"csrf": csrf, "player_id": ada}), 409, "already_a_member")
        text = refused(
            browser.post(f"{here}/dismiss", data={"csrf": csrf, "referee_id": UNKNOWN}),
            404,
            "league_referee_not_found",
        )
        assert "цей суддя не є суддею ліги" in text
        refused(
            browser.post(f"/web/admin/leagues/{UNKNOWN}/dismiss", data={"csrf": csrf, "referee_id": UNKNOWN}),
            404,
            "league_not_found",
        )
        rita, _ = club.referee(f"Rita {uuid.uuid4().hex[:4]}")
        appoint = {"csrf": csrf, "league_id": UNKNOWN}
        refused(browser.post(f"/web/admin/referees/{rita}/appoint", data=appoint), 404, "league_not_found")
        refused(
            browser.post(f"/web/admin/referees/{UNKNOWN}/appoint", data={**appoint, "league_id": league}),
            404,
            "referee_not_found",
        )
        answer = browser.get(f"/web/admin/leagues/{UNKNOWN}")
        assert answer.status_code == 404 and 'data-code="league_not_found"' in answer.text
    assert club.ok("GET", f"/leagues/{league}")["members"] == [ada]
    assert club.ok("GET", f"/leagues/{league}")["referees"] == []
    listed = club.ok("GET", f"/leagues/{other}/invitations")["invitations"]
    assert [one["revoked"] for one in listed] == [False]


@pytest.mark.parametrize("path", LISTS)
def test_a_page_past_the_last_or_a_search_that_finds_nothing_says_so(base: str, path: str):
    with signed_in(base) as (browser, _):
        answer = browser.get(path, params={"q": f"no such name {uuid.uuid4().hex}", "page": "9"})
        assert answer.status_code == 200 and "Nothing found." in answer.text
        assert 'rel="next"' not in answer.text
        assert browser.get(path, params={"page": "-3"}).status_code == 200  # a hand-edited page: the first


def test_an_edit_a_start_an_admission_and_an_invitation_from_the_lists_do_what_the_api_does(
    base: str, club: Club
):
    ada, _ = club.player(f"Ada {uuid.uuid4().hex[:4]}")
    bo, _ = club.player(f"Bo {uuid.uuid4().hex[:4]}")
    league = club.league(members=[ada], name=f"Hollins {uuid.uuid4().hex[:6]}", time_zone="Europe/Kyiv")
    cup = announced(club, league)
    here = f"/web/admin/leagues/{league}"
    with signed_in(base) as (browser, csrf):
        edit = {"csrf": csrf, "name": "Spring open", "starts_at": "2030-05-01T19:00", "places": "4"}
        answer = browser.post(f"/web/admin/tournaments/{cup}/edit", data=edit)
        assert answer.status_code == 200 and 'data-done="edit"' in answer.text
        found = club.ok("GET", f"/tournaments/{cup}")
        # the start typed in the league's time zone: 19:00 in Kyiv in May is 16:00 UTC
        assert (found["name"], found["places"]) == ("Spring open", 4)
        assert found["starts_at"].startswith("2030-05-01T16:00")
        # "no start time" clears it (the API's null); an empty field leaves it; both at once is refused
        both = {"csrf": csrf, "no_start": "on", "starts_at": "2030-05-02T19:00"}
        text = refused(
            browser.post(f"/web/admin/tournaments/{cup}/edit", data=both), 400, "malformed_request"
        )
        assert "a start time, or no start time: not both" in text
        assert club.ok("GET", f"/tournaments/{cup}")["starts_at"].startswith("2030-05-01T16:00")
        answer = browser.post(f"/web/admin/tournaments/{cup}/edit", data={"csrf": csrf, "starts_at": ""})
        assert club.ok("GET", f"/tournaments/{cup}")["starts_at"].startswith("2030-05-01T16:00")
        answer = browser.post(f"/web/admin/tournaments/{cup}/edit", data={"csrf": csrf, "no_start": "on"})
        assert answer.status_code == 200 and 'data-done="edit"' in answer.text
        found = club.ok("GET", f"/tournaments/{cup}")
        assert found["starts_at"] is None and found["name"] == "Spring open"
        answer = browser.post(f"/web/admin/tournaments/{cup}/start", data={"csrf": csrf})
        assert answer.status_code == 200 and 'data-done="start"' in answer.text
        assert club.ok("GET", f"/tournaments/{cup}")["status"] == "running"
        answer = browser.post(f"{here}/admit", data={"csrf": csrf, "player_id": bo})
        assert answer.status_code == 200 and 'data-done="admit"' in answer.text
        assert sorted(club.ok("GET", f"/leagues/{league}")["members"]) == sorted([ada, bo])
        answer = browser.post(f"{here}/invite", data={"csrf": csrf, "uses": "3", "days": "2"})
        assert answer.status_code == 200 and 'data-done="invite"' in answer.text
        link = re.search(r"/join/(inv_[\w-]+)", answer.text)
        assert link is not None  # the link, shown this once
        listed = club.ok("GET", f"/leagues/{league}/invitations")["invitations"]
        assert [one["uses"] for one in listed] == [3]
        assert 'data-state="open"' in answer.text  # and on the list below it

"""The admin's lists in a real browser: a tournament found by a search in another case, a list paged
through both ways, a tournament cancelled, another's start time cleared, a member removed, an
invitation revoked, a referee appointed by picking one of two referees of the same name and taken off
again; each checked against the API."""

import re
import uuid
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

import httpx
from playwright.sync_api import Page, expect

from tests.e2e.club import Club
from tests.web.conftest import Visit
from tests.web.test_admin_in_a_browser import LAPTOP, sign_in_as_admin

CUPS = 23  # more than a page of 20


@dataclass(frozen=True)
class Office:
    tag: str  # a word of this test's own in every name it made
    league: str
    cups: dict[str, str]  # name -> id
    members: dict[str, str]  # name -> id


def office(club: Club) -> Office:
    tag = uuid.uuid4().hex[:6]
    members = {f"Ada {tag}": club.player(f"Ada {tag}")[0], f"Bo {tag}": club.player(f"Bo {tag}")[0]}
    league = club.league(members=list(members.values()), name=f"Oakmoor {tag}")
    cups = {}
    for number in range(1, CUPS + 1):
        name = f"Cup {tag} {number:02}"
        plan = {"name": name, "format": "swiss", "table_size": 2, "rounds": 1}
        cups[name] = club.ok("POST", f"/leagues/{league}/tournaments", json=plan)["tournament_id"]
    return Office(tag, league, cups, members)


def row(page: Page, some_id: str):  # type: ignore[no-untyped-def]
    return page.locator(f"[data-id='{some_id}']")


def test_an_admin_finds_pages_cancels_removes_revokes_appoints_and_dismisses_by_the_lists(
    visit: Visit, club: Club
):
    page, found = visit.page, office(club)
    page.set_viewport_size(LAPTOP)
    sign_in_as_admin(page)
    page.get_by_role("link", name="Tournaments").click()
    expect(page.locator("h1")).to_have_text("Tournaments")

    # a search by a part of the name in another case: a page of 20 of them, then the rest
    page.fill("form.search input[name=q]", f"CUP {found.tag.upper()}")
    page.locator("form.search button").click()
    expect(page.locator("#tournaments tbody tr")).to_have_count(20)
    page.locator("a[rel=next]").click()
    expect(page.locator("#tournaments tbody tr")).to_have_count(CUPS - 20)
    expect(page.locator("a[rel=next]")).to_have_count(0)
    assert f"q=CUP+{found.tag.upper()}" in page.url or f"q=CUP%20{found.tag.upper()}" in page.url
    page.locator("a[rel=prev]").click()
    expect(page.locator("#tournaments tbody tr")).to_have_count(20)

    # one found by its whole name, and cancelled with a reason said to everyone
    name = f"cup {found.tag} 07"
    page.fill("form.search input[name=q]", name)
    page.locator("form.search button").click()
    cup = found.cups[f"Cup {found.tag} 07"]
    expect(page.locator("#tournaments tbody tr")).to_have_count(1)
    expect(row(page, cup)).to_contain_text("Announced")
    row(page, cup).locator("summary", has_text="Cancel").click()
    row(page, cup).locator("[data-action=cancel] input[name=reason]").fill("the hall is closed")
    row(page, cup).locator("[data-action=cancel] button").click()
    expect(page.locator("[data-done=cancel]")).to_contain_text(f"Cup {found.tag} 07")
    expect(row(page, cup)).to_contain_text("Cancelled")
    assert club.ok("GET", f"/tournaments/{cup}")["status"] == "cancelled"
    assert page.locator("form.search input[name=q]").input_value() == name  # the search stays

    # another's start time cleared by its edit form's "no start time": started by hand
    cup = found.cups[f"Cup {found.tag} 08"]
    club.ok("PATCH", f"/tournaments/{cup}", json={"starts_at": "2030-05-01T18:00:00+00:00"})
    page.fill("form.search input[name=q]", f"cup {found.tag} 08")
    page.locator("form.search button").click()
    start = row(page, cup).locator("td").nth(3)  # the list's "Start" column
    expect(start).to_contain_text("2030")
    row(page, cup).locator("summary", has_text="Edit").click()
    row(page, cup).locator("[data-action=edit] input[name=no_start]").check()
    row(page, cup).locator("[data-action=edit] button").click()
    expect(page.locator("[data-done=edit]")).to_contain_text(f"Cup {found.tag} 08")
    expect(row(page, cup).locator("td").nth(3)).to_have_text("by hand")
    assert club.ok("GET", f"/tournaments/{cup}")["starts_at"] is None

    # a member removed from the league's page, reached from the list of leagues
    page.get_by_role("link", name="Leagues").click()
    page.fill("form.search input[name=q]", f"oakmoor {found.tag}")
    page.locator("form.search button").click()
    row(page, found.league).get_by_role("link", name="Members and referees").click()
    expect(page.locator("#members li")).to_have_count(2)
    bo = found.members[f"Bo {found.tag}"]
    row(page, bo).locator("[data-action=remove] button").click()
    expect(page.locator("[data-done=remove]")).to_be_visible()
    expect(page.locator("#members li")).to_have_count(1)
    members = club.ok("GET", f"/leagues/{found.league}")["members"]
    assert bo not in members and found.members[f"Ada {found.tag}"] in members

    # two referees of one name: the picker tells them apart by their short ids
    rita = f"Rita {found.tag}"
    first, _ = club.referee(rita)
    second, _ = club.referee(rita)
    page.reload()
    options = page.locator("[data-action=appoint] select[name=referee_id] option")
    labels = [options.nth(i).inner_text() for i in range(options.count())]
    same = [label for label in labels if label.startswith(rita)]
    assert sorted(same) == sorted(f"{rita} ({short(one)})" for one in (first, second)), labels
    page.select_option("[data-action=appoint] select[name=referee_id]", label=f"{rita} ({short(second)})")
    page.locator("[data-action=appoint] button").click()
    expect(page.locator("[data-done=appoint]")).to_be_visible()
    expect(page.locator("#league-referees")).to_contain_text(rita)
    referees = club.ok("GET", f"/leagues/{found.league}")["referees"]
    assert second in referees and first not in referees

    # and taken off the league again from her row: the league has no referee left
    row(page, second).locator("[data-action=dismiss] button").click()
    expect(page.locator("[data-done=dismiss]")).to_be_visible()
    expect(row(page, second)).to_have_count(0)
    expect(page.locator("#league-referees")).to_have_count(0)
    assert club.ok("GET", f"/leagues/{found.league}")["referees"] == []

    # an invitation revoked from the league's invitations
    until = (datetime.now(UTC) + timedelta(days=3)).isoformat()
    made = club.ok("POST", f"/leagues/{found.league}/invitations", json={"expires_at": until, "uses": 5})
    invitation = made["invitation"]["invitation_id"]
    page.get_by_role("link", name="Invitations").first.click()
    expect(row(page, invitation)).to_have_attribute("data-state", "open")
    row(page, invitation).locator("[data-action=revoke] button").click()
    expect(page.locator("[data-done=revoke]")).to_be_visible()
    expect(row(page, invitation)).to_have_attribute("data-state", "revoked")
    listed = club.ok("GET", f"/leagues/{found.league}/invitations")["invitations"]
    assert [one["revoked"] for one in listed if one["invitation_id"] == invitation] == [True]
    assert not visit.outside


def short(some_id: str) -> str:
    return re.sub("-", "", some_id)[:8]


def test_two_leagues_of_one_name_are_told_apart_on_the_sign_in_page_by_their_rulesets(base: str, club: Club):
    name = f"Larchfield {uuid.uuid4().hex[:6]}"
    club.league(name=name, ruleset="classic")
    club.league(name=name, ruleset="club")
    page = httpx.get(f"{base}/signin", headers={"Accept": "text/html"}).text
    offered = re.findall(rf">({re.escape(name)}[^<]*)</option>", page)
    assert sorted(offered) == [f"{name} (Classic Mau-Mau)", f"{name} (Club Mau-Mau)"]

"""A tournament's in-person tables over HTTP (the plan option, the bracket) and the printable score
sheets of a round, read back with Python's own HTML parser.

The e2e app runs no worker (tests/e2e/conftest.py): a started tournament's round 1 is paired and
its games are not made yet, which is when a club prints its sheets.
"""

import re
import uuid
from base64 import b64encode
from dataclasses import dataclass, field
from hashlib import sha256
from html.parser import HTMLParser
from typing import Any

import pytest

from service.domain.ruleset_options import ruleset
from service.http.headers import POLICY
from tests.e2e.club import ADMIN, Club, problem

UNKNOWN = "00000000-0000-0000-0000-00000000beef"
ODD_NAME = "<b>&\"'"  # every character HTML treats as markup


@dataclass
class Node:
    tag: str
    attrs: dict[str, str]
    children: list["Node"] = field(default_factory=list)
    text: str = ""

    def find(self, tag: str, cls: str | None = None) -> list["Node"]:
        found = (
            [self] if self.tag == tag and (cls is None or cls in self.attrs.get("class", "").split()) else []
        )
        for child in self.children:
            found += child.find(tag, cls)
        return found

    def all_text(self) -> str:
        return self.text + "".join(child.all_text() for child in self.children)


class Tree(HTMLParser):
    """The page as nodes; text kept where it appears (entities already turned back into characters)."""

    VOID = frozenset({"meta", "br", "link", "img", "input", "hr"})

    def __init__(self, page: str) -> None:
        super().__init__(convert_charrefs=True)
        self.root = Node("document", {})
        self.stack = [self.root]
        self.feed(page)
        self.close()
        assert self.stack == [self.root], "every element is closed"

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        node = Node(tag, {name: value or "" for name, value in attrs})
        self.stack[-1].children.append(node)
        if tag not in self.VOID:
            self.stack.append(node)

    def handle_endtag(self, tag: str) -> None:
        assert self.stack[-1].tag == tag, (tag, self.stack[-1].tag)
        self.stack.pop()

    def handle_data(self, data: str) -> None:
        self.stack[-1].text += data


def cells(row: Node) -> list[str]:
    return [cell.all_text().strip() for cell in row.children if cell.tag in ("td", "th")]


@dataclass
class Cup:
    tournament: dict[str, Any]
    names: dict[str, str]  # player id -> name
    odd: str  # the player with an HTML-special name


@pytest.fixture(scope="module")
def cup(club: Club) -> Cup:
    mark = uuid.uuid4().hex[:6]
    names = {}
    for first in ("Ada", "Bea", "Cyd", "Dan", ODD_NAME):
        player_id, _ = club.player(f"{first} {mark}")
        names[player_id] = f"{first} {mark}"
    odd = next(player_id for player_id, name in names.items() if name.startswith(ODD_NAME))
    league = club.league(members=list(names), ruleset="mau-mau-150")
    plan = {"name": f"Cup <{mark}>", "format": "swiss", "table_size": 3, "rounds": 2, "places": 6}
    tournament = club.ok("POST", f"/leagues/{league}/tournaments", json={**plan, "in_person_tables": 1})
    for player_id in names:
        club.ok("POST", f"/tournaments/{tournament['tournament_id']}/entrants", json={"player_id": player_id})
    started = club.ok("POST", f"/tournaments/{tournament['tournament_id']}/start")
    return Cup(started, names, odd)


def sheets(club: Club, cup: Cup, round_no: int = 1, headers: dict[str, str] | None = None) -> Any:
    return club.client.get(
        f"/tournaments/{cup.tournament['tournament_id']}/rounds/{round_no}/sheets", headers=headers or {}
    )


def test_the_bracket_says_which_tables_of_a_round_are_played_in_person(cup: Cup) -> None:
    view = cup.tournament
    assert view["in_person_tables"] == 1
    tables = view["rounds"][0]["tables"]
    # five people and a bot at two tables of three: the table without the bot is played in person
    assert len(tables) == 2
    (people,) = [t for t in tables if not any(entrant.startswith("bot:") for entrant in t["entrants"])]
    assert [t["in_person"] for t in tables] == [t is people for t in tables]


def test_the_score_sheets_of_a_round_give_every_table_its_seats_names_grid_and_card_values(
    club: Club, cup: Cup
) -> None:
    club.ok("GET", f"/tournaments/{cup.tournament['tournament_id']}?after={club.log_position()}")
    response = sheets(club, cup)  # anonymous: the sheets are as public as the bracket
    assert response.status_code == 200, response.text
    assert response.headers["content-type"] == "text/html; charset=utf-8"
    page = response.text
    assert "<script" not in page and "http://" not in page and "https://" not in page
    assert "page-break-after: always" in page and "@page" in page
    # the service's policy lets this page's own style in, by its hash, and nothing else inline
    (style,) = re.findall(r"<style>(.*?)</style>", page, re.DOTALL)
    digest = b64encode(sha256(style.encode()).digest()).decode()
    policy = response.headers["content-security-policy"]
    assert policy == f"{POLICY}; style-src 'sha256-{digest}'" and "unsafe-inline" not in policy
    # the odd name is escaped wherever it appears, never taken as markup
    assert ODD_NAME not in page and "&lt;b&gt;&amp;&quot;&#x27;" in page
    document = Tree(page).root
    assert not document.find("b")
    round_1 = cup.tournament["rounds"][0]
    found = document.find("section", "sheet")
    assert len(found) == len(round_1["tables"])
    name_of = {
        **cup.names,
        **{e: e for t in round_1["tables"] for e in t["entrants"] if e.startswith("bot:")},
    }
    rules = ruleset("mau-mau-150")
    for sheet, table in zip(found, round_1["tables"], strict=True):
        (title,) = sheet.find("h1")
        assert title.all_text() == cup.tournament["name"]
        (heading,) = sheet.find("h2")
        assert heading.all_text() == f"Tournament round 1 · Table {table['table'] + 1}"
        (how,) = sheet.find("p", "how")
        assert how.all_text().startswith(
            "Played with real cards" if table["in_person"] else "Played on the server"
        )
        names = [name_of[entrant] for entrant in table["entrants"]]
        (seats,) = sheet.find("table", "seats")
        head, *people, scorer = seats.find("tr")
        assert cells(head) == ["Seat", "Player", "Signature"]
        assert [cells(row) for row in people] == [
            [str(seat), name, ""] for seat, name in enumerate(names, start=1)
        ]
        assert cells(scorer) == ["Scorer", "", ""]  # the scorer writes their name and signs
        (grid,) = sheet.find("table", "grid")
        head, *rounds, totals = grid.find("tr")
        assert cells(head) == ["Round", *names]
        assert [cells(row) for row in rounds] == [[str(n), *[""] * len(names)] for n in range(1, 13)]
        assert cells(totals) == ["Total", *[""] * len(names)]
        (values,) = sheet.find("table", "card-points")
        ranks, points = (cells(row) for row in values.find("tr"))
        assert dict(zip(ranks[1:], points[1:], strict=True)) == {
            rank: str(value) for rank, value in rules.card_points.items()
        }
        (said,) = sheet.find("div", "rules")
        assert "reaches 150 points" in said.all_text() and "highest total wins" in said.all_text()
    assert cup.names[cup.odd] in {name for t in round_1["tables"] for name in map(name_of.get, t["entrants"])}


def test_the_pages_sheets_are_in_the_readers_language_with_the_bot_by_its_name(club: Club, cup: Cup) -> None:
    club.ok("GET", f"/tournaments/{cup.tournament['tournament_id']}?after={club.log_position()}")
    path = f"/web/tournaments/{cup.tournament['tournament_id']}/rounds/1/sheets"
    response = club.client.get(path, params={"lang": "uk"})
    assert response.status_code == 200, response.text
    page = response.text
    assert '<html lang="uk">' in page and "листи підрахунку, тур 1" in page
    (style,) = re.findall(r"<style>(.*?)</style>", page, re.DOTALL)
    digest = b64encode(sha256(style.encode()).digest()).decode()
    assert response.headers["content-security-policy"] == f"{POLICY}; style-src 'sha256-{digest}'"
    sections = Tree(page).root.find("section", "sheet")
    headings = [section.find("h2")[0].all_text() for section in sections]
    assert headings == [f"Тур 1 · Стіл {n}" for n in range(1, len(sections) + 1)]
    said = " ".join(section.all_text() for section in sections)
    assert "Обачний бот 1" in said and "bot:" not in said  # the bot's place by its name
    assert "Мау-Мау до 150" in said and "150 очок" in said  # the ruleset and the match's end in words
    for word in ("Round", "Table", "Seat", "Player", "Signature", "Scorer", "Rules", "Played"):
        assert word not in said, word


def test_a_single_round_match_has_one_row_to_write_and_says_lowest_wins_in_club(club: Club) -> None:
    players = [club.player()[0] for _ in range(2)]
    league = club.league(members=players)
    plan = {"name": "Quick", "format": "swiss", "table_size": 2, "rounds": 1, "single_round": True}
    tournament = club.ok("POST", f"/leagues/{league}/tournaments", json=plan)["tournament_id"]
    for player_id in players:
        club.ok("POST", f"/tournaments/{tournament}/entrants", json={"player_id": player_id})
    club.ok("POST", f"/tournaments/{tournament}/start")
    response = club.client.get(f"/tournaments/{tournament}/rounds/1/sheets", headers=ADMIN)
    assert response.status_code == 200, response.text
    (sheet,) = Tree(response.text).root.find("section", "sheet")
    (grid,) = sheet.find("table", "grid")
    assert len(grid.find("tr")) == 3  # the heads, one round, the totals
    said = sheet.find("div", "rules")[0].all_text()
    assert "one round" in said and "lowest total wins" in said
    (how,) = sheet.find("p", "how")
    assert how.all_text().startswith("Played on the server")  # no in-person tables in this plan


def test_the_sheets_of_an_unknown_tournament_or_a_round_not_paired_are_404(club: Club, cup: Cup) -> None:
    problem(club.client.get(f"/tournaments/{UNKNOWN}/rounds/1/sheets"), 404, "tournament_not_found")
    for round_no in (0, 2, 99):
        problem(sheets(club, cup, round_no), 404, "no_such_round")
    league = club.league()
    plan = {"name": "Later", "format": "swiss", "table_size": 2, "rounds": 1}
    later = club.ok("POST", f"/leagues/{league}/tournaments", json=plan)["tournament_id"]
    problem(club.client.get(f"/tournaments/{later}/rounds/1/sheets"), 404, "no_such_round")


def test_the_in_person_tables_are_edited_before_the_start_and_a_bad_number_is_refused_changing_nothing(
    club: Club,
) -> None:
    league = club.league()
    plan = {"name": "Edited", "format": "swiss", "table_size": 2, "rounds": 1}
    tournament = club.ok("POST", f"/leagues/{league}/tournaments", json=plan)["tournament_id"]
    assert club.ok("GET", f"/tournaments/{tournament}")["in_person_tables"] == 0
    edited = club.ok("PATCH", f"/tournaments/{tournament}", json={"in_person_tables": 3})
    assert edited["in_person_tables"] == 3
    for body, status, code in [
        ({"in_person_tables": -1}, 422, "invalid_in_person_tables"),
        ({"in_person_tables": 257}, 422, "invalid_in_person_tables"),
        ({"in_person_tables": "2"}, 400, "malformed_request"),
        ({"in_person_tables": 1.5}, 400, "malformed_request"),
    ]:
        with club.unchanged():
            problem(club.client.patch(f"/tournaments/{tournament}", json=body, headers=ADMIN), status, code)
        with club.unchanged():
            response = club.client.post(
                f"/leagues/{league}/tournaments", json={**plan, **body}, headers=ADMIN
            )
            problem(response, status, code)
    assert club.ok("GET", f"/tournaments/{tournament}")["in_person_tables"] == 3

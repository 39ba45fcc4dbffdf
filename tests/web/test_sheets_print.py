"""A round's score sheets printed to PDF by Chromium, on A4 and on US Letter: one page a table, each
page that table's sheet and no other's (docs/tournaments.md, "Printable score sheets").

The rounds are the heaviest sheets a club prints: six seats with the longest rules text (faraon's),
names of the longest length allowed, one of them a single word too long for its box; and a round of
three tables of four.
"""

import io
import re
import time
import uuid

import pytest
from pypdf import PdfReader

from service.domain.names import MAX_NAME
from tests.e2e.club import Club
from tests.e2e.test_embedded import WAIT
from tests.web.conftest import Visit

PAPERS = ("A4", "Letter")
# where the sheets are printed from (the API's, in English; the pages' copy, in Russian: its words
# are the longest), and the words each sheet holds: a table's, the scorer's, the card values'
SOURCES = {
    "en": ("/tournaments/{id}/rounds/1/sheets", "Table", "Scorer", "Points"),
    "ru": ("/web/tournaments/{id}/rounds/1/sheets?lang=ru", "Стол", "Секретарь", "Очки"),
}


def names_for(count: int, mark: str) -> list[str]:
    """``count`` names, each starting with a short word of its own (``P01<mark>``) that a page's text
    finds; the first is a single word of ``MAX_NAME`` characters, the others words up to that length."""
    heads = [f"P{i:02d}{mark}" for i in range(count)]
    words = " Konstantinopolskaya" * 4
    return [
        (head + "x" * MAX_NAME if i == 0 else head + words)[:MAX_NAME].strip() for i, head in enumerate(heads)
    ]


def round_of(club: Club, *, players: int, table_size: int, ruleset: str) -> tuple[str, list[list[str]]]:
    """A started tournament whose first round seats ``players`` in person; its id and each table's
    names' first words, by table."""
    mark = uuid.uuid4().hex[:6]
    names = names_for(players, mark)
    ids = {club.player(name)[0]: name for name in names}
    league = club.league(members=list(ids), name=f"Printed {mark}", ruleset=ruleset)
    plan = {"name": f"Cup {mark}", "format": "swiss", "table_size": table_size, "rounds": 2}
    tournament = club.ok(
        "POST", f"/leagues/{league}/tournaments", json={**plan, "in_person_tables": players // table_size}
    )["tournament_id"]
    for player_id in ids:
        club.ok("POST", f"/tournaments/{tournament}/entrants", json={"player_id": player_id})
    tables = club.ok("POST", f"/tournaments/{tournament}/start")["rounds"][0]["tables"]
    return tournament, [[ids[entrant].split()[0][:9] for entrant in table["entrants"]] for table in tables]


def sheets_once_named(club: Club, tournament: str, heads: list[list[str]], language: str = "en") -> str:
    """The sheets' path once every name is on them: the names come from the read models, a moment
    after the store."""
    path = SOURCES[language][0].format(id=tournament)
    deadline = time.monotonic() + WAIT
    while not all(head in club.client.get(path).text for table in heads for head in table):
        assert time.monotonic() < deadline, "the sheets never named every player"
        time.sleep(0.2)
    return path


def pages_text(pdf: bytes) -> list[str]:
    return [page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages]


@pytest.mark.parametrize(
    ("players", "table_size", "ruleset", "language"),
    [(12, 6, "faraon", "en"), (12, 4, "mau-mau-150", "en"), (12, 6, "faraon", "ru")],
    ids=["2x6", "3x4", "2x6-ru"],
)
def test_a_rounds_sheets_print_one_page_a_table_on_a4_and_letter(
    visit: Visit, club: Club, players: int, table_size: int, ruleset: str, language: str
) -> None:
    _, table_word, scorer, points = SOURCES[language]
    tournament, heads = round_of(club, players=players, table_size=table_size, ruleset=ruleset)
    assert len(heads) == players // table_size
    page = visit.page
    refused: list[str] = []  # the policy's word on a style it blocks: the sheets would print unstyled
    page.on(
        "console", lambda message: refused.append(message.text) if "Security Policy" in message.text else None
    )
    page.goto(sheets_once_named(club, tournament, heads, language))
    assert refused == []
    for paper in PAPERS:
        texts = pages_text(page.pdf(format=paper))
        assert len(texts) == len(heads), f"{paper}: {len(texts)} pages for {len(heads)} tables"
        for number, (text, table) in enumerate(zip(texts, heads, strict=True), start=1):
            flat = " ".join(text.split())
            assert re.findall(rf"{table_word} (\d+)", flat) == [str(number)], (paper, number, flat)
            others = [head for other in heads if other is not table for head in other]
            assert [head for head in table if head not in flat] == [], (paper, number, flat)
            assert [head for head in others if head in flat] == [], (paper, number, flat)
            assert scorer in flat and points in flat, (paper, number, flat)  # the sheet is whole
    assert visit.outside == []

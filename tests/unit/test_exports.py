"""The CSV exports: RFC 4180 rows whose text cells a spreadsheet shows as text, never runs as a formula."""

import csv
import io
from uuid import UUID

import msgspec
import pytest

from service.http.exports import csv_of, text_cell

PLAYER = UUID("6e2a9c41-7b3d-4f85-a1c9-2d4e6f8b0a13")


class Row(msgspec.Struct, frozen=True, kw_only=True):
    player_id: UUID
    name: str
    points: int
    average: float
    won: bool
    place: int | None


def parsed(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text)))


@pytest.mark.parametrize("start", ["=", "+", "-", "@", "\t", "\r"])
def test_a_text_that_would_start_a_formula_gets_a_leading_quote(start):
    assert text_cell(f"{start}1+1") == f"'{start}1+1"


@pytest.mark.parametrize("text", ["Ada", "Ada-Lovelace", "a=b", "'=quoted already", " =spaced", ""])
def test_a_text_that_starts_no_formula_stays_as_it_is(text):
    assert text_cell(text) == text


def test_a_name_that_is_a_formula_is_exported_as_text():
    name = '=HYPERLINK("http://127.0.0.1:1/x","click")'
    row = Row(player_id=PLAYER, name=name, points=3, average=1.5, won=True, place=1)
    assert parsed(csv_of(Row, [row]))[1][1] == "'" + name


def test_negative_numbers_stay_numbers_and_only_text_cells_are_neutralised():
    row = Row(player_id=PLAYER, name="-5", points=-5, average=-2.5, won=False, place=None)
    text = csv_of(Row, [row])
    assert text.splitlines()[1] == f'"{PLAYER}","\'-5",-5,-2.5,False,""'
    assert parsed(text)[1] == [str(PLAYER), "'-5", "-5", "-2.5", "False", ""]


def test_every_text_cell_is_quoted_with_its_quotes_doubled_as_owasp_advises():
    # OWASP's example: a quote and a separator in a name cannot start a cell of their own
    row = Row(player_id=PLAYER, name='=1+2";=1+2', points=0, average=0.0, won=False, place=2)
    line = csv_of(Row, [row]).splitlines()[1]
    assert line == f'"{PLAYER}","\'=1+2"";=1+2",0,0.0,False,2'
    assert parsed(line)[0][1] == "'=1+2\";=1+2"


def test_the_header_row_comes_even_without_rows():
    assert parsed(csv_of(Row, [])) == [["player_id", "name", "points", "average", "won", "place"]]

"""A single elimination's bracket drawn as SVG on the server (``service.web.bracket``): well formed,
every name escaped, each round a column, winners marked, byes and slots still to decide shown."""

import itertools
import xml.etree.ElementTree as ET

from service.usecases.queries.brackets import bracket
from service.web.bracket import BOX_W, GAP, bracket_svg, bracket_words, layout
from service.web.i18n import read_catalogue
from tests.unit.tournament_views import round_, table, view

NS = {"svg": "http://www.w3.org/2000/svg"}
EN = bracket_words(read_catalogue("en").gettext)


def drawn(svg: str) -> ET.Element:
    return ET.fromstring(svg)  # well formed, or this raises


def test_a_name_is_escaped_and_a_long_one_cut_short_with_its_whole_in_its_title():
    names = {"a": "<b>Ada</b> & Co", "b": "Bartholomew Longname-Smith"}
    first = round_(1, [table(0, ["a", "b"], [0, 9], [0])])
    found = bracket(
        view("single_elimination", ["a", "b"], [first], names=names, status="finished", winners=["a"])
    )
    assert found is not None
    svg = bracket_svg(found, EN)
    assert "<b>" not in svg and "&lt;b&gt;Ada&lt;/b&gt; &amp; Co" in svg
    root = drawn(svg)
    texts = [t.text for t in root.iter("{http://www.w3.org/2000/svg}text")]
    assert "Bartholomew Longn…" in texts
    titles = [t.text for t in root.iter("{http://www.w3.org/2000/svg}title")]
    assert "Bartholomew Longname-Smith" in titles and "<b>Ada</b> & Co" in titles


def test_each_round_is_a_column_with_its_heading_the_winner_bold_and_the_final_named():
    rounds = [
        round_(1, [table(0, ["a", "d"], [0, 40], [0]), table(1, ["b", "c"], [55, 0], [1], forfeited=[0])]),
        round_(2, [table(0, ["c", "a"], [7, 0], [1])]),
    ]
    found = bracket(
        view("single_elimination", ["a", "b", "c", "d"], rounds, status="finished", winners=["a"])
    )
    assert found is not None
    root = drawn(bracket_svg(found, EN))
    headings = [t.text for t in root.iter("{http://www.w3.org/2000/svg}text") if t.get("class") == "round"]
    assert headings == ["Tournament round 1", "Final"]
    assert len(root.findall(".//svg:g[@class='match']", NS)) == 3
    won = root.findall(".//svg:g[@class='seat won']", NS)
    assert [g.find("svg:title", NS).text for g in won] == ["A", "C", "A"]  # type: ignore[union-attr]
    assert all(t.get("font-weight") == "bold" for g in won for t in g.findall("svg:text", NS))
    assert "55 lost on time" in [t.text for t in root.iter("{http://www.w3.org/2000/svg}text")]
    assert root.find(".//svg:g[@class='winners']", NS) is not None
    assert len(root.findall("svg:path", NS)) == 3  # two joins to the final, one to the winner


def test_a_bye_and_the_slots_still_to_decide_are_drawn_dashed_in_the_readers_language():
    first = round_(1, [table(0, ["a", "e"]), table(1, ["b", "d"])], byes=["c"], finished=False)
    found = bracket(view("single_elimination", ["a", "b", "c", "d", "e"], [first]))
    assert found is not None
    uk = bracket_words(read_catalogue("uk").gettext)
    root = drawn(bracket_svg(found, uk))
    texts = [t.text for t in root.iter("{http://www.w3.org/2000/svg}text")]
    assert "Без гри" in texts and "ще не визначено" in texts and "Фінал" in texts
    assert "Тур 1" in texts and "Стіл 1" in texts
    assert len(root.findall(".//svg:g[@class='match to-decide']", NS)) == 3
    dashed = [p for p in root.findall("svg:path", NS) if p.get("stroke-dasharray")]
    assert len(dashed) == 5  # every join into a round not paired yet
    assert root.get("viewBox", "").startswith("0 0 ") and " style=" not in bracket_svg(found, uk)


def test_a_later_box_sits_level_with_the_boxes_joined_to_it_and_no_box_overlaps_another():
    found = bracket(view("single_elimination", [str(n) for n in range(8)], [], status="announced"))
    assert found is not None
    columns = layout(found)
    assert [len(c) for c in columns] == [4, 2, 1]
    for column in columns:
        assert all(upper.y + upper.height < lower.y for upper, lower in itertools.pairwise(column))
    first, second = columns[0], columns[1]
    assert second[0].middle == (first[0].middle + first[1].middle) / 2
    assert columns[2][0].x == columns[1][0].x + BOX_W + GAP

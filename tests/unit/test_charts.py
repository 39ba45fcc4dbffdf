"""The SVG line chart: round ticks, one scale for every line, names as text, an empty chart that says so."""

import xml.etree.ElementTree as ET

from service.projections.charts import BOTTOM, TOP, Guide, Line, Scale, line_chart, ticks

NS = {"svg": "http://www.w3.org/2000/svg"}


def test_ticks_are_round_steps_within_the_range():
    assert ticks(0, 100) == [0, 20, 40, 60, 80, 100]
    assert ticks(0, 7, whole=True) == [0, 2, 4, 6]
    assert ticks(0, 1, whole=True) == [0, 1]
    assert ticks(-3.2, 4.1) == [-2, 0, 2, 4]


def test_a_scale_maps_the_range_onto_the_pixels_and_y_grows_upwards():
    y = Scale(0, 100, BOTTOM, TOP)
    assert (y(0), y(100)) == (BOTTOM, TOP) and y(25) > y(75)


def test_every_line_is_a_polyline_titled_by_its_name_with_markup_kept_as_text():
    drawn = line_chart(
        "t",
        "round",
        "total",
        [Line("<script>alert(1)</script>", [(0, 0), (1, 10)]), Line("B & C", [(0, 0), (1, 30)])],
        guides=[Guide("target 20", 20)],
        empty="no rounds yet",
    )
    assert "<script>" not in drawn
    root = ET.fromstring(drawn)
    titles = [p.findtext("svg:title", namespaces=NS) for p in root.iterfind("svg:polyline", NS)]
    assert titles == ["<script>alert(1)</script>", "B & C"]
    ends = [float(p.get("points").split()[-1].split(",")[1]) for p in root.iterfind("svg:polyline", NS)]
    (target,) = root.iterfind("svg:line[@stroke-dasharray]", NS)
    assert ends[1] < float(target.get("y1")) < ends[0]  # 30 above the target of 20, 10 below it


def test_a_chart_with_nothing_to_draw_says_why():
    root = ET.fromstring(line_chart("t", "round", "total", [], empty="no rounds yet"))
    assert root.find("svg:polyline", NS) is None
    assert "no rounds yet" in [t.text for t in root.iterfind("svg:text", NS)]

"""Line charts as SVG, drawn by the server: no script, no font, stylesheet or image fetched from elsewhere.

A chart is lines over numbered steps (rounds, matches): each ``Line`` a
``<polyline>`` whose ``<title>`` is its name, in the order given, with a legend
entry of the same name; a ``Guide`` (a target score) a dashed horizontal
``<line>``; a ``Band`` a shaded ``<polygon>`` between two bounds. The document
is built with ``xml.etree``, so every name is escaped. With no points at all it
is the empty frame and the ``empty`` sentence.
"""

import math
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from service.domain.rulesets import Ruleset

WIDTH, HEIGHT = 720, 400
LEFT, RIGHT, TOP, BOTTOM = 64, 560, 48, 340  # the plot's box; the legend is right of it
COLOURS = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf", "#8c564b", "#e377c2")
FONT = "sans-serif"  # the reader's own: nothing to fetch
SVG_NS = "http://www.w3.org/2000/svg"

Point = tuple[float, float]


@dataclass(frozen=True)
class Line:
    name: str
    points: Sequence[Point]  # (x, y), in x order


@dataclass(frozen=True)
class Guide:
    name: str  # "target 100"
    y: float


@dataclass(frozen=True)
class Band:
    name: str
    low: Sequence[Point]
    high: Sequence[Point]  # the same x as ``low``


@dataclass(frozen=True)
class Scale:
    """From data values ``low``..``high`` to pixels ``start``..``end`` (``end`` < ``start`` for y: up)."""

    low: float
    high: float
    start: float
    end: float

    def __call__(self, value: float) -> float:
        return round(self.start + (value - self.low) / (self.high - self.low) * (self.end - self.start), 2)


def goal_of(rules: Ruleset) -> tuple[Literal["out_over", "target"], int] | None:
    """What a match's totals run towards, drawn dashed: the ceiling a seat is eliminated over, the
    target score, or nothing (a match of one round, or faraon's, which totals do not end)."""
    if rules.elimination_total is not None:
        return "out_over", rules.elimination_total
    if rules.single_round or rules.shrinking_hands:
        return None
    return "target", rules.target_score


def ticks(low: float, high: float, count: int = 5, whole: bool = False) -> list[float]:
    """About ``count`` round values (steps of 1, 2 or 5 times a power of ten) from ``low`` to ``high``;
    ``whole``: the steps are whole numbers (rounds and matches are counted)."""
    raw = (high - low) / max(count, 1)
    step = 10 ** math.floor(math.log10(raw))
    step = next(step * factor for factor in (1, 2, 5, 10) if step * factor >= raw)
    if whole:
        step = max(1.0, round(step))
    first = math.ceil(low / step) * step
    return [first + index * step for index in range(int((high - first) / step + 1e-9) + 1)]


def bounds(values: Sequence[float], include: Sequence[float] = ()) -> tuple[float, float]:
    """A range holding every value and ``include``, a little wider when it would be a single value."""
    every = [*values, *include]
    low, high = min(every), max(every)
    return (low - 1, high + 1) if low == high else (low, high)


def line_chart(
    title: str,
    x_label: str,
    y_label: str,
    lines: Sequence[Line],
    *,
    guides: Sequence[Guide] = (),
    bands: Sequence[Band] = (),
    empty: str,
) -> str:
    svg = ET.Element(
        "svg",
        xmlns=SVG_NS,
        width=str(WIDTH),
        height=str(HEIGHT),
        viewBox=f"0 0 {WIDTH} {HEIGHT}",
        role="img",
        attrib={"font-family": FONT, "font-size": "12"},
    )
    ET.SubElement(svg, "title").text = title
    ET.SubElement(svg, "rect", x="0", y="0", width=str(WIDTH), height=str(HEIGHT), fill="white")
    _text(svg, WIDTH / 2, 24, title, size=16)
    _text(svg, (LEFT + RIGHT) / 2, HEIGHT - 16, x_label)
    label = _text(svg, 16, (TOP + BOTTOM) / 2, y_label)
    label.set("transform", f"rotate(-90 16 {(TOP + BOTTOM) / 2})")
    frame = {"fill": "none", "stroke": "#444"}
    ET.SubElement(
        svg,
        "rect",
        {"x": str(LEFT), "y": str(TOP), "width": str(RIGHT - LEFT), "height": str(BOTTOM - TOP), **frame},
    )
    points = [point for line in lines for point in line.points] + [
        point for band in bands for point in (*band.low, *band.high)
    ]
    if not points:
        _text(svg, (LEFT + RIGHT) / 2, (TOP + BOTTOM) / 2, empty, size=14)
        return _document(svg)
    x = Scale(*bounds([p[0] for p in points]), LEFT, RIGHT)
    y = Scale(*bounds([p[1] for p in points], [guide.y for guide in guides]), BOTTOM, TOP)
    _axes(svg, x, y)
    for band in bands:
        outline = [*band.low, *reversed(band.high)]
        polygon = ET.SubElement(svg, "polygon", points=_points(outline, x, y), fill="#1f77b4")
        polygon.set("fill-opacity", "0.15")
        ET.SubElement(polygon, "title").text = band.name
    for guide in guides:
        at = str(y(guide.y))
        dashed = ET.SubElement(svg, "line", x1=str(LEFT), x2=str(RIGHT), y1=at, y2=at, stroke="#888")
        dashed.set("stroke-dasharray", "6 4")
        ET.SubElement(dashed, "title").text = guide.name
        _text(svg, RIGHT - 4, y(guide.y) - 4, guide.name, anchor="end")
    for index, line in enumerate(lines):
        colour = COLOURS[index % len(COLOURS)]
        drawn = ET.SubElement(svg, "polyline", points=_points(line.points, x, y), fill="none", stroke=colour)
        drawn.set("stroke-width", "2")
        ET.SubElement(drawn, "title").text = line.name
        _legend(svg, index, line.name, colour)
    return _document(svg)


def _axes(svg: ET.Element, x: Scale, y: Scale) -> None:
    for value in ticks(x.low, x.high, whole=True):
        at = x(value)
        ET.SubElement(svg, "line", x1=str(at), x2=str(at), y1=str(BOTTOM), y2=str(BOTTOM + 5), stroke="#444")
        _text(svg, at, BOTTOM + 18, _number(value))
    for value in ticks(y.low, y.high):
        at = y(value)
        ET.SubElement(svg, "line", x1=str(LEFT - 5), x2=str(LEFT), y1=str(at), y2=str(at), stroke="#444")
        _text(svg, LEFT - 8, at + 4, _number(value), anchor="end")


def _legend(svg: ET.Element, index: int, name: str, colour: str) -> None:
    top = TOP + 8 + index * 20
    ET.SubElement(svg, "rect", x=str(RIGHT + 16), y=str(top), width="12", height="12", fill=colour)
    _text(svg, RIGHT + 34, top + 11, name, anchor="start")


def _text(
    svg: ET.Element, x: float, y: float, text: str, size: int = 12, anchor: str = "middle"
) -> ET.Element:
    element = ET.SubElement(svg, "text", x=str(round(x, 2)), y=str(round(y, 2)))
    element.set("text-anchor", anchor)
    element.set("font-size", str(size))
    element.text = text
    return element


def _points(points: Sequence[Point], x: Scale, y: Scale) -> str:
    return " ".join(f"{x(px)},{y(py)}" for px, py in points)


def _number(value: float) -> str:
    return str(int(value)) if value == int(value) else f"{value:g}"


def _document(svg: ET.Element) -> str:
    return ET.tostring(svg, encoding="unicode", xml_declaration=False)

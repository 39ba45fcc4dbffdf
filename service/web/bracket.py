"""A single elimination's bracket drawn as SVG on the server: no script, no font or image fetched.

Each round is a column; each match a box with a line a seat (the name, the total once the game is
over), the winners in bold with a bar before them; a bye is a box of one line, a match of a round
not paired yet a dashed box of slots still to be decided. A line joins each match to the match of
the next round its winners went to (dashed into a round not paired yet: where it is drawn is only
the shape of what is to come). After the final, a last column names the winners.

The document is built with ``xml.etree``, so every name is escaped; a name too long for its box is
cut short, its whole in the seat's ``<title>``. The words (round headings, "bye", ...) come in the
reader's language (``BracketWords``). Only presentation attributes are used, no ``style``: the
pages' Content-Security-Policy allows no inline style. The ``viewBox`` lets the stylesheet scale it
(the club display fills the screen's width; print fits the page); on a phone it scrolls sideways.
"""

import xml.etree.ElementTree as ET
from collections.abc import Callable
from dataclasses import dataclass

from service.usecases.queries.brackets import Bracket, Match
from service.web.i18n import Translate
from service.web.rule_words import entrant_name

SVG_NS = "http://www.w3.org/2000/svg"
FONT = "sans-serif"  # the reader's own
BOX_W, GAP = 180, 40  # a match's box, and the room between two columns for the joining lines
HEAD, LINE = 18, 22  # a box's heading (its table), and a seat's line
TOP, MARGIN, SPACE = 30, 8, 12  # the rounds' headings, the edge, between two boxes of a column
NAME_CHARS = 18  # a name longer than this is cut short (the total has the box's right end)
INK, MUTED, ACCENT, PAPER = "#1b1d21", "#4a4f57", "#0b5d3b", "#ffffff"


@dataclass(frozen=True)
class BracketWords:
    """The bracket's words, in the reader's language."""

    title: str  # the drawing's, for a screen reader
    round: Callable[[int], str]  # a round's heading, by its number
    final: str
    table: Callable[[int], str]  # a table's heading, by its number from 1
    bye: str
    to_be_decided: str
    winner: str
    forfeited: str  # after a total lost by the turn clock
    stand_in: str  # after the name of someone a bot sat in for
    name: Callable[[str], str]  # an entrant's name as the pages say it (a bot's place in words)


def bracket_words(_: Translate) -> BracketWords:
    """The words in the page's language (``service.web.messages`` finds these ``_`` literals)."""
    return BracketWords(
        title=_("The bracket, round by round"),
        round=lambda number: _("Tournament round {number}", number=number),
        final=_("Final"),
        table=lambda number: _("Table {number}", number=number),
        bye=_("Bye"),
        to_be_decided=_("to be decided"),
        winner=_("Winner"),
        forfeited=_("lost on time"),
        stand_in=_("a bot sat in"),
        name=lambda entrant: entrant_name(_, entrant, {}),
    )


@dataclass(frozen=True)
class Box:
    x: float
    y: float
    height: float

    @property
    def middle(self) -> float:
        return self.y + self.height / 2


def box_height(match: Match) -> float:
    return HEAD + LINE * len(match.seats)


def layout(drawn: Bracket) -> list[list[Box]]:
    """Each match's box, column by column: the first column stacked, each later box level with the
    middle of the boxes joined to it, never over the box above it."""
    columns: list[list[Box]] = []
    for index, column in enumerate(drawn.rounds):
        x = MARGIN + index * (BOX_W + GAP)
        fed: dict[int, list[float]] = {}
        if index:
            before = drawn.rounds[index - 1].matches
            for match, box in zip(before, columns[-1], strict=True):
                if match.next is not None:
                    fed.setdefault(match.next, []).append(box.middle)
        boxes: list[Box] = []
        bottom = float(TOP)
        for number, match in enumerate(column.matches):
            height = box_height(match)
            middles = fed.get(number)
            wanted = sum(middles) / len(middles) - height / 2 if middles else bottom
            y = max(wanted, bottom)
            boxes.append(Box(x, y, height))
            bottom = y + height + SPACE
        columns.append(boxes)
    return columns


def _short(name: str) -> str:
    return name if len(name) <= NAME_CHARS else name[: NAME_CHARS - 1] + "…"


def _text(parent: ET.Element, x: float, y: float, words: str, **attributes: str) -> ET.Element:
    element = ET.SubElement(
        parent, "text", {"x": f"{x:g}", "y": f"{y:g}", "font-family": FONT, "font-size": "13", **attributes}
    )
    element.text = words
    return element


def _match(parent: ET.Element, match: Match, box: Box, words: BracketWords) -> None:
    group = ET.SubElement(parent, "g", {"class": "match" if match.decided else "match to-decide"})
    frame = {"fill": PAPER, "stroke": MUTED if match.decided else "#9aa0a6", "stroke-width": "1", "rx": "4"}
    if not match.decided:
        frame["stroke-dasharray"] = "4 3"
    ET.SubElement(
        group,
        "rect",
        {"x": f"{box.x:g}", "y": f"{box.y:g}", "width": str(BOX_W), "height": f"{box.height:g}", **frame},
    )
    heading = words.bye if match.table is None else words.table(match.table + 1)
    _text(group, box.x + 6, box.y + 13, heading, fill=MUTED, **{"font-size": "11"})
    for line, seat in enumerate(match.seats):
        top = box.y + HEAD + line * LINE
        row = ET.SubElement(group, "g", {"class": "seat won" if seat.won else "seat"})
        if not match.decided:
            _text(row, box.x + 10, top + 15, words.to_be_decided, fill=MUTED, **{"font-style": "italic"})
            continue
        named = words.name(seat.name)
        ET.SubElement(row, "title").text = named + (f" ({words.stand_in})" if seat.stand_in else "")
        if seat.won:
            ET.SubElement(
                row,
                "rect",
                {
                    "x": f"{box.x + 2:g}",
                    "y": f"{top + 3:g}",
                    "width": "4",
                    "height": str(LINE - 6),
                    "fill": ACCENT,
                },
            )
        bold = {"font-weight": "bold"} if seat.won else {}
        name = _short(named) + (" *" if seat.stand_in else "")
        _text(row, box.x + 10, top + 15, name, fill=INK, **bold)
        if seat.total is not None:
            total = str(seat.total) + (f" {words.forfeited}" if seat.forfeited else "")
            _text(row, box.x + BOX_W - 6, top + 15, total, fill=INK, **{"text-anchor": "end", **bold})


def _joins(parent: ET.Element, drawn: Bracket, columns: list[list[Box]]) -> None:
    for index, column in enumerate(drawn.rounds[:-1]):
        following = drawn.rounds[index + 1]
        for match, box in zip(column.matches, columns[index], strict=True):
            if match.next is None or match.next >= len(columns[index + 1]):
                continue
            target = columns[index + 1][match.next]
            middle = box.x + BOX_W + GAP / 2
            path = {
                "d": f"M{box.x + BOX_W:g} {box.middle:g}H{middle:g}V{target.middle:g}H{target.x:g}",
                "fill": "none",
                "stroke": MUTED,
                "stroke-width": "1.5",
            }
            if not following.paired:
                path["stroke-dasharray"] = "4 3"
            ET.SubElement(parent, "path", path)


def bracket_svg(drawn: Bracket, words: BracketWords) -> str:
    """The bracket as an ``<svg>`` element, to be put in the page as it is."""
    columns = layout(drawn)
    count = len(drawn.rounds) + (1 if drawn.winners else 0)
    width = MARGIN * 2 + count * BOX_W + max(count - 1, 0) * GAP
    lowest = max((box.y + box.height for boxes in columns for box in boxes), default=TOP)
    winners_box = Box(MARGIN + len(drawn.rounds) * (BOX_W + GAP), 0, 8 + LINE * len(drawn.winners))
    if drawn.winners and columns and columns[-1]:
        winners_box = Box(winners_box.x, columns[-1][0].middle - winners_box.height / 2, winners_box.height)
        lowest = max(lowest, winners_box.y + winners_box.height)
    height = lowest + MARGIN
    svg = ET.Element(
        "svg",
        {
            "xmlns": SVG_NS,
            "class": "bracket",
            "role": "img",
            "aria-labelledby": "bracket-title",
            "width": f"{width:g}",
            "height": f"{height:g}",
            "viewBox": f"0 0 {width:g} {height:g}",
        },
    )
    ET.SubElement(svg, "title", {"id": "bracket-title"}).text = words.title
    last = len(drawn.rounds) - 1
    for index, column in enumerate(drawn.rounds):
        heading = words.final if index == last and len(column.matches) == 1 else words.round(column.round_no)
        x = MARGIN + index * (BOX_W + GAP)
        _text(svg, x, 18, heading, fill=INK, **{"font-weight": "bold", "font-size": "14", "class": "round"})
    _joins(svg, drawn, columns)
    for column, boxes in zip(drawn.rounds, columns, strict=True):
        for match, box in zip(column.matches, boxes, strict=True):
            _match(svg, match, box, words)
    if drawn.winners and columns and columns[-1]:
        _winners(svg, drawn.winners, winners_box, columns[-1][0], words)
    return ET.tostring(svg, encoding="unicode")


def _winners(parent: ET.Element, winners: list[str], box: Box, final: Box, words: BracketWords) -> None:
    _text(parent, box.x, 18, words.winner, fill=INK, **{"font-weight": "bold", "font-size": "14"})
    ET.SubElement(
        parent,
        "path",
        {
            "d": f"M{final.x + BOX_W:g} {final.middle:g}H{box.x:g}",
            "fill": "none",
            "stroke": ACCENT,
            "stroke-width": "2",
        },
    )
    group = ET.SubElement(parent, "g", {"class": "winners"})
    ET.SubElement(
        group,
        "rect",
        {
            "x": f"{box.x:g}",
            "y": f"{box.y:g}",
            "width": str(BOX_W),
            "height": f"{box.height:g}",
            "fill": PAPER,
            "stroke": ACCENT,
            "stroke-width": "2",
            "rx": "4",
        },
    )
    for line, winner in enumerate(winners):
        name = words.name(winner)
        row = ET.SubElement(group, "g")
        ET.SubElement(row, "title").text = name
        _text(
            row, box.x + 10, box.y + 4 + line * LINE + 15, _short(name), fill=INK, **{"font-weight": "bold"}
        )

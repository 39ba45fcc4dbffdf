"""Printable score sheets for a round of a tournament: one HTML page, one printed page per table.

Each sheet names the tournament, the round and the table, a grid to write down each round's points
per seat and their totals, the seats in order with their names and room for each player's signature
and the scorer's, and the ruleset's card values and match end, so a table of real cards needs nothing
else. The page needs no script, font or stylesheet from elsewhere: it prints as it is, a sheet a page
on A4 or US Letter (tests/web/test_sheets_print.py prints it in Chromium and counts the pages).

Both faces draw it: the API (``GET /tournaments/{id}/rounds/{n}/sheets``) in English, the pages
(``/web/tournaments/{id}/rounds/{n}/sheets``) in the reader's language; each hands in its translator
(``english`` for the API) and the ruleset's name as it says it. Every text from outside (the
tournament's and players' names) is escaped. Tables and seats are numbered from 1 on paper; the API
counts both from 0 (``docs/tournaments.md``).
"""

from base64 import b64encode
from collections.abc import Callable
from hashlib import sha256
from html import escape
from string import Template

from service.domain.rulebook import rulebook
from service.domain.rulesets import Ruleset
from service.domain.scoresheet import card_values
from service.projections.models import TournamentTable, TournamentView

Translate = Callable[..., str]  # a message and its values -> the sentence, as the pages' ``_``


def english(message: str, **values: object) -> str:
    """The messages as written: the API's words."""
    return message.format(**values) if values else message


HTML = "text/html"  # litestar adds the charset (utf-8)
ROWS = 12  # rounds of a match to a target score: enough for a club evening, one sheet a table

STYLE = """
/* One sheet a printed page on A4 and on US Letter alike: no page size here, so the printer's paper
   decides, and every size below fits the smaller printable area of the two, A4's width by Letter's
   height less the margins: 186 by 255 mm. Six seats with names of 64 characters take about 245 mm. */
@page { margin: 12mm; }
body { font-family: serif; font-size: 11pt; color: #000; background: #fff; margin: 0; }
.sheet { page-break-after: always; break-after: page; break-inside: avoid; }
.sheet:last-child { page-break-after: auto; break-after: auto; }
h1 { font-size: 15pt; margin: 0 0 1mm; }
h2 { font-size: 12.5pt; margin: 0 0 1mm; }
p { margin: 0 0 2.5mm; }
table { border-collapse: collapse; width: 100%; margin: 0 0 3mm; }
th, td { box-sizing: border-box; border: 1px solid #000; padding: 0.8mm 1.5mm; text-align: left; }
th, td { overflow-wrap: anywhere; }
/* rows tall enough to write a score or sign by hand (a ruled notebook's line is about 7 mm) */
.grid { table-layout: fixed; }  /* the seats' columns equal, whatever their names */
.grid td { height: 8mm; }
.grid th.name { font-size: 9.5pt; }
.grid th.round, .grid td.round { width: 15mm; text-align: center; }
.totals td, .totals th { border-top: 3px double #000; font-weight: bold; }
.seats td, .seats th { height: 9mm; }
.seats thead th { height: auto; }
.seats .seat { width: 22mm; text-align: center; }
.seats .scorer th { font-size: 9.5pt; }  /* "Секретарь" on one line */
.seats .name { width: 55%; font-size: 10.5pt; }
/* a name of up to 64 characters with no space to break at would take the room of the grid: the
   page cuts it after a few lines (its seat and the other names still tell who it is) */
.clip { display: -webkit-box; -webkit-box-orient: vertical; overflow: hidden; }
.grid .clip { -webkit-line-clamp: 3; }
.seats .clip { -webkit-line-clamp: 2; }
.rules { font-size: 9.5pt; }
.rules p { margin: 0 0 1.5mm; }
.rules td, .rules th { padding: 0.6mm 1mm; text-align: center; }
.how { font-style: italic; }
@media screen { .sheet { border-bottom: 1px dashed #888; margin-bottom: 8mm; padding-bottom: 6mm; } }
"""
# the service's policy forbids inline styles; each face adds this one, named by its hash, to it: the page
# stays one file that prints as it is, saved or served
STYLE_SOURCE = f"style-src 'sha256-{b64encode(sha256(STYLE.encode()).digest()).decode()}'"

PAGE = Template("""<!DOCTYPE html>
<html lang="$lang">
<head>
<meta charset="utf-8">
<title>$title</title>
<style>$style</style>
</head>
<body>
$sheets
</body>
</html>
""")

SHEET = Template("""<section class="sheet" id="table-$number">
<h1>$tournament</h1>
<h2>$heading</h2>
<p class="how">$how &middot; $game</p>
<table class="grid">
<thead><tr><th class="round">$round_head</th>$heads</tr></thead>
<tbody>
$rows
<tr class="totals"><th class="round">$total</th>$blanks</tr>
</tbody>
</table>
<table class="seats">
<thead><tr><th class="seat">$seat</th><th class="name">$player</th><th>$signature</th></tr></thead>
<tbody>
$seats
<tr class="scorer"><th class="seat">$scorer</th><td class="name"></td><td></td></tr>
</tbody>
</table>
<div class="rules">
<p>$rules $match</p>
<table class="card-points">
<thead><tr><th>$card</th>$ranks</tr></thead>
<tbody><tr><th>$points_head</th>$points</tr></tbody>
</table>
</div>
</section>""")


def page(
    view: TournamentView,
    round_no: int,
    rules: Ruleset,
    _: Translate = english,
    ruleset: str | None = None,
    lang: str = "en",
) -> str:
    """The score sheets of round ``round_no`` of ``view`` (its players named), a table a sheet, in
    the words of ``_``; ``ruleset``: the ruleset's name as the reader says it (its own by default)."""
    played = view.rounds[round_no - 1]
    named = rules.name if ruleset is None else ruleset
    sheets = "\n".join(_sheet(view, round_no, table, rules, _, named) for table in played.tables)
    title = escape(
        _("{tournament}: score sheets, tournament round {number}", tournament=view.name, number=round_no)
    )
    return PAGE.substitute(title=title, style=STYLE, sheets=sheets, lang=escape(lang))


def _sheet(
    view: TournamentView, round_no: int, table: TournamentTable, rules: Ruleset, _: Translate, ruleset: str
) -> str:
    values = card_values(rulebook(rules))  # a joker among them when the deck holds one
    names = [escape(view.names.get(entrant, entrant)) for entrant in table.entrants]
    boxed = [f'<span class="clip">{name}</span>' for name in names]  # cut when too long for its box
    cells = "".join("<td></td>" for _ in names)
    rows = 1 if rules.single_round else ROWS
    heading = [_("Tournament round {number}", number=round_no), _("Table {number}", number=table.table + 1)]
    return SHEET.substitute(
        number=table.table + 1,
        tournament=escape(view.name),
        heading=" &middot; ".join(escape(part) for part in heading),
        how=escape(_("Played with real cards") if table.in_person else _("Played on the server")),
        game=escape(_("game not made yet") if table.game_id is None else _("game {id}", id=table.game_id)),
        seats="\n".join(
            f'<tr><td class="seat">{seat}</td><td class="name">{name}</td><td></td></tr>'
            for seat, name in enumerate(boxed, start=1)
        ),
        heads="".join(f'<th class="name">{name}</th>' for name in boxed),
        rows="\n".join(f'<tr><td class="round">{n}</td>{cells}</tr>' for n in range(1, rows + 1)),
        blanks=cells,
        round_head=escape(_("Round")),
        total=escape(_("Total")),
        seat=escape(_("Seat")),
        player=escape(_("Player")),
        signature=escape(_("Signature")),
        scorer=escape(_("Scorer")),
        rules=escape(_("Rules: {ruleset}.", ruleset=ruleset)),
        match=escape(match_end(rules, _)),
        card=escape(_("Card")),
        points_head=escape(_("Points")),
        ranks="".join(f"<th>{escape(_rank(_, rank))}</th>" for rank, _points in values),
        points="".join(f"<td>{points}</td>" for _rank, points in values),
    )


def _rank(_: Translate, rank: str) -> str:
    """A rank as a card's corner shows it in the reader's language (В, Д, К, Т in Ukrainian)."""
    letters = {"J": _("J"), "Q": _("Q"), "K": _("K"), "A": _("A"), "joker": _("joker")}
    return letters.get(rank, rank)


def match_end(rules: Ruleset, _: Translate = english) -> str:
    """How a round is scored and when the match ends, in a sentence or three."""
    scored = (
        _("Each player scores the points of the cards left in their own hand.")
        if rules.scoring == "penalty"
        else _("The player who goes out scores the points of the cards left in the other hands.")
    )
    lowest = rules.match_winner == "lowest_total"
    standing = _("The last player not out wins the match, whatever the totals.")
    shared = (
        _("The lowest total wins; equal totals share the win.")
        if lowest
        else _("The highest total wins; equal totals share the win.")
    )
    if rules.single_round:
        length = f"{_('The match is one round.')} {shared}"
    elif rules.elimination_total is not None:
        reset = "".join(
            _("A total of exactly {total} goes back to 0.", total=total) + " " for total in rules.reset_totals
        )
        over = _("A player whose total goes over {total} is out.", total=rules.elimination_total)
        length = f"{reset}{over} {standing}"
    elif rules.shrinking_hands:
        shrinks = _(
            "The round's loser is dealt one card fewer from the next round on; a player who loses a "
            "round dealt a single card is out."
        )
        length = f"{shrinks} {standing}"
    else:
        ends = _(
            "The match ends after the round in which someone reaches {score} points.",
            score=rules.target_score,
        )
        length = f"{ends} {shared}"
    return f"{scored} {length}"

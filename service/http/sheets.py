"""Printable score sheets for a round of a tournament: one HTML page, one printed page per table.

Each sheet names the tournament, the round and the table, the seats in order with their names, a
grid to write down each round's points per seat and their totals, room for the scorer's and the
players' signatures, and the ruleset's card values and match end, so a table of real cards needs
nothing else. The page needs no script, font or stylesheet from elsewhere: it prints as it is.

Every text from outside (the tournament's and players' names) is escaped. Tables and seats are
numbered from 1 on paper; the API counts both from 0 (``docs/tournaments.md``).
"""

from html import escape
from string import Template

from service.domain.rulebook import rulebook
from service.domain.rulesets import Ruleset
from service.domain.scoresheet import card_values
from service.projections.models import TournamentTable, TournamentView

HTML = "text/html"  # litestar adds the charset (utf-8)
ROWS = 12  # rounds of a match to a target score: enough for a club evening, one sheet a table

PAGE = Template("""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>$title</title>
<style>
@page { size: A4; margin: 14mm; }
body { font-family: serif; color: #000; background: #fff; margin: 0; }
.sheet { page-break-after: always; break-after: page; padding: 0 0 6mm; }
.sheet:last-child { page-break-after: auto; break-after: auto; }
h1 { font-size: 16pt; margin: 0 0 2mm; }
h2 { font-size: 13pt; margin: 0 0 4mm; }
table { border-collapse: collapse; width: 100%; margin: 0 0 4mm; }
th, td { border: 1px solid #000; padding: 1.5mm 2mm; text-align: left; }
.grid td { height: 7mm; }
.grid th.round, .grid td.round { width: 14mm; text-align: center; }
.totals td, .totals th { border-top: 3px double #000; font-weight: bold; }
.signatures td { height: 10mm; }
.rules { font-size: 9.5pt; }
.rules td, .rules th { padding: 0.8mm 1.5mm; text-align: center; }
.how { font-style: italic; }
@media screen { .sheet { border-bottom: 1px dashed #888; margin-bottom: 8mm; } }
</style>
</head>
<body>
$sheets
</body>
</html>
""")

SHEET = Template("""<section class="sheet" id="table-$number">
<h1>$tournament</h1>
<h2>Round $round_no &middot; Table $number</h2>
<p class="how">$how &middot; game $game</p>
<table class="seats">
<thead><tr><th>Seat</th><th>Player</th></tr></thead>
<tbody>
$seats
</tbody>
</table>
<table class="grid">
<thead><tr><th class="round">Round</th>$heads</tr></thead>
<tbody>
$rows
<tr class="totals"><th class="round">Total</th>$blanks</tr>
</tbody>
</table>
<table class="signatures">
<tbody>
<tr><th>Scorer</th><td></td></tr>
$signatures
</tbody>
</table>
<div class="rules">
<p>Rules: $ruleset. $match</p>
<table class="card-points">
<thead><tr><th>Card</th>$ranks</tr></thead>
<tbody><tr><th>Points</th>$points</tr></tbody>
</table>
</div>
</section>""")


def page(view: TournamentView, round_no: int, rules: Ruleset) -> str:
    """The score sheets of round ``round_no`` of ``view`` (its players named), a table a sheet."""
    played = view.rounds[round_no - 1]
    sheets = "\n".join(_sheet(view, round_no, table, rules) for table in played.tables)
    return PAGE.substitute(title=escape(f"{view.name}: round {round_no}, score sheets"), sheets=sheets)


def _sheet(view: TournamentView, round_no: int, table: TournamentTable, rules: Ruleset) -> str:
    values = card_values(rulebook(rules))  # a joker among them when the deck holds one
    names = [escape(view.names.get(entrant, entrant)) for entrant in table.entrants]
    cells = "".join("<td></td>" for _ in names)
    rows = 1 if rules.single_round else ROWS
    return SHEET.substitute(
        number=table.table + 1,
        tournament=escape(view.name),
        round_no=round_no,
        how="Played with real cards" if table.in_person else "Played on the server",
        game="not made yet" if table.game_id is None else str(table.game_id),
        seats="\n".join(
            f'<tr><td class="seat">{seat}</td><td class="name">{name}</td></tr>'
            for seat, name in enumerate(names, start=1)
        ),
        heads="".join(f'<th class="name">{name}</th>' for name in names),
        rows="\n".join(f'<tr><td class="round">{n}</td>{cells}</tr>' for n in range(1, rows + 1)),
        blanks=cells,
        signatures="\n".join(f'<tr><th class="name">{name}</th><td></td></tr>' for name in names),
        ruleset=escape(rules.name),
        match=match_end(rules),
        ranks="".join(f"<th>{escape(rank)}</th>" for rank, _ in values),
        points="".join(f"<td>{points}</td>" for _, points in values),
    )


def match_end(rules: Ruleset) -> str:
    """How a round is scored and when the match ends, in a sentence or three."""
    scored = (
        "Each player scores the points of the cards left in their own hand."
        if rules.scoring == "penalty"
        else "The player who goes out scores the points of the cards left in the other hands."
    )
    best = "lowest" if rules.match_winner == "lowest_total" else "highest"
    standing = "The last player not out wins the match, whatever the totals."
    if rules.single_round:
        length = f"The match is one round. The {best} total wins; equal totals share the win."
    elif rules.elimination_total is not None:
        reset = "".join(f"A total of exactly {total} goes back to 0. " for total in rules.reset_totals)
        length = f"{reset}A player whose total goes over {rules.elimination_total} is out. {standing}"
    elif rules.shrinking_hands:
        length = (
            "The round's loser is dealt one card fewer from the next round on; a player who loses a "
            f"round dealt a single card is out. {standing}"
        )
    else:
        length = (
            f"The match ends after the round in which someone reaches {rules.target_score} points. "
            f"The {best} total wins; equal totals share the win."
        )
    return f"{scored} {length}"

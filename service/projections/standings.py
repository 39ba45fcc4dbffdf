"""League standings: each member's finished matches in the league, added up and ranked.

Every member has a row, with zeros until a match of theirs finishes. Only
finished matches count (a match voided back to before its end stops counting).
A match forfeited by clock (``Game.result``) is a match lost, scored as the
table's worst total. The direction of "better points" is the ruleset's own: where the
lowest total wins the match (``Ruleset.match_winner == "lowest_total"``,
e.g. ``club``'s penalty points) fewer points per round rank higher; where the
highest total wins (``mau-mau-150``) more rank higher. Wins are the match's own
(``MatchEnded``): in 101 and faraon the last seat not eliminated wins, whatever the
totals (docs/standings.md).

Rows are ordered by these keys, each deciding only between rows equal on the
ones before (``TIE_BREAKS``, as ``Standings.tie_breaks`` lists them):

1. ``matches_won_or_shared``: matches won, a shared win counting as a win (more first);
2. ``matches_won``: outright wins (more first);
3. ``forfeits``: matches forfeited by clock (fewer first);
4. ``average_points``: points per round played, in the ruleset's direction;
5. ``rounds_won`` (more first);
6. ``missed_calls``: missed calls challenged (fewer first).

Rows equal on all six share a rank, and the next rank skips (1, 2, 2, 4);
rows sharing a rank are listed by name. A member without a finished match has
nothing to rank: their row comes after every ranked one, by name, with the rank
None (``Standing.rank``), however their zeros would compare. ``rule`` says the
same in a sentence; docs/standings.md sets it beside a tournament's ranking.
"""

from collections.abc import Iterable
from fractions import Fraction
from typing import Literal
from uuid import UUID

import msgspec

from service.domain.rulesets import Ruleset
from service.projections.models import Standing

Order = Literal["lowest_points", "highest_points"]

# what each finished match adds up, per player (the standings table's columns, in this order)
STATS = (
    "matches_played",
    "matches_won",
    "matches_shared",
    "rounds_played",
    "rounds_won",
    "points",
    "penalty_cards",
    "missed_calls",
    "bot_turns",
    "forfeits",
)

TIE_BREAKS = [
    "matches_won_or_shared",
    "matches_won",
    "forfeits",
    "average_points",
    "rounds_won",
    "missed_calls",
]


class Tally(msgspec.Struct, frozen=True, kw_only=True):
    """One player's sums over their finished matches in a league."""

    player_id: UUID
    name: str
    matches_played: int = 0
    matches_won: int = 0
    matches_shared: int = 0
    rounds_played: int = 0
    rounds_won: int = 0
    points: int = 0
    penalty_cards: int = 0
    missed_calls: int = 0
    bot_turns: int = 0
    forfeits: int = 0


def rule(order: Order) -> str:
    """``TIE_BREAKS`` in a sentence, with the forfeit rule."""
    direction = "lowest" if order == "lowest_points" else "highest"
    return (
        "Most matches won (a shared win counts), then most outright wins, then fewest forfeits, "
        f"then the {direction} average points per round, then most rounds won, then fewest missed "
        "calls; rows equal on all of these share a rank. A player whose turns the clock bot plays "
        "the league's forfeit_after times in a row forfeits the match: a match lost, scored as "
        "the table's worst total. Members without a finished match are listed after, with zeros and no "
        "rank."
    )


def order_of(rules: Ruleset) -> Order:
    return "lowest_points" if rules.match_winner == "lowest_total" else "highest_points"


def rank(tallies: Iterable[Tally], order: Order) -> list[Standing]:
    def average(tally: Tally) -> Fraction:
        return Fraction(tally.points, tally.rounds_played) if tally.rounds_played else Fraction(0)

    sign = 1 if order == "lowest_points" else -1

    def key(tally: Tally) -> tuple[int, int, int, Fraction, int, int]:
        return (
            -(tally.matches_won + tally.matches_shared),
            -tally.matches_won,
            tally.forfeits,
            sign * average(tally),
            -tally.rounds_won,
            tally.missed_calls,
        )

    ordered = sorted(
        tallies, key=lambda tally: (not tally.matches_played, key(tally), tally.name, str(tally.player_id))
    )
    rows: list[Standing] = []
    previous = None
    for index, tally in enumerate(ordered):
        this = key(tally)
        place = rows[-1].rank if this == previous else index + 1
        previous = this
        rows.append(
            Standing(
                rank=place if tally.matches_played else None,
                player_id=tally.player_id,
                name=tally.name,
                matches_played=tally.matches_played,
                matches_won=tally.matches_won,
                matches_shared=tally.matches_shared,
                rounds_played=tally.rounds_played,
                rounds_won=tally.rounds_won,
                points=tally.points,
                average_points=float(average(tally)),
                penalty_cards=tally.penalty_cards,
                missed_calls=tally.missed_calls,
                bot_turns=tally.bot_turns,
                forfeits=tally.forfeits,
            )
        )
    return rows

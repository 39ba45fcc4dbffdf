"""How a game's match counts in standings and tournaments (``MatchResult``), forfeits included."""

from typing import TYPE_CHECKING

import msgspec

from service.domain.rating import last_standing, places

if TYPE_CHECKING:
    from service.domain.game import Game


class MatchResult(msgspec.Struct, frozen=True, kw_only=True):
    """How the match counts: the totals, a forfeited seat's as its forfeit scores; the winners."""

    totals: tuple[int, ...]  # per seat
    winners: tuple[int, ...]  # seats; empty while the match is on
    forfeited: tuple[int, ...]  # seats, in the order they forfeited
    out_round: tuple[int, ...] = ()  # per seat, the round it was eliminated at, 0 still in; (): none out


def match_result(game: "Game") -> MatchResult:
    """The match as it counts in standings and tournaments.

    A forfeited seat scores as the match's worst: where the lowest total wins, the highest
    total at the table and at least the target score; where the highest wins, nothing. The
    winners are the best of the seats still in: where the last seat not eliminated wins (101,
    faraon), the match's winners that did not forfeit, else those placed best without them.
    """
    s = game.state
    totals = list(s.totals) or [0] * len(game.seats)
    out_round = tuple(s.out_round)
    if not game.forfeited:
        return MatchResult(totals=tuple(totals), winners=tuple(s.winners), forfeited=(), out_round=out_round)
    lowest = game.ruleset.match_winner == "lowest_total"
    worst = max(game.ruleset.target_score, *totals) if lowest else 0
    for seat in game.forfeited:
        totals[seat] = worst
    winners: tuple[int, ...] = ()
    if game.over:
        still = [seat for seat in range(len(game.seats)) if seat not in game.forfeited]
        if last_standing(game.ruleset):
            placed = places(totals, [seat for seat in s.winners if seat in still], lowest, out_round)
            best = min(placed[seat] for seat in still)
            winners = tuple(seat for seat in still if placed[seat] == best)
        else:
            best = (min if lowest else max)(totals[seat] for seat in still)
            winners = tuple(seat for seat in still if totals[seat] == best)
    return MatchResult(totals=tuple(totals), winners=winners, forfeited=game.forfeited, out_round=out_round)

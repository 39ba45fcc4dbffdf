"""The figures of the API's charts (``GET .../totals.svg``, ``ratings.svg``, ``progression.svg``):
a match's totals after each round, a player's ratings in a league, the league members' points
match by match. The API draws them."""

from dataclasses import dataclass
from itertools import accumulate
from uuid import UUID

from service.domain.round_scoring import running_totals
from service.domain.rulesets import Ruleset
from service.projections.models import RatingChangeRead
from service.usecases.consistency import caught_up
from service.usecases.context import Context
from service.usecases.queries import leagues

FINISHED = ("won", "shared", "lost")  # a history line's results that count in the standings


@dataclass(frozen=True)
class Series:
    name: str
    points: list[int]  # after each step, from 0 before the first


@dataclass(frozen=True)
class MatchTotals:
    ruleset: str
    rules: Ruleset
    seats: list[Series]  # a seat's total after each round (a total reset to 0 at 0)
    played: bool  # a round at least


def match_totals(context: Context, game_id: UUID) -> MatchTotals:
    totals = context.current.totals(game_id)  # game_not_found
    rules = context.games.facts(game_id).rules
    after = running_totals(rules, [r.points for r in totals.rounds])
    seats = [
        Series(seat.name, [0, *(round_totals[index] for round_totals in after)])
        for index, seat in enumerate(totals.seats)
    ]
    return MatchTotals(ruleset=totals.ruleset, rules=rules, seats=seats, played=bool(totals.rounds))


@dataclass(frozen=True)
class Ratings:
    player: str
    league: str
    history: list[RatingChangeRead]  # the league's rated matches, oldest first


def ratings(context: Context, player_id: UUID, league_id: UUID, after: int | None = None) -> Ratings:
    player = context.app.get_player(player_id)  # player_not_found
    league = context.app.get_league(league_id)  # league_not_found
    caught_up(context.reader, after, context.app.recorder.max_notification_id)
    newest_first = context.reader.rating_history(player_id).history
    history = [row for row in reversed(newest_first) if row.league_id == league_id]
    return Ratings(player=player.name, league=league.name, history=history)


def progression(context: Context, league_id: UUID, after: int | None = None) -> list[Series]:
    """Each member's standings points after each of their finished matches, in the standings' order."""
    found = []
    for row in leagues.standings(context, league_id, after).rows:
        games = [  # the history is newest first
            game
            for game in reversed(context.reader.history(row.player_id).games)
            if game.league_id == league_id and game.result in FINISHED
        ]
        found.append(Series(row.name, [0, *accumulate(g.total for g in games)]))
    return found

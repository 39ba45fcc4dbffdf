"""A league's tournaments and schedule, a tournament's results and a round's score sheets, as the
API reads them (its exports: CSV, iCalendar, printable sheets)."""

from dataclasses import dataclass
from uuid import UUID

from service.domain.errors import RuleError
from service.domain.league import League
from service.domain.rulesets import Ruleset
from service.projections.models import TournamentView
from service.projections.results import TournamentResultsRead, tournament_results
from service.projections.tournaments import tournament_view
from service.usecases.consistency import caught_up
from service.usecases.context import Context
from service.usecases.queries import leagues


@dataclass(frozen=True)
class LeagueTournaments:
    league: League
    tournaments: list[TournamentView]  # in the order they were announced
    position: int  # how far the read models were


def of_league(context: Context, league_id: UUID, after: int | None = None) -> LeagueTournaments:
    """A league's tournaments; an unknown league is ``league_not_found``, not an empty list."""
    league = context.app.get_league(league_id)
    caught_up(context.reader, after, context.app.recorder.max_notification_id)
    position = context.reader.position()  # read before them: they hold at least what it says
    return LeagueTournaments(
        league=league, tournaments=context.reader.tournaments(league_id), position=position
    )


def results(context: Context, tournament_id: UUID, after: int | None = None) -> TournamentResultsRead:
    """A row per seat per table and per bye, and the ranking (``docs/exports.md``)."""
    return tournament_results(leagues.tournament(context, tournament_id, after))


@dataclass(frozen=True)
class RoundToPrint:
    view: TournamentView  # its players named
    rules: Ruleset


def round_to_print(context: Context, tournament_id: UUID, round_no: int) -> RoundToPrint:
    """A round's tables to print score sheets of, from the store: ``no_such_round`` before its pairing."""
    tournament = context.app.get_tournament(tournament_id)
    if not tournament.started or not 1 <= round_no <= len(tournament.rounds):
        raise RuleError("no_such_round", why="round_tournament_not", round_no=round_no)
    return RoundToPrint(view=context.reader.named(tournament_view(tournament)), rules=tournament.rules)

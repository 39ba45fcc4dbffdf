"""Tournament views made by hand for the page's pure builders (brackets, crosstables, entrants' rounds)."""

from typing import Any
from uuid import UUID, uuid4

from service.projections.models import TournamentPlacing, TournamentRound, TournamentTable, TournamentView

GAME = UUID("00000000-0000-4000-8000-000000000001")


def table(
    number: int, entrants: list[str], totals: list[int] | None = None, winners: list[int] = (), **more: Any
) -> TournamentTable:  # type: ignore[assignment]
    return TournamentTable(
        table=number,
        entrants=entrants,
        game_id=more.pop("game_id", GAME),
        totals=totals,
        winners=list(winners),
        finished=totals is not None,
        **more,
    )


def round_(
    number: int, tables: list[TournamentTable], byes: list[str] = (), finished: bool = True, **more: Any
) -> TournamentRound:  # type: ignore[assignment]
    return TournamentRound(
        round_no=number, due_at=None, tables=tables, byes=list(byes), out=[], finished=finished, **more
    )


def view(format: str, entrants: list[str], rounds: list[TournamentRound], **more: Any) -> TournamentView:
    ranking = [
        TournamentPlacing(
            rank=n + 1, entrant=e, name=e.upper(), points=0, wins=0, tables=0, byes=0, bot_turns=0
        )
        for n, e in enumerate(more.pop("order", entrants))
    ]
    fields: dict[str, Any] = {
        "tournament_id": uuid4(),
        "league_id": uuid4(),
        "name": "Cup",
        "format": format,
        "table_size": 2,
        "planned_rounds": None,
        "status": "running",
        "starts_at": None,
        "entrants": entrants,
        "rounds": rounds,
        "ranking": ranking,
        "winners": [],
        "position": 0,
        "names": {e: e.upper() for e in entrants},
    }
    return TournamentView(**(fields | more))

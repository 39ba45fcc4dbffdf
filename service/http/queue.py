"""Telling the workers what the API changed: a game's bots answer, a tournament started by hand is looked at.

``workers.app`` queues the tasks on the broker the process's settings name
(the embedded filesystem broker in the data dir unless ``MAUMAU_BROKER_URL``
says otherwise) and never raises: the change is stored already, and a broker
that does not answer costs a request well under a second before it gives up
(the tick's look for games whose bots have waited too long makes up for a lost task).

A game without a bot seat that is no tournament's table has nobody to answer, no
turn clock to set and no result to record: nothing is queued for it. Busy tables
of people would otherwise queue a task that does nothing at every move, as fast
as their clients post, and the bots' answers at other tables would wait behind them.
"""

from collections.abc import Iterable
from uuid import UUID

from service.domain.game import Seat
from workers import app as workers_app


def after_game_change(game_id: UUID, tournament_id: UUID | None, seats: Iterable[Seat]) -> None:
    """A move, challenge, ruling or new game was stored: the bots at the table answer, a clock starts,
    a tournament's table records its result."""
    if tournament_id is not None or any(seat.kind == "bot" for seat in seats):
        workers_app.enqueue_after_move(game_id)


def tournament_started(tournament_id: UUID) -> None:
    """Its first round is created at once rather than at the next tick."""
    workers_app.enqueue_tournament(tournament_id)

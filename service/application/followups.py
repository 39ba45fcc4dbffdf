"""What the workers are asked to do after a change this process stored, registered once on an
application (``register``), as a message bus lists its event handlers.

After a new game, a move, a challenge or a ruling, the table's bots answer
(``maumau.advance_game``, after ``MAUMAU_BOT_THINK`` seconds) and its turn clock
starts. A Mao match's bots take their turns by the same task, queued after any save that leaves
one on turn. A game without a bot seat (nor a seat forfeited for an erased player, which a bot
plays), without a turn clock (a league's) and that is no
tournament's table has nobody to answer, no clock to set and no result to record, so
nothing is queued for it (a game played in person never has a bot or a clock: at a
tournament's table, the save that ends its match, by an entered round or a ruling, queues the
step that records its result):
busy tables of people would otherwise queue a task that does nothing at every
move, as fast as their clients post, and the bots' answers at other tables
would wait behind them (docs/workers.md). A raised dispute pauses the game: nothing
to answer. A tournament started by hand is looked at at once
(``maumau.conduct_tournament``) rather than at the next tick.

Tasks go by name (``service.tasks``), so whoever registers these needs none of
the workers' code. The API's application registers them; a worker's does not,
since its steps queue what follows themselves (``workers.conduct``). Queuing
never raises: the change is stored already, and the tick makes up for a task
the broker did not take.
"""

from typing import assert_never
from uuid import UUID

from service import tasks
from service.application.core import Core, Played
from service.application.tournaments import Tournaments
from service.domain.game import Game
from service.domain.history import Cause
from service.domain.mao.aggregate import MaoGame
from service.domain.mao.autoplay import bot_to_move

# the commands after which the table's bots answer and its turn clock starts (after a seat forfeited
# for its erased player, a bot plays that seat, or the match is over and a tournament records it)
ANSWERED = frozenset(
    {
        "CreateGame",
        "PlayCard",
        "DrawCard",
        "KeepCard",
        "NameSuit",
        "ChoosePlayer",
        "Challenge",
        "GiveRuling",
        "ForfeitSeat",
    }
)


def after_game_saved(game: Played, cause: Cause) -> None:
    match game:
        case MaoGame():
            # a bot (or a forfeited seat's stand-in) on turn: its turn is the workers' next step
            if bot_to_move(game) is not None:
                tasks.send(tasks.ADVANCE, str(game.id), tasks.settings.bot_think)
        case Game():
            _after_card_game_saved(game, cause)
        case _:
            assert_never(game)


def _after_card_game_saved(game: Game, cause: Cause) -> None:
    if game.in_person:
        # real cards: no bot answers and no clock runs; a tournament table's last round entered (or a
        # ruling that ended the match) is its result, which the workers record as a server table's
        if game.over and Tournaments.tournament_of(game) is not None:
            tasks.send(tasks.ADVANCE, str(game.id), 0.0)
        return
    if cause.command not in ANSWERED:
        return
    if (
        any(seat.kind == "bot" for seat in game.seats)
        or game.forfeited  # a bot plays a forfeited seat
        or game.turn_clock is not None
        or Tournaments.tournament_of(game) is not None
    ):
        tasks.send(tasks.ADVANCE, str(game.id), tasks.settings.bot_think)


def after_tournament_started(tournament_id: UUID) -> None:
    tasks.send(tasks.CONDUCT, str(tournament_id), 0.0)


def register(app: Core) -> None:
    app.on_game_saved.append(after_game_saved)
    app.on_tournament_started.append(after_tournament_started)

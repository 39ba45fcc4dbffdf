"""What the workers do, as plain steps over the application; Celery only carries them (``workers.app``).

A ``Conductor`` runs one step at a time and queues what follows through a
``Dispatch``: Celery tasks in production, ``workers.inline.Inline`` in one
process. Every step decides from the stored aggregates what is due, so a step
run twice, or by two workers at once, does no more than one run:

- ``conduct_tournament``: starts a tournament whose start time has come
  (``Tournament.start_due``), or cancels it, once and with the reason, when
  too few would play (``too_few_players``: a cancelled tournament is no
  longer open, so no tick looks at it again), creates the games of a round that is due
  (``round_due``; ``start_round`` makes each table's game once) and queues
  them; on a round in play, looks for tables that stalled (below).
- ``advance_game``: plays every bot seat whose move it is (a card game's or a Mao match's: the
  same step, ``_advance_match`` for Mao), one move after the
  other (with ``think`` seconds between moves, each move its own step), until a
  person is to move or the game is over. First, while a person's missed call
  is open, the table's bots look whether they catch it: any other player may
  challenge, and a bot that catches it does (``VIGILANCE``). A seat that forfeited by clock is
  played by a bot like a bot's seat. A person's turn under a turn clock (the game's own: a
  league's or a tournament's) queues ``time_out_turn`` for that seat at that version. When the game is over
  the table result is recorded; after a round's last table the tournament
  pairs the next round itself, and a round due at once is started here.
- A tournament table played in person (``Tournament.in_person_tables``) has no bot and no clock:
  nothing queues its moves. The API queues ``advance_game`` for it once a round entry or a ruling
  ends its match (``service.application.followups``), and that step only records the result, by
  the same ``_record`` as a server table's; the look for stalled tables records it too should that
  task be lost, and otherwise passes such a table over.
- A player who dropped out of the tournament (``Tournament.drop``) while their
  table's game was in play has their turns there played by the clock bot at
  once (as ``time_out_turn``, flagged), so the round still ends; the look for
  stalled tables below wakes such a table within ``stalled_after``.
- ``time_out_turn``: the clock ran out; if the game is still at the version the
  clock was set for, a clock bot plays the turn (``TurnTimedOut`` flags it), or the
  seat forfeits (``SeatForfeited``, the league's ``forfeit_after`` timeouts in a row).
  At any other version the player moved in time and nothing happens.

Two steps on one game at once (a redelivered task, a person moving while a
bot's step runs) meet at the store's version check: the loser gets
``stale_version`` and stops, and the winner goes on.

A stalled table (no event for ``stalled_after`` seconds while a bot is to move,
or a clock that should have run out long ago) means its chain of steps broke:
a task failed for good. The tick queues it again.

Any game, a tournament's or not, can stall so: the bots' answer to a person's
move was never queued (the API process died between storing the move and
queueing the task, or the broker was down and the queueing gave up). The tick
also queues ``advance_game`` for every game a bot has been to move in for
``stalled_after`` seconds, and every game whose person's turn clock ran out
``stalled_after`` seconds ago (``requeue_stalled_games``; the read models list them,
``views_bot_turns``): ``advance_game`` sets that clock again.

Webhooks: the tick queues ``deliver_webhook`` for each delivery due that no task was queued for
(``queue_deliveries``), and ``deliver_webhook`` tries one (``workers.webhooks.Courier``), queueing
its retry.
"""

import logging
import random
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Protocol
from uuid import UUID

from service.application import MauMau
from service.domain.actions import CHALLENGE
from service.domain.bots import BOTS
from service.domain.commands import Challenge, Command
from service.domain.errors import RuleError
from service.domain.game import Game
from service.domain.legal import legal_actions
from service.domain.mao.aggregate import MaoGame
from service.domain.mao.autoplay import bot_to_move
from service.domain.tournament import Tournament
from workers.webhooks import Courier

log = logging.getLogger(__name__)

# refusals that mean someone else changed the game first: whoever did carries on from there
_MOVED_ON = frozenset(
    {"stale_version", "game_over", "game_paused", "game_abandoned", "not_your_turn", "nothing_to_challenge"}
)
# the chance that a bot at the table catches another player's missed call, each time it looks:
# the heuristic bot is the attentive club player, the random one half asleep
VIGILANCE = {"heuristic": 1.0, "random": 0.5}


class Dispatch(Protocol):
    """Queues a step to run later, in any worker process."""

    def conduct_tournament(self, tournament_id: UUID) -> None: ...

    def advance_game(self, game_id: UUID, countdown: float = 0.0) -> None: ...

    def time_out_turn(self, game_id: UUID, seat: int, version: int, countdown: float) -> None: ...

    def deliver_webhook(self, delivery_id: UUID, countdown: float = 0.0) -> None: ...


def utc_now() -> datetime:
    return datetime.now(UTC)


def bot_challenge(game: Game) -> Challenge | None:
    """The challenge of the first bot at the table that catches the open missed call, if any.

    Bots never forget their own calls here, so the call missed is a person's. Each
    bot looks once per version, its catch following from the game's seed, the version and its seat.
    """
    s = game.state
    if s.missed is None:
        return None
    for seat, spec in enumerate(game.seats):
        if spec.kind == "bot" and CHALLENGE in legal_actions(s, seat):  # not the offender; window open
            looker = BOTS[spec.name](
                random.Random(f"{game.seed}:{game.version}:{seat}:challenge"), vigilance=VIGILANCE[spec.name]
            )
            if looker.challenges(s, seat):
                return Challenge(seat)
    return None


def bot_move(game: Game, seat: int, bot: str | None = None) -> Command:
    """The move of the bot at ``seat`` (or of ``bot`` there): its choices follow from the game's seed
    and version."""
    kind = BOTS[bot or game.seats[seat].name]
    return kind(random.Random(f"{game.seed}:{game.version}:{seat}")).choose(game.state, seat)


@dataclass
class Conductor:
    app: MauMau
    dispatch: Dispatch
    think: float = 0.0  # seconds between two bot moves
    budget: float = 10.0  # seconds of moves one step plays before it queues the rest (time limits)
    stalled_after: float = 30.0  # seconds without an event after which a table counts as stalled
    turn_clocks: dict[UUID, int | None] = field(default_factory=dict)  # tournament -> its turn clock
    swept: dict[UUID, datetime] = field(default_factory=dict)  # tournament -> when its tables were looked at
    requeued: dict[UUID, datetime] = field(default_factory=dict)  # stalled game -> when it was queued again
    courier: Courier | None = None  # sends webhook deliveries (None: this conductor sends none)
    # a league's ratings (``ReadModels.ordinals``), read when a tournament whose plan uses them starts;
    # None: no read models at hand, every player starts with the starting rating
    ratings: Callable[[UUID], Mapping[str, float]] | None = None

    # ------------------------------------------------------------------
    # tournaments

    def tick(self, tournaments: Iterable[UUID]) -> None:
        """Queue a look at every open tournament."""
        for tournament_id in tournaments:
            self.dispatch.conduct_tournament(tournament_id)

    def requeue_stalled_games(self, game_ids: Iterable[UUID], now: datetime | None = None) -> int:
        """Queue ``advance_game`` for games a bot has been to move in for ``stalled_after`` seconds;
        how many were queued.

        ``advance_game`` decides from the stored game, so one that moved meanwhile costs a load and
        no more. A game queued again a moment ago is left alone for a while: the read models may not
        have seen its move yet, and a game whose steps keep failing is not queued at every tick.
        """
        now = now or utc_now()
        stalled = list(game_ids)
        # only games still listed are remembered: the dict stays as small as the list
        requeued = {game_id: self.requeued[game_id] for game_id in stalled if game_id in self.requeued}
        queued = 0
        for game_id in stalled:
            last = requeued.get(game_id)
            if last is not None and (now - last).total_seconds() < self.stalled_after / 3:
                continue
            requeued[game_id] = now
            log.warning("game %s stalled with a bot to move: queued again", game_id)
            self.dispatch.advance_game(game_id)
            queued += 1
        self.requeued.clear()
        self.requeued.update(requeued)
        return queued

    def conduct_tournament(self, tournament_id: UUID | str, now: datetime | None = None) -> None:
        now = now or utc_now()
        tournament = self._tournament(tournament_id)
        if tournament is None or tournament.finished or tournament.cancelled:
            return
        if tournament.start_due(now):
            try:
                ratings = None
                if tournament.plan.uses_ratings and self.ratings is not None:
                    ratings = self.ratings(tournament.league_id)
                self.app.start_tournament(tournament.id, ratings=ratings)
            except RuleError as error:
                if error.code == "too_few_players":
                    self._cancel_unplayable(tournament.id, error)
                    return
                if error.code == "tournament_cancelled":  # by another worker meanwhile: its decision stands
                    return
                if error.code != "tournament_started":  # started meanwhile by another worker: go on
                    log.warning("tournament %s cannot start: %s", tournament.id, error)
                    return
            tournament = self.app.get_tournament(tournament.id)
        round_no = tournament.round_due(now)
        if round_no is not None:
            self._start_round(tournament.id, round_no)
        else:
            self._look_for_stalled_tables(tournament, now)

    def _cancel_unplayable(self, tournament_id: UUID, error: RuleError) -> None:
        """The start time came with too few players: cancelled, with the reason, rather than looked at
        (and warned about) at every tick for ever."""
        try:
            self.app.cancel_tournament(tournament_id, f"too few players at the start time: {error.message}")
        except RuleError as refused:
            # another worker cancelled or started it meanwhile: that one's decision stands
            if refused.code not in ("tournament_cancelled", "tournament_started", "stale_version"):
                raise
            return
        log.warning("tournament %s cancelled at its start time: %s", tournament_id, error.message)

    def _start_round(self, tournament_id: UUID, round_no: int) -> None:
        """Make the round's games and queue the server-played ones: an in-person table's rounds are
        entered by its scorer, and its last entry queues the step that records its result."""
        games = self.app.start_round(tournament_id, round_no)
        in_person = self.app.read_tournament(
            tournament_id, lambda tournament: tournament.rounds[round_no - 1].in_person
        )
        for table, game_id in enumerate(games):
            if table not in in_person:
                self.dispatch.advance_game(game_id)

    def _look_for_stalled_tables(self, tournament: Tournament, now: datetime) -> None:
        """Queue again the tables whose chain of steps broke. Each look loads the round's games, so it
        is made only once a table can have stalled, and a few times per ``stalled_after`` at most."""
        current = tournament.current_round
        if current is None or not current.started:
            return
        due = tournament.due_at(current.round_no)
        if due is None or (now - due).total_seconds() < self.stalled_after:
            return  # every game of the round was made after it was due: none has been idle that long
        last = self.swept.get(tournament.id)
        if last is not None and (now - last).total_seconds() < self.stalled_after / 3:
            return
        self.swept[tournament.id] = now
        clock = tournament.plan.turn_clock
        for table, game_id in sorted(current.games.items()):
            if table in current.results:
                continue
            game = self.app.get_game(game_id)
            if game.over:  # its last step ended before it recorded the result
                self._record(tournament.id, game.id)
                continue
            if table in current.in_person:  # nobody here is waited for but the scorer
                continue
            idle = (now - game.modified_on).total_seconds()
            if game.paused or idle < self.stalled_after:
                continue
            to_move = game.seats[game.seat_to_move]
            bot_to_move = game.bot_for(game.seat_to_move) is not None or to_move.name in tournament.dropped
            if bot_to_move or (clock is not None and idle >= clock + self.stalled_after):
                log.warning(
                    "table %s of tournament %s stalled %.0f s: queued again", table, tournament.id, idle
                )
                self.dispatch.advance_game(game.id)

    def _record(self, tournament_id: UUID, game_id: UUID) -> None:
        """Record a finished table, or correct its result after a ruling changed its game; start the
        next round at once when it is due now."""
        try:
            kept = self.app.record_table_result(tournament_id, game_id)
        except RuleError as error:
            if error.code == "tournament_cancelled":  # its result counts for nothing now
                return
            if error.code != "stale_version":
                raise
            # other tables' results kept the tournament busy: look again in a moment
            self.dispatch.advance_game(game_id, countdown=0.1)
            return
        if kept is not None:
            # the tournament can no longer take the changed result (docs/tournaments.md): an official
            # reads it in the table's ``kept``; a failing task would change nothing
            log.warning(
                "game %s of tournament %s changed after its result: kept (%s)", game_id, tournament_id, kept
            )
        round_no = self.app.read_tournament(tournament_id, lambda tournament: tournament.round_due(utc_now()))
        if round_no is not None:
            self._start_round(tournament_id, round_no)

    # ------------------------------------------------------------------
    # games

    def advance_game(self, game_id: UUID | str) -> None:
        """Play the bots' moves until a person is to move or the game is over; then record a
        tournament table's result. A game played in person has no move to play here: its result is
        recorded once its last round was entered (or a ruling ended it), nothing else."""
        found = self._found(lambda: self.app.get_any_game(game_id), "game_not_found", game_id)
        if isinstance(found, MaoGame):
            self._advance_match(found)
            return
        game: Game | None = found
        if game is None or game.abandoned is not None:
            return
        tournament_id = self.app.tournament_of(game)
        if game.in_person:
            if game.over and tournament_id is not None:
                self._record(tournament_id, game.id)
            return
        deadline = time.monotonic() + self.budget
        moved = False
        while True:
            if game.over:
                if tournament_id is not None:
                    self._record(tournament_id, game.id)
                return
            if game.paused:  # a ruling resumes it, and whoever gives one queues the game again
                return
            command: Command | None = bot_challenge(game)
            if command is None:
                seat = game.seat_to_move
                bot = game.bot_for(seat)
                if bot is None:
                    if self._dropped_out(tournament_id, game.seats[seat].name):
                        # they left the tournament: the clock bot plays their turns, without waiting
                        self.dispatch.time_out_turn(game.id, seat, game.version, self.think)
                        return
                    # tables created before games carried their clock keep their tournament's
                    clock = (
                        game.turn_clock if game.turn_clock is not None else self._turn_clock(tournament_id)
                    )
                    if clock is not None:
                        self.dispatch.time_out_turn(game.id, seat, game.version, float(clock))
                    return
                if moved and (self.think > 0 or time.monotonic() > deadline):
                    self.dispatch.advance_game(game.id, countdown=self.think)
                    return
                command = bot_move(game, seat, bot)
            try:
                outcome = self.app.execute(game.id, command, expected_version=game.version)
            except RuleError as error:
                if error.code in _MOVED_ON:
                    return
                raise
            for event in outcome.events:
                game = event.mutate(game)
            moved = True

    def _advance_match(self, match: MaoGame) -> None:
        """A Mao match's bots take their turns, as a card game's do, until a person, the judge or
        nobody is to act."""
        deadline = time.monotonic() + self.budget
        moved = False
        while bot_to_move(match) is not None:
            if moved and (self.think > 0 or time.monotonic() > deadline):
                self.dispatch.advance_game(match.id, countdown=self.think)
                return
            try:
                match = self.app.mao_bot_turn(match.id, expected_version=match.version)
            except RuleError as error:
                if error.code in _MOVED_ON:
                    return
                raise
            moved = True

    def time_out_turn(self, game_id: UUID | str, seat: int, version: int) -> None:
        """The turn clock set at ``version`` ran out: a clock bot plays the turn, unless the seat moved."""
        game = self._game(game_id)
        if game is None or game.version != version or game.over or game.paused or game.abandoned is not None:
            return
        if game.seat_to_move != seat:
            return
        try:
            self.app.time_out_turn(game.id, seat, expected_version=version)
        except RuleError as error:
            if error.code in _MOVED_ON:
                return
            raise
        self.dispatch.advance_game(game.id, countdown=self.think)

    # ------------------------------------------------------------------
    # webhooks

    def queue_deliveries(self, delivery_ids: Iterable[UUID]) -> None:
        for delivery_id in delivery_ids:
            self.dispatch.deliver_webhook(delivery_id)

    def deliver_webhook(self, delivery_id: UUID | str) -> None:
        if self.courier is None:
            raise RuntimeError("this conductor was made without a courier for webhooks")
        self.courier.deliver(delivery_id)

    # ------------------------------------------------------------------

    def _dropped_out(self, tournament_id: UUID | None, player: str) -> bool:
        """The player dropped out of the tournament whose table this is, as stored (drops come at any
        time): read from the process's copy of the tournament, caught up (``read_tournament``)."""
        if tournament_id is None:
            return False
        dropped = self._found(
            lambda: self.app.read_tournament(tournament_id, lambda tournament: player in tournament.dropped),
            "tournament_not_found",
            tournament_id,
        )
        return bool(dropped)

    def _turn_clock(self, tournament_id: UUID | None) -> int | None:
        if tournament_id is None:
            return None
        if tournament_id not in self.turn_clocks:
            tournament = self._tournament(tournament_id)
            self.turn_clocks[tournament_id] = tournament.plan.turn_clock if tournament else None
        return self.turn_clocks[tournament_id]

    def _game(self, game_id: UUID | str) -> Game | None:
        return self._found(lambda: self.app.get_game(game_id), "game_not_found", game_id)

    def _tournament(self, tournament_id: UUID | str) -> Tournament | None:
        return self._found(
            lambda: self.app.get_tournament(tournament_id), "tournament_not_found", tournament_id
        )

    @staticmethod
    def _found(load: Any, code: str, what: UUID | str) -> Any:
        """A task naming something that is not there (another store's, or a bad id) has nothing to do."""
        try:
            return load()
        except RuleError as error:
            if error.code != code:
                raise
            log.warning("%s: %s", code, what)
            return None

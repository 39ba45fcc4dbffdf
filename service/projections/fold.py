"""One game as the projection keeps it: the Game aggregate, folded from its stored events, and a ledger.

The engine's state holds the table, the hands and the scores, but not what
the read models also count: how each round ended, penalty cards, challenged
calls, turns a clock bot played, when the match ended. The ledger records
those facts with their event number.

A referee's void (a ``RulingGiven`` at event ``r`` voiding from event ``f``)
puts the game back to its state right after event ``f - 1``, as it was then:
the fold of events 1 to ``f - 1``. The facts in force follow the same rule
(``Ledger.in_force``): those in force after event ``f - 1``, then those
recorded after ``r``. A voided event counts for nothing, anywhere; the
ledger keeps every fact, because a later void may reach back to before an
earlier one, where the earlier void's facts were still in force.

A ``Tracked`` game is stored (``image``/``restore``) in the projection's own
table with every flush, so a restarted runner takes up each game where it was
without folding the log again.
"""

from collections.abc import Iterable
from datetime import datetime
from typing import Any, TypeVar, assert_never
from uuid import UUID

import msgspec
from eventsourcing.domain import OriginatorVersionError

from service.domain.adjudication import Correct, Penalty, Resume, Ruling, Void
from service.domain.events import EndReason
from service.domain.game import Game
from service.domain.game_image import GameImage
from service.domain.rating import clock_played, places
from service.domain.state import PENALTY


class RoundEnd(msgspec.Struct, frozen=True, array_like=True):
    number: int  # the event number of the RoundEnded
    round_no: int
    reason: EndReason
    winner: int  # -1 without a winner


class Mark(msgspec.Struct, frozen=True, array_like=True):
    """One counted fact: penalty cards drawn, a missed call challenged, a turn timed out."""

    number: int
    round_no: int
    seat: int
    count: int


class End(msgspec.Struct, frozen=True, array_like=True):
    number: int  # the event number of the MatchEnded
    at: datetime


class Facts(msgspec.Struct, frozen=True, kw_only=True):
    """The ledger's facts in force now."""

    rounds: list[RoundEnd]
    penalties: list[Mark]
    challenges: list[Mark]  # seat: the offender
    timeouts: list[Mark]
    ended_at: datetime | None  # when the match ended, if it has


F = TypeVar("F", RoundEnd, Mark, End)

# an event number after every event
_NOW = 1 << 62


class Ledger(msgspec.Struct, kw_only=True):
    created: int  # the log position of the game's Created event: history is newest first by it
    # every fact recorded, voided ones too
    rounds: list[RoundEnd] = msgspec.field(default_factory=list)
    penalties: list[Mark] = msgspec.field(default_factory=list)
    challenges: list[Mark] = msgspec.field(default_factory=list)
    timeouts: list[Mark] = msgspec.field(default_factory=list)
    ends: list[End] = msgspec.field(default_factory=list)
    voids: list[tuple[int, int]] = msgspec.field(default_factory=list)  # (ruling's number, first voided)
    # what the finished match adds to its league's standings now (see ``render.contribution``)
    counted: list[tuple[Any, ...]] | None = None
    # seconds per turn of a tournament's table created before games carried their own clock
    turn_clock: int | None = None
    # per seat, the times the turn passed to it (the clock-bot rule of ``domain.rating``; a void
    # does not take back the turns it voided)
    turns: list[int] = msgspec.field(default_factory=list)
    rated: bool = False  # the match's first finish changed its league's ratings (it is rated once)

    def in_force(self) -> Facts:
        ends = self._at(self.ends, _NOW)
        return Facts(
            rounds=self._at(self.rounds, _NOW),
            penalties=self._at(self.penalties, _NOW),
            challenges=self._at(self.challenges, _NOW),
            timeouts=self._at(self.timeouts, _NOW),
            ended_at=ends[-1].at if ends else None,
        )

    def _at(self, facts: list[F], number: int) -> list[F]:
        """The facts in force right after event ``number``."""
        last = None
        for void in self.voids:  # in the order they were ruled
            if void[0] <= number:
                last = void
        if last is None:
            return [fact for fact in facts if fact.number <= number]
        ruling, first = last
        return self._at(facts, first - 1) + [fact for fact in facts if ruling < fact.number <= number]


class StoredGame(msgspec.Struct, frozen=True, kw_only=True):
    version: int
    image: GameImage
    ledger: Ledger


_encode = msgspec.msgpack.Encoder().encode
_decode_stored = msgspec.msgpack.Decoder(StoredGame).decode


class Tracked:
    """A game and its ledger; ``results_changed`` says a round or the match ended (or was voided)."""

    __slots__ = ("bot_turn_row", "game", "ledger", "listed", "results_changed")

    def __init__(self, game: Game, ledger: Ledger) -> None:
        self.game = game
        self.ledger = ledger
        self.results_changed = True
        # whether the store holds a row of the game in views_bot_turns (None: not known), so a
        # game without a bot to move costs no statement there batch after batch
        self.bot_turn_row: bool | None = None
        # the status and open dispute's number (0: none) the store lists the game with (None: not
        # known), so the game's list row is written only when they change
        self.listed: tuple[str, int] | None = None

    @classmethod
    def created(cls, event: Any, position: int) -> "Tracked":
        game = event.mutate(None)
        tracked = cls(game, Ledger(created=position))
        tracked.bot_turn_row = False  # a new game has none yet
        tracked.listed = ("", 0)  # nor a list row, nor a dispute
        return tracked

    def apply(self, event: Any) -> None:
        """Fold one stored Game event, which must be the game's next."""
        game = self.game
        # eventsourcing's ``mutate``, without its check of the id (the caller found the game by it)
        # and its property calls: a rebuild runs this for every event in the log
        number = event.originator_version
        if number != game._version + 1:
            raise OriginatorVersionError(number, game._version + 1)
        turn = game.state.turn
        event.apply(game)
        if game.state.turn != turn and game.state.turn >= 0:
            turns = self.ledger.turns
            if not turns:
                turns += [0] * len(game.seats)
            turns[game.state.turn] += 1
        game._version = number
        game._modified_on = event.timestamp
        handler = _LEDGER.get(type(event))
        if handler is not None:
            handler(self, event)

    def image(self) -> bytes:
        game = self.game
        # The seed and the idempotency keys stay in the event store: the projection needs neither. (A
        # copy taken before games carried their table restores with none: only ``Created`` is read for it.)
        image = msgspec.structs.replace(game.image(), seed="", keys={})
        return _encode(StoredGame(version=game.version, image=image, ledger=self.ledger))

    @classmethod
    def restore(cls, game_id: UUID, data: bytes) -> "Tracked":
        stored = _decode_stored(data)
        tracked = cls(Game.from_image(game_id, stored.version, stored.image), stored.ledger)
        tracked.results_changed = False
        return tracked


# ---------------------------------------------------------------------------
# what each kind of event adds to the ledger (after the event is folded)


def _drawn(tracked: Tracked, event: Any) -> None:
    fact = event.fact
    if fact.reason == PENALTY:
        round_no = tracked.game.state.round_no
        tracked.ledger.penalties.append(Mark(event.originator_version, round_no, fact.seat, len(fact.cards)))


def _challenged(tracked: Tracked, event: Any) -> None:
    fact = event.fact
    round_no = tracked.game.state.round_no
    tracked.ledger.challenges.append(Mark(event.originator_version, round_no, fact.offender, 1))


def _round_ended(tracked: Tracked, event: Any) -> None:
    fact = event.fact
    tracked.ledger.rounds.append(RoundEnd(event.originator_version, fact.round_no, fact.reason, fact.winner))
    tracked.results_changed = True


def _match_ended(tracked: Tracked, event: Any) -> None:
    tracked.ledger.ends.append(End(event.originator_version, event.timestamp))
    tracked.results_changed = True


def _timed_out(tracked: Tracked, event: Any) -> None:
    round_no = tracked.game.state.round_no
    tracked.ledger.timeouts.append(Mark(event.originator_version, round_no, event.seat, 1))


def _forfeited(tracked: Tracked, event: Any) -> None:
    tracked.results_changed = True
    if tracked.game.over:  # the last seat in won: the match ended here, with no MatchEnded
        tracked.ledger.ends.append(End(event.originator_version, event.timestamp))


def _abandoned(tracked: Tracked, _: Any) -> None:
    tracked.results_changed = True  # the history's "playing" becomes "abandoned"; no standings change


def _ruled(tracked: Tracked, event: Any) -> None:
    ruling: Ruling = event.ruling
    match ruling:
        case Void():  # the state went back to before ``from_event``
            first = ruling.from_event
        case Correct():
            # a correction voids from the corrected round's entry; the rounds scored again follow it
            first = tracked.game.sheets[ruling.round_no].entered_at
        case Resume() | Penalty():
            return  # the game goes on from where it was
        case _:
            assert_never(ruling)
    tracked.ledger.voids.append((event.originator_version, first))
    tracked.results_changed = True


# A command with one of these (or a void) changes more than its game's own documents: its players'
# histories and its league's standings. Any other move changes only what a game's own reads show.
RESULT_EVENTS = (Game.RoundEnded, Game.MatchEnded)  # type: ignore[attr-defined]


def changes_results(events: Iterable[Any]) -> bool:
    return any(isinstance(event, RESULT_EVENTS) for event in events)


_LEDGER = {
    Game.CardsDrawn: _drawn,  # type: ignore[attr-defined]
    Game.MissedCallChallenged: _challenged,  # type: ignore[attr-defined]
    Game.RoundEnded: _round_ended,  # type: ignore[attr-defined]
    Game.MatchEnded: _match_ended,  # type: ignore[attr-defined]
    Game.TurnTimedOut: _timed_out,
    Game.SeatForfeited: _forfeited,
    Game.RulingGiven: _ruled,
    Game.Abandoned: _abandoned,
}


# a league game at its first finish: the position it finished at, the game (which folds on), and its
# players' seats as that finish left them (``rated_seats``): what the ratings rate
Finished = tuple[int, Tracked, list[tuple[str, int, bool]]]


def rated_seats(tracked: Tracked) -> list[tuple[str, int, bool]]:
    """The players' seats of a finished match, as it stands: (player id, place, clock-played), in seat
    order."""
    game = tracked.game
    result = game.result()  # as standings count it: a seat that forfeited by clock scores the worst
    lowest = game.ruleset.match_winner == "lowest_total"
    placed = places(list(result.totals), result.winners, lowest, result.out_round)
    ledger = tracked.ledger
    clock_turns = [0] * len(game.seats)
    if ledger.timeouts:  # the facts in force only where a clock bot played at all: most matches none
        for mark in ledger.in_force().timeouts:
            clock_turns[mark.seat] += mark.count
    # no turns counted: a game folded before the ledger counted them, where any clock-bot turn
    # counts as most of the seat's (``maumau projections rebuild`` counts them)
    turns = ledger.turns or clock_turns
    return [
        (occupant.name, placed[seat], clock_played(clock_turns[seat], turns[seat]))
        for seat, occupant in enumerate(game.seats)
        if occupant.kind == "player"
    ]

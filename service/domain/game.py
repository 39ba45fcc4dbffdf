"""The Game aggregate: one table's match, round after round, as stored events.

The engine decides; the aggregate records. A seat's command goes through the
engine's ``decide`` and each engine event it returns becomes one aggregate
event (``Game.CardPlayed`` wraps a ``CardPlayed``, and so on for every engine
event type: see ``FACT_EVENTS``). Chance is settled right after the command
that needs it, inside the same batch of events: the first dealer, every deal
and every recycle come from a ``Shuffler`` seeded with the game's secret and
the event number of the shuffle, so the outcome is fixed by the history and
recorded like everything else (a replay never draws a random number). The
secret is the seed mixed with entropy drawn at creation (``fairness.game_secret``):
a seed, even one an official chose, foretells nothing by itself.

Every public method validates first and changes nothing when it refuses (a
``RuleError`` with a stable code); the events' ``apply`` only mutate.

Beyond the engine's events the aggregate records:

- ``Created``: the ruleset, the seats, the seed and the entropy it is mixed with, an explicit
  first deck if one was given, and the tournament table the game was made for (``TableRef``);
- ``DeckRevealed``: at each round end, the salts of that round's shuffle commitments
  (``fairness``);
- ``HiddenCardsReshuffled``: after a void that reopens a round whose orders were revealed,
  every hand and the stock shuffled anew under a fresh commitment (``give_ruling``);
- ``DisputeRaised`` and ``RulingGiven`` (``adjudication``);
- ``TurnTimedOut``: a seat's turn clock ran out and a clock bot plays its turn;
  ``SeatForfeited``: its clock ran out ``forfeit_after`` times in a row (``clock``), or its
  player was erased on request (``forfeit_seat``: ``turns`` is then the timeouts in a row so far,
  most often 0). With one seat left in, the match ends and that seat wins; otherwise the forfeited
  seat stays at the table, a bot plays its turns, and it cannot win (``result``).
- ``Abandoned``: the match was called off unfinished (its tournament was cancelled): it counts
  for nobody, and every later command is refused with ``game_abandoned``.
- ``RoundEntered`` and ``RoundConfirmed``: in a game played in person (``in_person``), where the
  server deals nothing, a round's score sheet entry and a seated player's confirmation of it
  (``scoresheet``). The entry's ``RoundEnded`` (and ``MatchEnded``) follow it, scored by the
  engine as a round played here is. A referee corrects an entry with a ``Correct`` ruling.

The first event of each command carries a ``Cause``: who asked, which command,
and the client's idempotency key, so a retried command is recognised from the
stored events alone (``done_before``).
"""

import random
import secrets
from collections.abc import Callable
from datetime import datetime
from typing import Any, Literal, TypeVar, assert_never
from uuid import UUID

import msgspec
from eventsourcing.domain import Aggregate
from eventsourcing.domain import Snapshot as BaseSnapshot
from eventsourcing.utils import get_topic

from service.domain.adjudication import (
    Correct,
    Dispute,
    Penalty,
    Resume,
    Ruling,
    Void,
    check_penalty,
    check_void,
    penalty_events,
)
from service.domain.bots import BOTS, HeuristicBot
from service.domain.chance import Shuffler
from service.domain.clock import check_clock
from service.domain.commands import (
    ChallengeDeclaration,
    Command,
    DealRound,
    Move,
    ScoreRound,
    StartMatch,
)
from service.domain.engine import decide
from service.domain.errors import RuleError
from service.domain.events import (
    EVENT_TYPES,
    DealAnnulled,
    HiddenCardsReshuffled,
    RoundDealt,
    RoundEnded,
    Shuffle,
    StockRecycled,
)
from service.domain.events import Event as EngineEvent
from service.domain.fairness import ENTROPY_HEX_DIGITS, commitment, game_secret, salt_for
from service.domain.image import StateImage, image_of, restore
from service.domain.rating import last_standing, places
from service.domain.roles import Actor
from service.domain.rulesets import Ruleset
from service.domain.scoresheet import Correction, RoundEntry, RoundSheet, values_of
from service.domain.state import CHOOSING, DEAL, DRAWN, NAMING_SUIT, NEW, OVER, PLAY, RECYCLE, State

CREATED, MATCH_STARTED = 1, 2
# Voiding can reach back to the first deal (event 3): the state before it is
# "waiting for the deal", and the table is dealt again.
FIRST_VOIDABLE = MATCH_STARTED + 1


class Seat(msgspec.Struct, frozen=True, array_like=True):
    kind: Literal["player", "bot"]
    name: str  # the player's id, or the bot's name (see ``bots.BOTS``)

    @classmethod
    def parse(cls, spec: "Seat | str | UUID") -> "Seat":
        """``"bot:heuristic"`` -> a bot; a player id (a UUID or its text) -> that player."""
        if isinstance(spec, Seat):
            seat = spec
        elif isinstance(spec, UUID):
            seat = cls("player", str(spec))
        elif isinstance(spec, str) and spec.startswith("bot:"):
            seat = cls("bot", spec[4:])
        elif isinstance(spec, str):
            seat = cls("player", spec)
        else:
            raise RuleError("invalid_seat", f"{spec!r} is neither a player id nor 'bot:<name>'")
        if seat.kind == "bot" and seat.name not in BOTS:
            known = ", ".join(f"bot:{name}" for name in sorted(BOTS))
            raise RuleError("unknown_bot", f"no bot {seat.name!r}; known: {known}")
        if seat.kind == "player":
            try:
                UUID(seat.name)
            except ValueError:
                raise RuleError("invalid_seat", f"{seat.name!r} is not a player id") from None
        return seat


class Cause(msgspec.Struct, frozen=True, array_like=True):
    """On the first event of each command: who asked, what, and the client's idempotency key."""

    actor: Actor
    command: str  # the command's name: "PlayCard", "RaiseDispute", ...
    key: str | None = None
    digest: str = ""  # a fingerprint of the command, so a key reused for another command is refused


class TableRef(msgspec.Struct, frozen=True, array_like=True):
    """The tournament table a game was made for."""

    tournament_id: UUID
    round_no: int
    table: int  # its place in the round's tables, from 0


def table_of_version_1_key(key: str | None) -> TableRef | None:
    """The table a game stored before ``Game.Created`` carried it was made for: named only by the key
    of its creation, ``tournament:<id>:round:<n>:table:<i>`` (None: any other key, or none).

    The one place that reads that key: the upcasts of a stored ``Created`` and of a stored image use
    it, and nothing else parses a key (the application still makes a table's game id from it)."""
    if key is None or not key.startswith("tournament:"):
        return None
    _, tournament_id, _, round_no, _, table = key.split(":")
    return TableRef(UUID(tournament_id), int(round_no), int(table))


class Revealed(msgspec.Struct, frozen=True, array_like=True):
    number: int  # the event number of the shuffle
    salt: str


class GameImage(msgspec.Struct, frozen=True, kw_only=True):
    """Everything a Game holds, for its snapshots."""

    created_on: datetime
    modified_on: datetime
    ruleset: Ruleset
    seats: tuple[Seat, ...]
    seed: str  # the game's secret (``fairness.game_secret``), not the seed as given
    deck: tuple[int, ...] | None
    league_id: UUID | None
    state: StateImage
    dispute: Dispute | None
    disputes: int
    keys: dict[str, tuple[str, int]]
    unrevealed: list[Revealed]
    # added with forfeits by clock: snapshots taken before them decode with these defaults
    turn_clock: int | None = None
    forfeit_after: int = 0
    clock_runs: list[int] = msgspec.field(default_factory=list)
    forfeited: tuple[int, ...] = ()
    # added with cancelled tournaments: snapshots taken before decode as not abandoned
    abandoned: str | None = None
    # added with score sheets: snapshots taken before decode as games played here
    in_person: bool = False
    sheets: dict[int, RoundSheet] = msgspec.field(default_factory=dict)
    # added with the table in ``Created``: unset in an image taken before (``Game.from_image`` finds it)
    table: TableRef | msgspec.UnsetType | None = msgspec.UNSET


class MatchResult(msgspec.Struct, frozen=True, kw_only=True):
    """How the match counts: the totals, a forfeited seat's as its forfeit scores; the winners."""

    totals: tuple[int, ...]  # per seat
    winners: tuple[int, ...]  # seats; empty while the match is on
    forfeited: tuple[int, ...]  # seats, in the order they forfeited
    out_round: tuple[int, ...] = ()  # per seat, the round it was eliminated at, 0 still in; (): none out


class Game(Aggregate):
    """One table's match. ``state`` is the engine's state, the fold of the engine events."""

    class Event(Aggregate.Event):
        pass

    class Created(Aggregate.Created):
        ruleset: Ruleset
        seats: tuple[Seat, ...]
        seed: str  # secret: every shuffle of the game follows from it, mixed with ``entropy``
        deck: tuple[int, ...] | None  # an explicit deck order for the first deal
        league_id: UUID | None
        cause: Cause
        # secret, drawn at creation; "" in games stored before it was (their chance follows from the seed)
        entropy: str = ""
        turn_clock: int | None = None  # seconds per turn; None: no clock
        forfeit_after: int = 0  # timeouts in a row after which a seat forfeits; 0: never
        in_person: bool = False  # played with real cards: rounds are entered from a score sheet
        table: TableRef | None = None  # the tournament table it was made for; None: none

        @staticmethod
        def upcast_table(state: dict[str, Any]) -> TableRef | None:
            """A game stored before it carried its table: the key it was created with names it (the
            mapper asks, once per event stored without ``table``)."""
            cause: Cause = state["cause"]
            return table_of_version_1_key(cause.key)

    class Fact(Event):
        """One engine event. The concrete classes (``Game.CardPlayed``, ...) are made below."""

        fact: Any
        cause: Cause | None

        def apply(self, game: "Game") -> None:
            self.fact.apply(game.state)
            if self.cause is not None:
                game._remember(self.cause, self.originator_version)
                # a command's first fact names the seat that moved (a challenge's: the challenger)
                # itself: its run of timed-out turns is broken (a draw the stock cannot give
                # ends the round at once: its first fact names no seat)
                seat = getattr(self.fact, "seat", -1)
                if seat >= 0:
                    game.clock_runs[seat] = 0

    class Shuffled(Fact):
        """A deal or a recycle, with the public commitment to its order and the secret salt."""

        commitment: str
        salt: str

        def apply(self, game: "Game") -> None:
            super().apply(game)
            game.unrevealed.append(Revealed(self.originator_version, self.salt))

    class DeckRevealed(Event):
        """The round is over: the salts of its shuffles are public now."""

        round_no: int
        salts: tuple[Revealed, ...]

        def apply(self, game: "Game") -> None:
            shown = {entry.number for entry in self.salts}
            game.unrevealed = [entry for entry in game.unrevealed if entry.number not in shown]

    class DisputeRaised(Event):
        dispute: Dispute
        cause: Cause

        def apply(self, game: "Game") -> None:
            game.dispute = self.dispute
            game.disputes = self.dispute.number
            game._remember(self.cause, self.originator_version)

    class RulingGiven(Event):
        dispute: int  # the number of the dispute ruled on
        ruling: Ruling
        note: str
        restored: StateImage | None  # for a void: the state the game goes on from
        cause: Cause

        def apply(self, game: "Game") -> None:
            game.dispute = None
            if self.restored is not None:
                game.state = restore(self.restored)
            ruling = self.ruling
            match ruling:
                case Correct():
                    sheet = game.sheets[ruling.round_no]
                    correction = Correction(
                        by=self.cause.actor,
                        at=self.originator_version,
                        dispute=self.dispute,
                        replaced=sheet.entry,
                    )
                    # the players confirmed the entry replaced, not this one
                    game.sheets[ruling.round_no] = msgspec.structs.replace(
                        sheet,
                        entry=ruling.entry,
                        confirmed_by=(),
                        corrections=(*sheet.corrections, correction),
                    )
                case Resume() | Penalty() | Void():
                    pass  # their engine facts and restored state are recorded on their own
                case _:
                    assert_never(ruling)
            game._remember(self.cause, self.originator_version)

    class RoundEntered(Event):
        """A round of a game played in person, as its score sheet says; its scoring facts follow."""

        round_no: int
        entry: RoundEntry
        cause: Cause

        def apply(self, game: "Game") -> None:
            # entries of rounds after this one were left out of force by a ruling: this replaces them
            for later in [number for number in game.sheets if number >= self.round_no]:
                del game.sheets[later]
            game.sheets[self.round_no] = RoundSheet(
                round_no=self.round_no,
                entry=self.entry,
                entered_by=self.cause.actor,
                entered_at=self.originator_version,
            )
            game._remember(self.cause, self.originator_version)

    class RoundConfirmed(Event):
        """A seated player agrees with a round's entry as it stands."""

        round_no: int
        seat: int
        cause: Cause

        def apply(self, game: "Game") -> None:
            sheet = game.sheets[self.round_no]
            game.sheets[self.round_no] = msgspec.structs.replace(
                sheet, confirmed_by=(*sheet.confirmed_by, self.seat)
            )
            game._remember(self.cause, self.originator_version)

    class TurnTimedOut(Event):
        """A seat's turn clock ran out: a clock bot plays that turn for them (its facts follow)."""

        seat: int
        cause: Cause

        def apply(self, game: "Game") -> None:
            game._remember(self.cause, self.originator_version)
            game.clock_runs[self.seat] += 1

    class SeatForfeited(Event):
        """The seat's clock ran out ``turns`` times in a row, or its player was erased (``forfeit_seat``):
        it forfeits the match.

        With one seat left in (not forfeited, not out of the match), the match is over and that
        seat wins.
        """

        seat: int
        turns: int

        def apply(self, game: "Game") -> None:
            game.forfeited = (*game.forfeited, self.seat)
            # a seat out of the match (101, faraon) is no longer in it either
            out = game.state.out
            still = [
                seat for seat in range(len(game.seats)) if seat not in game.forfeited and not out >> seat & 1
            ]
            if len(still) == 1:
                game.state.phase = OVER
                game.state.winners = tuple(still)

    class Abandoned(Event):
        """The match was called off before its end: no result, and no move after it."""

        reason: str
        cause: Cause

        def apply(self, game: "Game") -> None:
            game.abandoned = self.reason
            game._remember(self.cause, self.originator_version)

    class Snapshot(BaseSnapshot):
        # eventsourcing types a snapshot's state as a dict; its transcoder stores our image as well
        state: GameImage  # type: ignore[assignment]

        @classmethod
        def take(cls, aggregate: Any) -> "Game.Snapshot":
            return cls(
                originator_id=aggregate.id,
                originator_version=aggregate.version,
                timestamp=cls.create_timestamp(),
                topic=get_topic(type(aggregate)),
                state=aggregate.image(),
            )

        def mutate(self, _: Any) -> "Game":
            return Game.from_image(self.originator_id, self.originator_version, self.state)

    def __init__(
        self,
        ruleset: Ruleset,
        seats: tuple[Seat, ...],
        seed: str,
        deck: tuple[int, ...] | None,
        league_id: UUID | None,
        cause: Cause,
        entropy: str = "",
        turn_clock: int | None = None,
        forfeit_after: int = 0,
        in_person: bool = False,
        table: TableRef | None = None,
    ) -> None:
        self.ruleset = ruleset
        self.seats = seats
        # not the seed as given: the secret every chance of the game follows from (the seed mixed
        # with the entropy), which is what the shuffles, the salts and the bots' choices need
        self.seed = game_secret(seed, entropy)
        self.deck = deck
        self.league_id = league_id
        self.state = State()
        self.dispute: Dispute | None = None
        self.disputes = 0
        # idempotency key -> (digest of the command, event number of its first event)
        self.keys: dict[str, tuple[str, int]] = {}
        # this round's shuffles whose salt is still secret
        self.unrevealed: list[Revealed] = []
        self.turn_clock = turn_clock
        self.forfeit_after = forfeit_after
        # per seat, its turns timed out since it last moved itself
        self.clock_runs = [0] * len(seats)
        self.forfeited: tuple[int, ...] = ()
        self.abandoned: str | None = None  # the reason, once abandoned
        self.in_person = in_person
        # round number -> its score sheet entry; in force up to ``state.round_no`` (a ruling can
        # take the game back before later ones)
        self.sheets: dict[int, RoundSheet] = {}
        self.table = table
        self._remember(cause, CREATED)

    # ------------------------------------------------------------------
    # commands

    @classmethod
    def create(
        cls,
        *,
        ruleset: Ruleset,
        seats: tuple[Seat, ...],
        seed: str,
        cause: Cause,
        deck: tuple[int, ...] | None = None,
        first_dealer: int | None = None,
        league_id: UUID | None = None,
        game_id: UUID | None = None,
        entropy: str | None = None,
        turn_clock: int | None = None,
        forfeit_after: int = 0,
        in_person: bool = False,
        table: TableRef | None = None,
    ) -> "Game":
        """A new game, its match started and the first round dealt (a random id unless given).

        ``entropy`` (fresh from ``secrets`` unless given, for tests that need a given deal) is
        mixed into the seed, so the seed alone foretells no card. ``turn_clock`` and
        ``forfeit_after``: the clock the workers keep and when a seat forfeits by it (``clock``).
        ``in_person``: played with real cards; nothing is dealt, rounds are entered (``enter_round``).
        ``table``: the tournament table the game is made for.
        """
        check_clock(turn_clock, forfeit_after)
        if in_person:
            _check_in_person(seats, deck, first_dealer, turn_clock, forfeit_after)
        if (deck is not None or first_dealer is not None) and not cause.actor.officiates:
            raise RuleError("not_allowed", "only a referee or an admin may choose the deck or the dealer")
        if entropy is None:
            entropy = secrets.token_hex(ENTROPY_HEX_DIGITS // 2)
        elif len(entropy) < ENTROPY_HEX_DIGITS:
            raise ValueError(f"a game's entropy is at least {ENTROPY_HEX_DIGITS} hex digits")
        if deck is not None:
            deck = tuple(deck)
        if first_dealer is None:
            start = Shuffler(f"{game_secret(seed, entropy)}:start").start(ruleset, len(seats))
        else:
            start = StartMatch(ruleset, len(seats), first_dealer)
        facts = decide(State(), start)  # refuses a bad player count or dealer before anything happens
        game = cls._create(
            cls.Created,
            id=game_id,
            ruleset=ruleset,
            seats=tuple(seats),
            seed=seed,
            deck=deck,
            league_id=league_id,
            cause=cause,
            entropy=entropy,
            turn_clock=turn_clock,
            forfeit_after=forfeit_after,
            in_person=in_person,
            table=table,
        )
        game._record(facts, None)
        game._settle_chance()
        return game

    def execute(self, command: Command, cause: Cause) -> None:
        """One seat's move: validated by the engine, recorded with the chance it leads to."""
        if not isinstance(command, Move):
            raise RuleError("not_a_move", f"{type(command).__name__} is not a move a seat can make")
        self.check_played_here()
        self.check_playable()
        self.check_seat(command.seat, cause.actor)
        facts = decide(self.state, command)
        self._record(facts, cause)
        self._settle_chance()

    def time_out_turn(self, seat: int, cause: Cause) -> None:
        """The turn clock of ``seat`` ran out: a clock bot plays the whole turn for it.

        The ``TurnTimedOut`` event flags the turn; the bot's plays follow as usual
        facts. The bot never forgets a call, and its choices follow from the game's
        seed, so the same history gives the same turn. The ``forfeit_after``-th
        timeout in a row forfeits the seat (``SeatForfeited``) before the bot plays:
        when that ends the match, nobody plays the turn.
        """
        self.check_played_here()
        self.check_playable()
        if cause.actor.role == "player":
            raise RuleError("not_allowed", "only the service or a referee times out a turn")
        self.check_seat(seat, cause.actor)
        if seat != self.seat_to_move:
            raise RuleError("not_your_turn", f"seat {seat} is not the one to move")
        if seat in self.forfeited:
            raise RuleError("seat_forfeited", f"seat {seat} has forfeited: a bot plays its turns at once")
        self.trigger_event(self.TurnTimedOut, seat=seat, cause=cause)
        if self.forfeit_after and self.clock_runs[seat] >= self.forfeit_after:
            self.trigger_event(self.SeatForfeited, seat=seat, turns=self.clock_runs[seat])
            if self.over:
                return
        bot = HeuristicBot(random.Random(f"{self.seed}:{self.version}"))
        while True:
            command = bot.choose(self.state, seat)
            self._record(decide(self.state, command), None)
            self._settle_chance()
            # a challenge of a face-down card (blind) comes before the challenger's move
            if not _same_turn(self.state, seat) and not (
                type(command) is ChallengeDeclaration and self.state.turn == seat
            ):
                break

    def enter_round(self, entry: RoundEntry, cause: Cause) -> None:
        """The next round of a game played in person, from its score sheet (``scoresheet``).

        A seated player or an official enters it; the engine scores it as it scores a round
        played here. An impossible entry is refused and changes nothing.
        """
        if not self.in_person:
            raise RuleError("not_in_person", "this game is played here: its rounds are not entered")
        self.check_playable()
        self._check_scorer(cause.actor)
        facts = decide(self.state, _score(self.state, entry))
        self.trigger_event(self.RoundEntered, round_no=self.state.round_no + 1, entry=entry, cause=cause)
        self._record(facts, None)

    def confirm_round(self, round_no: int, cause: Cause) -> None:
        """A seated player, not the one who entered it, agrees with a round's entry in force."""
        if not self.in_person:
            raise RuleError("not_in_person", "this game is played here: its rounds are not entered")
        if self.abandoned is not None:
            raise RuleError("game_abandoned", f"the game was abandoned: {self.abandoned}")
        actor = cause.actor
        seat = self.seat_of(actor.id) if actor.role == "player" else None
        if seat is None:
            raise RuleError("not_allowed", "only the players at this table confirm its rounds")
        sheet = self.sheets.get(round_no) if type(round_no) is int else None
        if sheet is None or round_no > self.state.round_no:
            raise RuleError("no_such_round", f"this game has no round {round_no!r} entered")
        if sheet.entered_by == actor:
            raise RuleError("own_entry", "another player at the table confirms the round you entered")
        if seat in sheet.confirmed_by:
            raise RuleError("already_confirmed", f"you confirmed round {round_no} already")
        self.trigger_event(self.RoundConfirmed, round_no=round_no, seat=seat, cause=cause)

    def rounds(self) -> list[RoundSheet]:
        """The entries in force, round by round."""
        return [self.sheets[number] for number in range(1, self.state.round_no + 1) if number in self.sheets]

    def raise_dispute(self, cause: Cause, reason: str = "", about: int | None = None) -> None:
        """Stop the game until a referee rules."""
        actor = cause.actor
        if self.abandoned is not None:
            raise RuleError("game_abandoned", f"the game was abandoned: {self.abandoned}")
        if self.dispute is not None:
            raise RuleError("dispute_open", f"dispute {self.dispute.number} is waiting for a ruling")
        seat = None
        if actor.role == "player":
            seat = self.seat_of(actor.id)
            if seat is None:
                raise RuleError("not_allowed", "only the players at this table may raise a dispute")
        if about is not None and not CREATED <= about <= self.version:
            raise RuleError("no_such_event", f"this game has no event {about}")
        dispute = Dispute(
            number=self.disputes + 1,
            raised_by=actor,
            seat=seat,
            about=about,
            reason=reason[:1000],
            raised_at=self.version + 1,
        )
        self.trigger_event(self.DisputeRaised, dispute=dispute, cause=cause)

    def give_ruling(
        self,
        ruling: Ruling,
        cause: Cause,
        note: str = "",
        game_after: Callable[[int], "Game"] | None = None,
    ) -> None:
        """Settle the open dispute.

        A void needs ``game_after(n)``: the game right after event ``n`` (a replay), to go on
        from the state before the first voided event.

        A void can reopen a round whose shuffles were revealed at its end: then the order of
        what is left of the stock is public, and with the log so is every hand. Before anyone
        moves, the hidden cards (every hand and the stock) are shuffled anew from the game's
        secret and a fresh event number, under a new commitment (``HiddenCardsReshuffled``):
        each seat holds as many cards as before, the top card, the turn and the scores stay.
        """
        if self.dispute is None:
            raise RuleError("no_dispute", "there is no dispute to rule on")
        if not cause.actor.officiates:
            raise RuleError("not_allowed", "only a referee rules on a dispute")
        facts: list[EngineEvent] = []
        image = None
        reopened = False
        rescored: list[RoundEntry] = []
        match ruling:
            case Correct():
                if game_after is None:
                    raise ValueError("a correction needs the replay of the game before the corrected round")
                sheet = self._corrected_sheet(ruling)
                image = image_of(game_after(sheet.entered_at - 1).state)
                later = range(ruling.round_no + 1, self.state.round_no + 1)
                rescored = [ruling.entry, *(self.sheets[number].entry for number in later)]
            case Penalty():
                check_penalty(self.state, ruling)
                facts = penalty_events(self.state, ruling.seat, ruling.cards)
            case Void():
                check_void(ruling, self.dispute, FIRST_VOIDABLE)
                if game_after is None:
                    raise ValueError("a void needs the replay of the game before the first voided event")
                before = game_after(ruling.from_event - 1)
                image = image_of(before.state)
                # its round's shuffles were secret then; a DeckRevealed since takes them out of ``unrevealed``
                reopened = any(shuffle not in self.unrevealed for shuffle in before.unrevealed)
            case Resume():
                pass
            case _:
                assert_never(ruling)
        self.trigger_event(
            self.RulingGiven,
            dispute=self.dispute.number,
            ruling=ruling,
            note=note[:1000],
            restored=image,
            cause=cause,
        )
        if reopened and self.state.phase not in (NEW, DEAL, OVER):
            self._record_shuffle(Shuffler(f"{self.seed}:{self.version + 1}").hidden_reshuffle(self.state))
        # the corrected round and those after it, scored again; rounds entered after a match end
        # the correction brings forward are left out of force (``rounds``)
        for entry in rescored:
            if self.state.phase == OVER:
                break
            self._record(decide(self.state, _score(self.state, entry)), None)
        self._record(facts, None)
        self._settle_chance()

    def abandon(self, reason: str, cause: Cause) -> None:
        """Call the match off unfinished (the service or an official): it counts for nobody."""
        if not cause.actor.officiates and cause.actor.role != "system":
            raise RuleError("not_allowed", "only the service or an official abandons a game")
        if self.abandoned is not None:
            raise RuleError("game_abandoned", f"the game was abandoned: {self.abandoned}")
        if self.state.phase == OVER:
            raise RuleError("game_over", "the match is over")
        self.trigger_event(self.Abandoned, reason=reason, cause=cause)

    def forfeit_seat(self, seat: int, cause: Cause) -> None:
        """The seat's player can no longer play (erased on request, ``docs/privacy.md``): the seat
        forfeits the match as one whose clock ran out does, at once, even while a dispute pauses the
        game (nobody is left to play it on after the ruling)."""
        if cause.actor.role != "system":
            raise RuleError("not_allowed", "only the service forfeits a seat for its player")
        if self.abandoned is not None:
            raise RuleError("game_abandoned", f"the game was abandoned: {self.abandoned}")
        if self.state.phase == OVER:
            raise RuleError("game_over", "the match is over")
        self.check_seat(seat, cause.actor)
        if seat in self.forfeited:
            raise RuleError("seat_forfeited", f"seat {seat} has forfeited already")
        self.trigger_event(self.SeatForfeited, seat=seat, turns=self.clock_runs[seat])

    # ------------------------------------------------------------------
    # checks and queries

    def _corrected_sheet(self, ruling: Correct) -> RoundSheet:
        if not self.in_person:
            raise RuleError("not_in_person", "only a round entered from a score sheet can be corrected")
        sheet = self.sheets.get(ruling.round_no) if type(ruling.round_no) is int else None
        if sheet is None or ruling.round_no > self.state.round_no:
            raise RuleError("no_such_round", f"this game has no round {ruling.round_no!r} entered")
        values_of(self.state.book, len(self.seats), ruling.entry)
        return sheet

    def _check_scorer(self, actor: Actor) -> None:
        if actor.officiates or (actor.role == "player" and self.seat_of(actor.id) is not None):
            return
        raise RuleError("not_allowed", "a player at this table or an official enters its rounds")

    def check_played_here(self) -> None:
        if self.in_person:
            raise RuleError("played_in_person", "this game is played with real cards: enter its rounds")

    def check_playable(self) -> None:
        if self.abandoned is not None:
            raise RuleError("game_abandoned", f"the game was abandoned: {self.abandoned}")
        if self.dispute is not None:
            raise RuleError("game_paused", f"the game is paused by dispute {self.dispute.number}")
        if self.state.phase == OVER:
            raise RuleError("game_over", "the match is over")

    def check_seat(self, seat: int, actor: Actor) -> None:
        if not isinstance(seat, int) or not 0 <= seat < len(self.seats):
            raise RuleError("not_a_seat", f"seat {seat!r} is not at this table")
        if actor.role == "player" and self.seats[seat] != Seat("player", actor.id):
            raise RuleError("not_your_seat", f"seat {seat} is not yours")
        if actor.role == "player" and seat in self.forfeited:
            raise RuleError("seat_forfeited", f"seat {seat} has forfeited the match")

    def seat_of(self, player_id: str) -> int | None:
        for index, seat in enumerate(self.seats):
            if seat == Seat("player", player_id):
                return index
        return None

    def done_before(self, key: str, digest: str) -> int | None:
        """The event number where the command with this key began, if it was done already."""
        found = self.keys.get(key)
        if found is None:
            return None
        if found[0] != digest:
            raise RuleError("idempotency_key_reused", "this idempotency key was used for another command")
        return found[1]

    @property
    def seat_to_move(self) -> int:
        s = self.state
        return s.dealer if s.phase == NAMING_SUIT else s.turn

    def bot_for(self, seat: int) -> str | None:
        """The bot that plays ``seat``: a bot seat's own, the heuristic one for a forfeited seat;
        None for a person's seat."""
        if self.seats[seat].kind == "bot":
            return self.seats[seat].name
        return "heuristic" if seat in self.forfeited else None

    def result(self) -> MatchResult:
        """The match as it counts in standings and tournaments.

        A forfeited seat scores as the match's worst: where the lowest total wins, the highest
        total at the table and at least the target score; where the highest wins, nothing. The
        winners are the best of the seats still in: where the last seat not eliminated wins (101,
        faraon), the match's winners that did not forfeit, else those placed best without them.
        """
        s = self.state
        totals = list(s.totals) or [0] * len(self.seats)
        out_round = tuple(s.out_round)
        if not self.forfeited:
            return MatchResult(
                totals=tuple(totals), winners=tuple(s.winners), forfeited=(), out_round=out_round
            )
        lowest = self.ruleset.match_winner == "lowest_total"
        worst = max(self.ruleset.target_score, *totals) if lowest else 0
        for seat in self.forfeited:
            totals[seat] = worst
        winners: tuple[int, ...] = ()
        if self.over:
            still = [seat for seat in range(len(self.seats)) if seat not in self.forfeited]
            if last_standing(self.ruleset):
                placed = places(totals, [seat for seat in s.winners if seat in still], lowest, out_round)
                best = min(placed[seat] for seat in still)
                winners = tuple(seat for seat in still if placed[seat] == best)
            else:
                best = (min if lowest else max)(totals[seat] for seat in still)
                winners = tuple(seat for seat in still if totals[seat] == best)
        return MatchResult(
            totals=tuple(totals), winners=winners, forfeited=self.forfeited, out_round=out_round
        )

    @property
    def paused(self) -> bool:
        return self.dispute is not None

    @property
    def over(self) -> bool:
        return self.state.phase == OVER

    def image(self) -> GameImage:
        return GameImage(
            created_on=self.created_on,
            modified_on=self.modified_on,
            ruleset=self.ruleset,
            seats=self.seats,
            seed=self.seed,
            deck=self.deck,
            league_id=self.league_id,
            state=image_of(self.state),
            dispute=self.dispute,
            disputes=self.disputes,
            keys=dict(self.keys),
            unrevealed=list(self.unrevealed),
            turn_clock=self.turn_clock,
            forfeit_after=self.forfeit_after,
            clock_runs=list(self.clock_runs),
            forfeited=self.forfeited,
            abandoned=self.abandoned,
            in_person=self.in_person,
            sheets=dict(self.sheets),
            table=self.table,
        )

    @classmethod
    def from_image(cls, game_id: UUID, version: int, image: GameImage) -> "Game":
        game = object.__new__(cls)
        game.__base_init__(originator_id=game_id, originator_version=version, timestamp=image.created_on)
        game.modified_on = image.modified_on
        game.ruleset = image.ruleset
        game.seats = image.seats
        game.seed = image.seed
        game.deck = image.deck
        game.league_id = image.league_id
        game.state = restore(image.state)
        game.dispute = image.dispute
        game.disputes = image.disputes
        game.keys = dict(image.keys)
        game.unrevealed = list(image.unrevealed)
        game.turn_clock = image.turn_clock
        game.forfeit_after = image.forfeit_after
        game.clock_runs = list(image.clock_runs) or [0] * len(image.seats)
        game.forfeited = tuple(image.forfeited)
        game.abandoned = image.abandoned
        game.in_person = image.in_person
        game.sheets = dict(image.sheets)
        match image.table:
            case msgspec.UnsetType():
                # taken before games carried their table: the key of the game's creation names it
                created = next((key for key, (_, number) in image.keys.items() if number == CREATED), None)
                game.table = table_of_version_1_key(created)
            case table:
                game.table = table
        return game

    # ------------------------------------------------------------------
    # recording

    def _record(self, facts: list[EngineEvent], cause: Cause | None) -> None:
        ended = None
        for fact in facts:
            if isinstance(fact, Shuffle):
                self._record_shuffle(fact, cause)
            else:
                self.trigger_event(FACT_EVENTS[type(fact)], fact=fact, cause=cause)
            cause = None
            if type(fact) is RoundEnded:
                ended = fact.round_no
        if ended is not None and self.unrevealed:
            self.trigger_event(self.DeckRevealed, round_no=ended, salts=tuple(self.unrevealed))

    def _record_shuffle(self, fact: Shuffle, cause: Cause | None = None) -> None:
        """A deal, a recycle or a reshuffle, with its commitment and its salt, both fresh."""
        salt = salt_for(self.seed, self.version + 1)
        match fact:
            case RoundDealt() | DealAnnulled():
                order = fact.deck
            case StockRecycled() | HiddenCardsReshuffled():
                order = fact.order
            case _:
                assert_never(fact)
        kind = SHUFFLE_EVENTS[type(fact)]
        self.trigger_event(kind, fact=fact, cause=cause, commitment=commitment(salt, order), salt=salt)

    def _settle_chance(self) -> None:
        s = self.state
        if self.in_person:  # the table shuffles and deals its own cards
            return
        # a deck given at creation deals the first round once: a deal it annuls (four of a kind,
        # ``DealAnnulled``) is dealt again from a shuffle
        explicit = self.deck if s.round_no == 0 else None
        while s.phase == DEAL or s.phase == RECYCLE:
            if s.phase == DEAL and explicit is not None:
                command: Command = DealRound(explicit)
                explicit = None
            else:
                command = Shuffler(f"{self.seed}:{self.version + 1}").outcome(s)
            self._record(decide(s, command), None)

    def _remember(self, cause: Cause, number: int) -> None:
        if cause.key is not None:
            self.keys[cause.key] = (cause.digest, number)


def _score(s: State, entry: RoundEntry) -> ScoreRound:
    """The engine command that scores a score sheet's round, or why the entry is impossible."""
    values = values_of(s.book, s.seats, entry, s.out)
    last_card = -1 if entry.last_card is None else entry.last_card
    return ScoreRound(-1 if entry.winner is None else entry.winner, tuple(values), last_card)


def _check_in_person(
    seats: tuple[Seat, ...],
    deck: tuple[int, ...] | None,
    first_dealer: int | None,
    turn_clock: int | None,
    forfeit_after: int,
) -> None:
    if any(seat.kind == "bot" for seat in seats):
        raise RuleError("bots_not_at_real_tables", "a bot cannot sit at a table played with real cards")
    if deck is not None or first_dealer is not None:
        raise RuleError("played_in_person", "a table played with real cards deals its own deck")
    if turn_clock is not None or forfeit_after:
        raise RuleError("played_in_person", "a table played with real cards keeps no turn clock")


# the Game event class a fact is stored in: a shuffle's or any fact's
_Stored = TypeVar("_Stored", bound=Game.Fact)

# engine event type -> the Game event class that stores it
FACT_EVENTS: dict[type[EngineEvent], type[Game.Fact]] = {}
# the shuffles among them, and the reshuffle a void may lead to (never decided by the engine)
SHUFFLE_EVENTS: dict[type[EngineEvent], type[Game.Shuffled]] = {}


def _fact_event(engine_type: type[EngineEvent], base: type[_Stored]) -> type[_Stored]:
    """``Game.<Name>``, storing the engine event ``<Name>``."""
    name = engine_type.__name__
    event_class = type(
        name,
        (base,),
        {
            "__module__": __name__,
            "__qualname__": f"Game.{name}",
            "__annotations__": {"fact": engine_type},
            "__doc__": f"The engine's ``{name}``, stored.",
        },
    )
    setattr(Game, name, event_class)
    return event_class


def _same_turn(s: State, seat: int) -> bool:
    """``seat`` still has its turn to finish: a drawn card to play or keep, a player to choose,
    or a card of its own that lets it move again."""
    if s.turn != seat:
        return False
    return s.phase == DRAWN or s.phase == CHOOSING or (s.phase == PLAY and s.book.again[s.shown])


def _make_fact_events() -> None:
    for engine_type in EVENT_TYPES:
        if issubclass(engine_type, Shuffle):
            FACT_EVENTS[engine_type] = SHUFFLE_EVENTS[engine_type] = _fact_event(engine_type, Game.Shuffled)
        else:
            FACT_EVENTS[engine_type] = _fact_event(engine_type, Game.Fact)
    SHUFFLE_EVENTS[HiddenCardsReshuffled] = _fact_event(HiddenCardsReshuffled, Game.Shuffled)


_make_fact_events()

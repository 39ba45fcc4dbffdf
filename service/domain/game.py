"""The Game aggregate: one table's match, round after round, as stored events.

The engine decides; the aggregate records. A seat's command goes through the engine's ``decide``
and each engine event it returns becomes one aggregate event (``Game.CardPlayed`` wraps a
``CardPlayed``, and so on for every engine event type: see ``FACT_EVENTS``). Chance is settled
right after the command that needs it, inside the same batch of events: the first dealer, every
deal and every recycle come from a ``Shuffler`` seeded with the game's secret and the event number
of the shuffle, so the outcome is fixed by the history and recorded like everything else (a replay
never draws a random number). The secret is the seed mixed with entropy drawn at creation
(``fairness.game_secret``): a seed, even one an official chose, foretells nothing by itself.

Every public method validates first and changes nothing when it refuses (a ``RuleError`` with a
stable code); the events' ``apply`` only mutate; each declares its sights, line and words (``declaration``).

Beyond the engine's events the aggregate records:

- ``Created``: the ruleset, the seats, the seed and the entropy it is mixed with, an explicit first deck if
  one was given, and the tournament table the game was made for (``TableRef``);
- ``DeckRevealed``: at each round end, the salts of that round's shuffle commitments (``fairness``);
- ``HiddenCardsReshuffled``: after a void that reopens a round whose orders were revealed, every hand and
  the stock shuffled anew under a fresh commitment (``give_ruling``);
- ``DisputeRaised`` and ``RulingGiven`` (``adjudication``);
- ``TurnTimedOut``: a seat's turn clock ran out and a clock bot plays its turn; ``SeatForfeited``: its clock
  ran out ``forfeit_after`` times in a row (``clock``), or its player was erased (the class tells the rest);
- ``Abandoned``: the match was called off unfinished (its tournament was cancelled): it counts for nobody,
  and every later command is refused with ``game_abandoned``.
- ``RoundEntered`` and ``RoundConfirmed``: a round's score sheet entry in a game played in person, its scoring
  facts after it, and a seated player's confirmation of it (``scoresheet``).

The first event of each command carries a ``Cause`` (``history``): who asked, which command, and the
client's idempotency key, so a retried command is recognised from the stored events (``kind.Keyed``).

The aggregate keeps its events (their topics are this module's) and the moves; its parts are decided
next to it: ``game_rulings`` (disputes and rulings), ``game_sheets`` (games played in person),
``game_clock`` (timeouts, forfeits), ``match_result``, ``game_image`` (snapshots), ``seats``, ``history``.
"""

import secrets
from collections.abc import Callable
from typing import Any, ClassVar, assert_never
from uuid import UUID

from eventsourcing.domain import Aggregate
from eventsourcing.domain import Snapshot as BaseSnapshot
from eventsourcing.utils import get_topic

from service.domain import game_clock, game_rulings, game_sheets, record_lines, sight
from service.domain import record as lines
from service.domain.adjudication import Correct, Dispute, Penalty, Resume, Ruling, Void
from service.domain.chance import Shuffler
from service.domain.clock import check_clock
from service.domain.commands import Command, Move, StartMatch
from service.domain.declaration import Declaration
from service.domain.engine import decide
from service.domain.errors import RuleError
from service.domain.fairness import ENTROPY_HEX_DIGITS, Revealed, game_secret
from service.domain.game_facts import make_fact_events, record, settle_chance
from service.domain.game_image import GameImage, game_from_image, image_of_game
from service.domain.history import CREATED, Cause
from service.domain.image import StateImage, restore
from service.domain.kind import Keyed
from service.domain.match_result import MatchResult, match_result
from service.domain.record_lines import copied
from service.domain.roles import Actor
from service.domain.rulesets import Ruleset
from service.domain.scoresheet import RoundEntry, RoundSheet
from service.domain.seats import Seat, TableRef, table_of_version_1_key
from service.domain.state import NAMING_SUIT, OVER, State


class Game(Keyed, Aggregate):
    """One table's match. ``state`` is the engine's state, the fold of the engine events.

    A game kind (``kind``): its idempotency keys are ``Keyed``'s."""

    not_found: ClassVar[str] = ""  # the plain sentence of game_not_found

    class Event(Aggregate.Event):
        declaration: ClassVar[Declaration]  # its sights, record line and words (``declaration``)

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
        declaration = Declaration(sight.created, copied(lines.GameCreated), official="The game is created")

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
                game.remember_cause(self.cause, self.originator_version)
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
        declaration = Declaration(
            sight.deck_revealed,
            record_lines.revealed,
            official="The shuffles of round {number} are revealed",
        )

        def apply(self, game: "Game") -> None:
            shown = {entry.number for entry in self.salts}
            game.unrevealed = [entry for entry in game.unrevealed if entry.number not in shown]

    class DisputeRaised(Event):
        dispute: Dispute
        cause: Cause
        declaration = Declaration(
            sight.kept,
            record_lines.dispute_raised,
            words="A dispute is raised: play waits for a referee",
        )

        def apply(self, game: "Game") -> None:
            game.dispute = self.dispute
            game.disputes = self.dispute.number
            game.remember_cause(self.cause, self.originator_version)

    class RulingGiven(Event):
        dispute: int  # the number of the dispute ruled on
        ruling: Ruling
        note: str
        restored: StateImage | None  # for a void: the state the game goes on from
        cause: Cause
        declaration = Declaration(sight.ruling_given, record_lines.ruling_given, words="A referee ruled")

        def apply(self, game: "Game") -> None:
            game.dispute = None
            if self.restored is not None:
                game.state = restore(self.restored)
            ruling = self.ruling
            match ruling:
                case Correct():
                    game_rulings.apply_correction(
                        game, ruling, self.dispute, self.cause, self.originator_version
                    )
                case Resume() | Penalty() | Void():
                    pass  # their engine facts and restored state are recorded on their own
                case _:
                    assert_never(ruling)
            game.remember_cause(self.cause, self.originator_version)

    class RoundEntered(Event):
        """A round of a game played in person, as its score sheet says; its scoring facts follow."""

        round_no: int
        entry: RoundEntry
        cause: Cause
        declaration = Declaration(sight.round_entered, record_lines.round_entered)

        def apply(self, game: "Game") -> None:
            game_sheets.apply_entry(game, self.round_no, self.entry, self.cause, self.originator_version)
            game.remember_cause(self.cause, self.originator_version)

    class RoundConfirmed(Event):
        """A seated player agrees with a round's entry as it stands."""

        round_no: int
        seat: int
        cause: Cause
        declaration = Declaration(
            sight.kept, copied(lines.RoundConfirmed), official="{who} confirms round {number}"
        )

        def apply(self, game: "Game") -> None:
            sheet = game.sheets[self.round_no]
            game.sheets[self.round_no] = sheet.confirmed(self.seat)
            game.remember_cause(self.cause, self.originator_version)

    class TurnTimedOut(Event):
        """A seat's turn clock ran out: a clock bot plays that turn for them (its facts follow)."""

        seat: int
        cause: Cause
        declaration = Declaration(
            sight.kept, copied(lines.TimedOut), words="{who}'s clock ran out: a bot plays the turn"
        )

        def apply(self, game: "Game") -> None:
            game.remember_cause(self.cause, self.originator_version)
            game.clock_runs[self.seat] += 1

    class SeatForfeited(Event):
        """The seat's clock ran out ``turns`` times in a row, or its player was erased (``forfeit_seat``):
        it forfeits the match.

        With one seat left in (not forfeited, not out of the match), the match is over and that
        seat wins.
        """

        seat: int
        turns: int
        declaration = Declaration(sight.kept, copied(lines.Forfeited), official="{who} forfeits the seat")

        def apply(self, game: "Game") -> None:
            game_clock.apply_forfeit(game, self.seat)

    class Abandoned(Event):
        """The match was called off before its end: no result, and no move after it."""

        reason: str
        cause: Cause
        declaration = Declaration(sight.kept, copied(lines.Abandoned))

        def apply(self, game: "Game") -> None:
            game.abandoned = self.reason
            game.remember_cause(self.cause, self.originator_version)

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
        self.remember_cause(cause, CREATED)

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
            game_sheets.check_in_person(seats, deck, first_dealer, turn_clock, forfeit_after)
        if (deck is not None or first_dealer is not None) and not cause.actor.officiates:
            raise RuleError("not_allowed", why="deck_dealer")
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
        record(game, facts, None)
        settle_chance(game)
        return game

    def execute(self, command: Command, cause: Cause) -> None:
        """One seat's move: validated by the engine, recorded with the chance it leads to."""
        if not isinstance(command, Move):
            raise RuleError("not_a_move", command=type(command).__name__)
        self.check_played_here()
        self.check_playable()
        self.check_seat(command.seat, cause.actor)
        facts = decide(self.state, command)
        record(self, facts, cause)
        settle_chance(self)

    def time_out_turn(self, seat: int, cause: Cause) -> None:
        """The turn clock of ``seat`` ran out: a clock bot plays the whole turn for it
        (``game_clock.time_out_turn``)."""
        game_clock.time_out_turn(self, seat, cause)

    def enter_round(self, entry: RoundEntry, cause: Cause) -> None:
        """The next round of a game played in person, from its score sheet (``game_sheets``)."""
        game_sheets.enter_round(self, entry, cause)

    def confirm_round(self, round_no: int, cause: Cause) -> None:
        """A seated player, not the one who entered it, agrees with a round's entry in force."""
        game_sheets.confirm_round(self, round_no, cause)

    def rounds(self) -> list[RoundSheet]:
        """The entries in force, round by round."""
        return [self.sheets[number] for number in range(1, self.state.round_no + 1) if number in self.sheets]

    def raise_dispute(self, cause: Cause, reason: str = "", about: int | None = None) -> None:
        """Stop the game until a referee rules."""
        game_rulings.raise_dispute(self, cause, reason, about)

    def give_ruling(
        self,
        ruling: Ruling,
        cause: Cause,
        note: str = "",
        game_after: Callable[[int], "Game"] | None = None,
    ) -> None:
        """Settle the open dispute (``game_rulings.give_ruling``); a void or a correction needs
        ``game_after(n)``, the game right after event ``n`` (a replay)."""
        game_rulings.give_ruling(self, ruling, cause, note, game_after)

    def abandon(self, reason: str, cause: Cause) -> None:
        """Call the match off unfinished (the service or an official): it counts for nobody."""
        if not cause.actor.officiates and cause.actor.role != "system":
            raise RuleError("not_allowed", why="service_official_abandons")
        if self.abandoned is not None:
            raise RuleError("game_abandoned", abandoned=self.abandoned)
        if self.state.phase == OVER:
            raise RuleError("game_over")
        self.trigger_event(self.Abandoned, reason=reason, cause=cause)

    def forfeit_seat(self, seat: int, cause: Cause) -> None:
        """The seat's player can no longer play (erased on request): it forfeits (``game_clock``)."""
        game_clock.forfeit_seat(self, seat, cause)

    # ------------------------------------------------------------------
    # checks and queries

    def check_played_here(self) -> None:
        if self.in_person:
            raise RuleError("played_in_person", why="enter_rounds")

    def check_playable(self) -> None:
        if self.abandoned is not None:
            raise RuleError("game_abandoned", abandoned=self.abandoned)
        if self.dispute is not None:
            raise RuleError("game_paused", why="game_paused_dispute", number=self.dispute.number)
        if self.state.phase == OVER:
            raise RuleError("game_over")

    def check_seat(self, seat: int, actor: Actor) -> None:
        if not isinstance(seat, int) or not 0 <= seat < len(self.seats):
            raise RuleError("not_a_seat", why="seat_given", seat=seat)
        if actor.role == "player" and self.seats[seat] != Seat("player", actor.id):
            raise RuleError("not_your_seat", seat=seat)
        if actor.role == "player" and seat in self.forfeited:
            raise RuleError("seat_forfeited", why="seat_forfeited_match", seat=seat)

    def seat_of(self, player_id: str) -> int | None:
        for index, seat in enumerate(self.seats):
            if seat == Seat("player", player_id):
                return index
        return None

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
        """The match as it counts in standings and tournaments (``match_result``)."""
        return match_result(self)

    @property
    def paused(self) -> bool:
        return self.dispute is not None

    @property
    def over(self) -> bool:
        return self.state.phase == OVER

    def image(self) -> GameImage:
        return image_of_game(self)

    @classmethod
    def from_image(cls, game_id: UUID, version: int, image: GameImage) -> "Game":
        return game_from_image(cls, game_id, version, image)

    @staticmethod
    def begins_request(event: object) -> bool:
        """A command's first event carries its cause (``GameKind``)."""
        return getattr(event, "cause", None) is not None

    # ------------------------------------------------------------------
    # recording (the facts themselves: ``game_facts.record``)

    def remember_cause(self, cause: Cause, number: int) -> None:
        self.remember(cause.key, cause.digest, number)


make_fact_events(Game)

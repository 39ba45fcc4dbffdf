"""The stored Mao match: an eventsourcing aggregate around the decider (``game``).

``MaoGame.Started`` fixes what never changes (the league, the seats, who judges); each
command's events (``events``) are stored together as one ``Decided``, whose ``by`` says
who asked (an actor, or the server). The state is the fold of every fact so far. A game kind
(``service.domain.kind``): a request's idempotency key is ``Keyed``'s, remembered at its
``Decided``; what it stored ends before the next ``Decided`` someone asked for.

A seat whose player was erased on request forfeits (``forfeit_seat``, ``SeatForfeited``), as in a
card game (``service.domain.game``): while two seats or more are left in and one of them is a
player's, a stand-in plays it (``autoplay``: it only draws, so it never goes out); otherwise the
match ends at once, won by the seat left in with the most rounds won.
"""

from collections.abc import Iterable
from typing import ClassVar
from uuid import UUID

from eventsourcing.domain import Aggregate

from service.domain.errors import RuleError
from service.domain.kind import Keyed
from service.domain.mao.commands import SERVER, Command
from service.domain.mao.events import Event, PauseEnded
from service.domain.mao.game import decide, end_by_forfeit
from service.domain.mao.state import State

BOT_PREFIX = "bot:"
SERVER_BY = "server"  # who asked, in a decision the server made after an act (a deal, a recycle)
# who asked, in a bot's turn (``autoplay.bot_turn``): a request of its own, which a person's request
# sent again does not answer with
BOT_BY = "bot"


class MaoGame(Keyed, Aggregate):
    not_found: ClassVar[str] = "mao_match"

    class Started(Aggregate.Created):
        league_id: UUID
        seats: tuple[str, ...]  # a player's id, or a bot's name ("bot:learning")
        judge: str  # commands.SERVER or commands.REFEREE
        # with a human judge: the seat whose player judges too, beside the league's referees
        judge_seat: int | None = None

    class Decided(Aggregate.Event):
        facts: tuple[Event, ...]
        by: str  # who asked: "role:id" of an actor, or "server"
        key: str | None = None  # the client's idempotency key, scoped to the client
        digest: str = ""  # a fingerprint of the request, so a key reused for another is refused

        def apply(self, game: "MaoGame") -> None:
            game.starts[self.originator_version] = len(game.facts)
            game.remember(self.key, self.digest, self.originator_version)
            for fact in self.facts:
                fact.apply(game.state)
            game.facts.extend(self.facts)

    class SeatForfeited(Aggregate.Event):
        seat: int

        def apply(self, game: "MaoGame") -> None:
            game.forfeited = (*game.forfeited, self.seat)

    def __init__(
        self, league_id: UUID, seats: tuple[str, ...], judge: str, judge_seat: int | None = None
    ) -> None:
        self.league_id = league_id
        self.seats = seats
        self.judge = judge
        self.judge_seat = judge_seat
        self.state = State()
        self.facts: list[Event] = []
        self.starts: dict[int, int] = {}  # each decision's event number: the index of its first fact
        self.keys: dict[str, tuple[str, int]] = {}  # idempotency key: (digest, its decision's number)
        self.forfeited: tuple[int, ...] = ()  # seats whose player was erased, in that order

    @classmethod
    def start(
        cls, league_id: UUID, seats: tuple[str, ...], judge: str, judge_seat: int | None = None
    ) -> "MaoGame":
        if judge_seat is not None:
            if judge == SERVER:
                raise RuleError("invalid_option", why="judge_seat_server")
            if not 0 <= judge_seat < len(seats) or seats[judge_seat].startswith(BOT_PREFIX):
                raise RuleError("not_a_seat", why="seat_no_player", judge_seat=judge_seat)
        return cls._create(cls.Started, league_id=league_id, seats=seats, judge=judge, judge_seat=judge_seat)

    def do(self, command: Command, by: str, key: str | None = None, digest: str = "") -> list[Event]:
        """Decide the command and record its events (nothing when it is refused)."""
        facts = decide(self.state, command)
        self.trigger_event(self.Decided, facts=tuple(facts), by=by, key=key, digest=digest)
        return facts

    @staticmethod
    def begins_request(event: object) -> bool:
        """A decision someone asked for (a person, or a bot on its turn); the server's are its part
        after one (``GameKind``). Matches stored before the workers played Mao's bots hold their
        bots' moves as the server's, answered with the request they followed, as then."""
        return isinstance(event, MaoGame.Decided) and event.by != SERVER_BY

    def facts_of(self, events: Iterable[object]) -> tuple[int, list[Event]]:
        """The index of the first fact of these stored events (of this match), and their facts."""
        decided = [event for event in events if isinstance(event, MaoGame.Decided)]
        first = self.starts[decided[0].originator_version] if decided else len(self.facts)
        return first, [fact for event in decided for fact in event.facts]

    @property
    def over(self) -> bool:
        """The match has a winner: nothing more is decided (its last fact is ``MatchEnded``)."""
        return self.state.winner >= 0

    def forfeit_seat(self, seat: int) -> None:
        """The seat's player was erased: a stand-in plays the seat from now on, or the match ends at
        once (above) when no two seats with a player's among them are left in."""
        self.check_seat(seat)
        if self.over:
            raise RuleError("game_over")
        if seat in self.forfeited:
            raise RuleError("seat_forfeited", why="already_that_seat")
        self.trigger_event(self.SeatForfeited, seat=seat)
        left_in = [other for other in range(len(self.seats)) if other not in self.forfeited]
        facts: list[Event] = []
        if self.state.paused_by == seat:
            facts.append(PauseEnded(seat))  # nobody else may end the pause the seat called
        if len(left_in) < 2 or all(self.seats[other].startswith(BOT_PREFIX) for other in left_in):
            wins = self.state.wins
            winner = max(left_in, key=lambda other: (wins[other], -other))
            facts += end_by_forfeit(self.state, winner)
        if facts:
            self.trigger_event(self.Decided, facts=tuple(facts), by=SERVER_BY)

    def seat_of(self, player_id: str) -> int | None:
        return self.seats.index(player_id) if player_id in self.seats else None

    def is_bot(self, seat: int) -> bool:
        """A bot's seat, or a forfeited seat a stand-in plays: the server moves it."""
        return self.seats[seat].startswith(BOT_PREFIX) or seat in self.forfeited

    def check_seat(self, seat: int) -> None:
        if not 0 <= seat < len(self.seats):
            raise RuleError("not_a_seat", why="seat", seat=seat)

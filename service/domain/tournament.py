"""The Tournament aggregate: a league's event of several rounds at multi-seat tables.

Commands (methods) and the events they record, in the order of a tournament's life:

    Tournament.announce(league_id, name, ruleset_name, options, plan)  -> Announced
    join(entrant) / leave(entrant)           -> Joined / Left      before the start only
    start(seed)                              -> Started            entries close, empty places go to bots,
                                                RoundPaired(1)     the seed fixes the seed order
    attach_game(round_no, table, game_id)    -> TableGameCreated   one per table, as its game is created
    record_result(game_id, totals, winners)  -> TableFinished      one per table, once its game is over
                                                RoundFinished      after the round's last table (byes' points,
                                                                   who is out)
                                                RoundPaired(r+1)   or, after the last round,
                                                Finished           the final ranking and the winners

Pairing, seating, byes and the ranking's tie-breaks are ``service.domain.pairing``'s.
A bye scores as an average win of its round: one win and the mean of the
round's winning totals (rounded half to even), whichever way the ruleset scores.
A seat that forfeited its game by clock (``Game.result``) is no winner and scores
its table's worst total: a loss, last at the table.

Entrants are strings: a player's id, or ``bot:<bot>#<n>`` for a place filled by
a bot at the start (``seat_spec`` gives the game seat for either). A driver (the
Celery beat) asks ``start_due(now)`` and ``round_due(now)``; a round is started
by creating a game per table (``game_options`` are every game's ruleset options:
the match length) and attaching it; when every game of the round has been
recorded the aggregate pairs the next round itself.

Public methods validate and raise ``RuleError`` (codes below) changing nothing;
the events' ``apply`` only mutate.

    malformed_name, invalid_format, invalid_table_size, invalid_rounds, invalid_schedule,
    invalid_match_length, invalid_turn_clock, invalid_late_policy, invalid_places, unknown_bot,
    tournament_started, already_joined, tournament_full, not_joined, too_few_players,
    not_started, no_such_round, tournament_over, no_such_table, table_has_game, game_already_attached,
    not_a_tournament_game, invalid_result, result_recorded
"""

from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any, Literal
from uuid import UUID

import msgspec
from eventsourcing.domain import Aggregate

from service.domain.bots import BOTS
from service.domain.clock import MAX_TURN_CLOCK
from service.domain.errors import RuleError
from service.domain.names import checked_name
from service.domain.pairing import (
    History,
    Pairing,
    Placing,
    Played,
    pair_elimination,
    pair_round_robin,
    pair_swiss,
    rank,
    round_robin_rounds,
    seed_order,
)
from service.domain.rulesets import Ruleset, check_options, ruleset

Format = Literal["round_robin", "swiss", "single_elimination"]
FORMATS: tuple[str, ...] = ("round_robin", "swiss", "single_elimination")
MAX_TABLE = 6
MAX_ROUNDS = 50
MAX_ENTRANTS = 512  # the pairing search recurses once per seat
MAX_INTERVAL = 90 * 86_400  # a round a day is slow; a round a season is no tournament
BOT_ENTRANT = "bot:"


class Plan(msgspec.Struct, frozen=True, kw_only=True):
    """How a tournament is played, fixed when it is announced."""

    format: Format
    table_size: int  # the most seats at a table, within the ruleset's player range (2-6)
    # rounds: required for swiss; round robin defaults to the fewest in which everyone can meet
    # everyone (pairing.round_robin_rounds); single elimination takes none (it plays to one table)
    rounds: int | None = None
    starts_at: datetime | None = None  # round 1 (timezone-aware); None: when the tournament is started
    interval: int | None = None  # seconds from one round's start to the next; None: when the previous ends
    target_score: int | None = None  # the match length: a target score ...
    single_round: bool = False  # ... or one round; neither: the league's own match end
    turn_clock: int | None = None  # seconds per turn; None: no clock
    late_policy: Literal["bot"] = "bot"  # a turn whose clock runs out is played by a bot, flagged
    places: int | None = None  # places filled by ``fill_bot`` entrants at the start when not taken
    fill_bot: str = "heuristic"


class TableResult(msgspec.Struct, frozen=True, kw_only=True):
    totals: tuple[int, ...]  # per seat, the match totals
    winners: tuple[int, ...]  # winning seats (more than one: a shared win)
    timed_out: tuple[int, ...]  # per seat, turns a clock bot played
    forfeited: tuple[int, ...] = ()  # seats that forfeited by clock: never among the winners


@dataclass
class Round:
    """One round as the events made it."""

    round_no: int
    tables: tuple[tuple[str, ...], ...]
    byes: tuple[str, ...]
    games: dict[int, UUID] = field(default_factory=dict)  # table -> game
    results: dict[int, TableResult] = field(default_factory=dict)  # table -> result
    finished_at: datetime | None = None
    bye_points: int = 0
    out: tuple[str, ...] = ()  # single elimination: the entrants this round knocked out

    @property
    def started(self) -> bool:
        """Every table has its game."""
        return len(self.games) == len(self.tables)

    def played(self) -> list[Played]:
        return [
            Played(self.tables[t], result.totals, result.winners, result.timed_out, result.forfeited)
            for t, result in sorted(self.results.items())
        ]


class Tournament(Aggregate):
    class Event(Aggregate.Event):
        pass

    class Announced(Aggregate.Created):
        league_id: UUID
        name: str
        ruleset_name: str
        options: dict[str, Any]  # the league's ruleset options
        plan: Plan

    class Joined(Event):
        entrant: str

        def apply(self, tournament: "Tournament") -> None:
            tournament.entrants = (*tournament.entrants, self.entrant)

    class Left(Event):
        entrant: str

        def apply(self, tournament: "Tournament") -> None:
            tournament.entrants = tuple(e for e in tournament.entrants if e != self.entrant)

    class Started(Event):
        seed: str
        order: tuple[str, ...]  # every entrant, bots filling places included, in seed order
        rounds: int  # rounds to play; 0 for single elimination (until one table is left)

        def apply(self, tournament: "Tournament") -> None:
            tournament.seed = self.seed
            tournament.order = self.order
            tournament.planned_rounds = self.rounds
            tournament.started_at = self.timestamp

    class RoundPaired(Event):
        round_no: int
        tables: tuple[tuple[str, ...], ...]  # players per table, in seat order
        byes: tuple[str, ...]

        def apply(self, tournament: "Tournament") -> None:
            tournament.rounds.append(Round(self.round_no, self.tables, self.byes))

    class TableGameCreated(Event):
        round_no: int
        table: int
        game_id: UUID

        def apply(self, tournament: "Tournament") -> None:
            tournament.rounds[self.round_no - 1].games[self.table] = self.game_id

    class TableFinished(Event):
        round_no: int
        table: int
        game_id: UUID
        result: TableResult

        def apply(self, tournament: "Tournament") -> None:
            tournament.rounds[self.round_no - 1].results[self.table] = self.result

    class RoundFinished(Event):
        round_no: int
        bye_points: int  # what each bye of the round scored
        out: tuple[str, ...]  # single elimination: knocked out this round

        def apply(self, tournament: "Tournament") -> None:
            done = tournament.rounds[self.round_no - 1]
            done.finished_at = self.timestamp
            done.bye_points = self.bye_points
            done.out = self.out

    class Finished(Event):
        ranking: tuple[str, ...]  # every entrant, best first
        winners: tuple[str, ...]  # more than one: a single elimination's final won jointly

        def apply(self, tournament: "Tournament") -> None:
            tournament.ranking = self.ranking
            tournament.winners = self.winners

    def __init__(
        self, league_id: UUID, name: str, ruleset_name: str, options: dict[str, Any], plan: Plan
    ) -> None:
        self.league_id = league_id
        self.name = name
        self.ruleset_name = ruleset_name
        self.options = dict(options)
        self.plan = plan
        self.entrants: tuple[str, ...] = ()  # in joining order
        self.seed = ""
        self.order: tuple[str, ...] = ()
        self.planned_rounds = 0
        self.started_at: datetime | None = None
        self.rounds: list[Round] = []
        self.ranking: tuple[str, ...] = ()
        self.winners: tuple[str, ...] = ()

    # ------------------------------------------------------------------
    # commands

    @classmethod
    def announce(
        cls, league_id: UUID, name: str, ruleset_name: str, options: dict[str, Any], plan: Plan
    ) -> "Tournament":
        rules = ruleset(ruleset_name, **options)
        _check_plan(plan, rules)
        ruleset(ruleset_name, **{**options, **_match_options(plan)})  # the games' ruleset must be playable
        check_options(_match_options(plan))  # the league's own were checked when it was founded
        return cls._create(
            cls.Announced,
            league_id=league_id,
            name=checked_name(name, "tournament"),
            ruleset_name=ruleset_name,
            options=dict(options),
            plan=plan,
        )

    def join(self, entrant: str) -> None:
        self._check_open()
        if entrant in self.entrants:
            raise RuleError("already_joined", "that player has joined already")
        if len(self.entrants) >= (self.plan.places or MAX_ENTRANTS):
            raise RuleError("tournament_full", "every place is taken")
        self.trigger_event(self.Joined, entrant=entrant)

    def leave(self, entrant: str) -> None:
        self._check_open()
        if entrant not in self.entrants:
            raise RuleError("not_joined", "that player has not joined")
        self.trigger_event(self.Left, entrant=entrant)

    def start(self, seed: str) -> None:
        """Close the entries, fill the empty places with bots, fix the seed order, pair round 1."""
        self._check_open()
        bots = (self.plan.places or 0) - len(self.entrants)
        entrants = [*self.entrants, *(f"{BOT_ENTRANT}{self.plan.fill_bot}#{n}" for n in range(1, bots + 1))]
        if len(entrants) < 2:
            raise RuleError("too_few_players", "a tournament needs at least two players")
        rounds = self.plan.rounds or 0
        if self.plan.format == "round_robin" and not rounds:
            rounds = round_robin_rounds(len(entrants), self.plan.table_size)
        self.trigger_event(self.Started, seed=seed, order=tuple(seed_order(entrants, seed)), rounds=rounds)
        self._pair_next()

    def attach_game(self, round_no: int, table: int, game_id: UUID) -> None:
        """The game played at ``table`` of the current round; attaching the same game again does nothing."""
        current = self._current()
        if current.round_no != round_no or not 0 <= table < len(current.tables):
            raise RuleError("no_such_table", f"the current round has no table {table} in round {round_no}")
        found = current.games.get(table)
        if found == game_id:
            return
        if found is not None:
            raise RuleError("table_has_game", f"table {table} plays game {found} already")
        if self._table_of(game_id) is not None:
            raise RuleError("game_already_attached", "that game is attached to another table")
        self.trigger_event(self.TableGameCreated, round_no=round_no, table=table, game_id=game_id)

    def record_result(
        self,
        game_id: UUID,
        totals: tuple[int, ...],
        winners: tuple[int, ...],
        timed_out: tuple[int, ...] = (),
        forfeited: tuple[int, ...] = (),
    ) -> None:
        """A table's game is over: its totals and winning seats (the turns clock bots played, the
        seats that forfeited).

        The same result again does nothing. After the round's last table, the round
        finishes and the next is paired, or the tournament finishes.
        """
        found = self._table_of(game_id)
        if found is None:
            raise RuleError("not_a_tournament_game", "that game is not played at a table of this tournament")
        played, table = found
        seats = len(played.tables[table])
        result = TableResult(
            totals=tuple(totals),
            winners=tuple(sorted(winners)),
            timed_out=tuple(timed_out) or (0,) * seats,
            forfeited=tuple(forfeited),
        )
        recorded = played.results.get(table)
        if recorded is not None:
            if recorded != result:
                raise RuleError("result_recorded", "another result was recorded for that game")
            return
        _check_result(result, seats, self.rules.match_winner == "lowest_total")
        self.trigger_event(
            self.TableFinished, round_no=played.round_no, table=table, game_id=game_id, result=result
        )
        if len(played.results) == len(played.tables):
            self._finish_round(played)

    # ------------------------------------------------------------------
    # queries

    @property
    def rules(self) -> Ruleset:
        """The league's ruleset, as every game of the tournament plays it."""
        return ruleset(self.ruleset_name, **self.game_options)

    @property
    def game_options(self) -> dict[str, Any]:
        """The ruleset options of every game: the league's with the match length applied."""
        return {**self.options, **_match_options(self.plan)}

    @property
    def started(self) -> bool:
        return self.started_at is not None

    @property
    def finished(self) -> bool:
        return bool(self.winners)

    @property
    def current_round(self) -> Round | None:
        """The last round paired, while it is being played."""
        if self.rounds and self.rounds[-1].finished_at is None:
            return self.rounds[-1]
        return None

    def paired_round(self, round_no: int) -> Round:
        """Round ``round_no``, once it is paired."""
        if not self.started:
            raise RuleError("not_started", "the tournament has not started")
        if not isinstance(round_no, int) or not 1 <= round_no <= len(self.rounds):
            raise RuleError("no_such_round", f"round {round_no!r} is not paired")
        return self.rounds[round_no - 1]

    def due_at(self, round_no: int) -> datetime | None:
        """When round ``round_no`` is to start; None while that is not known yet."""
        if not self.started or not 1 <= round_no <= len(self.rounds):
            return None
        base = self.plan.starts_at or self.started_at
        assert base is not None
        if round_no == 1:
            return base
        after_previous = self.rounds[round_no - 2].finished_at
        if self.plan.interval is None or after_previous is None:
            return after_previous
        return max(base + timedelta(seconds=self.plan.interval * (round_no - 1)), after_previous)

    def start_due(self, now: datetime) -> bool:
        """The tournament should be started now: its round 1 start time has come."""
        return not self.started and self.plan.starts_at is not None and self.plan.starts_at <= now

    def round_due(self, now: datetime) -> int | None:
        """The round whose games should be created now, if any."""
        current = self.current_round
        if current is None or current.started:
            return None
        due = self.due_at(current.round_no)
        return current.round_no if due is not None and due <= now else None

    def standings(self) -> list[Placing]:
        """Every entrant placed by the tie-breaks (pairing.rank), as the results stand."""
        if not self.started:
            return []
        return rank(
            self.order,
            [table for played in self.rounds for table in played.played()],
            [(bye, played.bye_points) for played in self.rounds if played.finished_at for bye in played.byes],
            self.rules.match_winner == "lowest_total",
            self._stages() if self.plan.format == "single_elimination" else None,
        )

    # ------------------------------------------------------------------
    # the steps after a round

    def _finish_round(self, played: Round) -> None:
        winning = [result.totals[seat] for result in played.results.values() for seat in result.winners]
        out: tuple[str, ...] = ()
        if self.plan.format == "single_elimination":
            out = tuple(
                player
                for t, table in enumerate(played.tables)
                for seat, player in enumerate(table)
                if seat not in played.results[t].winners
            )
        self.trigger_event(
            self.RoundFinished,
            round_no=played.round_no,
            bye_points=round(sum(winning) / len(winning)),
            out=out,
        )
        if self._over():
            placings = self.standings()
            best = [p.entrant for p in placings if p.stage == placings[0].stage]
            winners = tuple(best) if self.plan.format == "single_elimination" else (placings[0].entrant,)
            self.trigger_event(self.Finished, ranking=tuple(p.entrant for p in placings), winners=winners)
        else:
            self._pair_next()

    def _over(self) -> bool:
        last = self.rounds[-1]
        if self.plan.format == "single_elimination":
            return (len(last.tables) == 1 and not last.byes) or len(self._alive()) <= 1
        return len(self.rounds) >= self.planned_rounds

    def _pair_next(self) -> None:
        history = History((played.tables, played.byes) for played in self.rounds)
        ranked = [placing.entrant for placing in self.standings()]
        salt = f"{self.seed}:{len(self.rounds) + 1}"
        size = self.plan.table_size
        pairing: Pairing
        if self.plan.format == "swiss":
            pairing = pair_swiss(ranked, history, size, salt)
        elif self.plan.format == "round_robin":
            pairing = pair_round_robin(self.order, ranked, history, size, salt)
        else:
            alive = set(self._alive())
            pairing = pair_elimination([e for e in ranked if e in alive], history, size, salt)
        self.trigger_event(
            self.RoundPaired, round_no=len(self.rounds) + 1, tables=pairing.tables, byes=pairing.byes
        )

    def _alive(self) -> list[str]:
        out = {entrant for played in self.rounds for entrant in played.out}
        return [entrant for entrant in self.order if entrant not in out]

    def _stages(self) -> dict[str, int]:
        """Single elimination: the round each entrant went out in; one more for those still in."""
        reached = {entrant: len(self.rounds) + 1 for entrant in self.order}
        for played in self.rounds:
            for entrant in played.out:
                reached[entrant] = played.round_no
        return reached

    # ------------------------------------------------------------------
    # checks

    def _check_open(self) -> None:
        if self.started:
            raise RuleError("tournament_started", "the tournament has started")

    def _current(self) -> Round:
        if not self.started:
            raise RuleError("not_started", "the tournament has not started")
        if self.finished:
            raise RuleError("tournament_over", "the tournament is over")
        current = self.current_round
        assert current is not None  # a started tournament always has a round in play until it ends
        return current

    def _table_of(self, game_id: UUID) -> tuple[Round, int] | None:
        for played in self.rounds:
            for table, game in played.games.items():
                if game == game_id:
                    return played, table
        return None


def seat_spec(entrant: str) -> str:
    """The game seat of an entrant: the player's id, or ``bot:<bot>`` for a bot's place."""
    return entrant.split("#", 1)[0] if entrant.startswith(BOT_ENTRANT) else entrant


def _match_options(plan: Plan) -> dict[str, Any]:
    if plan.single_round:
        return {"single_round": True}
    if plan.target_score is not None:
        return {"target_score": plan.target_score}
    return {}


def _is_int(value: Any) -> bool:
    return type(value) is int


def _check_plan(plan: Plan, rules: Ruleset) -> None:
    if plan.format not in FORMATS:
        raise RuleError("invalid_format", f"the format is one of {', '.join(FORMATS)}")
    low, high = max(2, rules.min_players), min(MAX_TABLE, rules.max_players)
    if not _is_int(plan.table_size) or not low <= plan.table_size <= high:
        raise RuleError("invalid_table_size", f"{rules.name} tables seat {low} to {high}")
    if plan.format == "single_elimination":
        if plan.rounds is not None:
            raise RuleError("invalid_rounds", "a single elimination plays until one table is left")
    elif plan.rounds is None and plan.format == "swiss":
        raise RuleError("invalid_rounds", "a swiss tournament needs its number of rounds")
    elif plan.rounds is not None and (not _is_int(plan.rounds) or not 1 <= plan.rounds <= MAX_ROUNDS):
        raise RuleError("invalid_rounds", f"between 1 and {MAX_ROUNDS} rounds")
    if plan.starts_at is not None and (
        not isinstance(plan.starts_at, datetime) or plan.starts_at.utcoffset() is None
    ):
        raise RuleError("invalid_schedule", "the start time needs a time zone")
    if plan.interval is not None and (not _is_int(plan.interval) or not 1 <= plan.interval <= MAX_INTERVAL):
        raise RuleError("invalid_schedule", f"the interval is a whole number of seconds, 1 to {MAX_INTERVAL}")
    if type(plan.single_round) is not bool or (plan.target_score is not None and plan.single_round):
        raise RuleError("invalid_match_length", "a match is a target score or a single round, not both")
    if plan.target_score is not None and (not _is_int(plan.target_score) or plan.target_score < 1):
        raise RuleError("invalid_match_length", "a target score is a whole number, at least 1")
    if plan.turn_clock is not None and (
        not _is_int(plan.turn_clock) or not 1 <= plan.turn_clock <= MAX_TURN_CLOCK
    ):
        raise RuleError("invalid_turn_clock", f"a turn clock is 1 to {MAX_TURN_CLOCK} seconds")
    if plan.late_policy != "bot":
        raise RuleError("invalid_late_policy", "a late player's turn is played by a bot ('bot')")
    if plan.places is not None and (not _is_int(plan.places) or not 2 <= plan.places <= MAX_ENTRANTS):
        raise RuleError("invalid_places", f"a tournament has 2 to {MAX_ENTRANTS} places")
    if plan.fill_bot not in BOTS:
        raise RuleError("unknown_bot", f"no bot {plan.fill_bot!r}; known: {', '.join(sorted(BOTS))}")


def _check_result(result: TableResult, seats: int, lower_is_better: bool) -> None:
    """The totals and timeouts name every seat; the winners are exactly the seats with the best total
    among those that did not forfeit."""
    if len(result.totals) != seats or len(result.timed_out) != seats:
        raise RuleError("invalid_result", f"a result gives all {seats} seats")
    if not all(_is_int(v) for v in (*result.totals, *result.timed_out, *result.winners, *result.forfeited)):
        raise RuleError("invalid_result", "totals, timeouts and seats are whole numbers")
    still = [seat for seat in range(seats) if seat not in result.forfeited]
    if not still or not set(result.forfeited) <= set(range(seats)):
        raise RuleError("invalid_result", "the seats that forfeited are seats of the table, not all of them")
    best = (min if lower_is_better else max)(result.totals[seat] for seat in still)
    if result.winners != tuple(seat for seat in still if result.totals[seat] == best):
        raise RuleError("invalid_result", "the winners are the seats with the best total")

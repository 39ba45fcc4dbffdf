"""The Tournament aggregate: a league's event of several rounds at multi-seat tables.

Commands (methods) and the events they record, in the order of a tournament's life:

    Tournament.announce(league_id, name, ruleset_name, options, plan)  -> Announced
    join(entrant) / leave(entrant)           -> Joined / Left      before the start only
    edit(name, changes)                      -> Edited             before the start only: the name and the
                                                                   plan's EDITABLE fields, checked as at
                                                                   the announcement
    check_in(entrant, now)                   -> CheckedIn          in the plan's check-in window only
    start(seed, ratings)                     -> Dropped...         with a check-in window: each entrant not
                                                                   checked in ("no_show"),
                                                Started            entries close, empty places go to bots,
                                                RoundPaired(1)     the seed fixes the seed order (with the
                                                                   players' ratings when the plan uses them)
    drop(entrant)                            -> Dropped            a running swiss or round robin
                                                                   ("withdrew"): later rounds go without them
    cancel(reason)                           -> Cancelled          before the end; nothing happens after it
    attach_game(round_no, table, game_id,    -> TableGameCreated   one per table, as its game is created;
                in_person)                                         ``in_person``: played with real cards
    record_result(game_id, totals, winners)  -> TableFinished      one per table, once its game is over
                                                RoundFinished      after the round's last table (byes' points,
                                                                   who is out)
                                                RoundPaired(r+1)   or, after the last round,
                                                Finished           the final ranking and the winners
                                             -> TableResultCorrected  a ruling changed a recorded result:
                                                                   the new one replaces it
                                                TableResultKept    or, once the tournament finished or an
                                                                   elimination round's winners moved on,
                                                                   is kept out (``_kept_because``)

Pairing, seating, byes and the ranking's tie-breaks are ``service.domain.pairing``'s. What
differs from one format to another (its rounds, how a round is paired, who goes out, when it is
over, who won, whether an entrant may drop out) is the plan's format's (``service.domain.formats``).
A bye scores as an average win of its round: one win and the mean of the
round's winning totals (rounded half to even), whichever way the ruleset scores.
A seat that forfeited its game by clock (``Game.result``) is no winner and scores
its table's worst total: a loss, last at the table. Where the last seat standing wins
(101, faraon: ``rating.last_standing``) a table's winners are its game's, not its best
totals, its result carries the round each seat was eliminated at, and the ranking puts
wins before points.

Entrants are strings: a player's id, or ``bot:<bot>#<n>`` for a place filled by
a bot at the start (``seat_spec`` gives the game seat for either). A driver (the
Celery beat) asks ``start_due(now)`` and ``round_due(now)``; a round is started
by creating a game per table (``game_options`` are every game's ruleset options:
the match length) and attaching it; when every game of the round has been
recorded the aggregate pairs the next round itself.

The lifecycle (``docs/tournaments.md``): announced, then (optionally) the check-in
window (``check_in_minutes`` before ``starts_at``), then running, then finished or
cancelled. A dropped entrant keeps the results they played and ranks after
everyone who played on (``pairing.rank``'s ``withdrawn``); a table paired for
them before they dropped whose game has not begun seats a ``fill_bot``
instead (``game_seat``), and that seat's result is the bot's, nobody's in the
ranking (``Round.stand_ins``). Entrants without a result yet, the no-shows
among them, are placed after those with one (``Placing.played``). A cancelled
tournament's games in play are abandoned by the application (``Game.abandon``):
they count for nobody.

Public methods validate and raise ``RuleError`` (codes below) changing nothing;
the events' ``apply`` only mutate.

    malformed_name, invalid_format, invalid_table_size, invalid_rounds, invalid_schedule,
    invalid_match_length, invalid_turn_clock, invalid_late_policy, invalid_places, unknown_bot,
    tournament_started, already_joined, tournament_full, not_joined, too_few_players,
    not_started, no_such_round, tournament_over, no_such_table, table_has_game, game_already_attached,
    not_a_tournament_game, invalid_result,
    invalid_check_in, not_editable, tournament_cancelled, invalid_reason, no_check_in,
    check_in_not_open, already_checked_in, cannot_drop, already_dropped, invalid_seeding,
    invalid_in_person_tables

Ratings (``docs/ratings.md``): a plan seeding by rating or breaking ties by it has the
players' league ratings passed to ``start`` as plain data (the application reads them from
the read models; the domain cannot) and records them in ``Started``, so a replay pairs and
ranks the same. A player without a rating there has the starting one; a bot has none and
comes after every player.

In-person tables (``Plan.in_person_tables``, docs/tournaments.md): the club has that many physical
tables. In each round the first that many tables (in table order) whose seats are all people are
played with real cards, the scorer entering each round of the match; every other table is played
on the server. A bot cannot sit at a real table, so a table with a bot's seat (a ``fill_bot``
place, or the seat of someone who dropped out before the round's games were made) is always the
server's. Which tables are in person is fixed when the round's games are made
(``in_person_tables``, recorded by ``attach_game``); a table's result is recorded the same way
whichever way it was played.
"""

import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any, Literal
from uuid import UUID

import msgspec
from eventsourcing.domain import Aggregate

from service.domain.bots import BOTS
from service.domain.clock import MAX_TURN_CLOCK
from service.domain.errors import RuleError
from service.domain.formats import FORMATS, Draw, TournamentFormat
from service.domain.names import checked_name
from service.domain.pairing import History, Placing, Played, rank, seed_order
from service.domain.rating import Rating, last_standing
from service.domain.rulesets import Ruleset, check_options, check_table, most_players, ruleset

MAX_TABLE = 6
MAX_ENTRANTS = 512  # the pairing search recurses once per seat
MAX_INTERVAL = 90 * 86_400  # a round a day is slow; a round a season is no tournament
BOT_ENTRANT = "bot:"
MAX_CHECK_IN = 7 * 24 * 60  # minutes: a week ahead is as early as any club opens its check-in
MAX_REASON = 500
# what an edit before the start may change besides the name: the schedule, the places, the table size,
# how the seed order is made, whether the rating breaks ties, the physical tables
EDITABLE = (
    "starts_at",
    "interval",
    "check_in_minutes",
    "places",
    "table_size",
    "seeding",
    "rating_tie_break",
    "in_person_tables",
)
MAX_IN_PERSON = MAX_ENTRANTS // 2  # no round has more tables than that
# why an entrant was dropped: absent at a check-in start, withdrew while running, erased on request
NO_SHOW, WITHDREW, ERASED = "no_show", "withdrew", "erased"
# why a result changed by a ruling after it was recorded is kept out of the tournament
KEPT_FINISHED, KEPT_ELIMINATED = "tournament_finished", "elimination_decided"
SEEDINGS: tuple[str, ...] = ("draw", "rating")
UNRATED = Rating().ordinal  # the conservative value of a player the league has not rated yet


class Plan(msgspec.Struct, frozen=True, kw_only=True):
    """How a tournament is played, fixed when it is announced."""

    format: str  # a name in ``formats.FORMATS``
    table_size: int  # the most seats at a table, within the ruleset's player range (2-6)
    # rounds, as the format takes them (its ``check_rounds``): required for swiss; round robin
    # defaults to the fewest in which everyone can meet everyone (pairing.round_robin_rounds); single
    # elimination takes none (it plays to one table)
    rounds: int | None = None
    starts_at: datetime | None = None  # round 1 (timezone-aware), or a start by hand before; None: that start
    interval: int | None = None  # seconds from one round's start to the next; None: when the previous ends
    target_score: int | None = None  # the match length: a target score ...
    single_round: bool = False  # ... or one round; neither: the league's own match end
    turn_clock: int | None = None  # seconds per turn; None: no clock
    late_policy: Literal["bot"] = "bot"  # a turn whose clock runs out is played by a bot, flagged
    places: int | None = None  # places filled by ``fill_bot`` entrants at the start when not taken
    fill_bot: str = "heuristic"
    # minutes before ``starts_at`` the check-in opens; None: no check-in (every entrant plays)
    check_in_minutes: int | None = None
    seeding: Literal["draw", "rating"] = "draw"  # the seed order: the seed's draw, or the league rating
    rating_tie_break: bool = False  # the league rating breaks ties before the seed order
    # the club's physical tables: each round's first this many tables seating no bot are played with
    # real cards (0: every table on the server)
    in_person_tables: int = 0

    @property
    def uses_ratings(self) -> bool:
        """The start needs the players' league ratings."""
        return self.seeding == "rating" or self.rating_tie_break


class TableResult(msgspec.Struct, frozen=True, kw_only=True):
    totals: tuple[int, ...]  # per seat, the match totals
    winners: tuple[int, ...]  # winning seats (more than one: a shared win)
    timed_out: tuple[int, ...]  # per seat, turns a clock bot played
    forfeited: tuple[int, ...] = ()  # seats that forfeited by clock: never among the winners
    # per seat, the round at whose end the seat was eliminated (0: never); (): nobody was (Game.result)
    out_round: tuple[int, ...] = ()


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
    in_person: set[int] = field(default_factory=set)  # the tables whose games are played with real cards
    # table -> a result its game came to after a ruling that the tournament kept out (TableResultKept)
    kept: dict[int, TableResult] = field(default_factory=dict)
    # table -> the seats whose entrant had dropped out when its game was made: a bot sat in for them
    stand_ins: dict[int, tuple[int, ...]] = field(default_factory=dict)

    @property
    def started(self) -> bool:
        """Every table has its game."""
        return len(self.games) == len(self.tables)

    def played(self) -> list[Played]:
        return [
            Played(
                self.tables[t],
                result.totals,
                result.winners,
                result.timed_out,
                result.forfeited,
                self.stand_ins.get(t, ()),
            )
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
            tournament.checked_in = tuple(e for e in tournament.checked_in if e != self.entrant)

    class Edited(Event):
        name: str
        plan: Plan  # the whole plan after the edit

        def apply(self, tournament: "Tournament") -> None:
            tournament.name = self.name
            tournament.plan = self.plan

    class CheckedIn(Event):
        entrant: str

        def apply(self, tournament: "Tournament") -> None:
            tournament.checked_in = (*tournament.checked_in, self.entrant)

    class Dropped(Event):
        entrant: str
        reason: str  # NO_SHOW at the start, WITHDREW or ERASED while running
        after_round: int  # the rounds paired when they dropped: they sit at none paired later

        def apply(self, tournament: "Tournament") -> None:
            tournament.dropped = (*tournament.dropped, self.entrant)

    class Cancelled(Event):
        reason: str

        def apply(self, tournament: "Tournament") -> None:
            tournament.cancelled = self.reason

    class Started(Event):
        seed: str
        order: tuple[str, ...]  # every entrant, bots filling places included, in seed order
        rounds: int  # rounds to play; 0 for single elimination (until one table is left)
        # each player entrant's league rating (the conservative value) when the plan uses ratings
        ratings: tuple[tuple[str, float], ...] = ()

        def apply(self, tournament: "Tournament") -> None:
            tournament.seed = self.seed
            tournament.order = self.order
            tournament.planned_rounds = self.rounds
            tournament.started_at = self.timestamp
            tournament.ratings = dict(self.ratings)

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
        in_person: bool = False  # the game is played with real cards, its rounds entered by a scorer

        def apply(self, tournament: "Tournament") -> None:
            played = tournament.rounds[self.round_no - 1]
            played.games[self.table] = self.game_id
            if self.in_person:
                played.in_person.add(self.table)
            # the game seated the plan's bot for them (``game_seat``): its result is not theirs
            seats = played.tables[self.table]
            gone = tuple(seat for seat, entrant in enumerate(seats) if entrant in tournament.dropped)
            if gone:
                played.stand_ins[self.table] = gone

    class TableFinished(Event):
        round_no: int
        table: int
        game_id: UUID
        result: TableResult

        def apply(self, tournament: "Tournament") -> None:
            tournament.rounds[self.round_no - 1].results[self.table] = self.result

    class TableResultCorrected(Event):
        round_no: int
        table: int
        game_id: UUID
        result: TableResult  # the game's result after the ruling, in force from now on
        previous: TableResult  # the result it replaces

        def apply(self, tournament: "Tournament") -> None:
            played = tournament.rounds[self.round_no - 1]
            played.results[self.table] = self.result
            played.kept.pop(self.table, None)

    class TableResultKept(Event):
        round_no: int
        table: int
        game_id: UUID
        result: TableResult  # the game's result after the ruling, which the tournament does not take
        reason: str  # KEPT_FINISHED or KEPT_ELIMINATED

        def apply(self, tournament: "Tournament") -> None:
            tournament.rounds[self.round_no - 1].kept[self.table] = self.result

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
        self.checked_in: tuple[str, ...] = ()
        self.dropped: tuple[str, ...] = ()  # no-shows at the start and those who withdrew, in order
        self.cancelled = ""  # the reason, once cancelled
        self.ratings: dict[str, float] = {}  # recorded at the start when the plan uses them

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

    def start(self, seed: str, ratings: Mapping[str, float] | None = None) -> None:
        """Drop the entrants who did not check in (with a check-in window), close the entries, fill
        the empty places with bots, fix the seed order, pair round 1.

        ``ratings``: the league's ratings (player id: conservative value), used when the plan
        seeds or breaks ties by them; a player not in it has the starting rating."""
        self._check_open()
        checking = self.plan.check_in_minutes is not None
        no_shows = [e for e in self.entrants if e not in self.checked_in] if checking else []
        present = [e for e in self.entrants if e not in no_shows]
        bots = (self.plan.places or 0) - len(present)
        entrants = [*present, *(f"{BOT_ENTRANT}{self.plan.fill_bot}#{n}" for n in range(1, bots + 1))]
        if len(entrants) < 2:
            raise RuleError(
                "too_few_players", f"a tournament needs at least two players; {len(entrants)} would play"
            )
        rounds = self.format_unit.rounds_to_play(self.plan.rounds, len(entrants), self.plan.table_size)
        for entrant in no_shows:
            self.trigger_event(self.Dropped, entrant=entrant, reason=NO_SHOW, after_round=0)
        rated: dict[str, float] | None = None
        if self.plan.uses_ratings:
            known = ratings or {}
            rated = {e: float(known.get(e, UNRATED)) for e in entrants if not e.startswith(BOT_ENTRANT)}
        order = seed_order(entrants, seed, rated if self.plan.seeding == "rating" else None)
        self.trigger_event(
            self.Started,
            seed=seed,
            order=tuple(order),
            rounds=rounds,
            ratings=tuple((rated or {}).items()),
        )
        self._pair_next()

    # ------------------------------------------------------------------
    # the lifecycle: edit, check in, drop out, cancel

    def edit(self, name: str | None = None, changes: dict[str, Any] | None = None) -> None:
        """A new name and new values of the plan's ``EDITABLE`` fields, before the start; checked as
        the announcement is. An edit that changes nothing records nothing."""
        self._check_open()
        changes = dict(changes or {})
        fixed = sorted(set(changes) - set(EDITABLE))
        if fixed:
            raise RuleError(
                "not_editable", f"{', '.join(fixed)} cannot be edited; only the name, {', '.join(EDITABLE)}"
            )
        new_name = self.name if name is None else checked_name(name, "tournament")
        plan = msgspec.structs.replace(self.plan, **changes)
        _check_plan(plan, self.rules)
        if plan.places is not None and plan.places < len(self.entrants):
            raise RuleError("invalid_places", f"{len(self.entrants)} have joined: no fewer places than that")
        if (new_name, plan) != (self.name, self.plan):
            self.trigger_event(self.Edited, name=new_name, plan=plan)

    def check_in(self, entrant: str, now: datetime) -> None:
        """An entrant says they will play, in the window before the start."""
        self._check_open()
        opens = self.check_in_opens
        if opens is None:
            raise RuleError("no_check_in", "this tournament has no check-in: every entrant plays")
        if entrant not in self.entrants:
            raise RuleError("not_joined", "that player has not joined")
        if now < opens:
            raise RuleError("check_in_not_open", f"the check-in opens at {opens.isoformat()}")
        if entrant in self.checked_in:
            raise RuleError("already_checked_in", "that player has checked in already")
        self.trigger_event(self.CheckedIn, entrant=entrant)

    def drop(self, entrant: str) -> None:
        """An entrant leaves a running swiss or round robin: the rounds paired after this one go
        without them; what they played stands."""
        self._current()
        self.format_unit.check_drop()
        if entrant not in self.order:
            raise RuleError("not_joined", "that player does not play in this tournament")
        if entrant in self.dropped:
            raise RuleError("already_dropped", "that player has dropped out already")
        if len(self.active) <= 2:
            raise RuleError("too_few_players", "the last two players cannot drop out: cancel the tournament")
        self.trigger_event(self.Dropped, entrant=entrant, reason=WITHDREW, after_round=len(self.rounds))

    def withdraw_erased(self, entrant: str) -> None:
        """The entrant's player was erased on request: out of the entries before the start; once
        running, dropped from the rounds paired later whatever the format, as one who withdrew
        (``drop``'s refusals do not hold: an erasure is never refused). A tournament over or
        cancelled, or an entrant gone already, records nothing."""
        if self.cancelled or self.finished:
            return
        if not self.started:
            if entrant in self.entrants:
                self.trigger_event(self.Left, entrant=entrant)
        elif entrant in self.order and entrant not in self.dropped:
            self.trigger_event(self.Dropped, entrant=entrant, reason=ERASED, after_round=len(self.rounds))

    def cancel(self, reason: str) -> None:
        """Call the tournament off, before or while it runs. The application abandons its games in play."""
        self.check_cancellable()
        self.trigger_event(self.Cancelled, reason=checked_reason(reason))

    def check_cancellable(self) -> None:
        if self.cancelled:
            raise RuleError("tournament_cancelled", f"the tournament was cancelled: {self.cancelled}")
        if self.finished:
            raise RuleError("tournament_over", "the tournament is over")

    def attach_game(self, round_no: int, table: int, game_id: UUID, in_person: bool = False) -> None:
        """The game played at ``table`` of the current round (``in_person``: with real cards, as
        ``in_person_tables`` chose); attaching the same game again does nothing."""
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
        self.trigger_event(
            self.TableGameCreated, round_no=round_no, table=table, game_id=game_id, in_person=in_person
        )

    def record_result(
        self,
        game_id: UUID,
        totals: tuple[int, ...],
        winners: tuple[int, ...],
        timed_out: tuple[int, ...] = (),
        forfeited: tuple[int, ...] = (),
        out_round: tuple[int, ...] = (),
    ) -> None:
        """A table's game is over: its totals and winning seats (the turns clock bots played, the
        seats that forfeited, the round each seat was eliminated at).

        The same result again does nothing. After the round's last table, the round
        finishes and the next is paired, or the tournament finishes. A different result for a table
        already recorded (a referee's ruling changed its game) corrects it (``_correct``): rounds
        paired meanwhile stay as paired, and a finished round's bye points stay as they were fixed.
        """
        found = self._table_of(game_id)
        if found is None:
            raise RuleError("not_a_tournament_game", "that game is not played at a table of this tournament")
        if self.cancelled:
            raise RuleError("tournament_cancelled", f"the tournament was cancelled: {self.cancelled}")
        played, table = found
        seats = len(played.tables[table])
        result = TableResult(
            totals=tuple(totals),
            winners=tuple(sorted(winners)),
            timed_out=tuple(timed_out) or (0,) * seats,
            forfeited=tuple(forfeited),
            out_round=tuple(out_round),
        )
        recorded = played.results.get(table)
        if recorded == result:
            return
        _check_result(result, seats, self.rules)
        if recorded is not None:
            self._correct(played, table, game_id, result, recorded)
            return
        self.trigger_event(
            self.TableFinished, round_no=played.round_no, table=table, game_id=game_id, result=result
        )
        if len(played.results) == len(played.tables):
            self._finish_round(played)

    def _correct(
        self, played: Round, table: int, game_id: UUID, result: TableResult, previous: TableResult
    ) -> None:
        """A ruling changed a game after its table's result was recorded: the new result replaces it,
        unless what the old one decided cannot be undone (``_kept_because``); then it is kept and the
        refusal recorded, once per result."""
        reason = self._kept_because(played, result, previous)
        if reason is None:
            self.trigger_event(
                self.TableResultCorrected,
                round_no=played.round_no,
                table=table,
                game_id=game_id,
                result=result,
                previous=previous,
            )
        elif played.kept.get(table) != result:
            self.trigger_event(
                self.TableResultKept,
                round_no=played.round_no,
                table=table,
                game_id=game_id,
                result=result,
                reason=reason,
            )

    def _kept_because(self, played: Round, result: TableResult, previous: TableResult) -> str | None:
        """Why a changed result cannot replace the recorded one (None: it can): a finished tournament's
        ranking and winners are final, and who went out of a finished elimination round has played on."""
        if self.finished:
            return KEPT_FINISHED
        if (
            self.format_unit.eliminates
            and played.finished_at is not None
            and result.winners != previous.winners
        ):
            return KEPT_ELIMINATED
        return None

    # ------------------------------------------------------------------
    # queries

    @property
    def format_unit(self) -> TournamentFormat:
        """The plan's format, as registered."""
        return FORMATS[self.plan.format]

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
        """When round ``round_no`` is to start; None while that is not known yet. Round 1: ``starts_at``,
        or the start when that came first (an admin started it by hand); round n, with an interval:
        ``interval * (n - 1)`` after round 1, never before round n - 1 ends."""
        if not self.started or not 1 <= round_no <= len(self.rounds):
            return None
        assert self.started_at is not None
        base = self.started_at
        if self.plan.starts_at is not None:
            # a start by hand before ``starts_at`` begins round 1 then, and the schedule counts from it
            base = min(self.plan.starts_at, base)
        if round_no == 1:
            return base
        after_previous = self.rounds[round_no - 2].finished_at
        if self.plan.interval is None or after_previous is None:
            return after_previous
        return max(base + timedelta(seconds=self.plan.interval * (round_no - 1)), after_previous)

    def start_due(self, now: datetime) -> bool:
        """The tournament should be started now: its round 1 start time has come."""
        return (
            not self.started
            and not self.cancelled
            and self.plan.starts_at is not None
            and self.plan.starts_at <= now
        )

    @property
    def check_in_opens(self) -> datetime | None:
        """When the check-in window opens (it closes at the start); None without one."""
        if self.plan.check_in_minutes is None or self.plan.starts_at is None:
            return None
        return self.plan.starts_at - timedelta(minutes=self.plan.check_in_minutes)

    @property
    def active(self) -> list[str]:
        """The entrants still playing, in seed order."""
        return [entrant for entrant in self.order if entrant not in self.dropped]

    def game_seat(self, entrant: str) -> str:
        """The game seat of an entrant's place at a table: a dropped player's goes to the plan's bot."""
        if entrant in self.dropped:
            return f"{BOT_ENTRANT}{self.plan.fill_bot}"
        return seat_spec(entrant)

    def in_person_tables(self, played: Round) -> set[int]:
        """The tables of ``played`` played with real cards: as recorded once its games are made, else
        the first ``in_person_tables`` of the plan whose game seats are all people."""
        if played.games:
            return set(played.in_person)
        people = [
            table
            for table, entrants in enumerate(played.tables)
            if not any(self.game_seat(entrant).startswith(BOT_ENTRANT) for entrant in entrants)
        ]
        return set(people[: self.plan.in_person_tables])

    def round_due(self, now: datetime) -> int | None:
        """The round whose games should be created now, if any."""
        current = self.current_round
        if current is None or current.started or self.cancelled:
            return None
        due = self.due_at(current.round_no)
        return current.round_no if due is not None and due <= now else None

    def standings(self) -> list[Placing]:
        """Every entrant placed by the tie-breaks (pairing.rank), as the results stand: the no-shows
        dropped at the start too, last, with nothing played."""
        if not self.started:
            return []
        return rank(
            [*self.order, *(entrant for entrant in self.dropped if entrant not in self.order)],
            [table for played in self.rounds for table in played.played()],
            [(bye, played.bye_points) for played in self.rounds if played.finished_at for bye in played.byes],
            self.rules.match_winner == "lowest_total",
            self._stages() if self.format_unit.eliminates else None,
            withdrawn=set(self.dropped),
            ratings=self.ratings if self.plan.rating_tie_break else None,
            wins_first=last_standing(self.rules),
        )

    # ------------------------------------------------------------------
    # the steps after a round

    def _finish_round(self, played: Round) -> None:
        winning = [result.totals[seat] for result in played.results.values() for seat in result.winners]
        unit = self.format_unit
        out = unit.knocked_out(played.tables, [played.results[t].winners for t in range(len(played.tables))])
        self.trigger_event(
            self.RoundFinished,
            round_no=played.round_no,
            bye_points=round(sum(winning) / len(winning)),
            out=out,
        )
        if unit.over(self.rounds, self.planned_rounds, len(self._alive())):
            placings = self.standings()
            winners = unit.winners(placings)
            self.trigger_event(self.Finished, ranking=tuple(p.entrant for p in placings), winners=winners)
        else:
            self._pair_next()

    def _pair_next(self) -> None:
        history = History((played.tables, played.byes) for played in self.rounds)
        dropped = set(self.dropped)
        ranked = [placing.entrant for placing in self.standings() if placing.entrant not in dropped]
        draw = Draw(
            ranked=ranked,
            seeded=self.active,
            alive=set(self._alive()),
            history=history,
            table_size=self.plan.table_size,
            salt=f"{self.seed}:{len(self.rounds) + 1}",
        )
        pairing = self.format_unit.pair(draw)
        self.trigger_event(
            self.RoundPaired, round_no=len(self.rounds) + 1, tables=pairing.tables, byes=pairing.byes
        )

    def _alive(self) -> list[str]:
        # a dropped entrant plays on in no format (only an erased one drops out of an elimination)
        out = {entrant for played in self.rounds for entrant in played.out} | set(self.dropped)
        return [entrant for entrant in self.order if entrant not in out]

    def _stages(self) -> dict[str, int]:
        """A format that eliminates: the round each entrant went out in; one more for those still in."""
        reached = {entrant: len(self.rounds) + 1 for entrant in self.order}
        for played in self.rounds:
            for entrant in played.out:
                reached[entrant] = played.round_no
        return reached

    # ------------------------------------------------------------------
    # checks

    def _check_open(self) -> None:
        if self.cancelled:
            raise RuleError("tournament_cancelled", f"the tournament was cancelled: {self.cancelled}")
        if self.started:
            raise RuleError("tournament_started", "the tournament has started")

    def _current(self) -> Round:
        if not self.started:
            raise RuleError("not_started", "the tournament has not started")
        if self.finished:
            raise RuleError("tournament_over", "the tournament is over")
        if self.cancelled:
            raise RuleError("tournament_cancelled", f"the tournament was cancelled: {self.cancelled}")
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


def checked_reason(reason: object) -> str:
    """Why a tournament was cancelled, as stored: NFC, trimmed, 1 to ``MAX_REASON`` characters, no
    control or invisible formatting characters (``invalid_reason``)."""
    if not isinstance(reason, str):
        raise RuleError("invalid_reason", "a reason is text")
    text = unicodedata.normalize("NFC", reason).strip()
    if not 1 <= len(text) <= MAX_REASON or any(unicodedata.category(c) in ("Cc", "Cf") for c in text):
        raise RuleError("invalid_reason", f"a reason is 1 to {MAX_REASON} characters of plain text")
    return text


def _match_options(plan: Plan) -> dict[str, Any]:
    if plan.single_round:
        return {"single_round": True}
    if plan.target_score is not None:
        return {"target_score": plan.target_score}
    return {}


def _is_int(value: Any) -> bool:
    return type(value) is int


def _check_plan(plan: Plan, rules: Ruleset) -> None:
    if not isinstance(plan.format, str) or plan.format not in FORMATS:
        raise RuleError("invalid_format", f"the format is one of {', '.join(FORMATS)}")
    low, high = max(2, rules.min_players), min(MAX_TABLE, most_players(rules))
    if not _is_int(plan.table_size) or not low <= plan.table_size <= high:
        raise RuleError("invalid_table_size", f"{rules.name} tables seat {low} to {high}")
    check_table(rules, plan.table_size)  # the hands the options ask for fit a full table
    FORMATS[plan.format].check_rounds(plan.rounds)
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
    if not _is_int(plan.in_person_tables) or not 0 <= plan.in_person_tables <= MAX_IN_PERSON:
        raise RuleError(
            "invalid_in_person_tables",
            f"the tables played in person are a whole number, 0 to {MAX_IN_PERSON}",
        )
    if plan.check_in_minutes is not None:
        if not _is_int(plan.check_in_minutes) or not 1 <= plan.check_in_minutes <= MAX_CHECK_IN:
            raise RuleError("invalid_check_in", f"the check-in opens 1 to {MAX_CHECK_IN} minutes before")
        if plan.starts_at is None:
            raise RuleError("invalid_check_in", "a check-in needs a start time (starts_at)")
    if plan.seeding not in SEEDINGS or type(plan.rating_tie_break) is not bool:
        raise RuleError("invalid_seeding", "seeding is 'draw' or 'rating'; rating_tie_break is true or false")


def _check_result(result: TableResult, seats: int, rules: Ruleset) -> None:
    """The totals and timeouts name every seat; the winners are exactly the seats with the best total
    among those that did not forfeit, or, where the last seat standing wins (``last_standing``),
    some of the seats that did not forfeit and were not eliminated."""
    if (
        len(result.totals) != seats
        or len(result.timed_out) != seats
        or len(result.out_round) not in (0, seats)
    ):
        raise RuleError("invalid_result", f"a result gives all {seats} seats")
    numbers = (*result.totals, *result.timed_out, *result.winners, *result.forfeited, *result.out_round)
    if not all(_is_int(v) for v in numbers) or any(v < 0 for v in result.out_round):
        raise RuleError("invalid_result", "totals, timeouts and seats are whole numbers")
    still = [seat for seat in range(seats) if seat not in result.forfeited]
    if not still or not set(result.forfeited) <= set(range(seats)):
        raise RuleError("invalid_result", "the seats that forfeited are seats of the table, not all of them")
    if last_standing(rules):
        # a round that puts out every seat still in ends the match with those seats sharing the win
        last = max(result.out_round, default=0)
        standing = [seat for seat in still if not result.out_round or result.out_round[seat] in (0, last)]
        if not result.winners or not set(result.winners) <= set(standing):
            raise RuleError("invalid_result", "the winners are seats not eliminated before the others")
        return
    best = (min if rules.match_winner == "lowest_total" else max)(result.totals[seat] for seat in still)
    if result.winners != tuple(seat for seat in still if result.totals[seat] == best):
        raise RuleError("invalid_result", "the winners are the seats with the best total")

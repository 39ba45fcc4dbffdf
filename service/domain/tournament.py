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
    withdraw_erased(entrant)                 -> Left / Dropped     the player was erased: out of the entries,
                                                                   or of later rounds in any format ("erased")
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
                                                                   is kept out (``tournament_results``)

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
cancelled. A dropped entrant (one who withdrew or was erased) keeps the results they played and ranks after
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

Its parts: the plan (``tournament_plan``: ratings, physical tables), a round as paired and played
(``tournament_round``), the results and the rounds that follow them (``tournament_results``), the
schedule (``tournament_schedule``).
"""

import unicodedata
from collections.abc import Mapping
from datetime import datetime
from typing import Any
from uuid import UUID

from eventsourcing.domain import Aggregate

from service.domain import tournament_entries, tournament_results, tournament_schedule
from service.domain.errors import RuleError
from service.domain.formats import FORMATS, TournamentFormat
from service.domain.names import checked_name
from service.domain.pairing import Placing
from service.domain.ruleset_options import check_options, ruleset
from service.domain.rulesets import Ruleset
from service.domain.tournament_entries import BOT_ENTRANT
from service.domain.tournament_plan import MAX_ENTRANTS, Plan, check_plan, match_options
from service.domain.tournament_round import Round, TableResult

MAX_REASON = 500


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
        check_plan(plan, rules)
        ruleset(ruleset_name, **{**options, **match_options(plan)})  # the games' ruleset must be playable
        check_options(match_options(plan))  # the league's own were checked when it was founded
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
            raise RuleError("already_joined")
        if len(self.entrants) >= (self.plan.places or MAX_ENTRANTS):
            raise RuleError("tournament_full")
        self.trigger_event(self.Joined, entrant=entrant)

    def leave(self, entrant: str) -> None:
        self._check_open()
        if entrant not in self.entrants:
            raise RuleError("not_joined", why="player_not_joined")
        self.trigger_event(self.Left, entrant=entrant)

    def start(self, seed: str, ratings: Mapping[str, float] | None = None) -> None:
        """Close the entries and pair round 1 (``tournament_entries.start``); ``ratings``: the league's
        ratings (player id: conservative value) when the plan seeds or breaks ties by them."""
        tournament_entries.start(self, seed, ratings)

    # ------------------------------------------------------------------
    # the lifecycle: edit, check in, drop out, cancel

    def edit(self, name: str | None = None, changes: dict[str, Any] | None = None) -> None:
        """A new name and new values of the plan's ``EDITABLE`` fields, before the start."""
        tournament_entries.edit(self, name, changes)

    def check_in(self, entrant: str, now: datetime) -> None:
        """An entrant says they will play, in the window before the start."""
        tournament_entries.check_in(self, entrant, now)

    def drop(self, entrant: str) -> None:
        """An entrant leaves a running swiss or round robin: later rounds go without them."""
        tournament_entries.drop(self, entrant)

    def withdraw_erased(self, entrant: str) -> None:
        """The entrant's player was erased: out of the entries, or of every later round."""
        tournament_entries.withdraw_erased(self, entrant)

    def cancel(self, reason: str) -> None:
        """Call the tournament off, before or while it runs. The application abandons its games in play."""
        self.check_cancellable()
        self.trigger_event(self.Cancelled, reason=checked_reason(reason))

    def check_cancellable(self) -> None:
        if self.cancelled:
            raise RuleError("tournament_cancelled", cancelled=self.cancelled)
        if self.finished:
            raise RuleError("tournament_over")

    def attach_game(self, round_no: int, table: int, game_id: UUID, in_person: bool = False) -> None:
        """The game played at ``table`` of the current round (``in_person``: with real cards, as
        ``in_person_tables`` chose); attaching the same game again does nothing."""
        current = self._current()
        if current.round_no != round_no or not 0 <= table < len(current.tables):
            raise RuleError("no_such_table", table=table, round_no=round_no)
        found = current.games.get(table)
        if found == game_id:
            return
        if found is not None:
            raise RuleError("table_has_game", table=table, found=found)
        if self._table_of(game_id) is not None:
            raise RuleError("game_already_attached")
        self.trigger_event(
            self.TableGameCreated, round_no=round_no, table=table, game_id=game_id, in_person=in_person
        )

    # a table's game is over: its totals and winning seats; after the round's last table the next
    # round is paired, or the tournament finishes (the function, with this tournament as its first argument)
    record_result = tournament_results.record_result

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
        return {**self.options, **match_options(self.plan)}

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
            raise RuleError("not_started")
        if not isinstance(round_no, int) or not 1 <= round_no <= len(self.rounds):
            raise RuleError("no_such_round", why="round_not_paired", round_no=round_no)
        return self.rounds[round_no - 1]

    def due_at(self, round_no: int) -> datetime | None:
        """When round ``round_no`` is to start (``tournament_schedule``); None while not known yet."""
        return tournament_schedule.due_at(self, round_no)

    def start_due(self, now: datetime) -> bool:
        """The tournament should be started now: its round 1 start time has come."""
        return tournament_schedule.start_due(self, now)

    @property
    def check_in_opens(self) -> datetime | None:
        """When the check-in window opens (it closes at the start); None without one."""
        return tournament_schedule.check_in_opens(self)

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
        return tournament_schedule.round_due(self, now)

    def standings(self) -> list[Placing]:
        """Every entrant placed by the tie-breaks (``tournament_results.standings``)."""
        return tournament_results.standings(self)

    # ------------------------------------------------------------------
    # checks

    def _check_open(self) -> None:
        if self.cancelled:
            raise RuleError("tournament_cancelled", cancelled=self.cancelled)
        if self.started:
            raise RuleError("tournament_started")

    def _current(self) -> Round:
        if not self.started:
            raise RuleError("not_started")
        if self.finished:
            raise RuleError("tournament_over")
        if self.cancelled:
            raise RuleError("tournament_cancelled", cancelled=self.cancelled)
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
        raise RuleError("invalid_reason", why="reason_text")
    text = unicodedata.normalize("NFC", reason).strip()
    if not 1 <= len(text) <= MAX_REASON or any(unicodedata.category(c) in ("Cc", "Cf") for c in text):
        raise RuleError("invalid_reason", why="reason_characters_plain", max_reason=MAX_REASON)
    return text

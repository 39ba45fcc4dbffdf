"""Tournaments: announce, join, leave, edit, check in, start, start a round (creating its games),
record a table's result, drop out, cancel (abandoning the games in play).
``service.domain.tournament`` pairs them; these load, create games and save."""

import secrets
from collections.abc import Callable, Mapping
from datetime import UTC, datetime
from typing import Any, TypeVar, cast
from uuid import UUID

from service.application.core import _uuid
from service.application.games import MATCH_LENGTH_OPTIONS, Games
from service.domain.errors import RuleError
from service.domain.game import Game
from service.domain.roles import SYSTEM, Actor
from service.domain.seats import TableRef
from service.domain.tournament import Tournament, checked_reason
from service.domain.tournament_plan import Plan

# A tournament table's game is created with this key, so its id follows from the table. Nothing reads
# it back: the game's ``Created`` carries its table (``Game.table``); only the upcast of a game stored
# before it did reads the key (``game.table_of_version_1_key``).
_TABLE_KEY = "tournament:{tournament}:round:{round_no}:table:{table}"


T = TypeVar("T")


class Tournaments(Games):
    def create_tournament(self, league_id: UUID | str, name: str, plan: Plan) -> UUID:
        """A tournament of the league, on the league's ruleset and options as they are now."""
        league = self.get_league(league_id)
        tournament = Tournament.announce(league.id, name, league.ruleset_name, league.options, plan)
        self.save(tournament)
        return tournament.id

    def get_tournament(self, tournament_id: UUID | str) -> Tournament:
        return self._get(Tournament, tournament_id, "tournament_not_found")

    def join_tournament(self, tournament_id: UUID | str, player_id: UUID | str) -> None:
        player = self.get_player(player_id)
        player.check_not_erased()

        def join(tournament: Tournament) -> None:
            if player.id not in self.get_league(tournament.league_id).members:
                raise RuleError("not_a_member", why="tournament")
            tournament.join(str(player.id))

        self._change_tournament(tournament_id, join)

    def leave_tournament(self, tournament_id: UUID | str, player_id: UUID | str) -> None:
        entrant = str(_uuid(player_id, "player_not_found"))
        self._change_tournament(tournament_id, lambda tournament: tournament.leave(entrant))

    def start_tournament(
        self, tournament_id: UUID | str, seed: str | None = None, ratings: Mapping[str, float] | None = None
    ) -> None:
        """Close the entries and pair round 1; ``seed`` fixes the seed order (a random one when not given).

        ``ratings``: the league's ratings (player id: conservative value) as the read models have
        them, which the caller reads when the plan uses them (``Plan.uses_ratings``)."""
        seed_text = secrets.token_hex(16) if seed is None else str(seed)
        started = _uuid(tournament_id, "tournament_not_found")
        self._change_tournament(started, lambda tournament: tournament.start(seed_text, ratings))
        for told in self.on_tournament_started:
            told(started)

    def start_round(self, tournament_id: UUID | str, round_no: int) -> list[UUID]:
        """Create the games of round ``round_no``, one per table, and attach them: the game ids, by table.

        Safe to run twice, or at once in two processes: each table's game id follows
        from the key (tournament, round, table), and attaching the same game again
        does nothing. A round already started answers its games and stores nothing.

        The tables the plan plays with real cards (``Tournament.in_person_tables``) get
        in-person games: no cards dealt, no turn clock (nobody's turn is timed at a real
        table), their rounds entered by a scorer.
        """
        tournament = self.get_tournament(tournament_id)
        played = tournament.paired_round(round_no)
        games: dict[int, UUID] = dict(played.games)
        if played.started:
            return [games[table] for table in range(len(played.tables))]
        # league games, so they count in the league's standings and its referees rule on them
        match_length = {
            name: value for name, value in tournament.game_options.items() if name in MATCH_LENGTH_OPTIONS
        }
        in_person = tournament.in_person_tables(played)
        for table, players in enumerate(played.tables):
            if table not in games:
                real = table in in_person
                games[table] = self.create_game(
                    [tournament.game_seat(entrant) for entrant in players],
                    options=match_length,
                    league_id=tournament.league_id,
                    turn_clock=None if real else tournament.plan.turn_clock,
                    key=_TABLE_KEY.format(tournament=tournament.id, round_no=round_no, table=table),
                    in_person=real,
                    table=TableRef(tournament.id, round_no, table),
                ).game_id

        def attach(tournament: Tournament) -> None:
            for table, game_id in games.items():
                tournament.attach_game(round_no, table, game_id, in_person=table in in_person)

        self._change_tournament(tournament.id, attach)
        return [games[table] for table in range(len(games))]

    # ------------------------------------------------------------------
    # the lifecycle (docs/tournaments.md)

    def edit_tournament(
        self, tournament_id: UUID | str, name: str | None = None, changes: dict[str, Any] | None = None
    ) -> None:
        """A new name and plan values (``tournament.EDITABLE``) before the start."""
        self._change_tournament(tournament_id, lambda tournament: tournament.edit(name, changes))

    def check_in_tournament(
        self, tournament_id: UUID | str, player_id: UUID | str, now: datetime | None = None
    ) -> None:
        """The entrant will play: in the plan's check-in window, before the start."""
        entrant = str(_uuid(player_id, "player_not_found"))
        at = now or datetime.now(UTC)
        self._change_tournament(tournament_id, lambda tournament: tournament.check_in(entrant, at))

    def drop_out_of_tournament(self, tournament_id: UUID | str, player_id: UUID | str) -> None:
        """The entrant leaves a running swiss or round robin: later rounds pair without them (their
        turns in a game in play are the clock bot's: ``workers.conduct``)."""
        entrant = str(_uuid(player_id, "player_not_found"))
        self._change_tournament(tournament_id, lambda tournament: tournament.drop(entrant))

    def cancel_tournament(self, tournament_id: UUID | str, reason: str, *, by: Actor = SYSTEM) -> list[UUID]:
        """Cancel the tournament, abandoning first the games of its round in play that have not ended
        (they count for nobody); the games abandoned.

        Checked before anything is stored. Should the process stop between the games and the
        cancellation, the same request again finishes it: a game abandoned already is passed over.
        """
        tournament = self.get_tournament(tournament_id)
        tournament.check_cancellable()
        reason = checked_reason(reason)
        current = tournament.current_round
        in_play = (
            []
            if current is None
            else [game for table, game in sorted(current.games.items()) if table not in current.results]
        )
        abandoned = []
        for game_id in in_play:
            try:
                self.abandon_game(game_id, reason, by=by)
            except RuleError as error:
                # a game that ended meanwhile keeps its result; one abandoned before stays so
                if error.code not in ("game_over", "game_abandoned"):
                    raise
                continue
            abandoned.append(game_id)
        self._change_tournament(tournament.id, lambda tournament: tournament.cancel(reason))
        return abandoned

    @staticmethod
    def tournament_of(game: Game) -> UUID | None:
        """The tournament at whose table ``game`` is played (None for any other game): the table its
        ``Created`` carries."""
        return None if game.table is None else game.table.tournament_id

    def record_table_result(self, tournament_id: UUID | str, game_id: UUID | str) -> str | None:
        """The game at a tournament table is over: record its totals, winners and clock-bot turns.

        After the round's last table the tournament pairs the next round (or finishes).
        Recording the same game again does nothing; a game a ruling changed after its result was
        recorded corrects it (``Tournament.record_result``). Answers why the tournament kept the
        changed result out, when it did (``Tournament.TableResultKept``), else None.
        """
        game = self.get_game(game_id)
        if not game.over:
            raise RuleError("game_not_over")
        timed_out = [0] * len(game.seats)
        for event in self.game_events(game.id):
            if isinstance(event, Game.TurnTimedOut):
                timed_out[event.seat] += 1
        result = game.result()  # a seat that forfeited by clock: no win, the table's worst total
        saved = self._change_tournament(
            tournament_id,
            lambda tournament: tournament.record_result(
                game.id, result.totals, result.winners, tuple(timed_out), result.forfeited, result.out_round
            ),
        )
        return next((event.reason for event in saved if isinstance(event, Tournament.TableResultKept)), None)

    def read_tournament(self, tournament_id: UUID, read: Callable[[Tournament], T]) -> T:
        """What ``read`` finds in the tournament as stored: on the copy this process kept of it when
        it has one (``last_saved``; caught up, then kept again), else loaded. ``read`` only reads."""
        tournament = self._taken_tournament(tournament_id)
        found = read(tournament)
        self.saved_tournaments.put(tournament)  # as stored: ``read`` changed nothing
        return found

    def _taken_tournament(self, tournament_id: UUID) -> Tournament:
        """The tournament as stored, for one user: the kept copy taken and caught up, else loaded."""
        kept = self.saved_tournaments.take(tournament_id)
        return self.get_tournament(tournament_id) if kept is None else self.caught_up(kept)

    def _change_tournament(
        self, tournament_id: UUID | str, change: Callable[[Tournament], None]
    ) -> list[Tournament.Event]:
        """Load, change, save, as one attempt of the retry policy (``_update``). Answers the events
        saved.

        Attaching a game and recording a result are idempotent, so one made meanwhile by
        another process is not made twice; the other commands then answer their refusal.
        """

        found = _uuid(tournament_id, "tournament_not_found")

        def changed(tournament: Tournament) -> list[Tournament.Event]:
            change(tournament)
            # eventsourcing types them as any aggregate's events: a tournament's are its own
            return list(cast("list[Tournament.Event]", tournament.pending_events))

        return self._update(lambda: self._taken_tournament(found), changed, self.saved_tournaments)

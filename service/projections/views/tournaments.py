"""The tournaments: ``views_tournaments``, per tournament the projection's own state of it
(``tournaments.StoredTournament``), its status and its bracket (a ``TournamentView``); and
``views_seats``, per player, tournament and round, the player's table and seat, the table's game once
made and whether its result is in (the next-game read).

Tournaments stay in memory until they finish (few, and each is read back from its row when missing).
"""

from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any, ClassVar, Literal
from uuid import UUID

import msgspec

from service.domain.game import Game
from service.domain.tournament import Tournament
from service.persistence.dialect import Dialect
from service.projections.models import NextGame, TournamentView
from service.projections.parts import TOURNAMENTS
from service.projections.render import GameDoc
from service.projections.tournaments import TrackedTournament, seat_rows, status_of, tournament_view
from service.projections.views import base

if TYPE_CHECKING:
    from service.projections.store import Views

SEAT_COLUMNS = "entrant, tournament_id, round_no, table_no, seat, game_id, finished"

_encode = msgspec.msgpack.Encoder().encode
_decode_game = msgspec.msgpack.Decoder(GameDoc).decode
_decode_tournament = msgspec.msgpack.Decoder(TournamentView).decode


class _Start(msgspec.Struct):
    """Of a tournament's document, its start time alone (the rest is skipped, not decoded)."""

    starts_at: datetime | None = None


_decode_start = msgspec.msgpack.Decoder(_Start).decode


def create(d: Dialect) -> list[str]:
    t, uuid, integer = d.table, d.uuid, d.integer
    return [
        f"CREATE TABLE IF NOT EXISTS {t('tournaments')} (tournament_id {uuid} PRIMARY KEY, "
        f"league_id {uuid} NOT NULL, created {integer} NOT NULL, status text NOT NULL, "
        f"state {d.blob} NOT NULL, doc {d.blob} NOT NULL)",
        f"CREATE TABLE IF NOT EXISTS {t('seats')} (entrant text NOT NULL, tournament_id {uuid} NOT NULL, "
        f"round_no {integer} NOT NULL, table_no {integer} NOT NULL, seat {integer} NOT NULL, "
        f"game_id {uuid}, finished {integer} NOT NULL, PRIMARY KEY (entrant, tournament_id, round_no))",
        f"CREATE INDEX IF NOT EXISTS {d.prefix}_tournaments_newest ON {t('tournaments')} (created DESC)",
    ]


def statements(d: Dialect) -> dict[str, str]:
    t, ph = d.table, d.ph
    return {
        "tournament": f"INSERT INTO {t('tournaments')} VALUES ({d.marks(6)}) "
        "ON CONFLICT (tournament_id) DO UPDATE SET status = excluded.status, state = excluded.state, "
        "doc = excluded.doc",
        "seat": f"INSERT INTO {t('seats')} ({SEAT_COLUMNS}) VALUES ({d.marks(7)}) "
        "ON CONFLICT (entrant, tournament_id, round_no) DO UPDATE SET table_no = excluded.table_no, "
        "seat = excluded.seat, game_id = excluded.game_id, finished = excluded.finished",
        "tournament_state": f"SELECT state FROM {t('tournaments')} WHERE tournament_id = {ph}",
        "tournament_doc": f"SELECT doc, {base.tracked_position(d)} AS position FROM {t('tournaments')} "
        f"WHERE tournament_id = {ph}",
        # an announced one's document for its start time; a running one's (its bracket) is not needed
        "tournaments_to_conduct": f"SELECT tournament_id, CASE WHEN status = 'announced' THEN doc END "
        f"FROM {t('tournaments')} WHERE status IN ('announced', 'running') ORDER BY created",
        "league_tournaments": f"SELECT doc FROM {t('tournaments')} WHERE league_id = {ph} ORDER BY created",
        "seats_of": f"SELECT tournament_id, round_no, table_no, seat, game_id FROM {t('seats')} "
        f"WHERE entrant = {ph} AND finished = 0",
        "tournaments_of": f"SELECT DISTINCT tournament_id FROM {t('seats')} WHERE entrant = {ph}",
    }


class TournamentsFold(base.Fold):
    part = TOURNAMENTS
    tables = ("tournaments", "seats")
    writes = ("tournament", "seat")

    def __init__(self, folds: base.Folds) -> None:
        super().__init__(folds)
        self.tournaments: dict[UUID, TrackedTournament] = {}
        self.dirty: dict[UUID, TrackedTournament] = {}
        self.folded: TrackedTournament | None = None  # the tournament the last event was folded into

    def announced(self, event: Any, position: int) -> None:
        tracked = self.tournaments[event.originator_id] = TrackedTournament.announced(event, position)
        self.dirty[event.originator_id] = self.folded = tracked

    def changed(self, event: Any, position: int) -> None:
        tracked = self.tournament(event.originator_id)
        if tracked is None:
            raise base.ProjectionError(f"event {position} is for a tournament the read models do not know")
        tracked.apply(event)
        self.dirty[event.originator_id] = self.folded = tracked

    reads: ClassVar[base.Reads] = {Tournament.Announced: announced, Tournament.Event: changed}

    def tournament(self, tournament_id: UUID) -> TrackedTournament | None:
        """The tournament as folded so far: in memory, else read back from its row (None: unknown)."""
        tracked = self.tournaments.get(tournament_id)
        if tracked is None:
            data = self.folds.store.tournament_state(tournament_id)
            if data is None:
                return None
            tracked = self.tournaments[tournament_id] = TrackedTournament.restore(tournament_id, data)
        return tracked

    def person_plays(self, game: Game, seat: int) -> bool:
        """A person plays the seat's turns: not a bot's seat, nor a forfeited one, nor that of a player
        who has dropped out of the game's tournament as far as the log is folded (the server's bot
        plays those at once: ``Game.bot_for``, ``workers.conduct``). The tournament is looked up only
        for a person's seat of a tournament's game."""
        if game.bot_for(seat) is not None:
            return False
        if game.table is None:
            return True
        tracked = self.tournament(game.table.tournament_id)
        return tracked is None or game.seats[seat].name not in tracked.tournament.dropped

    def spoil(self, event: Any) -> None:
        # what is in memory of the event's tournament is half folded: never written
        self.dirty.pop(event.originator_id, None)
        self.tournaments.pop(event.originator_id, None)

    def flush(self, changes: base.Changes) -> None:
        rows, seats = changes.to("tournament"), changes.to("seat")
        for tracked in self.dirty.values():
            tournament = tracked.tournament
            doc = _encode(tournament_view(tournament))
            state = tracked.image()
            rows.append(
                (tournament.id, tournament.league_id, tracked.created, status_of(tournament), state, doc)
            )
            seats += seat_rows(tracked, tracked.touched)

    def written(self) -> None:
        for tracked in self.dirty.values():
            tracked.touched = set()
            if tracked.tournament.finished or tracked.tournament.cancelled:
                # no event comes for it any more
                self.tournaments.pop(tracked.tournament.id, None)
        self.dirty = {}


class Queries(base.Store):
    def tournament_state(self, tournament_id: UUID) -> bytes | None:
        rows = self.query("tournament_state", (tournament_id,))
        return bytes(rows[0][0]) if rows else None

    def tournament_doc(self, tournament_id: UUID) -> tuple[bytes, int] | None:
        rows = self.query("tournament_doc", (base.APPLICATION, tournament_id))
        return (bytes(rows[0][0]), rows[0][1] or 0) if rows else None

    def tournaments_to_conduct(self) -> list[UUID]:
        return [
            base.as_uuid(tournament_id)
            for tournament_id, doc in self.query("tournaments_to_conduct", ())
            if doc is None or _decode_start(bytes(doc)).starts_at is not None
        ]

    def league_tournament_docs(self, league_id: UUID) -> list[bytes]:
        return [bytes(row[0]) for row in self.query("league_tournaments", (league_id,))]

    def seats_of(self, entrant: str) -> list[tuple[UUID, int, int, int, UUID | None]]:
        return [
            (base.as_uuid(tournament), round_no, table, seat, None if game is None else base.as_uuid(game))
            for tournament, round_no, table, seat, game in self.query("seats_of", (entrant,))
        ]

    def tournaments_of(self, entrant: str) -> list[UUID]:
        """The tournaments in which the entrant has had a table."""
        return [base.as_uuid(row[0]) for row in self.query("tournaments_of", (entrant,))]

    def tournament_page(
        self, league_id: UUID | None, status: str | None, after: int | None, limit: int
    ) -> list[base.Row]:
        """(tournament_id, created, doc), the latest announced first."""
        return self.newest_page("tournament_id, created, doc", "tournaments", league_id, status, after, limit)


def next_game(store: "Views", player_id: UUID, position: int) -> NextGame | None:
    """The player's table being played, else the next one paired (the earliest due), else the round
    a tournament they play in has still to pair (between two rounds); None when none (nor in a
    cancelled tournament, nor in one they dropped out of)."""
    seats = store.seats_of(str(player_id))
    if not seats:
        return _pending_round(store, player_id, position)
    # a player has a seat in each round of a tournament: each bracket read and decoded once
    brackets: dict[UUID, TournamentView | None] = {}
    for tournament_id, *_ in seats:
        if tournament_id not in brackets:
            doc = store.tournament_doc(tournament_id)
            brackets[tournament_id] = None if doc is None else _decode_tournament(doc[0])
    found = []
    for tournament_id, round_no, table, seat, game_id in seats:
        view = brackets[tournament_id]
        # a cancelled tournament plays no table; one who dropped out has none to come
        if view is None or view.status == "cancelled" or str(player_id) in view.dropped:
            continue
        due_at = view.rounds[round_no - 1].due_at
        # playing first; then the earliest due, an unknown due time last
        order = (game_id is None, due_at is None, due_at.timestamp() if due_at else 0.0, view.name)
        found.append((order, view, round_no, table, seat, game_id, due_at))
    if not found:
        return _pending_round(store, player_id, position)
    _, view, round_no, table, seat, game_id, due_at = min(found, key=lambda entry: entry[0])
    deadline = None
    if game_id is not None:
        game = store.game_doc(game_id)
        if game is not None:
            public = _decode_game(game[0]).table
            deadline = public.turn_deadline if public.turn == seat else None
    status: Literal["waiting", "playing"] = "waiting" if game_id is None else "playing"
    return _next_game(player_id, view, round_no, status, due_at, position, table, seat, game_id, deadline)


def _pending_round(store: "Views", player_id: UUID, position: int) -> NextGame | None:
    """Between two rounds: the player's tables of a running tournament are over and its next round
    is not paired yet (the last tables of the round are still played). The earliest such round."""
    found = []
    for tournament_id in store.tournaments_of(str(player_id)):
        doc = store.tournament_doc(tournament_id)
        if doc is None:
            continue
        view = _decode_tournament(doc[0])
        entrant = str(player_id)
        if (
            view.status != "running"
            or entrant in view.dropped
            or any(entrant in played.out for played in view.rounds)
        ):
            continue
        round_no = len(view.rounds) + 1
        if view.planned_rounds is not None and round_no > view.planned_rounds:
            continue
        # with an interval, the round starts at its time at the earliest; else when the last one ends
        due_at = None
        if view.interval is not None and view.starts_at is not None:
            due_at = view.starts_at + timedelta(seconds=view.interval * (round_no - 1))
        order = (due_at is None, due_at.timestamp() if due_at else 0.0, view.name)
        found.append((order, view, round_no, due_at))
    if not found:
        return None
    _, view, round_no, due_at = min(found, key=lambda entry: entry[0])
    return _next_game(player_id, view, round_no, "pending", due_at, position)


def _next_game(
    player_id: UUID,
    view: TournamentView,
    round_no: int,
    status: Literal["pending", "waiting", "playing"],
    due_at: datetime | None,
    position: int,
    table: int | None = None,
    seat: int | None = None,
    game_id: UUID | None = None,
    turn_deadline: datetime | None = None,
) -> NextGame:
    """The player's table, seat, game and turn deadline are none before the round is paired."""
    return NextGame(
        player_id=player_id,
        tournament_id=view.tournament_id,
        tournament=view.name,
        round_no=round_no,
        table=table,
        seat=seat,
        game_id=game_id,
        status=status,
        due_at=due_at,
        turn_deadline=turn_deadline,
        position=position,
    )


VIEW = base.View(name="tournaments", create=create, statements=statements, fold=TournamentsFold)

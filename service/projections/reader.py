"""Reading the read models: what the HTTP layer serves, never a fold of a game's events.

Every answer carries the position the read models had applied when it was
read: the position is read first (or in the same statement as the rows), so
the rows are at least that new. ``wait_for`` blocks until a position is
reached, for a client that wants to read its own write (a command's
``Outcome.position``).

Player names are looked up when a read answers, so a renamed player shows
the new name everywhere.

Thread-safe: each call takes a connection from the reader's own pool.
"""

import time
from uuid import UUID

import msgspec

from service.domain.game import Seat
from service.projections.models import (
    HandView,
    MatchTotals,
    PlayedGame,
    PlayerHistory,
    PublicTable,
    Standings,
)
from service.projections.render import GameDoc, Played
from service.projections.standings import STATS, TIE_BREAKS, Tally, rank
from service.projections.store import close_views, open_views
from service.settings import Settings

_decode_game = msgspec.msgpack.Decoder(GameDoc).decode
_decode_played = msgspec.msgpack.Decoder(Played).decode

# wait_for looks again after 1 ms, then twice as long each time, up to this
_LONGEST_PAUSE = 0.025


class ReadModels:
    def __init__(self, settings: Settings) -> None:
        # two connections kept open; more are opened while reads queue up (eventsourcing's overflow)
        self.views = open_views(settings, connections=2)

    def position(self) -> int:
        """The position of the last event the read models applied (0 when none)."""
        return self.views.position()

    def wait_for(self, position: int, timeout: float = 5.0) -> int:
        """Block until the read models applied ``position`` or ``timeout`` seconds passed; the position."""
        deadline = time.monotonic() + timeout
        pause = 0.001
        while True:
            reached = self.position()
            left = deadline - time.monotonic()
            if reached >= position or left <= 0:
                return reached
            time.sleep(min(pause, left))
            pause = min(pause * 2, _LONGEST_PAUSE)

    def table(self, game_id: UUID) -> PublicTable | None:
        found = self._game(game_id)
        return None if found is None else found[0].table

    def hand(self, game_id: UUID, seat: int) -> HandView | None:
        found = self._game(game_id)
        if found is None or not 0 <= seat < len(found[0].hands):
            return None
        doc, position = found
        hand = doc.hands[seat]
        return HandView(
            game_id=game_id,
            seat=seat,
            cards=hand.cards,
            drawn=hand.drawn,
            legal=hand.legal,
            table=doc.table,
            position=position,
        )

    def totals(self, game_id: UUID) -> MatchTotals | None:
        found = self._game(game_id)
        if found is None:
            return None
        doc, position = found
        table = doc.table
        return MatchTotals(
            game_id=game_id,
            league_id=table.league_id,
            ruleset=table.ruleset,
            seats=table.seats,
            rounds=doc.rounds,
            totals=table.totals,
            winners=table.winners,
            over=table.over,
            position=position,
        )

    def standings(self, league_id: UUID) -> Standings | None:
        """None for an unknown league; no rows for a league without a finished match."""
        found = self.views.league(league_id)
        if found is None:
            return None
        league, position = found
        tallies = [
            Tally(
                player_id=_uuid(player_id),
                name=name or str(player_id),
                **dict(zip(STATS, stats, strict=True)),
            )
            for player_id, name, *stats in self.views.standing_rows(league_id)
        ]
        return Standings(
            league_id=league_id,
            ruleset=league.ruleset,
            order=league.order,  # type: ignore[arg-type]
            tie_breaks=list(TIE_BREAKS),
            rows=rank(tallies, league.order),  # type: ignore[arg-type]
            position=position,
        )

    def history(self, player_id: UUID) -> PlayerHistory:
        """The player's games, newest first (none for an unknown player)."""
        position = self.position()
        lines = [_decode_played(doc) for doc in self.views.history_docs(player_id)]
        names = self.views.names(
            UUID(seat.name) for line in lines for seat in line.opponents if seat.kind == "player"
        )
        games = [
            PlayedGame(
                game_id=line.game_id,
                league_id=line.league_id,
                ruleset=line.ruleset,
                seat=line.seat,
                total=line.total,
                result=line.result,
                opponents=[_name(seat, names) for seat in line.opponents],
                rounds=line.rounds,
                ended_at=line.ended_at,
            )
            for line in lines
        ]
        return PlayerHistory(player_id=player_id, games=games, position=position)

    def close(self) -> None:
        close_views(self.views)

    def _game(self, game_id: UUID) -> tuple[GameDoc, int] | None:
        found = self.views.game_doc(game_id)
        if found is None:
            return None
        data, position = found
        doc = _decode_game(data)
        table = doc.table
        names = self.views.names(seat.player_id for seat in table.seats if seat.player_id is not None)
        seats = [
            seat
            if seat.player_id is None
            else msgspec.structs.replace(seat, name=names.get(seat.player_id, str(seat.player_id)))
            for seat in table.seats
        ]
        table = msgspec.structs.replace(table, seats=seats, position=position)
        return msgspec.structs.replace(doc, table=table), position


def _uuid(value: object) -> UUID:
    return value if isinstance(value, UUID) else UUID(str(value))


def _name(seat: Seat, names: dict[UUID, str]) -> str:
    if seat.kind == "bot":
        return f"bot:{seat.name}"
    return names.get(UUID(seat.name), seat.name)

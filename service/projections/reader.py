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

import threading
import time
from datetime import UTC, datetime
from uuid import UUID

import msgspec

from service.domain.adjudication import Dispute
from service.domain.game import Seat
from service.domain.mao.aggregate import BOT_PREFIX
from service.domain.rating import PROVISIONAL_MATCHES, Rating
from service.domain.struct_from import struct_from
from service.projections.mao import Listed
from service.projections.models import (
    HandView,
    LeagueOfMine,
    LeagueRatingsRead,
    ListedGame,
    ListedLeague,
    ListedMaoMatch,
    ListedMaoSeat,
    ListedPlayer,
    ListedTournament,
    MatchTotals,
    NextGame,
    OpenDispute,
    PlayedGame,
    PlayerHistory,
    PlayerRatingsRead,
    PublicTable,
    RatingChangeRead,
    RatingRead,
    Standings,
    TournamentView,
)
from service.projections.render import GameDoc, Played
from service.projections.standings import STATS, TIE_BREAKS, Tally, rank, rule
from service.projections.store import PostgresViews, close_views, open_views
from service.projections.views.base import Row
from service.projections.views.ratings import ranked
from service.projections.views.tournaments import next_game
from service.projections.watch import PositionWatch
from service.settings import Settings

_decode_game = msgspec.msgpack.Decoder(GameDoc).decode
_decode_played = msgspec.msgpack.Decoder(Played).decode
_decode_tournament = msgspec.msgpack.Decoder(TournamentView).decode
_decode_dispute = msgspec.msgpack.Decoder(Dispute).decode
_decode_mao = msgspec.msgpack.Decoder(Listed).decode

# wait_for looks again after 1 ms, then twice as long each time, up to this
_LONGEST_PAUSE = 0.025


class ReadModels:
    def __init__(self, settings: Settings) -> None:
        # two connections kept open; more are opened while reads queue up (eventsourcing's overflow)
        self.views = open_views(settings, connections=2)
        self._url = settings.database_url
        self._watch: PositionWatch | None = None  # started by the first wait (PostgreSQL only)
        self._starting = threading.Lock()

    def position(self) -> int:
        """The position of the last event the read models applied (0 when none)."""
        told = self._watch.latest if self._watch is not None else None
        return told if told is not None else self.views.position()

    def wait_for(self, position: int, timeout: float = 5.0) -> int:
        """Block until the read models applied ``position`` or ``timeout`` seconds passed; the position.

        On PostgreSQL the runner tells the position as it writes (``watch``); while that watch is
        not listening, and on SQLite, the position is asked for again and again.
        """
        deadline = time.monotonic() + timeout
        watch = self._watching()
        if watch is not None:
            told = watch.wait_for(position, timeout)
            if told is not None:
                return told
        pause = 0.001
        while True:
            reached = self.views.position()
            left = deadline - time.monotonic()
            if reached >= position or left <= 0:
                return reached
            time.sleep(min(pause, left))
            pause = min(pause * 2, _LONGEST_PAUSE)

    def _watching(self) -> PositionWatch | None:
        if self._watch is None and isinstance(self.views, PostgresViews) and self._url is not None:
            with self._starting:
                if self._watch is None:
                    self._watch = PositionWatch(self._url, self.views.channel, self.views.position)
        return self._watch

    def table(self, game_id: UUID) -> PublicTable | None:
        found = self._game(game_id)
        return None if found is None else found[0].table

    def hand(self, game_id: UUID, seat: int) -> HandView | None:
        found = self._game(game_id)
        if found is None or not 0 <= seat < len(found[0].hands):
            return None
        return hand_view(game_id, *found, seat)

    def totals(self, game_id: UUID) -> MatchTotals | None:
        found = self._game(game_id)
        if found is None:
            return None
        return match_totals(game_id, *found)

    def standings(self, league_id: UUID) -> Standings | None:
        """None for an unknown league; every member, with zeros until a match of theirs finishes."""
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
        rated = {row.player_id: row for row in self._ratings(league_id)[0]}
        rows = [
            row
            if row.player_id not in rated
            else msgspec.structs.replace(
                row,
                rating=rated[row.player_id].rating,
                rating_provisional=rated[row.player_id].provisional,
            )
            for row in rank(tallies, league.order)  # type: ignore[arg-type]
        ]
        return Standings(
            league_id=league_id,
            ruleset=league.ruleset,
            order=league.order,  # type: ignore[arg-type]
            tie_breaks=list(TIE_BREAKS),
            rows=rows,
            position=position,
            rule=rule(league.order),  # type: ignore[arg-type]
        )

    def ratings(self, league_id: UUID) -> LeagueRatingsRead | None:
        """The league's rated players, the highest rating first (None: an unknown league)."""
        if self.views.league(league_id) is None:
            return None
        rows, position = self._ratings(league_id)
        return LeagueRatingsRead(
            league_id=league_id,
            model="PlackettLuce",
            provisional_matches=PROVISIONAL_MATCHES,
            rows=rows,
            position=position,
        )

    def _ratings(self, league_id: UUID) -> tuple[list[RatingRead], int]:
        found, position = self.views.league_ratings(league_id)
        return ranked(found), position

    def ordinals(self, league_id: UUID) -> dict[str, float]:
        """Each rated player of the league (id as text, as a tournament's entrants are): the
        conservative value; what a tournament seeding or breaking ties by rating starts with."""
        found, _ = self.views.league_ratings(league_id)
        return {str(player_id): Rating(mu, sigma).ordinal for player_id, _, mu, sigma, _ in found}

    def rating_history(self, player_id: UUID) -> PlayerRatingsRead:
        """The player's rating after each rated match, newest first (none for an unknown player)."""
        position = self.position()
        history = [
            RatingChangeRead(
                league_id=league_id,
                game_id=game_id,
                place=place,
                clock_played=bool(clocked),
                rating=Rating(mu, sigma).ordinal,
                mu=mu,
                sigma=sigma,
                position=at,
            )
            for league_id, game_id, at, mu, sigma, place, clocked in self.views.rating_history(player_id)
        ]
        return PlayerRatingsRead(player_id=player_id, history=history, position=position)

    def history(self, player_id: UUID) -> PlayerHistory:
        """The player's games, newest first (none for an unknown player)."""
        position = self.position()
        lines = [_decode_played(doc) for doc in self.views.history_docs(player_id)]
        names = self.views.names(
            UUID(seat.name) for line in lines for seat in line.opponents if seat.kind == "player"
        )
        games = [
            struct_from(
                PlayedGame,
                line,
                opponents=[_name(seat, names) for seat in line.opponents],
                opponent_ids=[
                    f"bot:{seat.name}" if seat.kind == "bot" else seat.name for seat in line.opponents
                ],
            )
            for line in lines
        ]
        return PlayerHistory(player_id=player_id, games=games, position=position)

    def tournament(self, tournament_id: UUID) -> TournamentView | None:
        """The bracket: every round, table and result, and the ranking so far (None: not known)."""
        found = self.views.tournament_doc(tournament_id)
        if found is None:
            return None
        data, position = found
        return self.named(msgspec.structs.replace(_decode_tournament(data), position=position))

    def tournaments_to_conduct(self) -> list[UUID]:
        """The tournaments running, or announced with a start time, in the order they were announced:
        the ones a tick may find something to do in (one announced without a start time is started
        by hand, and looking at it meant loading it at every tick for nothing)."""
        return self.views.tournaments_to_conduct()

    def stalled_bot_turns(self, older_than: float, limit: int = 200) -> list[UUID]:
        """Games (a tournament's or not) a bot is to move in, neither over nor paused, whose last
        event was stored before ``older_than`` (Unix time), and games whose person's turn clock ran
        out before it, then Mao matches a bot is to move in: at most ``limit``, the longest waiting
        first of each kind."""
        games = self.views.stalled_bot_turns(older_than, limit)
        return games + self.views.stalled_mao_turns(older_than, limit - len(games))

    def tournaments(self, league_id: UUID) -> list[TournamentView]:
        """A league's tournaments, in the order they were announced (none for an unknown league)."""
        position = self.position()
        docs = self.views.league_tournament_docs(league_id)
        return self._named(
            [msgspec.structs.replace(_decode_tournament(doc), position=position) for doc in docs]
        )

    def next_game(self, player_id: UUID) -> NextGame | None:
        """The player's table being played, else the next one paired (the earliest due), else the round
        a tournament they play in has still to pair (between two rounds); None when none (nor in a
        cancelled tournament, nor in one they dropped out of)."""
        return next_game(self.views, player_id, self.position())

    def named(self, view: TournamentView) -> TournamentView:
        """The tournament with its players' names as they are now (a bot's entrant is its name)."""
        return self._named([view])[0]

    def _named(self, views: list[TournamentView]) -> list[TournamentView]:
        ids = {UUID(entrant) for view in views for entrant, name in view.names.items() if not name}
        names = {str(player_id): name for player_id, name in self.views.names(ids).items()}
        named = []
        for view in views:
            every = {entrant: name or names.get(entrant, entrant) for entrant, name in view.names.items()}
            ranking = [
                placing
                if placing.name
                else msgspec.structs.replace(placing, name=every.get(placing.entrant, ""))
                for placing in view.ranking
            ]
            named.append(msgspec.structs.replace(view, names=every, ranking=ranking))
        return named

    # The lists: each returns at most ``limit`` items and the sort key of the last one when more follow
    # (the next page starts after it), else None. ``after``: the key a page before returned.

    def players(
        self, search: str | None, after: tuple[str, UUID] | None, limit: int
    ) -> tuple[list[ListedPlayer], tuple[str, UUID] | None]:
        return _named(self.views.player_page(search, after, limit + 1), limit)

    def referees(
        self, search: str | None, after: tuple[str, UUID] | None, limit: int
    ) -> tuple[list[ListedPlayer], tuple[str, UUID] | None]:
        """Registered referees by name (each as a listed person: their id and name), as ``players``."""
        return _named(self.views.referee_page(search, after, limit + 1), limit)

    def referee_names(self, referee_ids: list[UUID]) -> dict[UUID, str]:
        return self.views.referee_names(referee_ids)

    def leagues(
        self, after: tuple[str, UUID] | None, limit: int
    ) -> tuple[list[ListedLeague], tuple[str, UUID] | None]:
        rows = self.views.league_page(after, limit + 1)
        items = [
            ListedLeague(league_id=_uuid(league_id), name=name, ruleset=rules)
            for league_id, name, rules in rows[:limit]
        ]
        more = len(rows) > limit
        return items, (items[-1].name, items[-1].league_id) if more else None

    def games(
        self,
        league_id: UUID | None,
        player_id: UUID | None,
        status: str | None,
        after: int | None,
        limit: int,
    ) -> tuple[list[ListedGame], int | None]:
        rows = self.views.game_page(league_id, player_id, status, after, limit + 1)
        tables = [_decode_game(doc).table for _, _, _, doc in rows[:limit]]
        names = self.views.names(player_id for table in tables for player_id in player_ids(table))
        items = [
            ListedGame(
                game_id=table.game_id,
                league_id=table.league_id,
                ruleset=table.ruleset,
                status=listed,
                round_no=table.round_no,
                seats=named(table, names, 0).seats,
                winners=table.winners,
            )
            for table, (_, _, listed, _) in zip(tables, rows, strict=False)
        ]
        return items, rows[limit - 1][1] if len(rows) > limit else None

    def mao_games(
        self, league_id: UUID | None, status: str | None, after: int | None, limit: int
    ) -> tuple[list[ListedMaoMatch], int | None]:
        """Mao matches, newest first; the key the next page continues after (None: no more)."""
        rows = self.views.mao_page(league_id, status, after, limit + 1)
        docs = [_decode_mao(doc) for _, doc in rows[:limit]]
        seated = {seat for doc in docs for seat in doc.seats if not seat.startswith(BOT_PREFIX)}
        names = {str(player_id): name for player_id, name in self.views.names(map(UUID, seated)).items()}
        items = [
            ListedMaoMatch(
                game_id=doc.game_id,
                league_id=doc.league_id,
                status=doc.status,
                round_no=doc.round_no,
                seats=[ListedMaoSeat(entrant=seat, name=names.get(seat, seat)) for seat in doc.seats],
                wins=list(doc.wins),
                winner=doc.winner,
            )
            for doc in docs
        ]
        return items, rows[limit - 1][0] if len(rows) > limit else None

    def tournament_list(
        self, league_id: UUID | None, status: str | None, after: int | None, limit: int
    ) -> tuple[list[ListedTournament], int | None]:
        rows = self.views.tournament_page(league_id, status, after, limit + 1)
        views = self._named([_decode_tournament(doc) for _, _, doc in rows[:limit]])
        items = [
            struct_from(
                ListedTournament,
                view,
                entrants=len(view.entrants),
                rounds=len(view.rounds),
                winners=view.winners,
                names={winner: view.names.get(winner, winner) for winner in view.winners},
            )
            for view in views
        ]
        return items, rows[limit - 1][1] if len(rows) > limit else None

    def disputes(
        self, referee: str | None, after: tuple[float, UUID] | None, limit: int
    ) -> tuple[list[OpenDispute], tuple[float, UUID] | None]:
        """Open disputes, the longest waiting first; ``referee``: only those they may rule on (friendly
        games and the games of the leagues they referee); None: all."""
        rows = self.views.dispute_page(referee, after, limit + 1)
        found = [
            (_uuid(game_id), raised, None if league is None else _uuid(league), _decode_dispute(doc))
            for game_id, raised, league, doc in rows[:limit]
        ]
        names = self.views.names(UUID(d.raised_by.id) for *_, d in found if d.raised_by.role == "player")
        items = [
            OpenDispute(
                game_id=game_id,
                league_id=league_id,
                number=dispute.number,
                raised_by=dispute.raised_by.role,
                raised_by_id=dispute.raised_by.id,
                raised_by_name=names.get(UUID(dispute.raised_by.id))
                if dispute.raised_by.role == "player"
                else None,
                seat=dispute.seat,
                about=dispute.about,
                reason=dispute.reason,
                raised_at=dispute.raised_at,
            )
            for game_id, _, league_id, dispute in found
        ]
        last = found[-1] if len(rows) > limit else None
        return items, None if last is None else (last[1], last[0])

    def leagues_of(self, person: str, role: str) -> list[LeagueOfMine]:
        """The leagues a player is a member of (``role`` "member"), or a referee referees ("referee")."""
        return [
            LeagueOfMine(league_id=league_id, name=name)
            for league_id, name in self.views.leagues_of(person, role)
        ]

    def people_of(self, league_id: UUID, role: str) -> list[str]:
        """A league's members (``role`` "member") or referees ("referee"), by id, in no order."""
        return self.views.people_of(league_id, role)

    def names(self, player_ids: list[UUID]) -> dict[UUID, str]:
        """Players' names as they are now (a player not in the read models yet is left out)."""
        return self.views.names(player_ids)

    def close(self) -> None:
        if self._watch is not None:
            self._watch.close()
        close_views(self.views)

    def _game(self, game_id: UUID) -> tuple[GameDoc, int] | None:
        found = self.views.game_doc(game_id)
        if found is None:
            return None
        data, position = found
        doc = _decode_game(data)
        table = named(doc.table, self.views.names(player_ids(doc.table)), position)
        return msgspec.structs.replace(doc, table=table), position


def _named(rows: list[Row], limit: int) -> tuple[list[ListedPlayer], tuple[str, UUID] | None]:
    """A page of (id, name) rows read one past ``limit``, and the key the next page starts after."""
    items = [ListedPlayer(player_id=_uuid(found), name=name) for found, name in rows[:limit]]
    return items, (items[-1].name, items[-1].player_id) if len(rows) > limit else None


def player_ids(table: PublicTable) -> list[UUID]:
    return [seat.player_id for seat in table.seats if seat.player_id is not None]


def named(table: PublicTable, names: dict[UUID, str], position: int) -> PublicTable:
    """The stored table as answered: its players' names (``names``), the position and the seconds
    left on the turn clock now filled in."""
    seats = [
        seat
        if seat.player_id is None
        else msgspec.structs.replace(seat, name=names.get(seat.player_id, str(seat.player_id)))
        for seat in table.seats
    ]
    left = None
    if table.turn_deadline is not None:
        left = round(max(0.0, (table.turn_deadline - datetime.now(UTC)).total_seconds()), 1)
    return msgspec.structs.replace(table, seats=seats, position=position, seconds_left=left)


def _uuid(value: object) -> UUID:
    return value if isinstance(value, UUID) else UUID(str(value))


def _name(seat: Seat, names: dict[UUID, str]) -> str:
    if seat.kind == "bot":
        return f"bot:{seat.name}"
    return names.get(UUID(seat.name), seat.name)


def hand_view(game_id: UUID, doc: GameDoc, position: int, seat: int) -> HandView:
    """A seat's own view out of the game's documents rendered at ``position``."""
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


def match_totals(game_id: UUID, doc: GameDoc, position: int) -> MatchTotals:
    """The match's totals out of the game's documents rendered at ``position``."""
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

"""What never changes about a game once it is created: its league, its tournament table, its seats,
its hand size.

Every authorisation and every redaction needs them; they come from the game's first event (or the
game cache) and are remembered (``Games``).
"""

import threading
from collections import OrderedDict
from collections.abc import Iterable
from uuid import UUID

import msgspec

from service.application import MauMau
from service.domain.game import Seat
from service.domain.redaction import Table
from service.domain.rulesets import Ruleset
from service.domain.seats import TableRef

FACTS_CACHED = 10_000


class GameFacts(msgspec.Struct, frozen=True, kw_only=True):
    game_id: UUID
    league_id: UUID | None
    seats: tuple[Seat, ...]
    hand_size: int
    target_score: int | None = None  # the score that ends the match; None: a match of one round
    rules: Ruleset  # with its options: what the pages say a card did
    tournament_table: TableRef | None = None  # the one it was made for: the pages name it

    def seat_of(self, player_id: str) -> int | None:
        for index, seat in enumerate(self.seats):
            if seat.kind == "player" and seat.name == player_id:
                return index
        return None

    @property
    def table(self) -> Table:
        return Table(seats=len(self.seats), hand_size=self.hand_size)


class Games:
    """The facts of games, remembered (they never change)."""

    def __init__(self, app: MauMau, size: int = FACTS_CACHED) -> None:
        self.app = app
        self.size = size
        self._facts: OrderedDict[UUID, GameFacts] = OrderedDict()
        self._lock = threading.Lock()

    def facts(self, game_id: UUID) -> GameFacts:
        found = self._facts.get(game_id)
        if found is not None:
            return found
        game = self.app.games.get(game_id)
        if game is not None:
            found = _facts(game_id, game.league_id, game.seats, game.ruleset, game.table)
        else:
            (created,) = self.app.game_events(game_id, limit=1)  # refuses an unknown game
            found = _facts(game_id, created.league_id, created.seats, created.ruleset, created.table)
        with self._lock:
            self._facts[game_id] = found
            while len(self._facts) > self.size:
                self._facts.popitem(last=False)
        return found


def _facts(
    game_id: UUID, league_id: UUID | None, seats: Iterable[Seat], rules: Ruleset, table: TableRef | None
) -> GameFacts:
    return GameFacts(
        game_id=game_id,
        league_id=league_id,
        seats=tuple(seats),
        hand_size=rules.hand_size,
        target_score=None if rules.single_round else rules.target_score,
        rules=rules,
        tournament_table=table,
    )

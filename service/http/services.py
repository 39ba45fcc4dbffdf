"""What the handlers work with, built once per process by the app's lifespan.

``Services`` holds the application (writes, the event log, replay), a game's
own reads as it is now (``current``: its table, a seat's view, its totals),
the read models (standings, histories, tournaments), each actor's last write
(``writes``, which reads of the read models wait for), the authenticator, and
``GameFacts``: what never changes about a game once it is
created (its league, its seats, its hand size), which every authorisation
and every redaction needs. Those come from the game's first event (or the
game cache) and are remembered.
"""

import logging
import threading
from collections import OrderedDict
from typing import Any
from uuid import UUID

import msgspec
from litestar.di import NamedDependency

from service.application import MauMau, followups
from service.domain.game import Seat
from service.domain.redaction import Table
from service.domain.roles import Actor
from service.domain.rulesets import Ruleset
from service.http.auth import Authenticator
from service.http.consistency import Writes, _wait_for_last_write
from service.http.params import caught_up
from service.observability.readiness import Probe
from service.persistence.sessions import Sessions
from service.projections.current import CurrentGames
from service.projections.live import LiveGames
from service.projections.reader import ReadModels
from service.projections.runner import start_projections
from service.settings import Settings

FACTS_CACHED = 10_000
log = logging.getLogger(__name__)


class GameFacts(msgspec.Struct, frozen=True, kw_only=True):
    game_id: UUID
    league_id: UUID | None
    seats: tuple[Seat, ...]
    hand_size: int
    target_score: int | None = None  # the score that ends the match; None: a match of one round
    rules: Ruleset  # with its options: what the pages say a card did

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
            found = _facts(game_id, game.league_id, game.seats, game.ruleset)
        else:
            (created,) = self.app.game_events(game_id, limit=1)  # refuses an unknown game
            found = _facts(game_id, created.league_id, created.seats, created.ruleset)
        with self._lock:
            self._facts[game_id] = found
            while len(self._facts) > self.size:
                self._facts.popitem(last=False)
        return found


def _facts(game_id: UUID, league_id: UUID | None, seats: Any, rules: Ruleset) -> GameFacts:
    return GameFacts(
        game_id=game_id,
        league_id=league_id,
        seats=tuple(seats),
        hand_size=rules.hand_size,
        target_score=None if rules.single_round else rules.target_score,
        rules=rules,
    )


class Services:
    """The use cases' ``Context`` (``service.usecases.context``), and the rest the handlers need."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.app = MauMau(settings)
        followups.register(self.app)  # the API's changes are answered by the workers
        self.running: Any = None
        try:
            self.reader = ReadModels(settings)
            if settings.run_projections:
                self.running = start_projections(settings)
        except BaseException:
            self.app.close()
            raise
        self.auth = Authenticator(
            self.app,
            settings.admin_token,
            note_use=self.reader.views.token_uses.note,
            cache_seconds=settings.token_cache_seconds,
        )
        self.readiness = Probe(self.app, self.reader, settings)
        self.games = Games(self.app)
        self.current = CurrentGames(self.app, self.reader.views)
        self.writes = Writes(self.reader.views)
        self.sessions = Sessions(self.reader.views)  # the web pages' (``service.web.session``)
        self._live: LiveGames | None = None
        self._live_starting = threading.Lock()

    @property
    def live(self) -> LiveGames:
        """The games this process's streams follow (its threads start with the first stream)."""
        if self._live is None:
            with self._live_starting:
                if self._live is None:
                    self._live = LiveGames(self.app, self.reader.views, self.settings.database_url)
        return self._live

    def wrote(self, actor: Actor, position: int | None = None) -> None:
        """A write of ``actor`` succeeded, its last event at ``position`` (None: not known, the log's
        last position now, which is at or after it): their next reads of the read models wait for it."""
        try:
            if position is None:
                position = self.app.recorder.max_notification_id() or 0
            self.writes.note(actor, position)
        except Exception:
            # the write is stored: answering it as failed would make the client send it again
            log.warning("a write's position not noted: the writer's reads may not show it", exc_info=True)

    def read_after_own_writes(self, actor: Actor) -> None:
        _wait_for_last_write(self, actor)

    def read_after(self, position: int) -> None:
        caught_up(self.reader, position, lambda: position)

    def close(self) -> None:
        if self._live is not None:
            self._live.close()
        if self.running is not None:
            self.running.stop()
        self.reader.close()
        self.app.close()


# handler parameters filled by the app's dependencies (``service.http.app``)
ServicesDep = NamedDependency[Services]
ActorDep = NamedDependency[Actor]  # on a route with opt=SIGNED_IN: never None
OptionalActorDep = NamedDependency[Actor | None]  # None: an anonymous request
BearerDep = NamedDependency[UUID | None]  # the credential of the request's token; None: none, or the env's

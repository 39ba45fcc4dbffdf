"""The shared machinery of the one eventsourcing Application: the store, the game cache, saving.

One ``MauMau`` application per process (build it after a fork; its database
pool is per process). Every method is synchronous and thread-safe.

A change to a game of any kind (``Game``, ``MaoGame``: ``service.domain.kind``) takes the one act
path (``_act``): load it (from the game cache, or its last snapshot and the events after), check
the idempotency key and the version the client saw, let the aggregate validate and record (and
the server move after it), save (``save``, the one save path). Two clients racing on
one game both pass the version check, but the store's ``(originator_id,
version)`` key lets only one save: the other's attempt is made again on the game
as stored (``saving.retried``, the one retry policy), which refuses its version
as ``stale_version``; nothing of theirs is stored. A command sent again with the
same idempotency key returns what the first one stored, read back from the
events, and stores nothing.

Refusals are ``RuleError``s with stable codes: the engine's, plus
``game_not_found``, ``stale_version``, ``game_paused``, ``game_over``,
``not_your_seat``, ``not_allowed``, ``idempotency_key_reused``,
``player_not_found``, ``league_not_found``, ``not_a_member``, ``malformed_name``,
``name_taken`` (two members of one league may not share a display name), ...
"""

import contextlib
import hashlib
import threading
from collections.abc import Callable, Mapping
from typing import Any, TypeVar
from uuid import UUID

import msgspec
from eventsourcing.application import AggregateNotFoundError, Application
from eventsourcing.domain import Aggregate
from eventsourcing.persistence import IntegrityError

from service.application.last_saved import LastSaved
from service.application.saving import Conflict, retried
from service.domain.errors import RuleError
from service.domain.game import Game
from service.domain.history import Cause
from service.domain.kind import GameKind
from service.domain.mao.aggregate import MaoGame
from service.domain.roles import Actor
from service.domain.tournament import Tournament
from service.domain.views import Entry, entry_of
from service.observability import metrics
from service.persistence.group_commit import GroupCommitRecorder
from service.persistence.mapper import MsgspecMapper
from service.persistence.sqlite_wal import in_wal_mode
from service.settings import Settings, get_settings

A = TypeVar("A")
T = TypeVar("T")
# the kinds of game the service keeps (``domain.kind``): a fold over them matches each
Played = Game | MaoGame
G = TypeVar("G", bound=Played)
S = TypeVar("S", bound=Aggregate)  # any stored aggregate
# the tournaments whose last saved state a process keeps (``last_saved``): a club plays a few at once
TOURNAMENTS_KEPT = 16


def project(aggregate: Any, events: Any) -> Any:
    """Fold stored events into an aggregate (eventsourcing's own projector checks a Protocol per event)."""
    for event in events:
        aggregate = event.mutate(aggregate)
    return aggregate


class GameCache:
    """The last saved state of recently used card games, in this process, and a lock per game of any kind.

    A command takes its game's lock, works on the cached game (loading it when
    missing or older than the client's version) and puts it back only once it
    is saved. The store stays the judge: a game changed by another process
    makes the save fail on its version key, the entry is dropped and the game
    loaded again. Readers never see cached objects (``get_game`` loads).
    """

    STRIPES = 64

    def __init__(self, size: int) -> None:
        self._games: LastSaved[Game] = LastSaved(size)
        self._stripes = [threading.Lock() for _ in range(self.STRIPES)]

    def lock(self, game_id: UUID) -> threading.Lock:
        return self._stripes[hash(game_id) % self.STRIPES]

    def get(self, game_id: UUID) -> Game | None:
        """The card game cached under this id (a Mao match is none)."""
        return self.find(game_id, Game)

    def find(self, game_id: UUID, kind: type[G]) -> G | None:
        game = self._games.get(game_id)
        return game if isinstance(game, kind) else None

    def put(self, game: GameKind) -> None:
        # card games only: the reads of a Mao act take the very match it saved, which a cached copy
        # would share with the next command
        if isinstance(game, Game):
            self._games.put(game)

    def evict(self, game_id: UUID) -> None:
        self._games.take(game_id)


class Outcome(msgspec.Struct, frozen=True):
    """What a command stored: the game's version after it and its events, numbered."""

    game_id: UUID
    version: int
    events: tuple[Any, ...]  # Game events, ``originator_version`` is each one's number
    # the notification-log position of the last event (at least): a reader that has applied
    # this position sees the command's effect ("read your own writes")
    position: int = 0

    @property
    def entries(self) -> list[Entry]:
        return [entry_of(event) for event in self.events]

    @property
    def facts(self) -> list[Any]:
        """The engine events among them."""
        return [event.fact for event in self.events if isinstance(event, Game.Fact)]


class Core(Application[UUID]):
    """What every use case shares: settings, entropy, the game cache, saving and snapshots."""

    mapper: MsgspecMapper  # construct_mapper's: it answers the service's own events

    def __init__(
        self,
        settings: Settings | None = None,
        env: Mapping[str, str] | None = None,
        entropy: Callable[[], str] | None = None,
    ) -> None:
        # ``entropy`` gives each new game the entropy its seed is mixed with: fresh from ``secrets``
        # unless a test gives a fixed one, so that a seed deals the same cards every run. The service
        # never does: with a known entropy a chosen seed would foretell every deck again.
        self.settings = settings or get_settings()
        self.entropy = entropy
        # eventsourcing types it a ClassVar, but reads it from the instance: the interval is a setting
        self.snapshotting_intervals = {Game: self.settings.snapshot_interval}  # type: ignore[misc]
        self.games = GameCache(self.settings.game_cache)
        self.saved_tournaments: LastSaved[Tournament] = LastSaved(TOURNAMENTS_KEPT)
        # told each game of any kind a command of this process stored, and the command's cause, in
        # the game's lock (``followups``: its bots, a card game's clock)
        self.on_game_saved: list[Callable[[Played, Cause], None]] = []
        # told the id of each game of any kind (a card game, a Mao match) a command of this process
        # stored, in the game's lock (``projections.live``, where no note of the store tells it)
        self.on_saved: list[Callable[[UUID], None]] = []
        # told each tournament started by a command of this process (``followups``)
        self.on_tournament_started: list[Callable[[UUID], None]] = []
        persistence = self.settings.persistence_env()  # makes the data dir on SQLite
        if not self.settings.uses_postgres:
            in_wal_mode(self.settings.sqlite_path)
        super().__init__(env={**persistence, **(env or {})})

    def close(self) -> None:
        if isinstance(self.recorder, GroupCommitRecorder):
            self.recorder.close()
        super().close()

    def construct_mapper(self) -> MsgspecMapper:
        return MsgspecMapper(compressor=self.factory.compressor(), cipher=self.factory.cipher())

    def save(self, *objs: Any, **kwargs: Any) -> tuple[tuple[Any, ...], int]:  # type: ignore[override]
        """The one save path: the new events of these aggregates, stored in one transaction, then a
        snapshot of each that crossed its interval; the events stored and the log position of the
        last (``((), 0)`` when there were none). ``Conflict`` when another write stored one of
        those versions first: nothing of this save is stored (``saving.retried`` decides again).

        Aggregates only, and none of ``Application.save``'s runtime Protocol checks of every object
        nor its recordings (eventsourcing calls no ``save`` of its own; both cost a move CPU)."""
        if kwargs or not all(isinstance(aggregate, Aggregate) for aggregate in objs):
            raise TypeError("a save stores aggregates' new events, nothing else")
        events: list[Any] = []
        spans = []  # each aggregate with the numbers of its first and last new event
        for aggregate in objs:
            pending = aggregate.collect_events()
            if pending:
                spans.append((aggregate, pending[0].originator_version, pending[-1].originator_version))
                events.extend(pending)
        if not events:
            return (), 0
        try:
            numbers = self.recorder.insert_events(list(map(self.mapper.to_stored_event, events)))
        except IntegrityError:
            raise Conflict("another write stored these versions first") from None
        assert numbers, "the recorder gives each stored event its position in the log"
        metrics.events_appended(len(events))
        for aggregate, first, last in spans:
            self._snapshot_if_due(aggregate, first, last)
        return tuple(events), numbers[-1]

    def _snapshot_if_due(self, aggregate: Any, first: int, last: int) -> None:
        """Snapshot the aggregate when its events ``first`` to ``last`` crossed a multiple of the
        interval, from memory (eventsourcing's own way loads it again at that exact event)."""
        interval = self.snapshotting_intervals.get(type(aggregate))
        if self.snapshots is None or not interval or last // interval <= (first - 1) // interval:
            return
        # a snapshot is a cache: one another process wrote first is just as good
        with contextlib.suppress(IntegrityError):
            self.snapshots.put([type(aggregate).Snapshot.take(aggregate)])

    # ------------------------------------------------------------------
    # the steps every change takes

    def _change(
        self,
        game_id: UUID | str,
        cause: Cause,
        expected_version: int | None,
        change: Callable[[Game, Cause], None],
    ) -> Outcome:
        """A command on a card game (``_act``)."""
        return self._act(Game, game_id, cause, expected_version, change)[1]

    def _act(
        self,
        kind: type[G],
        game_id: UUID | str,
        cause: Cause,
        expected_version: int | None,
        change: Callable[[G, Cause], None],
    ) -> tuple[G, Outcome]:
        """The one act path of every game kind (``domain.kind``): decide a command on the game as
        stored (``change`` decides it and makes the server's moves after it), and save what it
        recorded; the game as saved and what the command stored.

        The cached copy saves a load. It may be behind the store (another process moved the
        game), so nothing decided on it is final until the store has agreed: a save from a copy
        that is behind fails on its version key, and a refusal decided on one is decided again
        once the events stored meanwhile are folded in (one query, paid by refusals only).
        """
        game_id = _uuid(game_id, "game_not_found")
        if cause.key is not None and expected_version is not None:
            # the fingerprint covers the whole request: the same key sent with another version is
            # another request, refused as a reused key rather than answered with the first's result
            cause = msgspec.structs.replace(cause, digest=_digest(cause.digest, expected_version))
        with self.games.lock(game_id):
            return retried(lambda: self._decide(kind, game_id, cause, expected_version, change))

    def _decide(
        self,
        kind: type[G],
        game_id: UUID,
        cause: Cause,
        expected_version: int | None,
        change: Callable[[G, Cause], None],
    ) -> tuple[G, Outcome]:
        """One attempt of ``_act``, in the game's lock: a save that meets another is tried again
        (``retried``) on the game as stored, where the other may be this very command sent twice
        (its key answers what it stored), or may have left the client's version behind."""
        game = self.games.find(game_id, kind)
        as_stored = False  # whether ``game`` was read from the store for this command
        while True:
            if game is not None and expected_version is not None and expected_version > game.version:
                game, as_stored = self._brought_up_to_date(game), True
            if game is None:
                game, as_stored = self._get(kind, game_id, "game_not_found", why=kind.not_found), True
                self.games.put(game)  # as stored: a refused command (a stale version) finds it here next
            if cause.key is not None:
                first = game.done_before(cause.key, cause.digest)
                if first is not None:
                    return game, self._outcome_from(kind, game.id, first)
            if expected_version is not None and expected_version != game.version:
                # behind the copy, so behind the store too (a copy is never ahead of it)
                raise RuleError(
                    "stale_version",
                    why="game_event_not",
                    version=game.version,
                    expected_version=expected_version,
                )
            try:
                change(game, cause)
            except RuleError:
                if game.pending_events:  # a refusal records nothing; a copy that did is forgotten
                    self.games.evict(game_id)
                    raise
                if as_stored:
                    raise
                # refused on the cached copy: ask the store whether it knows more
                version = game.version
                game, as_stored = self._brought_up_to_date(game), True
                if game.version == version:
                    raise
                continue
            except BaseException:
                self.games.evict(game_id)  # perhaps half changed: never used again
                raise
            return game, self._save_game(game, cause)

    def caught_up(self, aggregate: S) -> S:
        """An aggregate with the events stored since its version folded in."""
        brought: S = project(aggregate, self.events.get(aggregate.id, gt=aggregate.version))
        return brought

    def _brought_up_to_date(self, game: G) -> G:
        """The cached game with the events another process stored since folded in: one query for
        a few events instead of loading a snapshot and the events after it."""
        try:
            return self.caught_up(game)
        except BaseException:
            self.games.evict(game.id)  # perhaps half folded: never used again
            raise

    def _save_game(self, game: Played, cause: Cause) -> Outcome:
        """Save a game a command changed (``save``), keep it in the cache and tell who listens: the
        live streams (``on_saved``) and the workers (``on_game_saved``), of every kind."""
        try:
            events, position = self.save(game)
        except BaseException:
            # a conflict: the store has events the copy lacks. Anything else (the database went
            # away, the commit's fate unknown): the copy holds events the store may not, and kept,
            # it would be ahead of the store and refuse every later move as stale
            self.games.evict(game.id)
            raise
        assert events, "a command that changed nothing is not saved"
        self.games.put(game)
        for saved in self.on_saved:
            saved(game.id)
        for told in self.on_game_saved:
            told(game, cause)
        return Outcome(game.id, game.version, events, position)

    def _done_before(self, game_id: UUID, cause: Cause) -> Outcome | None:
        assert cause.key is not None
        try:
            game = self.repository.get(game_id, projector_func=project)
        except AggregateNotFoundError:
            return None
        if not isinstance(game, Game):
            return None
        first = game.done_before(cause.key, cause.digest)
        return None if first is None else self._outcome_from(Game, game_id, first)

    def _outcome_from(self, kind: type[GameKind], game_id: UUID, first: int) -> Outcome:
        """The events of the request that began at event ``first``: up to the next request's.

        Its position is the log's latest, which is at or after the command's own events.
        """
        position = self.recorder.max_notification_id() or 0
        events: list[Any] = []
        after = first - 1
        while True:
            page = list(self.events.get(game_id, gt=after, limit=32))
            for event in page:
                if events and kind.begins_request(event):
                    return Outcome(game_id, events[-1].originator_version, tuple(events), position)
                events.append(event)
            if len(page) < 32:
                return Outcome(game_id, events[-1].originator_version, tuple(events), position)
            after = page[-1].originator_version

    def _get(self, kind: type[A], aggregate_id: UUID | str, code: str, why: str = "", **kwargs: Any) -> A:
        try:
            found = self.repository.get(_uuid(aggregate_id, code), projector_func=project, **kwargs)
        except AggregateNotFoundError:
            raise RuleError(code, why=why) from None
        if not isinstance(found, kind):
            raise RuleError(code, why=why)
        return found

    def _update(self, load: Callable[[], S], change: Callable[[S], T], keep: LastSaved[S] | None = None) -> T:
        """Load one aggregate, change it and save it, as one attempt of the retry policy
        (``retried``); what ``change`` answers. A change that records nothing saves nothing.
        ``keep``: where the aggregate saved is kept for the next change (``last_saved``)."""

        def attempt() -> T:
            aggregate = load()
            answer = change(aggregate)
            self.save(aggregate)
            if keep is not None:
                keep.put(aggregate)
            return answer

        return retried(attempt)


def _uuid(value: UUID | str, code: str) -> UUID:
    if isinstance(value, UUID):
        return value
    try:
        return UUID(str(value))
    except ValueError:
        raise RuleError(code, why="not_an_id", value=value) from None


def _digest(*parts: Any) -> str:
    return hashlib.sha256(msgspec.msgpack.encode(parts, enc_hook=str)).hexdigest()[:32]


def caused(by: Actor, command: str, key: str | None, *sent: Any) -> Cause:
    """``command`` by ``by``; under an idempotency key, with the digest of what was sent with it (the
    key sent again is done once only with the same)."""
    return Cause(by, command, key, _digest(command, *sent) if key else "")

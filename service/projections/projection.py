"""The projection: the application's stored events, folded in memory, written in batches.

``ViewsProjection`` is an eventsourcing ``Projection`` over a ``Views`` store.
``process_event`` (eventsourcing's way: one event, one transaction) works,
but the runner feeds it batches instead: ``apply`` folds many events in
memory, ``flush`` writes every row they changed and the last position in one
transaction. A game moved fifty times in a batch is drawn and written once.

Tournaments are folded the same way (``tournaments.TrackedTournament``); a
game created for a tournament's table (``Game.table``, from its ``Created``)
takes the tournament's turn clock, from which its table shows the turn deadline.

Webhooks are folded the same way (``hooks.HookFold``): the events a league's hooks ask for
make delivery rows, written with the batch (once each: ``deliveries``); a player's erasure
rewrites the stored deliveries that name them, in the batch's transaction.

A member's admission writes their standings row of zeros, so the standings list
every member. A game carries its own turn clock (league games and tables created
since games did); a tournament's table created before takes the tournament's.

Each game written also says whether a bot is to move in it (a forfeited seat's
turn included: a bot plays it), and since when, or else when the clock of the
person to move runs out (its step may be lost like a bot's)
(``views_bot_turns``): in the same transaction, so the row is exactly as new as
the game's. The workers' tick reads it to find games whose bots were never told.

A game's list row (``views_game_list``: league, creation, status) and its open dispute
(``views_disputes``) are written when its status or dispute changes, not at every move; league
members and referees (``views_league_people``) as they are admitted and appointed. Names are
never copied into these rows: the reader looks them up in ``views_players`` when it answers.

Mao matches (``MaoGame``, no card ``Game``) are folded by ``mao``: a list row per match
(``views_mao_list``) and, when one ends, its players' standings; a match not in memory is read back
from the event store at the event's version.

If a write fails, what is in memory may be ahead of the store: ``reset``
forgets it, and the runner starts again from the store's tracking position
(each game's or tournament's state is read back from its row when next needed).
"""

import logging
import sqlite3
import time
from collections.abc import Callable, Iterable
from typing import Any
from uuid import UUID

import msgspec
import psycopg
from eventsourcing.persistence import PersistenceError, Tracking
from eventsourcing.projection import Projection

from service.domain.game import Game
from service.domain.league import ERASED_NAME, League, Player
from service.domain.mao.aggregate import MaoGame
from service.domain.mao.league import MAO as MAO_RULES
from service.domain.ruleset_options import ruleset
from service.domain.tournament import Tournament
from service.domain.webhook import Webhook
from service.projections.fold import Tracked
from service.projections.hooks import HookFold, turn_of
from service.projections.mao import Listed, MatchAt, changes_list, decided, is_mao, match_rows, started
from service.projections.parts import CORE, FED_BY, MAO, RATINGS, TOURNAMENTS, WEBHOOKS
from service.projections.ratings import RatingsFold
from service.projections.render import contribution, game_doc, played, turn_deadline
from service.projections.standings import STATS, order_of
from service.projections.store import APPLICATION, NAME, Changes, StaleView, Views
from service.projections.tournaments import TrackedTournament, seat_rows, status_of, tournament_view

# games kept in memory between batches (finished games are let go at once; any game is read
# back from its row when an event for it comes)
CACHED_GAMES = 5_000

log = logging.getLogger(__name__)

_encode = msgspec.msgpack.Encoder().encode
_STORE_ERRORS = (PersistenceError, psycopg.Error, sqlite3.Error)

GAME, CREATED, PLAYER, LEAGUE, PEOPLE, TOURNAMENT, WEBHOOK, MAO_MATCH, OTHER = range(9)
_NO_MATCH = (0,) * len(STATS)


def _kind(event_type: type) -> int:
    if issubclass(event_type, Game.Created):
        return CREATED
    if issubclass(event_type, Game.Event):
        return GAME
    if issubclass(event_type, (Player.Registered, Player.Renamed, Player.Erased)):
        return PLAYER
    if issubclass(event_type, League.Founded):
        return LEAGUE
    if issubclass(event_type, (League.MemberAdmitted, League.MemberRemoved, League.RefereeAppointed)):
        return PEOPLE
    if issubclass(event_type, (Tournament.Announced, Tournament.Event)):
        return TOURNAMENT
    if issubclass(event_type, (Webhook.Registered, Webhook.Event)):
        return WEBHOOK
    if is_mao(event_type):
        return MAO_MATCH
    return OTHER


class ProjectionError(Exception):
    """The log and the store disagree (an event for a game or tournament the store does not know)."""


class FoldFailed(Exception):
    """An event of the log could not be folded: its position, type and originator (the cause chained)."""

    def __init__(self, position: int, event: Any, cause: Exception) -> None:
        self.position = position
        self.event_type = type(event).__qualname__
        self.originator_id: UUID | None = getattr(event, "originator_id", None)
        self.cause = type(cause).__name__
        super().__init__(
            f"event {position} ({self.event_type} of {self.originator_id}) could not be folded: "
            f"{self.cause}: {cause}"
        )


class ViewsProjection(Projection[Views]):
    name = NAME

    def __init__(self, view: Views, match_at: MatchAt | None = None) -> None:
        super().__init__(view)
        # Mao matches in play, by id; ``match_at`` reads back one not here from the event store
        self.mao: dict[UUID, Listed] = {}
        self._match_at = match_at
        self.games: dict[int, Tracked] = {}  # by the game id's int
        self._kinds: dict[type, int] = {}
        self._dirty: dict[int, Tracked] = {}
        # tournaments in memory until they finish (few, and each is read back from its row when missing)
        self.tournaments: dict[UUID, TrackedTournament] = {}
        self._dirty_tournaments: dict[UUID, TrackedTournament] = {}
        self.ratings = RatingsFold(view)
        # league games that finished in this batch, by the position they finished at (rated in that order)
        self._finished: dict[int, tuple[int, Tracked]] = {}
        self.position = view.max_tracking_id(APPLICATION) or 0  # the last position written
        self._changes = Changes(position=self.position)
        self.hooks = HookFold(view.webhook_states(), view.names)
        self.stale = {found.view: found for found in view.stale_views()}

    def process_event(self, domain_event: Any, tracking: Tracking) -> None:
        self.apply([(domain_event, tracking.notification_id)])
        self.flush()

    @property
    def applied(self) -> int:
        """The position of the last event folded into memory (written or not)."""
        return self._changes.position

    @property
    def pending(self) -> bool:
        """Events applied in memory and not written yet."""
        return self._changes.position > self.position

    def apply(self, batch: list[tuple[Any, int]]) -> None:
        """Fold these (event, position) pairs, in log order, into memory.

        Raises ``FoldFailed`` naming the first event not folded (memory is then partly ahead of
        the store: ``reset``).
        """
        try:
            done = self._fold(batch, 0, set())
            while done < len(batch):
                # a game not in memory: read back every such game of the rest of the batch at once
                absent = self._load_missing(batch, done)
                done = self._fold(batch, done, absent)
        except _STORE_ERRORS:
            raise  # reading a game back failed: the store's trouble, not the event's
        except Exception as error:
            # the fold moves the position past each event it folded: the first one beyond it failed
            applied = self._changes.position
            event, position = next((entry for entry in batch if entry[1] > applied), batch[-1])
            raise FoldFailed(position, event, error) from error

    def _fold(self, batch: list[tuple[Any, int]], start: int, absent: set[int]) -> int:
        """Fold from ``start`` on; where it stopped: the end, or an event of a game not in memory.

        ``absent``: the games this ``apply`` looked for in the store and did not find. Only
        those are unknown: a game read back by an earlier batch may have been let go since.

        Each part's fold is guarded (``parts``): an event a part cannot fold marks it stale and
        the others go on. A store that fails is no fault of the event: that stops the batch.
        """
        kinds, games, changes, hooks, stale = self._kinds, self.games, self._changes, self.hooks, self.stale
        for index in range(start, len(batch)):
            event, position = batch[index]
            kind = kinds.get(type(event))
            if kind is None:
                kind = kinds[type(event)] = _kind(type(event))
            if kind == GAME:
                if CORE not in stale:
                    # games are kept by the id's int: hashing a UUID object costs a Python call
                    key = event.originator_id.int
                    tracked = games.get(key)
                    if tracked is None and key not in absent:
                        return index
                    self._fold_game(tracked, key, event, position)
            elif kind == PLAYER:
                # written whatever is stale: an erasure is never held up
                erased = isinstance(event, Player.Erased)
                changes.players.append((event.originator_id, ERASED_NAME if erased else event.name))
                if erased:
                    changes.erased.append(event.originator_id)
                self._guarded(WEBHOOKS, event, position, hooks.player_event, event)
            elif kind == CREATED:
                self._guarded(CORE, event, position, self._fold_created, event, position)
            elif kind == LEAGUE:
                self._guarded(CORE, event, position, self._fold_league, event, changes)
            elif kind == PEOPLE:
                self._guarded(CORE, event, position, self._fold_people, event, changes)
            elif kind == TOURNAMENT:
                self._guarded(TOURNAMENTS, event, position, self._fold_tournament, event, position)
            elif kind == WEBHOOK:
                self._guarded(WEBHOOKS, event, position, hooks.hook_event, event)
            elif kind == MAO_MATCH:
                self._guarded(MAO, event, position, self._fold_mao, event, position, changes)
            changes.position = position
        return len(batch)

    def _fold_game(self, tracked: Tracked | None, key: int, event: Any, position: int) -> None:
        """An event of a game (``None``: one the read models do not know) into its documents, and its
        webhook deliveries."""
        hooks = self.hooks
        watched = (
            tracked is not None and WEBHOOKS not in self.stale and tracked.game.league_id in hooks.leagues
        )
        try:
            if tracked is None:
                raise ProjectionError(f"event {position} is for a game the read models do not know")
            before = turn_of(tracked.game) if watched else None
            tracked.apply(event)
        except _STORE_ERRORS:
            raise
        except Exception as error:
            self._spoil(CORE, event, position, error)
            return
        self._dirty[key] = tracked
        if tracked.results_changed and key not in self._finished and tracked.game.over:
            self._finished[key] = (position, tracked)
        if watched:
            args = (tracked.game, before, event, position, self._changes.deliveries)
            self._guarded(WEBHOOKS, event, position, hooks.game_event, *args)

    def _fold_created(self, event: Any, position: int) -> None:
        key = event.originator_id.int
        tracked = self.games[key] = Tracked.created(event, position)
        table = tracked.game.table
        if table is not None and tracked.game.turn_clock is None:
            table_of = self._tournament(table.tournament_id)
            tracked.ledger.turn_clock = None if table_of is None else table_of.tournament.plan.turn_clock
        self._dirty[key] = tracked

    @staticmethod
    def _fold_league(event: Any, changes: Changes) -> None:
        # a Mao league ranks by matches won, as the others do first; it scores no points
        mao = event.ruleset_name == MAO_RULES
        order = "highest_points" if mao else order_of(ruleset(event.ruleset_name, **event.options))
        changes.leagues.append((event.originator_id, event.name, event.ruleset_name, order))

    def _guarded(self, part: str, event: Any, position: int, fold: Callable[..., None], *args: Any) -> None:
        """``fold(*args)`` unless ``part`` is stale; when it fails, ``part`` is stale from ``event`` on."""
        if part in self.stale:
            return
        deliveries = len(self._changes.deliveries)
        try:
            fold(*args)
        except _STORE_ERRORS:
            raise
        except Exception as error:
            # a fold that failed half way made no deliveries
            del self._changes.deliveries[deliveries:]
            self._spoil(part, event, position, error)

    def _spoil(self, part: str, event: Any, position: int, error: Exception) -> None:
        """``part``, and the parts fed by it, are stale from the event at ``position`` on."""
        # what is in memory of the event's game or tournament is half folded: never written
        if part == CORE:
            self._dirty.pop(event.originator_id.int, None)
            self.games.pop(event.originator_id.int, None)
        elif part == TOURNAMENTS:
            self._dirty_tournaments.pop(event.originator_id, None)
            self.tournaments.pop(event.originator_id, None)
        what = f"event {position} ({type(event).__qualname__} of {getattr(event, 'originator_id', None)})"
        self._stale_from(part, position, f"{what} could not be folded ({type(error).__name__})", error)

    def _stale_from(self, part: str, position: int, reason: str, error: Exception) -> None:
        now = time.time()
        for name in (part, *FED_BY[part]):
            if name in self.stale:
                continue
            said = reason if name == part else f"fed by {part}, which is stale: {reason}"
            self.stale[name] = StaleView(view=name, position=position, reason=said, since=now)
            self._changes.stale.append((name, position, said, now))
        log.error(
            "read models: %s is stale from position %s: %s",
            part,
            position,
            reason,
            exc_info=error,
            extra={"projection": NAME, "view": part, "position": position},
        )

    @staticmethod
    def _fold_people(event: Any, changes: Changes) -> None:
        """A league's member admitted (their standings row of zeros) or removed (their standings
        stay), or a referee appointed. A person admitted and removed in one batch is in at most one
        of the two lists, since the inserts are written before the deletes."""
        league = event.originator_id
        if isinstance(event, League.RefereeAppointed):
            changes.league_people.append((league, event.referee, "referee"))
            return
        person = (league, str(event.player_id), "member")
        if isinstance(event, League.MemberAdmitted):
            changes.standings.append((league, event.player_id, *_NO_MATCH))
            changes.no_league_people = [row for row in changes.no_league_people if row != person]
            changes.league_people.append(person)
        else:
            changes.league_people = [row for row in changes.league_people if row != person]
            changes.no_league_people.append(person)

    def _fold_mao(self, event: Any, position: int, changes: Changes) -> None:
        """A Mao match started, or a decision that dealt or ended a round: its list row; the end
        of the match adds to the standings. A match is kept in memory until it ends."""
        match_id = event.originator_id
        if isinstance(event, MaoGame.Started):
            listed = self.mao[match_id] = started(event)
        elif not changes_list(event):
            return
        else:
            found = self.mao.get(match_id)
            if found is not None:
                listed = found
                decided(listed, event)
            elif self._match_at is not None:
                listed = self.mao[match_id] = Listed.of(self._match_at(match_id, event.originator_version))
            else:
                raise ProjectionError(f"event {position} is for a Mao match the read models do not know")
            rows = match_rows(listed.seats, event, listed.round_no)
            changes.standings += [(listed.league_id, player, *stats) for player, stats in rows]
        if listed.status == "over":
            del self.mao[match_id]
        while len(self.mao) > CACHED_GAMES:  # a match let go is read back when it next changes
            del self.mao[next(iter(self.mao))]
        row = (match_id, listed.league_id, position, listed.status, _encode(listed))
        changes.mao_listed.append(row)

    def _fold_tournament(self, event: Any, position: int) -> None:
        tournament_id = event.originator_id
        if isinstance(event, Tournament.Announced):
            tracked = TrackedTournament.announced(event, position)
            self.tournaments[tournament_id] = tracked
        else:
            found = self._tournament(tournament_id)
            if found is None:
                raise ProjectionError(f"event {position} is for a tournament the read models do not know")
            tracked = found
            tracked.apply(event)
        self._dirty_tournaments[tournament_id] = tracked
        if tracked.tournament.league_id in self.hooks.leagues:
            deliveries = self._changes.deliveries
            fold = self.hooks.tournament_event
            self._guarded(WEBHOOKS, event, position, fold, tracked.tournament, event, position, deliveries)

    def _tournament(self, tournament_id: UUID) -> TrackedTournament | None:
        """The tournament as folded so far: in memory, else read back from its row (None: unknown)."""
        tracked = self.tournaments.get(tournament_id)
        if tracked is None:
            data = self.view.tournament_state(tournament_id)
            if data is None:
                return None
            tracked = self.tournaments[tournament_id] = TrackedTournament.restore(tournament_id, data)
        return tracked

    def _load_missing(self, batch: list[tuple[Any, int]], start: int) -> set[int]:
        """Read back from their rows the games of the batch's rest not in memory; those not found."""
        games, kinds = self.games, self._kinds
        missing: dict[int, UUID] = {}
        created: set[int] = set()
        for event, _ in batch[start:]:
            kind = kinds[type(event)] if type(event) in kinds else _kind(type(event))
            if kind == CREATED:
                created.add(event.originator_id.int)
            elif kind == GAME:
                key = event.originator_id.int
                if key not in games and key not in created:
                    missing[key] = event.originator_id
        for game_id, state in self.view.load_states(missing.values()):
            games[game_id.int] = Tracked.restore(game_id, state)
        return {key for key in missing if key not in games}

    def flush(self) -> int:
        """Write what the applied events changed, with their last position; the position written."""
        changes = self._changes
        if changes.position <= self.position:
            return self.position
        # first, so each rated game's row written below says it is rated
        self._rate(changes)
        deltas: dict[tuple[UUID, UUID], list[int]] = {}
        for tracked in self._dirty.values():
            game_id = tracked.game.id
            facts = tracked.ledger.in_force()
            if tracked.results_changed:
                changes.history += [
                    (player_id, game_id, tracked.ledger.created, _encode(line))
                    for player_id, line in played(tracked, facts)
                ]
                self._count(tracked, contribution(tracked, facts), deltas)
                tracked.results_changed = False
            changes.games.append((game_id, tracked.image(), _encode(game_doc(tracked, facts))))
            game = tracked.game
            due = None
            if not game.over and not game.paused and game.abandoned is None:
                if game.bot_for(game.seat_to_move) is not None:
                    due = game.modified_on
                else:
                    due = turn_deadline(tracked, game.seat_to_move)
            if due is not None:
                changes.bot_turns.append((game_id, due.timestamp()))
                tracked.bot_turn_row = True
            elif tracked.bot_turn_row is not False:
                changes.no_bot_turns.append((game_id,))
                tracked.bot_turn_row = False
            self._list(tracked, changes)
        changes.standings += [(league, player, *stats) for (league, player), stats in deltas.items()]
        for tracked_tournament in self._dirty_tournaments.values():
            tournament = tracked_tournament.tournament
            doc = _encode(tournament_view(tournament))
            changes.tournaments.append(
                (
                    tournament.id,
                    tournament.league_id,
                    tracked_tournament.created,
                    status_of(tournament),
                    tracked_tournament.image(),
                    doc,
                )
            )
            changes.seats += seat_rows(tracked_tournament, tracked_tournament.touched)
        changes.webhooks = self.hooks.rows()
        self.view.write(changes, Tracking(APPLICATION, changes.position))
        self.position = changes.position
        self._let_go(self._dirty.values())
        self._dirty = {}
        for tracked_tournament in self._dirty_tournaments.values():
            tracked_tournament.touched = set()
            if tracked_tournament.tournament.finished or tracked_tournament.tournament.cancelled:
                # no event comes for it any more
                self.tournaments.pop(tracked_tournament.tournament.id, None)
        self._dirty_tournaments = {}
        self._finished = {}
        self._changes = Changes(position=self.position)
        return self.position

    def _rate(self, changes: Changes) -> None:
        """Rate the league games finished in this batch, unless the ratings are stale."""
        if RATINGS in self.stale:
            return
        ratings, history = len(changes.ratings), len(changes.rating_history)
        try:
            self.ratings.fold(self._finished.values(), changes)
        except _STORE_ERRORS:
            raise
        except Exception as error:
            del changes.ratings[ratings:], changes.rating_history[history:]
            first = min(position for position, _ in self._finished.values())
            reason = (
                f"the games finished from position {first} on could not be rated ({type(error).__name__})"
            )
            self._stale_from(RATINGS, first, reason, error)

    @staticmethod
    def _list(tracked: Tracked, changes: Changes) -> None:
        """The game's list row and open dispute, when its status or dispute changed."""
        game = tracked.game
        # a dispute may be raised about a finished game too: it is paused until the ruling
        status = (
            "paused"
            if game.paused
            else "abandoned"
            if game.abandoned is not None
            else "over"
            if game.over
            else "playing"
        )
        dispute = game.dispute
        listed = (status, 0 if dispute is None else dispute.number)
        if tracked.listed == listed:
            return
        changes.listed.append((game.id, game.league_id, tracked.ledger.created, status))
        if dispute is not None:
            # nothing but a ruling happens to a paused game: its last event is the dispute's
            raised = game.modified_on.timestamp()
            row = (game.id, game.league_id, dispute.number, raised, _encode(dispute))
            changes.disputes.append(row)
        elif tracked.listed is None or tracked.listed[1]:
            changes.no_disputes.append((game.id,))
        tracked.listed = listed

    def _count(
        self,
        tracked: Tracked,
        after: list[tuple[Any, ...]] | None,
        deltas: dict[tuple[UUID, UUID], list[int]],
    ) -> None:
        """Put the difference the game's contribution makes to its league's standings into ``deltas``."""
        before = tracked.ledger.counted
        if before == after:
            return
        league = tracked.game.league_id
        assert league is not None
        for rows, sign in ((before or [], -1), (after or [], 1)):
            for player, *stats in rows:
                sums = deltas.setdefault((league, UUID(player)), [0] * len(STATS))
                for index, value in enumerate(stats):
                    sums[index] += sign * value
        tracked.ledger.counted = after

    def _let_go(self, written: Iterable[Tracked]) -> None:
        games = self.games
        for tracked in written:
            if tracked.game.over or tracked.game.abandoned is not None:
                games.pop(tracked.game.id.int, None)
        while len(games) > CACHED_GAMES:
            del games[next(iter(games))]

    def reset(self) -> None:
        """Forget everything not written, and every game in memory; take the store's position again."""
        self.games = {}
        self.mao = {}
        self._dirty = {}
        self.tournaments = {}
        self._dirty_tournaments = {}
        self._finished = {}
        self.ratings.forget()
        self.position = self.view.max_tracking_id(APPLICATION) or 0
        self._changes = Changes(position=self.position)
        self.hooks = HookFold(self.view.webhook_states(), self.view.names)
        self.stale = {found.view: found for found in self.view.stale_views()}

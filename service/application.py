"""The eventsourcing Application: players, leagues and games, stored.

One ``MauMau`` application per process (build it after a fork; its database
pool is per process). Every method is synchronous and thread-safe.

A change to a game is: load it (from its last snapshot and the events after),
check the idempotency key and the version the client saw, let the aggregate
validate and record, save. Two clients racing on one game both pass the
version check, but the store's ``(originator_id, version)`` key lets only one
save: the other gets ``RuleError("stale_version")`` and nothing of theirs is
stored. A command sent again with the same idempotency key returns what the
first one stored, read back from the events, and stores nothing.

Refusals are ``RuleError``s with stable codes: the engine's, plus
``game_not_found``, ``stale_version``, ``game_paused``, ``game_over``,
``not_your_seat``, ``not_allowed``, ``idempotency_key_reused``,
``player_not_found``, ``league_not_found``, ``not_a_member``, ``malformed_name``,
``name_taken`` (two members of one league may not share a display name), ...
"""

import contextlib
import hashlib
import re
import secrets
import threading
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVar
from uuid import NAMESPACE_URL, UUID, uuid5

import msgspec
from eventsourcing.application import AggregateNotFoundError, Application, ProcessingEvent
from eventsourcing.domain import Aggregate
from eventsourcing.persistence import IntegrityError, Mapper, Recording
from eventsourcing.utils import get_topic

from service.domain.adjudication import Ruling
from service.domain.cards import CARD_PATTERN, SUIT_PATTERN, parse_card, parse_suit
from service.domain.commands import Challenge, Command, DrawCard, KeepCard, NameSuit, PlayCard
from service.domain.errors import RuleError
from service.domain.events import HiddenCardsReshuffled, RoundDealt, StockRecycled
from service.domain.fairness import verify
from service.domain.game import Cause, Game, Seat
from service.domain.league import League, Player
from service.domain.names import checked_name, refuse_taken
from service.domain.roles import SYSTEM, Actor
from service.domain.rulebook import MAU, MAU_MAU, NO_CALL
from service.domain.rulesets import check_options, with_options
from service.domain.rulesets import ruleset as make_ruleset
from service.domain.state import State
from service.domain.tournament import Plan, Tournament
from service.domain.views import Entry, TableView, entry_of, table_view
from service.observability import metrics
from service.persistence.group_commit import GroupCommitRecorder
from service.persistence.mapper import MsgspecMapper
from service.settings import Settings, get_settings
from service.tournament_lifecycle import TournamentLifecycle

A = TypeVar("A")

# Game ids made from a creation's idempotency key live under this namespace.
_KEYED_GAMES = uuid5(NAMESPACE_URL, "https://maumau.invalid/games")
# The options a league game may set on top of the league's: how long the match is (a tournament's plan).
MATCH_LENGTH_OPTIONS = ("target_score", "single_round")
# A tournament table's game is created with this key, so its id follows from the table.
_TABLE_KEY = "tournament:{tournament}:round:{round_no}:table:{table}"
_SHUFFLE_KINDS = {RoundDealt: "deal", StockRecycled: "recycle", HiddenCardsReshuffled: "reshuffle"}
_CALLS = {"": NO_CALL, "mau": MAU, "mau_mau": MAU_MAU, "mau mau": MAU_MAU, "maumau": MAU_MAU}


def project(aggregate: Any, events: Any) -> Any:
    """Fold stored events into an aggregate (eventsourcing's own projector checks a Protocol per event)."""
    for event in events:
        aggregate = event.mutate(aggregate)
    return aggregate


class GameCache:
    """The last saved state of recently used games, in this process, and a lock per game.

    A command takes its game's lock, works on the cached game (loading it when
    missing or older than the client's version) and puts it back only once it
    is saved. The store stays the judge: a game changed by another process
    makes the save fail on its version key, the entry is dropped and the game
    loaded again. Readers never see cached objects (``get_game`` loads).
    """

    STRIPES = 64

    def __init__(self, size: int) -> None:
        self.size = size
        self._games: OrderedDict[UUID, Game] = OrderedDict()
        self._lock = threading.Lock()
        self._stripes = [threading.Lock() for _ in range(self.STRIPES)]

    def lock(self, game_id: UUID) -> threading.Lock:
        return self._stripes[hash(game_id) % self.STRIPES]

    def get(self, game_id: UUID) -> Game | None:
        with self._lock:
            game = self._games.get(game_id)
            if game is not None:
                self._games.move_to_end(game_id)
            return game

    def put(self, game: Game) -> None:
        if self.size <= 0:
            return
        with self._lock:
            self._games[game.id] = game
            self._games.move_to_end(game.id)
            while len(self._games) > self.size:
                self._games.popitem(last=False)

    def evict(self, game_id: UUID) -> None:
        with self._lock:
            self._games.pop(game_id, None)


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


class Shuffle(msgspec.Struct, frozen=True, kw_only=True):
    """One shuffle's public record: the commitment always; the salt and order once revealed."""

    number: int  # the event number of the deal or recycle
    round_no: int
    kind: str  # "deal", "recycle", or "reshuffle" (after a void reopened a revealed round)
    commitment: str
    salt: str | None = None
    order: tuple[int, ...] | None = None
    verified: bool | None = None  # None while the salt is secret


class MauMau(TournamentLifecycle, Application[UUID]):
    name = "maumau"
    snapshotting_intervals = {Game: 50}  # noqa: RUF012  (eventsourcing's class-level setting)

    snapshotting_projectors = {Game: project}  # noqa: RUF012

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
        self.snapshotting_intervals = {Game: self.settings.snapshot_interval}
        self.games = GameCache(self.settings.game_cache)
        # told the id of each game a command of this process stored (``projections.live`` where no
        # note of the store tells it)
        self.on_game_saved: list[Callable[[UUID], None]] = []
        super().__init__(env={**self.settings.persistence_env(), **(env or {})})

    def close(self) -> None:
        if isinstance(self.recorder, GroupCommitRecorder):
            self.recorder.close()
        super().close()

    def construct_mapper(self) -> Mapper[UUID]:
        return MsgspecMapper(compressor=self.factory.compressor(), cipher=self.factory.cipher())

    def save(self, *objs: Any, **kwargs: Any) -> list[Recording[UUID]]:
        """``Application.save``, without its runtime Protocol checks of every object (a third of
        a save's CPU); anything other than aggregates goes the stock way."""
        if not all(isinstance(obj, Aggregate) for obj in objs):
            return super().save(*objs, **kwargs)
        processing_event: ProcessingEvent[UUID] = ProcessingEvent()
        for aggregate in objs:
            processing_event.events.extend(aggregate.collect_events())
            processing_event.aggregates[aggregate.id] = aggregate
        processing_event.saved_kwargs.update(kwargs)
        recordings = self._record(processing_event)
        self._take_snapshots(processing_event)
        self._notify(recordings)
        self.notify(processing_event.events)  # eventsourcing's deprecated hook, kept as the stock save does
        return recordings

    def _notify(self, recordings: list[Recording[UUID]]) -> None:
        """eventsourcing's hook after every save (ours and the stock one): count what was stored."""
        metrics.events_appended(len(recordings))

    def _take_snapshots(self, processing_event: Any) -> None:
        for aggregate in processing_event.aggregates.values():
            numbers = [
                e.originator_version for e in processing_event.events if e.originator_id == aggregate.id
            ]
            if numbers:
                self._snapshot_if_due(aggregate, min(numbers), max(numbers))

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
    # players and leagues

    def register_player(self, name: str) -> UUID:
        player = Player.register(name)
        self.save(player)
        return player.id

    def get_player(self, player_id: UUID | str) -> Player:
        return self._get(Player, player_id, "player_not_found", "no such player")

    def rename_player(self, player_id: UUID | str, name: str) -> None:
        """A new name, which must differ from the names of the other members of each of the player's leagues.

        Not atomic with an admission to one of those leagues at the same moment: the two could still
        collide (they save different aggregates); both are rare, admin-driven commands.
        """
        player = self.get_player(player_id)
        name = checked_name(name, "player")
        for league in self._leagues_of(player.id):
            others = [other for other in league.members if other != player.id]
            refuse_taken(name, self._names_of(others), f"the league {league.name!r}")
        player.rename(name)
        self._save_or_stale(player)

    def found_league(
        self, name: str, ruleset: str = "club", options: Mapping[str, Any] | None = None
    ) -> UUID:
        league = League.found(name, ruleset, dict(options or {}))
        self.save(league)
        return league.id

    def get_league(self, league_id: UUID | str) -> League:
        return self._get(League, league_id, "league_not_found", "no such league")

    def admit_member(self, league_id: UUID | str, player_id: UUID | str) -> None:
        player = self.get_player(player_id)
        league = self.get_league(league_id)
        league.admit(player.id, player.name, self._names_of(league.members))
        self._save_or_stale(league)  # a concurrent admission saves the league too: one of them is stale

    def _names_of(self, players: Sequence[UUID]) -> list[str]:
        return [self.get_player(player).name for player in players]

    def _leagues_of(self, player_id: UUID) -> list[League]:
        """The leagues a player is a member of, found from their admissions in the log (no index keeps
        them; a club's log holds few admissions)."""
        topic = get_topic(League.MemberAdmitted)
        found: list[UUID] = []
        start: int | None = None
        while True:
            page = self.recorder.select_notifications(start, 500, topics=[topic], inclusive_of_start=False)
            for notification in page:
                admitted = self.mapper.to_domain_event(notification)
                if admitted.player_id == player_id and admitted.originator_id not in found:
                    found.append(admitted.originator_id)
            if len(page) < 500:
                return [self.get_league(league) for league in found]
            start = page[-1].id

    def appoint_referee(self, league_id: UUID | str, referee: str) -> None:
        league = self.get_league(league_id)
        league.appoint_referee(referee)
        self._save_or_stale(league)

    # ------------------------------------------------------------------
    # tournaments (service.domain.tournament pairs them; these load, create games and save)

    def create_tournament(self, league_id: UUID | str, name: str, plan: Plan) -> UUID:
        """A tournament of the league, on the league's ruleset and options as they are now."""
        league = self.get_league(league_id)
        tournament = Tournament.announce(league.id, name, league.ruleset_name, league.options, plan)
        self.save(tournament)
        return tournament.id

    def get_tournament(self, tournament_id: UUID | str) -> Tournament:
        return self._get(Tournament, tournament_id, "tournament_not_found", "no such tournament")

    def join_tournament(self, tournament_id: UUID | str, player_id: UUID | str) -> None:
        player = self.get_player(player_id)

        def join(tournament: Tournament) -> None:
            if player.id not in self.get_league(tournament.league_id).members:
                raise RuleError("not_a_member", "only the league's members join its tournaments")
            tournament.join(str(player.id))

        self._change_tournament(tournament_id, join)

    def leave_tournament(self, tournament_id: UUID | str, player_id: UUID | str) -> None:
        entrant = str(_uuid(player_id, "player_not_found"))
        self._change_tournament(tournament_id, lambda tournament: tournament.leave(entrant))

    def start_tournament(self, tournament_id: UUID | str, seed: str | None = None) -> None:
        """Close the entries and pair round 1; ``seed`` fixes the seed order (a random one when not given)."""
        seed_text = secrets.token_hex(16) if seed is None else str(seed)
        self._change_tournament(tournament_id, lambda tournament: tournament.start(seed_text))

    def start_round(self, tournament_id: UUID | str, round_no: int) -> list[UUID]:
        """Create the games of round ``round_no``, one per table, and attach them: the game ids, by table.

        Safe to run twice, or at once in two processes: each table's game id follows
        from the key (tournament, round, table), and attaching the same game again
        does nothing. A round already started answers its games and stores nothing.
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
        for table, players in enumerate(played.tables):
            if table not in games:
                games[table] = self.create_game(
                    [tournament.game_seat(entrant) for entrant in players],
                    options=match_length,
                    league_id=tournament.league_id,
                    key=_TABLE_KEY.format(tournament=tournament.id, round_no=round_no, table=table),
                ).game_id

        def attach(tournament: Tournament) -> None:
            for table, game_id in games.items():
                tournament.attach_game(round_no, table, game_id)

        self._change_tournament(tournament.id, attach)
        return [games[table] for table in range(len(games))]

    @staticmethod
    def tournament_of(game: Game) -> UUID | None:
        """The tournament at whose table ``game`` is played (None for any other game): from the key
        ``start_round`` created it with, which its first event keeps."""
        prefix = _TABLE_KEY.split("{", 1)[0]
        for key, (_, number) in game.keys.items():
            if number == 1 and key.startswith(prefix):
                return UUID(key[len(prefix) :].split(":", 1)[0])
        return None

    def record_table_result(self, tournament_id: UUID | str, game_id: UUID | str) -> None:
        """The game at a tournament table is over: record its totals, winners and clock-bot turns.

        After the round's last table the tournament pairs the next round (or finishes).
        Recording the same game again does nothing.
        """
        game = self.get_game(game_id)
        if not game.over:
            raise RuleError("game_not_over", "the game is still being played")
        timed_out = [0] * len(game.seats)
        for event in self.game_events(game.id):
            if isinstance(event, Game.TurnTimedOut):
                timed_out[event.seat] += 1
        totals, winners = tuple(game.state.totals), tuple(game.state.winners)
        self._change_tournament(
            tournament_id,
            lambda tournament: tournament.record_result(game.id, totals, winners, tuple(timed_out)),
        )

    def _change_tournament(self, tournament_id: UUID | str, change: Callable[[Tournament], None]) -> None:
        """Load, change, save; when another process saved first, load again and change again.

        Attaching a game and recording a result are idempotent, so one made meanwhile by
        another process is not made twice; the other commands then answer their refusal.
        """
        for attempt in (1, 2, 3):
            tournament = self.get_tournament(tournament_id)
            change(tournament)
            if not tournament.pending_events:
                return
            try:
                self.save(tournament)
                return
            except IntegrityError:
                if attempt == 3:
                    raise RuleError("stale_version", "the tournament changed meanwhile: try again") from None

    # ------------------------------------------------------------------
    # games: creating and moving

    def create_game(
        self,
        seats: Sequence[Seat | str | UUID],
        *,
        ruleset: str = "club",
        options: Mapping[str, Any] | None = None,
        seed: str | int | None = None,
        deck: Sequence[int | str] | None = None,
        first_dealer: int | None = None,
        league_id: UUID | str | None = None,
        by: Actor = SYSTEM,
        key: str | None = None,
    ) -> Outcome:
        """A new game, dealt: seats are player ids or ``"bot:<name>"``.

        ``seed`` is mixed with fresh secret entropy (``Game.create``), so a chosen seed
        foretells no deck and the same seed gives another deal in another game; a random
        secret one when not given (128 bits);
        ``deck`` (card names or ints, the first card dealt first) and
        ``first_dealer`` fix the first deal, for referees and admins only.
        With ``key``, the game's id follows from the key, so a retried
        creation finds the game made the first time.
        """
        seated = tuple(Seat.parse(seat) for seat in seats)
        players = [seat.name for seat in seated if seat.kind == "player"]
        if len(set(players)) != len(players):
            raise RuleError("player_seated_twice", "a player can take one seat only")
        for player_id in players:
            self.get_player(player_id)
        check_options(options or {})
        league = None
        if league_id is not None:
            league = self.get_league(league_id)
            if set(options or {}) - set(MATCH_LENGTH_OPTIONS):
                raise RuleError(
                    "invalid_option",
                    "a league game plays the league's ruleset and options; only the match length "
                    f"({', '.join(MATCH_LENGTH_OPTIONS)}) may be set",
                )
            rules = with_options(league.rules, **dict(options or {}))
            for player_id in players:
                if UUID(player_id) not in league.members:
                    raise RuleError("not_a_member", f"player {player_id} is not a member of the league")
        else:
            rules = make_ruleset(ruleset, **dict(options or {}))
        cards = None if deck is None else tuple(_card(card) for card in deck)
        seed_text = secrets.token_hex(16) if seed is None else str(seed)
        digest = _digest(
            "CreateGame",
            seated,
            rules,
            seed_text if seed is not None else None,
            cards,
            first_dealer,
            league_id,
        )
        cause = Cause(by, "CreateGame", key, digest if key is not None else "")
        game_id = uuid5(_KEYED_GAMES, key) if key is not None else None
        if game_id is not None:
            found = self._done_before(game_id, cause)
            if found is not None:
                return found
        game = Game.create(
            ruleset=rules,
            seats=seated,
            seed=seed_text,
            cause=cause,
            deck=cards,
            first_dealer=first_dealer,
            league_id=league.id if league is not None else None,
            game_id=game_id,
            entropy=None if self.entropy is None else self.entropy(),
        )
        return self._save_game(game, cause)

    def execute(
        self,
        game_id: UUID | str,
        command: Command,
        *,
        by: Actor = SYSTEM,
        expected_version: int | None = None,
        key: str | None = None,
    ) -> Outcome:
        """One seat's move (an engine command: PlayCard, DrawCard, KeepCard, NameSuit, Challenge)."""
        cause = Cause(by, type(command).__name__, key, _digest(command) if key is not None else "")
        with metrics.CountedMove(command):
            return self._change(
                game_id, cause, expected_version, lambda game, cause: game.execute(command, cause)
            )

    def play(
        self,
        game_id: UUID | str,
        seat: int,
        card: int | str,
        *,
        suit: int | str | None = None,
        call: int | str | None = None,
        **options: Any,
    ) -> Outcome:
        """Play ``card`` ("10H" or its int), naming ``suit`` with a wild card, saying ``call``."""
        command = PlayCard(seat, _card(card), _suit(suit), _call(call))
        return self.execute(game_id, command, **options)

    def draw(self, game_id: UUID | str, seat: int, **options: Any) -> Outcome:
        return self.execute(game_id, DrawCard(seat), **options)

    def keep(self, game_id: UUID | str, seat: int, **options: Any) -> Outcome:
        return self.execute(game_id, KeepCard(seat), **options)

    def name_suit(self, game_id: UUID | str, seat: int, suit: int | str, **options: Any) -> Outcome:
        return self.execute(game_id, NameSuit(seat, _suit(suit, required=True)), **options)

    def challenge(self, game_id: UUID | str, seat: int, **options: Any) -> Outcome:
        return self.execute(game_id, Challenge(seat), **options)

    # ------------------------------------------------------------------
    # disputes and rulings

    def time_out_turn(
        self,
        game_id: UUID | str,
        seat: int,
        *,
        by: Actor = SYSTEM,
        expected_version: int | None = None,
        key: str | None = None,
    ) -> Outcome:
        """The seat's turn clock ran out: a clock bot plays that turn, flagged by ``TurnTimedOut``."""
        cause = Cause(by, "TimeOutTurn", key, _digest("TimeOutTurn", seat) if key else "")
        return self._change(
            game_id, cause, expected_version, lambda game, cause: game.time_out_turn(seat, cause)
        )

    def raise_dispute(
        self,
        game_id: UUID | str,
        *,
        reason: str = "",
        about: int | None = None,
        by: Actor = SYSTEM,
        expected_version: int | None = None,
        key: str | None = None,
    ) -> Outcome:
        """Pause the game at once: every move is refused with ``game_paused`` until a ruling."""
        cause = Cause(by, "RaiseDispute", key, _digest("RaiseDispute", reason, about) if key else "")
        return self._change(
            game_id, cause, expected_version, lambda game, cause: game.raise_dispute(cause, reason, about)
        )

    def give_ruling(
        self,
        game_id: UUID | str,
        ruling: Ruling,
        *,
        note: str = "",
        by: Actor,
        expected_version: int | None = None,
        key: str | None = None,
    ) -> Outcome:
        """A referee's ruling on the open dispute: ``Resume()``, ``Penalty(seat, cards)`` or ``Void(n)``."""
        cause = Cause(by, "GiveRuling", key, _digest("GiveRuling", ruling, note) if key else "")

        def rule(game: Game, cause: Cause) -> None:
            if game.league_id is not None and by.role == "referee":
                self._check_league_referee(game.league_id, by)
            game.give_ruling(ruling, cause, note, lambda number: self.game_at(game.id, number))

        return self._change(game_id, cause, expected_version, rule)

    # ------------------------------------------------------------------
    # reading: the game, replay, the list of events, the shuffles

    def get_game(self, game_id: UUID | str) -> Game:
        return self._get(Game, game_id, "game_not_found", "no such game")

    def game_at(self, game_id: UUID | str, number: int | None = None) -> Game:
        """The game as it was right after event ``number`` (the latest when None)."""
        if number is None:
            return self.get_game(game_id)
        if not isinstance(number, int) or number < 1:
            raise RuleError("no_such_event", f"event numbers start at 1, not {number!r}")
        game = self._get(Game, game_id, "game_not_found", "no such game", version=number)
        if game.version < number:
            raise RuleError("no_such_event", f"the game has {game.version} events, not {number}")
        return game

    def state_at(self, game_id: UUID | str, number: int) -> State:
        return self.game_at(game_id, number).state

    def replay(self, game_id: UUID | str, number: int | None = None) -> TableView:
        """Everything on and under the table right after event ``number``: the referee's view."""
        return table_view(self.game_at(game_id, number))

    def game_events(self, game_id: UUID | str, after: int = 0, limit: int | None = None) -> list[Any]:
        """The stored Game events, in order; ``originator_version`` is each one's number."""
        events = list(self.events.get(_uuid(game_id, "game_not_found"), gt=after or None, limit=limit))
        if after == 0 and not (events and isinstance(events[0], Game.Created)):
            raise RuleError("game_not_found", "no such game")
        return events

    def history(self, game_id: UUID | str, after: int = 0, limit: int | None = None) -> list[Entry]:
        """The numbered list of a game's events, for the referee."""
        return [entry_of(event) for event in self.game_events(game_id, after, limit)]

    def shuffles(self, game_id: UUID | str) -> list[Shuffle]:
        """Every deal, recycle and reshuffle with its commitment; salts and orders of finished rounds,
        verified."""
        found: dict[int, Shuffle] = {}
        round_no = 0
        for event in self.game_events(game_id):
            if isinstance(event, Game.Shuffled):
                fact = event.fact
                if isinstance(fact, RoundDealt):
                    round_no = fact.round_no
                found[event.originator_version] = Shuffle(
                    number=event.originator_version,
                    round_no=round_no,
                    kind=_SHUFFLE_KINDS[type(fact)],
                    commitment=event.commitment,
                    order=tuple(fact.deck if isinstance(fact, RoundDealt) else fact.order),
                )
            elif isinstance(event, Game.RulingGiven) and event.restored is not None:
                round_no = event.restored.round_no  # a void may go back to an earlier round
            elif isinstance(event, Game.DeckRevealed):
                for revealed in event.salts:
                    shuffle = found[revealed.number]
                    found[revealed.number] = msgspec.structs.replace(
                        shuffle,
                        salt=revealed.salt,
                        verified=verify(shuffle.commitment, revealed.salt, shuffle.order or ()),
                    )
        # the order of a shuffle whose salt is still secret is not public
        return [
            shuffle if shuffle.salt is not None else msgspec.structs.replace(shuffle, order=None)
            for shuffle in found.values()
        ]

    # ------------------------------------------------------------------
    # the steps every change takes

    def _change(
        self,
        game_id: UUID | str,
        cause: Cause,
        expected_version: int | None,
        change: Callable[[Game, Cause], None],
    ) -> Outcome:
        """Decide a command on the game as stored, and save what it recorded.

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
            game = self.games.get(game_id)
            as_stored = False  # whether ``game`` was read from the store for this command
            conflicts = 0
            while True:
                if game is not None and expected_version is not None and expected_version > game.version:
                    game, as_stored = self._brought_up_to_date(game), True
                if game is None:
                    game, as_stored = self.get_game(game_id), True
                    self.games.put(game)  # as stored: a refused command (a stale version) finds it here next
                if cause.key is not None:
                    first = game.done_before(cause.key, cause.digest)
                    if first is not None:
                        return self._outcome_from(game.id, first)
                if expected_version is not None and expected_version != game.version:
                    # behind the copy, so behind the store too (a copy is never ahead of it)
                    raise RuleError(
                        "stale_version",
                        f"the game is at event {game.version}, not {expected_version}: load it again",
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
                try:
                    return self._save_game(game, cause)
                except RuleError as error:
                    # another command was stored first (perhaps by another process): look again,
                    # it may be this very command sent twice, or one without a version to keep to
                    conflicts += 1
                    if error.code != "stale_version" or conflicts == 2:
                        raise
                    if cause.key is None and expected_version is not None:
                        raise
                    game = None

    def _brought_up_to_date(self, game: Game) -> Game:
        """The cached game with the events another process stored since folded in: one query for
        a few events instead of loading a snapshot and the events after it."""
        try:
            return project(game, self.events.get(game.id, gt=game.version))
        except BaseException:
            self.games.evict(game.id)  # perhaps half folded: never used again
            raise

    def _save_game(self, game: Game, cause: Cause) -> Outcome:
        events = tuple(game.collect_events())
        try:
            # ``save`` without its generic steps: a move's own path, the hottest in the service
            numbers = self.recorder.insert_events(list(map(self.mapper.to_stored_event, events)))
        except IntegrityError:
            self.games.evict(game.id)
            if cause.key is not None:
                found = self._done_before(game.id, cause)
                if found is not None:
                    return found
            raise RuleError("stale_version", "another move was recorded first: load the game again") from None
        except BaseException:
            # the copy holds events the store may not (the database went away, the commit's fate
            # unknown): kept, it would be ahead of the store and refuse every later move as stale
            self.games.evict(game.id)
            raise
        assert numbers, "the recorder gives each stored event its position in the log"
        metrics.events_appended(len(events))
        self._snapshot_if_due(game, events[0].originator_version, events[-1].originator_version)
        self.games.put(game)
        for told in self.on_game_saved:
            told(game.id)
        return Outcome(game.id, game.version, events, numbers[-1])

    def _done_before(self, game_id: UUID, cause: Cause) -> Outcome | None:
        assert cause.key is not None
        try:
            game = self.repository.get(game_id, projector_func=project)
        except AggregateNotFoundError:
            return None
        if not isinstance(game, Game):
            return None
        first = game.done_before(cause.key, cause.digest)
        return None if first is None else self._outcome_from(game_id, first)

    def _outcome_from(self, game_id: UUID, first: int) -> Outcome:
        """The events of the command that began at event ``first``: up to the next command's.

        Its position is the log's latest, which is at or after the command's own events.
        """
        position = self.recorder.max_notification_id() or 0
        events: list[Any] = []
        after = first - 1
        while True:
            page = list(self.events.get(game_id, gt=after, limit=32))
            for event in page:
                if events and getattr(event, "cause", None) is not None:
                    return Outcome(game_id, events[-1].originator_version, tuple(events), position)
                events.append(event)
            if len(page) < 32:
                return Outcome(game_id, events[-1].originator_version, tuple(events), position)
            after = page[-1].originator_version

    def _get(self, kind: type[A], aggregate_id: UUID | str, code: str, message: str, **kwargs: Any) -> A:
        try:
            found = self.repository.get(_uuid(aggregate_id, code), projector_func=project, **kwargs)
        except AggregateNotFoundError:
            raise RuleError(code, message) from None
        if not isinstance(found, kind):
            raise RuleError(code, message)
        return found

    def _check_league_referee(self, league_id: UUID, by: Actor) -> None:
        if by.id not in self.get_league(league_id).referees:
            raise RuleError("not_allowed", "only the league's referees rule on its games")

    def _save_or_stale(self, aggregate: Any) -> None:
        try:
            self.save(aggregate)
        except IntegrityError:
            raise RuleError("stale_version", "it was changed meanwhile: try again") from None


def _uuid(value: UUID | str, code: str) -> UUID:
    if isinstance(value, UUID):
        return value
    try:
        return UUID(str(value))
    except ValueError:
        raise RuleError(code, f"{value!r} is not an id") from None


def _digest(*parts: Any) -> str:
    return hashlib.sha256(msgspec.msgpack.encode(parts, enc_hook=str)).hexdigest()[:32]


def _card(card: int | str) -> int:
    if isinstance(card, str):
        if re.fullmatch(CARD_PATTERN, card) is None:  # as the document says; parse_card would trim
            raise RuleError(
                "malformed_card",
                f"{card!r} is not a card: write the rank (2-10, J, Q, K, A) then the suit (C, D, H or S)",
            )
        return parse_card(card)
    if type(card) is not int or not 0 <= card < 52:
        raise RuleError("malformed_card", f"{card!r} is not a card")
    return card


def _suit(suit: int | str | None, required: bool = False) -> int:
    if suit is None and not required:
        return -1
    if isinstance(suit, str):
        if re.fullmatch(SUIT_PATTERN, suit) is None:  # as the document says; parse_suit would trim
            raise RuleError("malformed_suit", f"{suit!r} is not a suit: use C, D, H or S")
        return parse_suit(suit)
    if type(suit) is not int or not 0 <= suit < 4:
        raise RuleError("malformed_suit", f"{suit!r} is not a suit")
    return suit


def _call(call: int | str | None) -> int:
    if call is None:
        return NO_CALL
    if isinstance(call, str):
        found = _CALLS.get(call.strip().lower().replace("-", "_"))
        if found is None:
            raise RuleError("malformed_call", f"{call!r} is not a call: say 'mau' or 'mau_mau'")
        return found
    if type(call) is not int or call not in (NO_CALL, MAU, MAU_MAU):
        raise RuleError("malformed_call", f"{call!r} is not a call")
    return call

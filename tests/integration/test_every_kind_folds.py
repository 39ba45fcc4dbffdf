"""Every kind of stored event through every fold, on PostgreSQL and SQLite.

The kinds are found from the classes themselves, not listed: the concrete events of every
aggregate of ``service.domain``, every ruling kind (``Ruling``) and every kind of fact an event
carries in a union (a Mao ``Decided``'s). A corpus made through the application, with every optional
feature on (webhooks of every kind in every league, ratings, Mao, score sheets, tournaments), must
hold each of them; then a fresh runner and a rebuild fold the whole log with no part stale, and each
game's events go through the other folds over kinds: redaction, the record and its text, the web's
words. A new kind fails here until the scenario makes one and every fold handles it.

The engine's facts come from league games played to their end in memory by random legal moves (a
game played move by move through the application costs a second) and stored with one save each.
"""

import importlib
import pkgutil
import random
import types
import typing
from collections.abc import Callable, Iterable, Iterator
from datetime import UTC, datetime, timedelta
from typing import Any
from uuid import UUID

import msgspec
import pytest
from eventsourcing.domain import Aggregate, CanInitAggregate, _created_event_classes
from eventsourcing.utils import get_topic

import service.domain
from service.application import MauMau, credentials, signins
from service.domain.adjudication import Correct, Penalty, Resume, Ruling, Void
from service.domain.cards import FULL_DECK
from service.domain.events import CardPlayed
from service.domain.game import Game
from service.domain.history import Cause
from service.domain.mao.aggregate import MaoGame
from service.domain.mao.bots import Bot, RandomBot, calls_after
from service.domain.mao.commands import (
    REFEREE,
    ApproveRule,
    CallPause,
    Command,
    DealRound,
    EndPause,
    PlayCard,
    ProposeRule,
    RecycleStock,
    RefuseRule,
    Say,
    WriteRule,
)
from service.domain.mao.events import CardPlayed as MaoCardPlayed
from service.domain.mao.events import Event as MaoEvent
from service.domain.mao.learning import LearningBot
from service.domain.mao.redaction import JUDGE, redact_all
from service.domain.mao.redaction import PUBLIC as MAO_PUBLIC
from service.domain.mao.redaction import Viewer as MaoViewer
from service.domain.mao.redaction import redact as redact_fact
from service.domain.mao.state import DEAL, OVER, PLAY, RECYCLE
from service.domain.mao.views import player_view
from service.domain.record_of import record_of
from service.domain.record_parse import parse_record
from service.domain.record_render import render
from service.domain.redaction import FULL, PUBLIC, Table, Viewer, redact
from service.domain.roles import SYSTEM, Actor
from service.domain.scoresheet import RoundEntry
from service.domain.seats import Seat
from service.domain.tournament_plan import Plan
from service.domain.views import entry_of
from service.domain.webhook import EVENT_KINDS, TURN
from service.projections.aside import KEPT_AND_ADDED, tables_of
from service.projections.parts import PARTS
from service.projections.reader import ReadModels
from service.projections.runner import rebuild
from service.projections.store import Views
from service.settings import Settings
from service.usecases.events import event_read
from service.web.i18n import read_catalogue
from service.web.words import event_words, full_event_words
from tests.gameplay import SAME_ENTROPY, acting_seat, game_after, next_command
from tests.integration.projecting import stopped_after_each_batch
from tests.unit.scenario import deck_order
from workers.conduct import Conductor
from workers.inline import Inline

pytestmark = pytest.mark.own_store  # the runner reads the whole log: a store of the test's own

ADMIN = Actor("admin", "ada")
# nobody listens there: the projection makes the deliveries' rows, and nothing here sends them
HOOK_URL = "http://127.0.0.1:9/hook"
# a rule that returns plays and asks for a call the bots do not know
MAO_RULE = 'after hearts: next not 7; after draw: next red; on K: say "long live the king"'
MAO_OPTIONS = {"hand_size": 8, "rounds_to_win": 2}  # big hands and penalties: the stock runs out
PLAYERS = ("Ann", "Ben", "Cid", "Dee", "Eve", "Fay", "Gus", "Hal")
MOST_MOVES = 20_000
ENGLISH = read_catalogue("en").gettext


# ----------------------------------------------------------------------
# the kinds, found from the classes


def domain_aggregates() -> list[type[Aggregate]]:
    """Every aggregate class of ``service.domain`` (each of its modules imported first)."""
    for module in pkgutil.walk_packages(service.domain.__path__, "service.domain."):
        importlib.import_module(module.name)
    found = [cls for cls in subclasses(Aggregate) if cls.__module__.startswith("service.domain")]
    return sorted(set(found), key=lambda cls: cls.__qualname__)


def subclasses(cls: type) -> Iterator[type]:
    for sub in cls.__subclasses__():
        yield sub
        yield from subclasses(sub)


def event_kinds(aggregate: type[Aggregate]) -> set[type]:
    """The aggregate's concrete events: the leaves of its ``Event`` classes, less the "created" events
    eventsourcing defines for every aggregate (``Created``) that it never creates with."""
    ours = {cls for cls in subclasses(aggregate.Event) if cls.__module__.startswith("service.domain")}
    leaves = {cls for cls in ours if not any(sub in ours for sub in cls.__subclasses__())}
    # the "created" classes eventsourcing would create this aggregate with; the others are unused
    creates = set(_created_event_classes[aggregate])
    return {cls for cls in leaves if not issubclass(cls, CanInitAggregate) or cls in creates}


def union_kinds(event_class: type) -> dict[str, set[type]]:
    """The kinds of the facts an event carries in a union of Structs, directly or in a tuple, by field
    (``MaoGame.Decided.facts``: each Mao fact)."""
    found: dict[str, set[type]] = {}
    for field, hint in typing.get_type_hints(event_class).items():
        args = typing.get_args(hint)
        if typing.get_origin(hint) is tuple and len(args) == 2 and args[1] is Ellipsis:
            hint = args[0]
        if typing.get_origin(hint) not in (typing.Union, types.UnionType):
            continue
        members = typing.get_args(hint)
        if all(isinstance(member, type) and issubclass(member, msgspec.Struct) for member in members):
            found[field] = set(members)
    return found


def every_kind() -> tuple[set[type], dict[tuple[type, str], set[type]]]:
    """The events, and the kinds of the facts carried in each event's union fields."""
    events = {kind for aggregate in domain_aggregates() for kind in event_kinds(aggregate)}
    carried = {(event, field): members for event in events for field, members in union_kinds(event).items()}
    return events, carried


def kinds_in_log(app: MauMau) -> tuple[set[type], set[tuple[type, str, type]]]:
    """The events in the application's log, and (event, field, kind) for what their union fields carry."""
    events: set[type] = set()
    carried: set[tuple[type, str, type]] = set()
    fields: dict[type, list[str]] = {}
    start = 1
    while page := app.recorder.select_notifications(start, 1000):
        for notification in page:
            event = app.mapper.to_domain_event(notification)
            kind = type(event)
            events.add(kind)
            if kind not in fields:
                fields[kind] = list(union_kinds(kind))
            for field in fields[kind]:
                value = getattr(event, field)
                for fact in value if isinstance(value, tuple) else (value,):
                    carried.add((kind, field, type(fact)))
        start = page[-1].id + 1
    return events, carried


def test_the_kinds_are_found_from_the_classes_without_the_created_events_no_aggregate_uses() -> None:
    events, carried = every_kind()
    names = {kind.__qualname__ for kind in events}
    assert {"Game.Created", "Game.CardPlayed", "Game.HiddenCardsReshuffled", "MaoGame.Decided"} <= names
    assert {"League.Founded", "Keyring.Opened", "Invitation.Made", "Webhook.Registered"} <= names
    # eventsourcing's own ``Created`` of an aggregate that is created by another event, and the bases
    assert not {"League.Created", "MaoGame.Created", "Game.Fact", "Game.Shuffled"} & names
    assert set(typing.get_args(Ruling)) == carried[(Game.RulingGiven, "ruling")]
    assert {kind.__name__ for kind in carried[(MaoGame.Decided, "facts")]} >= {"RuleRefused", "PauseEnded"}


# ----------------------------------------------------------------------
# the corpus


class Club(msgspec.Struct):
    """What the scenario made: its leagues ("club", "mao", "league 1", ...) and its players, by name."""

    leagues: dict[str, UUID]
    players: dict[str, UUID]


def seat_of(app: MauMau, game_id: UUID, seat: int) -> Actor:
    return Actor("player", app.get_game(game_id).seats[seat].name)


def league_game(app: MauMau, league: UUID, players: Iterable[UUID], seed: str, **options: Any) -> Game:
    """A game of the league, in memory, as the application creates one."""
    return Game.create(
        ruleset=app.get_league(league).rules,
        seats=tuple(Seat("player", str(player)) for player in players),
        seed=seed,
        cause=Cause(ADMIN, "CreateGame"),
        league_id=league,
        entropy=SAME_ENTROPY,
        **options,
    )


def move(game: Game, rng: random.Random, challenge_rate: float = 0.3) -> None:
    """One random legal move of whoever may act (calls forgotten, missed calls challenged)."""
    command = next_command(game.state, rng, challenge_rate)
    player = Actor("player", game.seats[acting_seat(command)].name)
    game.execute(command, Cause(player, type(command).__name__))


def played_out(game: Game, rng: random.Random) -> Game:
    for _ in range(MOST_MOVES):
        if game.over:
            return game
        move(game, rng)
    raise AssertionError(f"the match of {game.ruleset.name} did not end in {MOST_MOVES} moves")


def disputed(app: MauMau, league: UUID, players: list[UUID]) -> Game:
    """A match ruled on three times: a void into a round whose deck was revealed (its hidden cards
    shuffled anew), then a resume, then a penalty; played to its end."""
    game = league_game(app, league, players, "disputed")
    rng = random.Random(4)
    while not any(isinstance(event, Game.DeckRevealed) for event in game.pending_events):
        move(game, rng, challenge_rate=0)
    stored = list(game.pending_events)
    last_play = max(
        event.originator_version
        for event in stored
        if isinstance(event, Game.Fact) and isinstance(event.fact, CardPlayed)
    )
    game.raise_dispute(Cause(ADMIN, "RaiseDispute"), reason="that was not the last card")
    stored = list(game.pending_events)
    game.give_ruling(Void(last_play), Cause(ADMIN, "GiveRuling"), game_after=lambda n: game_after(stored, n))
    move(game, rng)
    game.raise_dispute(Cause(Actor("player", str(players[0])), "RaiseDispute"))
    game.give_ruling(Resume(), Cause(ADMIN, "GiveRuling"))
    game.raise_dispute(Cause(ADMIN, "RaiseDispute"), about=game.version)
    game.give_ruling(Penalty(game.state.turn, 2), Cause(ADMIN, "GiveRuling"), note="table talk")
    return played_out(game, rng)


def forfeited(app: MauMau, league: UUID, players: list[UUID]) -> Game:
    """A match under a turn clock whose first seat lets it run out twice in a row: a clock bot plays
    its first turn, and at the second it forfeits, which ends a match of two."""
    game = league_game(app, league, players, "clocked", turn_clock=60, forfeit_after=2)
    rng = random.Random(2)
    while not game.over:
        if game.seat_to_move == 0:
            game.time_out_turn(0, Cause(SYSTEM, "TimeOutTurn"))
        else:
            move(game, rng, challenge_rate=0)
    return game


# (ruleset, options, seats, seed): league games played to their end; with the club's they make every
# fact of the engine (a skip taken, a deal annulled, a player eliminated, a hand shrunk, a player
# chosen, a face-down play challenged and turned up, a turn passed after a pesten seven, ...)
PRESET_LEAGUES: tuple[tuple[str, dict[str, Any], int, int], ...] = (
    ("classic", {"stack_eights": True}, 3, 1),
    ("101", {}, 3, 0),
    ("faraon", {}, 2, 0),
    ("haft-khabis", {}, 3, 1),
    ("pesten", {}, 3, 0),
    ("club", {"blind": True, "quick": True}, 3, 0),
)


def preset_game(app: MauMau, league: UUID, players: list[UUID], seed: int) -> Game:
    rules = app.get_league(league).rules
    options: dict[str, Any] = {}
    if rules.redeal_four_of_a_kind:
        # four of a kind dealt to the second seat: the deal is annulled and dealt again
        options = {
            "deck": deck_order(rules, len(players), 0, {1: "QC QD QH QS"}, starter="KC"),
            "first_dealer": 0,
        }
    game = league_game(app, league, players, f"{rules.name}-{seed}", **options)
    return played_out(game, random.Random(seed))


class MaoTable:
    """A Mao match's seats played by bots in memory, each bot seeing what the public sees."""

    def __init__(self, game: MaoGame, rng: random.Random, referee: str) -> None:
        self.game = game
        self.rng = rng
        self.referee = f"referee:{referee}"
        self.bots: list[Bot] = [
            LearningBot(rng) if seat % 2 else RandomBot(rng) for seat in range(len(game.seats))
        ]

    def do(self, command: Command, by: str | int) -> list[MaoEvent]:
        """``by``: a seat, or who else asks."""
        before = self.game.state.copy()
        events = self.game.do(command, f"player:{self.game.seats[by]}" if isinstance(by, int) else by)
        for event in events:
            entry = redact_fact(event, MAO_PUBLIC, before)
            event.apply(before)
            for bot in self.bots:
                bot.observe(entry)
        return events

    def deal(self) -> None:
        deck = list(FULL_DECK)
        self.rng.shuffle(deck)
        self.do(DealRound(tuple(deck)), self.referee)

    def recycle(self) -> None:
        order = self.game.state.discard[:-1]
        self.rng.shuffle(order)
        self.do(RecycleStock(tuple(order)), "server")

    def play_round(self) -> None:
        for _ in range(MOST_MOVES):
            s = self.game.state
            if s.phase == RECYCLE:
                self.recycle()
            elif s.phase != PLAY:
                return
            else:
                seat = s.turn
                command = self.bots[seat].choose(player_view(s, seat))
                events = self.do(command, seat)
                if isinstance(command, PlayCard) and any(isinstance(e, MaoCardPlayed) for e in events):
                    for words in calls_after(command.card, player_view(self.game.state, seat)):
                        if self.game.state.phase == RECYCLE:
                            self.recycle()
                        window = self.game.state.window
                        if window is None or window.seat != seat:
                            break
                        self.do(Say(seat, words), seat)
        raise AssertionError(f"a Mao round did not end in {MOST_MOVES} acts")


def mao_match(app: MauMau, league: UUID, players: list[UUID], referee: str) -> MaoGame:
    """A match judged by a referee: a rule written, a play out of turn, table talk, a pause with talk
    about the turn order in it; rounds
    played by bots; between two rounds a rule proposed and refused, another proposed and approved."""
    created = app.create_mao_game(league, [str(player) for player in players], REFEREE, first_dealer=0)
    game = app.get_mao_game(created.id)
    table = MaoTable(game, random.Random(2), referee)
    table.do(WriteRule(MAO_RULE), table.referee)
    table.deal()
    s = game.state
    other = (s.turn + 1) % len(players)
    table.do(PlayCard(other, next(card for card in FULL_DECK if s.hands[other] >> card & 1)), other)
    table.do(Say(s.turn, "good luck"), s.turn)
    table.do(CallPause(other), other)
    table.do(Say(s.turn, "whose turn is it", about="order"), s.turn)
    table.do(EndPause(other), other)
    proposed = False
    while game.state.phase != OVER:
        table.play_round()
        winner = game.state.last_winner
        if game.state.phase == DEAL and not proposed and winner >= 0:
            table.do(ProposeRule(winner, 'on A: say "hello there"'), winner)
            table.do(RefuseRule(), table.referee)
            table.do(ProposeRule(winner, "after Q: next black"), winner)
            table.do(ApproveRule(), table.referee)
            proposed = True
        if game.state.phase == DEAL:
            table.deal()
    app.save(game)
    return game


def webhooks_of_every_kind(app: MauMau, league: UUID, players: list[UUID]) -> None:
    followed = [str(player) for player in players]
    for kind in EVENT_KINDS:
        app.register_webhook(league, HOOK_URL, [kind], followed if kind == TURN else [])


def tournaments(app: MauMau, league: UUID, people: dict[str, UUID]) -> None:
    """A swiss played by bots through the workers' steps, with a check-in (Ben does not show), a
    player who joins and leaves, an edit, and Ann's turns played by the clock bot until she forfeits;
    one cancelled with its table in play (abandoned); a single elimination at real tables, rounds
    entered and confirmed, whose first table is corrected twice after its round was decided: kept
    out, then taken."""
    steps = Inline()
    conductor = Conductor(app, steps)
    starts = datetime.now(UTC) + timedelta(hours=1)
    cup = app.create_tournament(
        league,
        "Spring cup",
        Plan(
            format="swiss",
            table_size=2,
            rounds=1,
            single_round=True,
            places=4,
            turn_clock=30,
            starts_at=starts,
            check_in_minutes=120,
        ),
    )
    for name in ("Ann", "Ben", "Cid"):
        app.join_tournament(cup, people[name])
    app.leave_tournament(cup, people["Cid"])
    app.edit_tournament(cup, "Spring cup 2026")
    app.check_in_tournament(cup, people["Ann"])
    conductor.conduct_tournament(cup, starts + timedelta(seconds=1))
    steps.run(conductor)
    assert app.get_tournament(cup).finished

    called_off = app.create_tournament(
        league, "Rainy cup", Plan(format="swiss", table_size=2, rounds=1, in_person_tables=1)
    )
    for name in ("Dee", "Eve"):
        app.join_tournament(called_off, people[name])
    app.start_tournament(called_off)
    conductor.conduct_tournament(called_off)
    assert len(app.cancel_tournament(called_off, "the hall is flooded", by=ADMIN)) == 1

    knockout = app.create_tournament(
        league,
        "Paper knockout",
        Plan(format="single_elimination", table_size=2, single_round=True, in_person_tables=2),
    )
    for name in ("Ben", "Fay", "Gus", "Hal"):
        app.join_tournament(knockout, people[name])
    app.start_tournament(knockout)
    conductor.conduct_tournament(knockout)
    made = app.get_tournament(knockout).rounds[0].games
    games = [made[table] for table in sorted(made)]
    for game_id in games:
        app.enter_round(game_id, winner=0, points=[0, 5], by=seat_of(app, game_id, 0))
        app.confirm_round(game_id, 1, by=seat_of(app, game_id, 1))
        conductor.advance_game(game_id)
    for entry in (RoundEntry(winner=1, points=(9, 0)), RoundEntry(winner=0, points=(0, 3))):
        app.raise_dispute(games[0], reason="that is not how it ended", by=seat_of(app, games[0], 1))
        app.give_ruling(games[0], Correct(1, entry), by=ADMIN)
        conductor.advance_game(games[0])


def corpus(app: MauMau) -> Club:
    """Every kind of event, stored in the application's log."""
    players = {name: app.register_player(name) for name in PLAYERS}
    app.rename_player(players["Gus"], "Gus the Elder")
    rita = credentials.issue(app, "referee", None, "Rita")
    credentials.admin(app, "Ada")
    phone = credentials.issue(app, "player", str(players["Ann"]), "Ann's phone")
    credentials.issue(app, "player", str(players["Ann"]), "Ann's laptop", minted_by=phone.credential_id)
    credentials.revoke(app, phone.credential_id)  # and the laptop's token, minted with it

    presets = [
        app.found_league(f"League {number}", ruleset, options)
        for number, (ruleset, options, _, _) in enumerate(PRESET_LEAGUES, 1)
    ]
    club, mao = app.found_league("Thursday club"), app.found_league("Mao night", "mao", MAO_OPTIONS)
    leagues = {"club": club, "mao": mao} | {f"league {n}": league for n, league in enumerate(presets, 1)}
    everyone = list(players.values())
    for league in leagues.values():
        for player in everyone:
            app.admit_member(league, player)
        webhooks_of_every_kind(app, league, everyone)
    for league in (club, mao):
        app.appoint_referee(league, rita.subject)
    invitation, code = app.make_invitation(club, datetime.now(UTC) + timedelta(days=7), 2, "admin:ada")
    app.redeem_invitation(code, "Ivy")
    app.revoke_invitation(invitation.id, "admin:ada")
    signins.choose_password(app, players["Ann"], "a long passphrase")  # chosen, then changed
    signins.choose_password(app, players["Ann"], "another long one")
    _, link = signins.make_link(app, players["Ann"], "admin:ada", datetime.now(UTC) + timedelta(minutes=15))
    signins.use_link(app, link)
    spare, _ = app.register_webhook(club, HOOK_URL, ["dispute_raised", "ruling_given"])
    app.rotate_webhook_secret(spare)
    app.disable_webhook(spare, "the receiver is being moved")

    ann, ben, cid, dee = everyone[:4]
    app.save(disputed(app, club, [ann, ben]))
    app.enable_webhook(spare)
    app.save(forfeited(app, club, [cid, dee]))
    for (_, _, seats, seed), league in zip(PRESET_LEAGUES, presets, strict=True):
        app.save(preset_game(app, league, everyone[:seats], seed))
    mao_match(app, mao, everyone[:4], rita.subject)
    tournaments(app, club, players)

    app.remove_webhook(spare)
    app.remove_member(club, players["Eve"])
    app.dismiss_referee(club, rita.subject)  # after the club's games: the rulings stay
    # a Mao match in play when Hal is erased: his seat forfeits (``MaoGame.SeatForfeited``)
    app.create_mao_game(mao, [str(players["Hal"]), str(ann), "bot:random"], "server")
    app.erase_player(players["Hal"])
    return Club(leagues=leagues, players=players)


# ----------------------------------------------------------------------
# the folds


def missing_kinds(app: MauMau) -> list[str]:
    """What the log lacks of every kind, each said as the step to add."""
    events, carried = every_kind()
    found_events, found_carried = kinds_in_log(app)
    missing = [kind.__qualname__ for kind in events - found_events]
    for (event, field), members in carried.items():
        seen = {kind for in_event, in_field, kind in found_carried if (in_event, in_field) == (event, field)}
        missing += [f"{event.__qualname__}.{field} {kind.__name__}" for kind in members - seen]
    return sorted(missing)


def read_to_the_end(reader: ReadModels, fold: Callable[[], object], last: int) -> None:
    """``fold`` the log into the read models: every part folds every event, to the log's end."""
    fold()
    stale = [f"{found.view} from {found.position}: {found.reason}" for found in reader.views.stale_views()]
    assert stale == [], f"a part of the read models could not fold an event: {stale}"
    assert reader.views.position() == last


def deliveries(views: Views) -> list[str]:
    """Every delivery the read models made (not the workers' tries), in an order of its own."""
    table = views.dialect.table(KEPT_AND_ADDED)
    found = views.select(f"SELECT delivery_id, hook_id, position, kind, payload FROM {table}", ())
    return sorted(repr(row) for row in found)


def rows(views: Views) -> dict[str, list[str]]:
    """Every row of the tables a rebuild replaces, by table, in an order of their own."""
    return {
        table: sorted(repr(row) for row in views.select(f"SELECT * FROM {views.dialect.table(table)}", ()))
        for table in tables_of(PARTS)
        if table != KEPT_AND_ADDED
    }


def created_ids(app: MauMau, kind: type) -> list[UUID]:
    """The aggregates whose first event, of ``kind``, is in the log, oldest first."""
    found: list[UUID] = []
    start = 1
    while page := app.recorder.select_notifications(start, 1000, topics=[get_topic(kind)]):
        found += [UUID(str(notification.originator_id)) for notification in page]
        start = page[-1].id + 1
    return found


def through_the_other_folds(app: MauMau, club: Club) -> int:
    """Each game's events redacted for every sight, in the API's shape and the web's words, and as a
    record whose text reads back line for line; each Mao match's facts redacted. How many game events
    went through."""
    names = {str(player): app.get_player(player).name for player in club.players.values()}
    folded = 0
    for game_id in created_ids(app, Game.Created):
        events = app.game_events(game_id)
        created = events[0]
        table = Table(seats=len(created.seats), hand_size=created.ruleset.hand_size)
        seats = [names.get(seat.name, seat.name) for seat in created.seats]
        for viewer in (PUBLIC, Viewer.at(0), FULL):
            entries = [redact(entry_of(event), viewer, table) for event in events]
            for entry in entries:
                # a kind redaction does not know shows the public nothing at all
                assert entry.data or viewer != PUBLIC, f"the public sees nothing of a {entry.type}"
                event_read(entry)
                said = full_event_words if viewer.full else event_words
                assert said(ENGLISH, entry, seats, rules=created.ruleset) != ""
            record = record_of(str(game_id), entries, names, viewer)
            lines = parse_record(render(record)).lines
            assert [type(line) for line in lines] == [type(line) for line in record.lines]
        folded += len(events)
    for match_id in created_ids(app, MaoGame.Started):
        match = app.get_mao_game(match_id)
        for mao_viewer in (MAO_PUBLIC, MaoViewer.at(0), JUDGE):
            assert len(redact_all(match.facts, mao_viewer)) == len(match.facts)
    return folded


def every_feature_folded(reader: ReadModels, club: Club) -> None:
    """The corpus reached each optional part: deliveries of every kind, ratings in every card
    league, a Mao match in its league's standings."""
    made = {
        row.kind
        for state in reader.views.webhook_states()
        for row in reader.views.deliveries.of_hook(msgspec.msgpack.decode(state)["hook_id"], 10_000)
    }
    assert made == set(EVENT_KINDS)
    for name, league in club.leagues.items():
        if name != "mao":
            ratings = reader.ratings(league)
            assert ratings is not None and ratings.rows, f"no ratings in the {name} league"
    standings = reader.standings(club.leagues["mao"])
    assert standings is not None and any(row.matches_played for row in standings.rows)


def test_every_kind_of_event_in_the_log_is_folded_by_every_fold(
    app: MauMau, settings: Settings, reader: ReadModels
) -> None:
    club = corpus(app)
    missing = missing_kinds(app)
    assert missing == [], (
        f"the scenario makes no {', '.join(missing)}: "
        "add a step that makes one, and make every fold handle it"
    )
    last = app.recorder.max_notification_id() or 0

    # a runner stopped after each batch of 11 events (it folds on to the end of the change reached),
    # and another started, as often as it takes
    read_to_the_end(reader, lambda: stopped_after_each_batch(settings, 11, last), last)
    every_feature_folded(reader, club)
    by_batches, delivered = rows(reader.views), deliveries(reader.views)
    read_to_the_end(reader, lambda: rebuild(settings), last)
    every_feature_folded(reader, club)
    # the same read models as one fold of the whole log; a rebuild keeps the deliveries made and adds
    # those it makes anew that were not (their ids follow from the hook, position and kind): none
    assert rows(reader.views) == by_batches
    assert deliveries(reader.views) == delivered

    assert through_the_other_folds(app, club) > 0

"""The msgspec mapper: every stored event decodes to an equal event, compactly."""

import dataclasses
import random
import uuid

import msgspec
import pytest
from eventsourcing.domain import Aggregate
from eventsourcing.persistence import MapperDeserialisationError, StoredEvent

from service.domain.adjudication import Correct, Penalty, Resume, Void
from service.domain.cards import parse_card
from service.domain.game import Game
from service.domain.game_facts import FACT_EVENTS
from service.domain.history import Cause
from service.domain.league import League, Player
from service.domain.presets import CLUB
from service.domain.roles import SYSTEM, Actor
from service.domain.ruleset_options import ruleset
from service.domain.scoresheet import RoundEntry
from service.domain.seats import Seat, TableRef
from service.persistence.mapper import MsgspecMapper
from tests.gameplay import SAME_ENTROPY, next_command

REFEREE = Actor("referee", "rita")


def round_trip(mapper: MsgspecMapper, event):
    stored = mapper.to_stored_event(event)
    assert isinstance(stored, StoredEvent)
    return stored, mapper.to_domain_event(stored)


def whole_game_events(seed: int = 1, name: str = "club", seats: int = 6, **options: object) -> list:
    game = Game.create(
        ruleset=ruleset(name, **{"target_score": 50, "hand_size": 8, **options}),
        seats=tuple(Seat("bot", "random") for _ in range(seats)),
        seed=f"mapper {seed}",
        cause=Cause(SYSTEM, "CreateGame", "key", "digest"),
        entropy=SAME_ENTROPY,
    )
    rng = random.Random(seed)
    events = list(game.collect_events())
    while not game.over:
        if rng.random() < 0.02 and not game.paused:
            game.raise_dispute(Cause(REFEREE, "RaiseDispute"), reason="why", about=3)
            game.give_ruling(Penalty(0, 1), Cause(REFEREE, "GiveRuling"), note="n")
            game.raise_dispute(Cause(REFEREE, "RaiseDispute"))
            game.give_ruling(Resume(), Cause(REFEREE, "GiveRuling"))
        game.execute(next_command(game.state, rng), Cause(SYSTEM, "Move"))
        events += game.collect_events()
    return events


# the events of a match's structure that club never gives: tests/unit/test_round_rules_stored.py;
# a skip taken, which classic's stack_eights gives, and a turn passed, which pesten's sevens and kings give
NOT_IN_CLUB = {Game.DealAnnulled, Game.PlayerEliminated, Game.HandShrank, Game.SkipTaken, Game.TurnPassed}  # type: ignore[attr-defined]
# the events of the blind modifier: a game of its own below
BLIND_EVENTS = {Game.DeclarationChallenged, Game.DeclarationsRevealed}  # type: ignore[attr-defined]


def test_every_event_of_a_whole_game_round_trips():
    mapper = MsgspecMapper()
    events: list = whole_game_events(0, "haft-khabis")  # its twos make a player choose who draws
    events += whole_game_events(0, "classic", seats=3, stack_eights=True)
    assert Game.SkipTaken in {type(event) for event in events}  # type: ignore[attr-defined]
    events += whole_game_events(0, "pesten", seats=3)
    assert Game.TurnPassed in {type(event) for event in events}  # type: ignore[attr-defined]
    events += whole_game_events(0, "club", blind=True, quick=True)  # several cards and face down
    assert {type(event) for event in events} >= BLIND_EVENTS
    in_club = set(FACT_EVENTS.values()) - NOT_IN_CLUB - BLIND_EVENTS
    for seed in range(1, 40):
        events += whole_game_events(seed)
        if in_club <= {type(event) for event in events}:
            break
    assert in_club <= {type(event) for event in events}
    for event in events:
        stored, back = round_trip(mapper, event)
        assert back == event
        assert type(back) is type(event)
        assert stored.topic == f"service.domain.game:{type(event).__qualname__}"


def test_a_played_card_is_stored_in_a_few_bytes():
    mapper = MsgspecMapper()
    played = next(e for e in whole_game_events() if type(e).__name__ == "CardPlayed")
    stored = mapper.to_stored_event(played)
    assert len(stored.state) < 40


def test_a_void_ruling_and_a_snapshot_round_trip():
    mapper = MsgspecMapper()
    game = Game.create(
        ruleset=CLUB, seats=(Seat("bot", "random"),) * 3, seed="v", cause=Cause(SYSTEM, "CreateGame")
    )
    first = Game.from_image(game.id, game.version, game.image())
    game.raise_dispute(Cause(REFEREE, "RaiseDispute"))
    game.give_ruling(Void(3), Cause(REFEREE, "GiveRuling"), game_after=lambda n: first)
    for event in game.collect_events():
        assert round_trip(mapper, event)[1] == event
    snapshot = Game.Snapshot.take(game)
    back = round_trip(mapper, snapshot)[1]
    assert back == snapshot
    assert back.mutate(None).image() == game.image()


def test_player_and_league_events_round_trip():
    mapper = MsgspecMapper()
    player = Player.register("Ann")
    player.rename("Anna")
    league = League.found("Tuesdays", "club", {"target_score": 50, "single_round": False})
    league.admit(player.id)
    league.appoint_referee("rita")
    league.dismiss_referee("rita")
    for event in [*player.collect_events(), *league.collect_events()]:
        assert round_trip(mapper, event)[1] == event


def test_a_league_stored_as_before_dismissals_loads_with_its_referee_and_dismisses_them():
    mapper = MsgspecMapper()
    league = League.found("Tuesdays")
    league.appoint_referee("rita")
    stored = [mapper.to_stored_event(event) for event in league.collect_events()]  # no dismissal in them
    loaded = None
    for row in stored:
        loaded = mapper.to_domain_event(row).mutate(loaded)
    assert isinstance(loaded, League) and loaded.referees == ("rita",)
    loaded.dismiss_referee("rita")
    assert loaded.referees == ()


def test_any_dataclass_event_round_trips():
    class Thing(Aggregate):
        class Event(Aggregate.Event):
            pass

        class Named(Event):
            name: str
            tags: tuple[str, ...]
            owner: uuid.UUID

    thing = Thing()
    thing.trigger_event(Thing.Named, name="x", tags=("a", "b"), owner=uuid.uuid4())
    mapper = MsgspecMapper()
    for event in thing.collect_events():
        assert round_trip(mapper, event)[1] == event


class Before(Aggregate):
    class Made(Aggregate.Created):
        name: str

    class Changed(Aggregate.Event):
        pass

    def __init__(self, name: str) -> None:
        self.name = name


class After(Aggregate):
    """``Before`` as it was later written: fields with defaults added at the end of two events."""

    class Made(Aggregate.Created):
        name: str
        by: uuid.UUID | None = None
        tags: list[str] = dataclasses.field(default_factory=list)

    class Changed(Aggregate.Event):
        cause: uuid.UUID | None = None

    def __init__(self, name: str, by: uuid.UUID | None = None, tags: list[str] | None = None) -> None:
        self.name = name


class Upcast(Aggregate):
    """``Before`` as written later still: a field whose value in older events follows from another."""

    class Made(Aggregate.Created):
        name: str
        initial: str = ""

        @staticmethod
        def upcast_initial(state: dict) -> str:
            return state["name"][:1]

    def __init__(self, name: str, initial: str = "") -> None:
        self.name = name
        self.initial = initial


def later(stored: StoredEvent, name: str) -> StoredEvent:
    """``stored`` as a later version of its class reads it: the same bytes under the class ``name``."""
    topic = stored.topic.replace(":Before.", f":{name}.")
    return StoredEvent(stored.originator_id, stored.originator_version, topic, stored.state)


def test_an_event_stored_before_its_class_gained_a_field_with_an_upcast_gets_the_upcasts_value():
    mapper = MsgspecMapper()
    (made,) = Before(name="old").collect_events()
    back = mapper.to_domain_event(later(mapper.to_stored_event(made), "Upcast"))
    assert isinstance(back, Upcast.Made) and (back.name, back.initial) == ("old", "o")
    # an event stored with the field keeps what it holds, the default included: no upcast runs
    (made,) = Upcast(name="new").collect_events()
    assert round_trip(mapper, made)[1].initial == ""


def table_game(cause: Cause, table: TableRef | None = None) -> Game:
    players = tuple(Seat("player", str(uuid.UUID(int=n))) for n in (1, 2))
    return Game.create(ruleset=CLUB, seats=players, seed="t", cause=cause, entropy=SAME_ENTROPY, table=table)


TABLE = TableRef(uuid.UUID(int=7), 2, 1)
TABLE_KEY = f"tournament:{TABLE.tournament_id}:round:2:table:1"  # how the version before named it


def test_a_game_created_for_a_tournaments_table_stores_the_table_in_its_created_event():
    mapper = MsgspecMapper()
    game = table_game(Cause(SYSTEM, "CreateGame", TABLE_KEY, "d"), TABLE)
    created = game.collect_events()[0]
    assert isinstance(created, Game.Created) and created.table == TABLE
    back = round_trip(mapper, created)[1]
    assert back == created and back.mutate(None).table == TABLE
    snapshot = round_trip(mapper, Game.Snapshot.take(game))[1]
    assert snapshot.mutate(None).table == TABLE


def test_a_tables_game_created_before_games_carried_their_table_gets_it_from_its_key_once():
    mapper = MsgspecMapper()
    game = table_game(Cause(SYSTEM, "CreateGame", TABLE_KEY, "d"), TABLE)
    stored = mapper.to_stored_event(game.collect_events()[0])
    # as the version before stored it: the same array without ``table``
    fields = msgspec.msgpack.decode(stored.state)
    older = dataclasses.replace(stored, state=msgspec.msgpack.encode(fields[:-1]))
    decoded = mapper.to_domain_event(older)
    assert decoded.table == TABLE and decoded.mutate(None).table == TABLE
    # another game of that version: its key names no table
    for cause in (Cause(SYSTEM, "CreateGame", "admin:a:tournament-ish", "d"), Cause(SYSTEM, "CreateGame")):
        other = mapper.to_stored_event(table_game(cause).collect_events()[0])
        fields = msgspec.msgpack.decode(other.state)
        older = dataclasses.replace(other, state=msgspec.msgpack.encode(fields[:-1]))
        assert mapper.to_domain_event(older).table is None


def test_a_snapshot_taken_before_games_carried_their_table_gets_it_from_the_key_of_the_games_creation():
    mapper = MsgspecMapper()
    game = table_game(Cause(SYSTEM, "CreateGame", TABLE_KEY, "d"), TABLE)
    stored = mapper.to_stored_event(Game.Snapshot.take(game))
    # as the version before stored it: the image without ``table``
    timestamp, topic, image = msgspec.msgpack.decode(stored.state)
    del image["table"]
    older = dataclasses.replace(stored, state=msgspec.msgpack.encode([timestamp, topic, image]))
    assert mapper.to_domain_event(older).mutate(None).table == TABLE
    image["keys"] = {}  # a read model's copy keeps no keys: no table (the projection reads ``Created``)
    older = dataclasses.replace(stored, state=msgspec.msgpack.encode([timestamp, topic, image]))
    assert mapper.to_domain_event(older).mutate(None).table is None


def test_an_event_stored_before_its_class_gained_fields_with_defaults_still_decodes():
    mapper = MsgspecMapper()
    before = Before(name="old")
    before.trigger_event(Before.Changed)
    for event in before.collect_events():
        stored = mapper.to_stored_event(event)
        back = mapper.to_domain_event(later(stored, "After"))
        assert back.timestamp == event.timestamp and back.originator_id == before.id
        if isinstance(back, After.Made):
            assert (back.name, back.by, back.tags) == ("old", None, [])
        else:
            assert isinstance(back, After.Changed) and back.cause is None


def test_a_game_created_before_games_drew_entropy_still_decodes_and_its_chance_follows_its_seed():
    mapper = MsgspecMapper()
    game = Game.create(ruleset=CLUB, seats=(Seat("bot", "random"),) * 2, seed="old", cause=Cause(SYSTEM, "C"))
    created = game.collect_events()[0]
    stored = mapper.to_stored_event(created)
    # as stored before ``entropy`` was added: the same array without it, the clock's two fields,
    # ``in_person`` and ``table``
    fields = msgspec.msgpack.decode(stored.state)
    older = dataclasses.replace(stored, state=msgspec.msgpack.encode(fields[:-5]))
    decoded = mapper.to_domain_event(older)
    assert decoded.entropy == "" and decoded.seed == "old"
    assert (decoded.turn_clock, decoded.forfeit_after) == (None, 0)  # no clock, never forfeits
    assert decoded.mutate(None).seed == "old"  # its shuffles went on following the seed alone
    assert decoded.in_person is False
    # a shorter array than any older version of the class is still refused
    with pytest.raises(MapperDeserialisationError):
        mapper.to_domain_event(dataclasses.replace(stored, state=msgspec.msgpack.encode(fields[:3])))


def test_a_league_founded_before_leagues_had_time_zones_still_decodes_and_is_in_utc():
    mapper = MsgspecMapper()
    founded = League.found("Old club", time_zone="Europe/Berlin").collect_events()[0]
    stored = mapper.to_stored_event(founded)
    # as stored before ``time_zone`` was added: the same array without its last field
    fields = msgspec.msgpack.decode(stored.state)
    assert fields[-1] == "Europe/Berlin"
    older = dataclasses.replace(stored, state=msgspec.msgpack.encode(fields[:-1]))
    decoded = mapper.to_domain_event(older)
    assert decoded.name == "Old club" and decoded.time_zone == "UTC"
    assert decoded.mutate(None).time_zone == "UTC"


def test_the_events_and_snapshot_of_a_game_played_in_person_round_trip():
    mapper = MsgspecMapper()
    players = tuple(Seat("player", str(uuid.UUID(int=n))) for n in (1, 2))
    game = Game.create(
        ruleset=CLUB, seats=players, seed="p", cause=Cause(SYSTEM, "CreateGame"), in_person=True
    )
    stored = list(game.collect_events())
    ann, ben = (Actor("player", seat.name) for seat in players)
    game.enter_round(
        RoundEntry(winner=0, hands=((), (parse_card("KC"), parse_card("7D")))), Cause(ann, "EnterRound")
    )
    game.confirm_round(1, Cause(ben, "ConfirmRound"))
    game.raise_dispute(Cause(ben, "RaiseDispute"))
    stored += game.collect_events()
    replayed = list(stored)

    def after(number: int) -> Game:
        again = None
        for event in replayed[:number]:
            again = event.mutate(again)
        return again

    game.give_ruling(
        Correct(1, RoundEntry(winner=0, points=(0, 12))), Cause(REFEREE, "GiveRuling"), game_after=after
    )
    stored += game.collect_events()
    for event in stored:
        assert round_trip(mapper, event)[1] == event
    snapshot = Game.Snapshot.take(game)
    back = round_trip(mapper, snapshot)[1]
    assert back == snapshot
    assert back.mutate(None).image() == game.image()
    assert back.mutate(None).rounds()[0].corrections[0].replaced.hands == (
        (),
        (parse_card("KC"), parse_card("7D")),
    )

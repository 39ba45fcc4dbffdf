"""Redaction: a seat sees its own cards and the table, the public only the table, a referee all."""

import random
import uuid
from datetime import UTC, datetime
from typing import Any

import msgspec
import pytest

from service.domain.adjudication import Void
from service.domain.cards import FULL_DECK, format_card, format_cards, parse_card
from service.domain.engine import fold
from service.domain.events import RoundEnded
from service.domain.game import Game
from service.domain.game_facts import FACT_EVENTS
from service.domain.history import Cause
from service.domain.presets import CLUB
from service.domain.redaction import FULL, PUBLIC, Table, Viewer, redact
from service.domain.roles import SYSTEM, Actor
from service.domain.ruleset_options import ruleset
from service.domain.seats import Seat, TableRef
from service.domain.views import Entry, entry_of
from tests.card_names import card_names
from tests.gameplay import SAME_ENTROPY, game_after, next_command, voided_into_a_revealed_round

PLAYERS = [str(uuid.UUID(int=n)) for n in range(1, 5)]
REFEREE = Actor("referee", "rita")


def new_game(seats: int, seed: str, rules=CLUB, **kwargs) -> Game:
    return Game.create(
        ruleset=rules,
        seats=tuple(Seat("player", PLAYERS[i]) for i in range(seats)),
        seed=seed,
        cause=Cause(kwargs.pop("by", SYSTEM), "CreateGame"),
        entropy=kwargs.pop("entropy", SAME_ENTROPY),  # each seed deals the same cards every run
        **kwargs,
    )


def played_through(game: Game, seed: int, most: int = 3000) -> list[Any]:
    """Every stored event of the game, played with random legal moves to the end."""
    stored = list(game.collect_events())
    rng = random.Random(seed)
    for _ in range(most):
        if game.over:
            return stored
        game.execute(next_command(game.state, rng), Cause(SYSTEM, "test", key=f"k{game.version}"))
        stored += game.collect_events()
    raise AssertionError("the match did not end")


def table_of(game: Game) -> Table:
    return Table(seats=len(game.seats), hand_size=game.ruleset.hand_size)


def hands_after(stored: list[Any]) -> list[list[int]]:
    """The hands right after each stored event (empty before the first deal)."""
    facts: list[Any] = []
    hands = []
    for event in stored:
        if isinstance(event, Game.Fact):
            facts.append(event.fact)
        state = fold(facts)
        hands.append(list(state.hands))
    return hands


@pytest.mark.parametrize(
    ("seats", "seed", "rules"), [(3, 1, CLUB), (4, 2, ruleset("mau-mau-150")), (2, 3, CLUB)]
)
def test_a_seat_never_sees_a_card_that_is_not_its_own_or_on_the_table(seats, seed, rules):
    game = new_game(seats, f"seed {seed}", rules)
    stored = played_through(game, seed)
    table = table_of(game)
    hands = hands_after(stored)
    for index, event in enumerate(stored):
        entry = entry_of(event)
        public = {format_card(event.fact.card)} if entry.type == "CardPlayed" else set()
        if entry.type == "RoundDealt":
            public.add(format_card(event.fact.deck[seats * rules.hand_size]))
        for seat in range(seats):
            own = set()
            for moment in (index - 1, index):
                if moment >= 0 and hands[moment]:
                    own |= set(format_cards(hands[moment][seat]))
            shown = set(card_names(redact(entry, Viewer.at(seat), table).data))
            assert shown <= own | public, (entry.type, shown - own - public)
        assert set(card_names(redact(entry, PUBLIC, table).data)) <= public, entry.type


def test_a_seat_sees_its_whole_dealt_hand_and_the_counts_of_the_others():
    game = new_game(3, "deal")
    stored = list(game.collect_events())
    dealt = next(event for event in stored if type(event).__name__ == "RoundDealt")
    entry = entry_of(dealt)
    for seat in range(3):
        data = redact(entry, Viewer.at(seat), table_of(game)).data
        assert data["hand"] == format_cards(game.state.hands[seat])
        assert data["cards"] == [5, 5, 5]
        assert data["stock"] == 52 - 15 - 1
        assert data["starter"] == format_card(game.state.discard[0])
        assert "deck" not in data and "salt" not in data
    public = redact(entry, PUBLIC, table_of(game)).data
    assert "hand" not in public and "deck" not in public and "salt" not in public
    assert public["commitment"] == dealt.commitment
    full = redact(entry, FULL, table_of(game)).data
    assert full["deck"] == format_cards(dealt.fact.deck) and full["salt"] == dealt.salt


def test_drawn_cards_are_shown_to_the_drawer_only_and_counted_for_everyone():
    game = new_game(2, "draws")
    stored = played_through(game, 5)
    draws = [event for event in stored if type(event).__name__ == "CardsDrawn"]
    assert draws
    for event in draws:
        entry = entry_of(event)
        drawer, other = event.fact.seat, 1 - event.fact.seat
        mine = redact(entry, Viewer.at(drawer), table_of(game)).data
        theirs = redact(entry, Viewer.at(other), table_of(game)).data
        assert mine["cards"] == format_cards(event.fact.cards)
        assert "cards" not in theirs
        assert mine["count"] == theirs["count"] == len(event.fact.cards)
        assert theirs["reason"] in ("turn", "debt", "penalty")


def test_a_recycled_stock_order_and_its_salt_are_for_the_referee_only():
    for seed in range(40):
        game = new_game(4, f"recycle {seed}")
        stored = played_through(game, seed)
        recycles = [event for event in stored if type(event).__name__ == "StockRecycled"]
        if recycles:
            break
    else:
        pytest.fail("no game recycled its stock")
    entry = entry_of(recycles[0])
    for viewer in (PUBLIC, Viewer.at(0)):
        data = redact(entry, viewer, table_of(game)).data
        assert data == {"count": len(recycles[0].fact.order), "commitment": recycles[0].commitment}
    full = redact(entry, FULL, table_of(game)).data
    assert full["order"] == format_cards(recycles[0].fact.order)


def test_an_explicit_deck_given_at_creation_is_hidden_from_all_but_the_referee():
    deck = [format_card(card) for card in reversed(FULL_DECK)]
    game = new_game(2, "explicit", deck=[parse_card(card) for card in deck], by=REFEREE)
    created = entry_of(game.pending_events[0])
    public = redact(created, PUBLIC, table_of(game)).data
    assert "deck" not in public and public["explicit_deck"] is True
    assert public["seats"] == PLAYERS[:2]
    assert "originator_topic" not in public
    assert redact(created, FULL, table_of(game)).data["deck"] == deck


def test_the_entry_of_a_tournament_tables_creation_is_as_it_was_before_the_event_carried_the_table():
    table = TableRef(uuid.UUID(int=9), 1, 0)
    created = entry_of(new_game(2, "table", table=table).pending_events[0])
    plain = entry_of(new_game(2, "table").pending_events[0])
    assert "table" not in created.data
    assert created.data == plain.data
    # what the public saw of a creation before games carried their table
    assert redact(created, PUBLIC, Table(seats=2, hand_size=5)).data.keys() == {
        "ruleset",
        "seats",
        "explicit_deck",
        "league_id",
        "turn_clock",
        "forfeit_after",
        "in_person",
    }


def test_plays_name_their_card_suit_and_calls():
    game = new_game(3, "plays")
    stored = played_through(game, 7)
    play = next(event for event in stored if type(event).__name__ == "CardPlayed")
    data = redact(entry_of(play), Viewer.at(2), table_of(game)).data
    assert data["card"] == format_card(play.fact.card)
    assert data["call"] in (None, "mau", "mau_mau")
    assert data["suit"] in (None, "C", "D", "H", "S")


def test_the_idempotency_key_of_a_command_is_hidden_from_everyone_but_the_referee():
    game = new_game(2, "keys")
    stored = played_through(game, 1)
    keyed = next(event for event in stored if getattr(event, "cause", None) and event.cause.key)
    entry = entry_of(keyed)
    assert redact(entry, Viewer.at(0), table_of(game)).cause == Cause(SYSTEM, "test")
    assert redact(entry, PUBLIC, table_of(game)).cause.key is None
    assert redact(entry, FULL, table_of(game)).cause.key == keyed.cause.key


def test_an_event_type_redaction_does_not_know_shows_nothing_but_to_the_referee():
    created = entry_of(new_game(2, "x").pending_events[0])
    entry = Entry(number=9, type="SomethingNew", timestamp=created.timestamp, data={"secret": [1, 2, 3]})
    assert redact(entry, PUBLIC, Table(2, 5)).data == {}
    assert redact(entry, Viewer.at(0), Table(2, 5)).data == {}
    assert redact(entry, FULL, Table(2, 5)).data == {"secret": [1, 2, 3]}


def test_a_void_ruling_shows_a_seat_its_restored_hand_and_the_others_counts():
    game = new_game(3, "void")
    stored = list(game.collect_events())
    rng = random.Random(9)
    while game.version < 12:
        game.execute(next_command(game.state, rng, challenge_rate=0), Cause(SYSTEM, "test"))
        stored += game.collect_events()

    game.raise_dispute(Cause(REFEREE, "RaiseDispute"))
    game.collect_events()
    game.give_ruling(Void(5), Cause(REFEREE, "GiveRuling"), game_after=lambda n: game_after(stored, n))
    (ruling,) = game.collect_events()
    entry = entry_of(ruling)
    restored = game_after(stored, 4).state
    mine = redact(entry, Viewer.at(1), table_of(game)).data
    assert mine["restored"] is True
    assert mine["hand"] == format_cards(restored.hands[1])
    assert mine["cards"] == [hand.bit_count() for hand in restored.hands]
    public = redact(entry, PUBLIC, table_of(game)).data
    assert "hand" not in public and public["restored"] is True
    assert set(card_names(public)) == set()
    assert redact(entry, FULL, table_of(game)).data["restored"]["hands"] == list(restored.hands)


@pytest.mark.parametrize("viewer", [FULL, PUBLIC, Viewer.at(0)])
def test_a_round_ended_without_a_winner_says_null_not_minus_one_to_every_viewer(viewer):
    ended = RoundEnded(round_no=1, winner=-1, reason="stock_exhausted", points=(3, 5), totals=(3, 5))
    event = FACT_EVENTS[RoundEnded](
        originator_id=uuid.uuid4(),
        originator_version=9,
        timestamp=datetime.now(UTC),
        fact=ended,
        cause=None,
    )
    entry = entry_of(event)
    assert entry.type == "RoundEnded" and entry.data["winner"] is None
    table = Table(seats=2, hand_size=5)
    assert redact(entry, viewer, table).data["winner"] is None
    won = entry_of(
        FACT_EVENTS[RoundEnded](**{**vars(event), "fact": msgspec.structs.replace(ended, winner=0)})
    )
    assert won.data["winner"] == 0


def test_a_reshuffle_after_a_void_shows_a_seat_its_cards_dealt_back_and_nobody_else_any_order():
    game = new_game(3, "reshuffle")
    voided_into_a_revealed_round(game, random.Random(4), REFEREE)
    reshuffled = next(
        event for event in game.collect_events() if type(event).__name__ == "HiddenCardsReshuffled"
    )
    entry = entry_of(reshuffled)
    counts = list(reshuffled.fact.counts)
    stock = len(reshuffled.fact.order) - sum(counts)
    public = redact(entry, PUBLIC, table_of(game)).data
    assert public == {"counts": counts, "stock": stock, "commitment": reshuffled.commitment}
    mine = redact(entry, Viewer.at(1), table_of(game)).data
    theirs = reshuffled.fact.order[counts[0] : counts[0] + counts[1]]
    assert mine == {**public, "hand": format_cards(sorted(theirs))}
    full = redact(entry, FULL, table_of(game)).data
    assert full["order"] == format_cards(reshuffled.fact.order) and full["salt"] == reshuffled.salt

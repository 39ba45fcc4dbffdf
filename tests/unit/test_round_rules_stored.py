"""The round and match structure in the Game aggregate: score sheets naming the card that went out,
elimination matches entered in person, an annulled deal at a server table, their events stored and
read back, and what each viewer sees of a deal that passes over a seat that is out."""

import uuid
from datetime import UTC, datetime

import msgspec
import pytest

from service.domain.cards import format_cards, parse_card
from service.domain.errors import RuleError
from service.domain.events import (
    DealAnnulled,
    HandShrank,
    MatchEnded,
    PlayerEliminated,
    RoundDealt,
    RoundEnded,
)
from service.domain.game import Game
from service.domain.history import Cause
from service.domain.redaction import FULL, PUBLIC, Table, Viewer, redact
from service.domain.roles import SYSTEM, Actor
from service.domain.scoresheet import RoundEntry
from service.domain.seats import Seat
from service.domain.views import Entry
from service.persistence.mapper import MsgspecMapper
from tests.gameplay import SAME_ENTROPY
from tests.unit.round_rulesets import club_101, club_classic, club_faraon
from tests.unit.scenario import deck_order

PLAYERS = [str(uuid.UUID(int=n)) for n in range(1, 5)]


def by(seat: int) -> Cause:
    return Cause(Actor("player", PLAYERS[seat]), "test")


def create(rules, seats: int, **kwargs) -> Game:
    # only an official chooses the deck
    actor = Actor("referee", "rita") if "deck" in kwargs else SYSTEM
    game = Game.create(
        ruleset=rules,
        seats=tuple(Seat("player", PLAYERS[i]) for i in range(seats)),
        seed="rounds",
        cause=Cause(actor, "CreateGame"),
        entropy=SAME_ENTROPY,
        **kwargs,
    )
    return game


def hands(*names: str) -> tuple[tuple[int, ...], ...]:
    return tuple(tuple(parse_card(card) for card in hand.split()) for hand in names)


def facts(game: Game) -> list:
    return [event.fact for event in game.collect_events() if isinstance(event, Game.Fact)]


# ---- score sheets


@pytest.mark.parametrize(
    ("entry", "points"),
    [
        (RoundEntry(winner=1, hands=hands("KC 7D 6S", ""), last_card=parse_card("JD")), (46, 0)),
        (RoundEntry(winner=1, hands=hands("KC 7D 6S", ""), last_card=parse_card("9D")), (23, 0)),
        (RoundEntry(winner=1, hands=hands("KC 7D 6S", "")), (23, 0)),  # the sheet does not say
        (RoundEntry(winner=1, points=(23, 0), last_card=parse_card("JH")), (46, 0)),
    ],
)
def test_a_classic_score_sheet_doubles_the_losers_points_when_it_names_a_jack_that_went_out(entry, points):
    game = create(club_classic(), 2, in_person=True)
    game.collect_events()
    game.enter_round(entry, by(0))
    assert [f.points for f in facts(game) if isinstance(f, RoundEnded)] == [points]


def test_a_101_score_sheet_counts_a_hand_of_only_queens_and_a_queen_that_went_out():
    game = create(club_101(), 2, in_person=True)
    game.collect_events()
    game.enter_round(RoundEntry(winner=1, hands=hands("QC QH QD", ""), last_card=parse_card("QS")), by(0))
    assert [f.points for f in facts(game) if isinstance(f, RoundEnded)] == [(60, -40)]


def test_a_101_score_sheet_of_points_may_give_a_hand_of_four_queens():
    game = create(club_101(), 2, in_person=True)
    game.collect_events()
    game.enter_round(RoundEntry(winner=1, points=(100, 0)), by(0))
    assert [f.totals for f in facts(game) if isinstance(f, RoundEnded)] == [(0, 0)]  # exactly 100: reset


@pytest.mark.parametrize(
    ("entry", "code"),
    [
        (RoundEntry(winner=None, points=(5, 7), last_card=parse_card("JD")), "invalid_entry"),
        (RoundEntry(winner=1, hands=hands("KC JD", ""), last_card=parse_card("JD")), "card_entered_twice"),
        (RoundEntry(winner=1, points=(5, 0), last_card=parse_card("2C")), "card_not_in_deck"),
        (RoundEntry(winner=1, points=(5, 0), last_card=52), "malformed_card"),
    ],
)
def test_a_sheet_naming_a_card_that_cannot_have_gone_out_is_refused_and_changes_nothing(entry, code):
    game = create(club_101(), 2, in_person=True)
    game.collect_events()
    with pytest.raises(RuleError) as refused:
        game.enter_round(entry, by(0))
    assert refused.value.code == code
    assert game.collect_events() == []
    assert game.state.round_no == 0


def test_a_101_match_entered_in_person_puts_players_out_and_ends_with_the_last_one_in():
    game = create(club_101(), 3, in_person=True)
    game.collect_events()
    game.enter_round(RoundEntry(winner=0, points=(0, 110, 40)), by(0))
    assert [f for f in facts(game) if isinstance(f, PlayerEliminated)] == [
        PlayerEliminated(1, "over_ceiling", 110)
    ]
    # seat 1 is out: it holds no card, and that is no loser without cards
    with pytest.raises(RuleError) as refused:
        game.enter_round(RoundEntry(winner=0, hands=hands("", "9C", "KC")), by(0))
    assert refused.value.code == "seat_out"
    game.enter_round(RoundEntry(winner=0, hands=hands("", "", "AC AD AH AS KC KD 10C")), by(0))
    assert facts(game)[-2:] == [PlayerEliminated(2, "over_ceiling", 102), MatchEnded((0,), (0, 110, 102))]
    assert game.over


def test_a_faraon_match_entered_in_person_shrinks_the_losers_hand():
    game = create(club_faraon(hand_size=5), 3, in_person=True)
    game.collect_events()
    game.enter_round(RoundEntry(winner=0, points=(0, 20, 10)), by(0))
    assert [f for f in facts(game) if isinstance(f, HandShrank)] == [HandShrank(1, 4)]
    assert game.state.hand_sizes == [5, 4, 5]


# ---- a server table


def test_a_server_deal_with_four_of_a_kind_is_annulled_and_dealt_again_from_a_new_shuffle():
    rules = club_101(hand_size=4)
    deck = deck_order(rules, 2, 0, {1: "7C 7D 7H 7S"}, "KC")
    game = create(rules, 2, deck=deck, first_dealer=0)
    stored = facts(game)
    assert stored[1] == DealAnnulled(1, 0, 1, "7", deck)  # the annulled deck kept, to be checked later
    dealt = stored[2]
    assert isinstance(dealt, RoundDealt)
    assert dealt.dealer == 0
    assert dealt.deck != deck
    assert game.state.round_no == 1


def test_the_events_of_the_match_structure_are_stored_and_read_back_equal():
    rules = club_101(hand_size=4)
    server = create(rules, 2, deck=deck_order(rules, 2, 0, {1: "7C 7D 7H 7S"}, "KC"), first_dealer=0)
    faraon = create(club_faraon(hand_size=2), 3, in_person=True)
    faraon.enter_round(RoundEntry(winner=0, points=(0, 9, 3)), by(0))
    faraon.enter_round(RoundEntry(winner=0, points=(0, 9, 3)), by(0))
    events = [*server.collect_events(), *faraon.collect_events()]
    kinds = {type(event.fact) for event in events if isinstance(event, Game.Fact)}
    assert {DealAnnulled, HandShrank, PlayerEliminated} <= kinds
    mapper = MsgspecMapper()
    for event in events:
        assert mapper.to_domain_event(mapper.to_stored_event(event)) == event


# ---- what each viewer sees


def test_a_deal_passing_over_a_seat_that_is_out_shows_each_seat_its_own_cards_and_nobody_more():
    rules = club_101(elimination_total=101)
    sizes = (3, 0, 3)
    deck = deck_order(rules, 3, 2, {0: "8C 9C 10C", 2: "8D 9D 10D"}, "KC", sizes=sizes)
    dealt = RoundDealt(2, 2, deck, 0, 0, 1, 3, sizes)
    data = {**msgspec.to_builtins(dealt), "commitment": "c", "salt": "s"}
    del data["type"]
    entry = Entry(number=9, type="RoundDealt", timestamp=datetime.now(UTC), data=data)
    table = Table(seats=3, hand_size=3)
    seen = {seat: redact(entry, Viewer.at(seat), table).data for seat in range(3)}
    assert seen[0]["hand"] == ["8C", "9C", "10C"]
    assert seen[2]["hand"] == ["8D", "9D", "10D"]
    assert seen[1]["hand"] == []
    assert seen[0]["cards"] == [3, 0, 3]
    assert seen[0]["starter"] == "KC"
    assert seen[0]["stock"] == 36 - 6 - 1
    public = redact(entry, PUBLIC, table).data
    assert "hand" not in public and "deck" not in public
    assert redact(entry, FULL, table).data["deck"] == format_cards(deck)


def test_a_101_loser_left_with_only_nines_holds_cards_worth_nothing():
    game = create(club_101(), 3, in_person=True)
    game.collect_events()
    game.enter_round(RoundEntry(winner=0, hands=hands("", "9C 9D", "9H")), by(0))
    game.enter_round(RoundEntry(winner=0, points=(0, 0, 0)), by(0))
    assert [f.points for f in facts(game) if isinstance(f, RoundEnded)] == [(0, 0, 0), (0, 0, 0)]


def test_a_101_sheet_naming_two_empty_hands_that_did_not_win_is_refused():
    game = create(club_101(), 3, in_person=True)
    game.collect_events()
    with pytest.raises(RuleError) as refused:
        game.enter_round(RoundEntry(winner=0, hands=hands("", "", "")), by(0))
    assert refused.value.code == "loser_without_cards"

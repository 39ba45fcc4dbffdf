"""Game records: written from a game's entries, read back to the same record, refused when malformed."""

import itertools
import random
import uuid
from typing import Any

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from service.domain.cards import RANKS, deck_cards, format_cards, parse_card
from service.domain.errors import RuleError
from service.domain.game import Game
from service.domain.history import Cause
from service.domain.record import (
    Annulled,
    Chose,
    Dealt,
    Doubted,
    Drew,
    Eliminated,
    MatchEnd,
    Other,
    Passed,
    Played,
    Record,
    RoundEnd,
    RoundEntered,
    Shrank,
    TookSkip,
    TurnedUp,
)
from service.domain.record_of import record_of
from service.domain.record_parse import parse_record
from service.domain.record_render import render
from service.domain.redaction import FULL, PUBLIC, Table, Viewer, redact
from service.domain.roles import SYSTEM, Actor
from service.domain.ruleset_options import ruleset
from service.domain.scoresheet import RoundEntry
from service.domain.seats import Seat
from service.domain.state import OVER
from service.domain.views import entry_of
from tests.gameplay import SAME_ENTROPY, next_command

ADA, BOB = str(uuid.uuid4()), str(uuid.uuid4())


def played_game(seed: int, preset: str = "club", **options: Any) -> tuple[Game, list[Any]]:
    """A whole match of a player, Bob and two heuristic bots, random legal moves; its stored events."""
    rng = random.Random(seed)
    seats = (Seat("player", ADA), Seat("bot", "heuristic"), Seat("player", BOB), Seat("bot", "heuristic"))
    game = Game.create(
        ruleset=ruleset(preset, **options),
        seats=seats,
        seed=str(seed),
        cause=Cause(SYSTEM, "CreateGame"),
        entropy=SAME_ENTROPY,
    )
    events = list(game.collect_events())
    while game.state.phase != OVER:
        game.execute(next_command(game.state, rng), Cause(SYSTEM, "test"))
        events += game.collect_events()
    return game, events


def text_of(game: Game, events: list[Any], viewer: Viewer, names: dict[str, str]) -> str:
    table = Table(seats=len(game.seats), hand_size=game.ruleset.hand_size)
    entries = [redact(entry_of(event), viewer, table) for event in events]
    return render(record_of(str(game.id), entries, names, viewer))


NAMES = {ADA: "Ada Lovelace", BOB: 'round "Bob"; the 2nd'}


@pytest.mark.parametrize(
    ("seed", "preset"), [(1, "club"), (2, "club"), (3, "mau-mau-150"), (4, "mau-mau-150")]
)
@pytest.mark.parametrize("viewer", [PUBLIC, FULL, Viewer.at(0)], ids=["public", "full", "seat"])
def test_a_record_read_back_is_the_same_record_and_writes_the_same_text(seed, preset, viewer):
    game, events = played_game(seed, preset, target_score=60 if preset == "club" else 80)
    text = text_of(game, events, viewer, NAMES)
    record = parse_record(text)
    assert render(record) == text
    assert [line.number for line in record.lines] == list(range(1, len(events) + 1))
    rounds = [line for line in record.lines if isinstance(line, RoundEnd)]
    assert [line.totals for line in rounds] == [list(totals) for totals in _totals(game)]
    (end,) = [line for line in record.lines if isinstance(line, MatchEnd)]
    assert end.winners == list(game.state.winners) and end.totals == list(game.state.totals)


def _totals(game: Game) -> list[list[int]]:
    running, found = [0] * len(game.seats), []
    for points in game.state.round_points:
        running = [total + p for total, p in zip(running, points, strict=True)]
        found.append(running)
    return found


def test_the_same_game_gives_the_same_record_every_time():
    game, events = played_game(5)
    assert text_of(game, events, PUBLIC, NAMES) == text_of(game, events, PUBLIC, NAMES)


def test_names_with_spaces_quotes_and_format_words_are_quoted_and_equal_names_made_unique():
    game, events = played_game(6)
    record = parse_record(text_of(game, events, PUBLIC, {ADA: "round", BOB: "round"}))
    assert [seat.label for seat in record.header.seats] == ["round", "heuristic", "round#2", "heuristic#3"]
    text = text_of(game, events, PUBLIC, NAMES)
    assert 'seat 0 "Ada Lovelace" player' in text
    assert 'seat 2 "round \\"Bob\\"; the 2nd" player' in text
    assert [seat.label for seat in parse_record(text).header.seats][:3:2] == list(NAMES.values())


def test_the_public_record_names_no_card_of_a_hand_and_the_full_one_does():
    game, events = played_game(7)
    public = parse_record(text_of(game, events, PUBLIC, NAMES))
    full = parse_record(text_of(game, events, FULL, NAMES))
    for line in public.lines:
        assert not (isinstance(line, Dealt) and (line.hands or line.stock_order or line.salt))
        assert not (isinstance(line, Drew) and line.cards is not None)
    dealt = [line for line in full.lines if isinstance(line, Dealt)]
    assert all(len(line.hands) == 4 and line.stock_order is not None for line in dealt)
    seen_in_public = {line.card for line in public.lines if isinstance(line, Played)}
    seen_in_public |= {line.starter for line in public.lines if isinstance(line, Dealt)}
    public_text = text_of(game, events, PUBLIC, NAMES)
    for line in dealt:
        for _, hand in line.hands:
            assert all(f" {card}" not in public_text or card in seen_in_public for card in hand)


def test_a_seats_record_shows_its_own_hand_only():
    game, events = played_game(8)
    record = parse_record(text_of(game, events, Viewer.at(2), NAMES))
    assert (record.header.sight, record.header.sight_seat) == ("seat", 2)
    for line in record.lines:
        if isinstance(line, Dealt):
            assert [seat for seat, _ in line.hands] == [2]
        if isinstance(line, Drew):
            assert (line.cards is not None) == (line.seat == 2)


GOOD = text_of(*played_game(9), PUBLIC, {})
GOOD_LINES = GOOD.split("\n")


def with_line(number: int, line: str, replacing: bool = True) -> str:
    """The good record with line ``number`` (from 1) replaced by ``line``, or ``line`` put before it."""
    return "\n".join([*GOOD_LINES[: number - 1], line, *GOOD_LINES[number - 1 + replacing :]])


@pytest.mark.parametrize(
    ("line", "text"),
    [
        (1, "a game record\n"),
        (1, ""),
        (3, GOOD.replace("ruleset club {}", "ruleset club [1]")),
        (9, GOOD.replace("seat 1 heuristic", "seat 5 heuristic")),
        (14, GOOD.replace("\n1 game created\n", "\n1 game created\nnot a line\n")),
        (14, GOOD.replace("\n2 match started", "\n1 match started")),
        (15, with_line(15, GOOD_LINES[14].replace(": starter", " starter"))),
        (16, with_line(16, "16 nobody plays 7H", replacing=False)),
        (16, with_line(16, "16 heuristic plays 1H", replacing=False)),
        (16, with_line(16, "16 round 1 ended: heuristic went out; points 1 2; totals 1 2", replacing=False)),
    ],
    # the texts hold fresh ids: a fixed name keeps the ids the same in every process (pytest-xdist)
    ids=lambda value: str(value) if isinstance(value, int) else "text",
)
def test_text_that_is_no_record_is_refused_naming_its_line(line, text):
    with pytest.raises(RuleError) as refused:
        parse_record(text)
    assert refused.value.code == "invalid_record"
    assert refused.value.message.startswith(f"line {line}:"), refused.value.message


LABELLED_GAME = played_game(10, single_round=True)
# pieces of names that look like the format's own words and signs
TRICKY = [
    "none",
    "no",
    "winner",
    "round",
    "#",
    "-",
    '"',
    "\\",
    " ",
    ";",
    ":",
    "=",
    "(",
    "JH",
    "7H",
    "a",
    "\n",
]
NAMES_TO_TRY = st.text(max_size=40) | st.lists(st.sampled_from(TRICKY), max_size=6).map("".join)


@settings(max_examples=300, deadline=None)
@given(NAMES_TO_TRY, NAMES_TO_TRY)
def test_any_two_names_come_back_as_the_seats_labels(first, second):
    game, events = LABELLED_GAME
    text = text_of(game, events, PUBLIC, {ADA: first, BOB: second})
    record = parse_record(text)
    assert render(record) == text
    labels = [seat.label for seat in record.header.seats]
    assert len(set(labels)) == 4
    assert labels[0] == (first or f"{first}#0")
    assert labels[2] in (second, f"{second}#2")


def test_timeouts_a_forfeit_and_an_abandonment_each_have_a_line_that_reads_back():
    seats = (Seat("player", ADA), Seat("player", BOB), Seat("bot", "random"))
    game = Game.create(
        ruleset=ruleset("club"),
        seats=seats,
        seed="clock",
        cause=Cause(SYSTEM, "CreateGame"),
        entropy=SAME_ENTROPY,
        turn_clock=30,
        forfeit_after=2,
    )
    events = list(game.collect_events())
    while not game.forfeited:
        game.time_out_turn(game.seat_to_move, Cause(SYSTEM, "TimeOutTurn"))
        events += game.collect_events()
    game.abandon('the "Cup" was cancelled', Cause(SYSTEM, "Abandon"))
    events += game.collect_events()
    for viewer in (PUBLIC, FULL):
        text = text_of(game, events, viewer, NAMES)
        assert render(parse_record(text)) == text
        assert (
            "clock 30 forfeit 2" in text and " timed out\n" in text and " forfeits after 2 timeouts\n" in text
        )
        assert text.endswith(' game abandoned: "the \\"Cup\\" was cancelled"\n')


TWO_DECKS = format_cards(deck_cards(RANKS, 2, 2))
PLAYED = ("X1", "X2.2", "10S.2", "QD", "X1.2")


def with_two_decks(record: Record, seed: int) -> Record:
    """The record with the cards of a two-deck game with jokers in place of its own."""
    rng = random.Random(seed)
    plays = itertools.cycle(PLAYED)

    def swapped(line: Any) -> Any:
        if isinstance(line, Played):
            return msgspec.structs.replace(line, card=next(plays))
        if isinstance(line, Dealt):
            hands = [(seat, rng.sample(TWO_DECKS, len(cards))) for seat, cards in line.hands]
            order = None if line.stock_order is None else rng.sample(TWO_DECKS, len(line.stock_order))
            return msgspec.structs.replace(line, starter="X2", hands=hands, stock_order=order)
        if isinstance(line, Drew) and line.cards is not None:
            return msgspec.structs.replace(line, cards=rng.sample(TWO_DECKS, len(line.cards)))
        return line

    return msgspec.structs.replace(record, lines=[swapped(line) for line in record.lines])


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_record_of_jokers_and_second_deck_cards_reads_back_the_same(seed):
    game, events = played_game(seed, single_round=True)
    record = with_two_decks(parse_record(text_of(game, events, FULL, NAMES)), seed)
    text = render(record)
    assert all(f" plays {card}" in text for card in PLAYED) and ": starter X2;" in text
    assert parse_record(text) == record


@pytest.mark.parametrize("viewer", [PUBLIC, FULL, Viewer.at(0)], ids=["public", "full", "seat"])
def test_a_record_of_several_cards_and_face_down_cards_reads_back_the_same(viewer):
    game, events = played_game(5, "club", target_score=60, quick=True)
    text = text_of(game, events, viewer, NAMES)
    assert " with " in text  # several cards of one rank in one play
    assert render(parse_record(text)) == text
    game, events = played_game(5, "club", target_score=40, blind=True)
    text = text_of(game, events, viewer, NAMES)
    record = parse_record(text)
    assert render(record) == text
    plays = [line for line in record.lines if isinstance(line, Played)]
    # a declaration, in its player's and the full sight only
    assert any(line.declared is not None for line in plays) == (viewer != PUBLIC)
    assert any(isinstance(line, Doubted) for line in record.lines)
    assert any(isinstance(line, TurnedUp) for line in record.lines)
    assert not [line for line in record.lines if isinstance(line, Other)]


# the lines of the family's round and match events, and a preset whose random matches reach them
# 101's aces make a skip wait for an answer, pesten's sevens and kings let their player end the turn
FAMILY_LINES = [
    ("101", Eliminated),
    ("101", TookSkip),
    ("faraon", Shrank),
    ("haft-khabis", Chose),
    ("pesten", Passed),
]


@pytest.mark.parametrize(("preset", "kind"), FAMILY_LINES)
@pytest.mark.parametrize("viewer", [PUBLIC, FULL, Viewer.at(0)], ids=["public", "full", "seat"])
def test_the_presets_choices_eliminations_and_shrinking_hands_have_lines_that_read_back(preset, kind, viewer):
    game, events = played_game(5, preset)
    text = text_of(game, events, viewer, NAMES)
    record = parse_record(text)
    assert render(record) == text
    assert any(isinstance(line, kind) for line in record.lines)
    assert not [line for line in record.lines if isinstance(line, Other)]


def test_an_annulled_deal_has_a_line_that_reads_back():
    game, events = played_game(6, "club", target_score=20)
    record = parse_record(text_of(game, events, FULL, NAMES))
    annulled = Annulled(number=len(record.lines) + 1, round_no=2, dealer=1, seat=2, rank="Q")
    longer = msgspec.structs.replace(record, lines=[*record.lines, annulled])
    text = render(longer)
    bob = '"round \\"Bob\\"; the 2nd"'
    assert text.endswith(
        f"{annulled.number} round 2 annulled: {bob} dealt four of rank Q; dealer heuristic\n"
    )
    assert parse_record(text) == longer


@pytest.mark.parametrize(("preset", "seed"), [("101", 5), ("faraon", 5), ("faraon", 7)])
def test_the_full_record_deals_each_seat_the_hand_its_own_record_shows_when_hands_differ_in_size(
    preset, seed
):
    game, events = played_game(seed, preset)
    full = parse_record(text_of(game, events, FULL, NAMES))
    deals = [line for line in full.lines if isinstance(line, Dealt)]
    assert any(line.sizes is not None and len(set(line.sizes)) > 1 for line in deals), "hands never differed"
    for seat in range(len(game.seats)):
        own = [line for line in parse_record(text_of(game, events, Viewer.at(seat), NAMES)).lines]
        own_deals = [line for line in own if isinstance(line, Dealt)]
        assert [dict(line.hands).get(seat, []) for line in own_deals] == [
            dict(line.hands)[seat] for line in deals
        ]
        assert [line.sizes for line in own_deals] == [line.sizes for line in deals]
    for line in deals:
        sizes = line.sizes or [line.hand_size] * len(game.seats)
        assert [len(hand) for _, hand in line.hands] == sizes
        assert line.stock == len(line.stock_order or ())


def test_a_score_sheets_last_card_is_in_the_record_and_reads_back():
    game = Game.create(
        ruleset=ruleset("101"),
        seats=(Seat("player", ADA), Seat("player", BOB)),
        seed="sheet",
        cause=Cause(SYSTEM, "CreateGame"),
        entropy=SAME_ENTROPY,
        in_person=True,
    )
    entry = RoundEntry(winner=0, points=(0, 12), last_card=parse_card("QS"))
    game.enter_round(entry, Cause(Actor("player", ADA), "EnterRound"))
    events = list(game.collect_events())
    text = text_of(game, events, PUBLIC, NAMES)
    assert "; points 0 12; last card QS" in text
    record = parse_record(text)
    assert render(record) == text
    (entered,) = [line for line in record.lines if isinstance(line, RoundEntered)]
    (ended,) = [line for line in record.lines if isinstance(line, RoundEnd)]
    assert entered.entry.last_card == "QS" and ended.points == [-40, 12]

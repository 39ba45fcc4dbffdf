"""Score sheets in the Game aggregate: rounds of a game played in person, entered, confirmed,
refused when impossible and corrected by a referee, scored by the engine's one scoring path."""

import random
import uuid

import msgspec
import pytest

from service.domain.adjudication import Correct, Resume, Void
from service.domain.cards import CARD_COUNT, format_cards, parse_card
from service.domain.commands import DrawCard
from service.domain.engine import fold
from service.domain.events import MatchEnded, RoundEnded
from service.domain.game import Game
from service.domain.history import Cause
from service.domain.image import copy_state
from service.domain.presets import CLUB, MAU_MAU_150
from service.domain.roles import SYSTEM, Actor
from service.domain.ruleset_options import ruleset
from service.domain.scoresheet import RoundEntry
from service.domain.seats import Seat
from service.domain.state import DEAL, OVER
from tests.gameplay import SAME_ENTROPY, game_after, next_command
from tests.refusals import refused

PLAYERS = [str(uuid.UUID(int=n)) for n in range(1, 7)]
REFEREE = Actor("referee", "rita")


def player(seat: int) -> Actor:
    return Actor("player", PLAYERS[seat])


def by(actor: Actor) -> Cause:
    return Cause(actor, "test")


def in_person(seats: int = 3, rules=CLUB) -> Game:
    game = Game.create(
        ruleset=rules,
        seats=tuple(Seat("player", PLAYERS[i]) for i in range(seats)),
        seed="s",
        cause=by(SYSTEM),
        entropy=SAME_ENTROPY,
        in_person=True,
    )
    game.collect_events()
    return game


def hands(*names: str) -> tuple[tuple[int, ...], ...]:
    return tuple(tuple(parse_card(card) for card in hand.split()) for hand in names)


def ended(events) -> list:
    return [
        e.fact for e in events if isinstance(e, Game.Fact) and isinstance(e.fact, RoundEnded | MatchEnded)
    ]


def server_round_ends(rules, seed: str, seats: int) -> tuple[list[int], RoundEnded]:
    """A server game played at random to its first round's end: the hands left then, and the end."""
    game = Game.create(
        ruleset=rules,
        seats=tuple(Seat("player", PLAYERS[i]) for i in range(seats)),
        seed=seed,
        cause=by(SYSTEM),
        entropy=SAME_ENTROPY,
    )
    game.collect_events()
    rng = random.Random(seed)
    while True:
        before = copy_state(game.state)
        game.execute(next_command(game.state, rng), by(SYSTEM))
        facts = [e.fact for e in game.collect_events() if isinstance(e, Game.Fact)]
        for at, fact in enumerate(facts):
            if isinstance(fact, RoundEnded):
                return fold(facts[:at], before).hands, fact


@pytest.mark.parametrize("rules", [CLUB, MAU_MAU_150], ids=lambda r: r.name)
@pytest.mark.parametrize("seed", ["a", "b", "c", "d", "e", "f"])
def test_a_server_round_entered_as_cards_or_as_points_ends_exactly_as_it_did_on_the_server(rules, seed):
    seats = 3
    left, end = server_round_ends(rules, seed, seats)
    winner = None if end.winner == -1 else end.winner
    by_cards = in_person(seats, rules)
    entry = RoundEntry(
        winner=winner, hands=tuple(tuple(parse_card(c) for c in format_cards(h)) for h in left)
    )
    by_cards.enter_round(entry, by(player(0)))
    by_points = in_person(seats, rules)
    values = tuple(
        0 if seat == end.winner else by_points.state.book.hand_points(h) for seat, h in enumerate(left)
    )
    by_points.enter_round(RoundEntry(winner=winner, points=values), by(player(0)))
    # a sheet does not tell a win after an unchallenged missed "Mau Mau" from any other
    expected = msgspec.structs.replace(end, reason="went_out") if end.reason == "window_closed" else end
    assert ended(by_cards.collect_events())[0] == expected
    assert ended(by_points.collect_events())[0] == expected


def test_the_rules_example_hand_scores_19_against_the_loser_and_0_for_the_winner():
    game = in_person(2, ruleset("club", hand_size=3))
    game.enter_round(RoundEntry(winner=1, hands=hands("KC 7D 2S", "")), by(player(1)))
    events = game.collect_events()
    assert isinstance(events[0], Game.RoundEntered)
    assert events[0].round_no == 1
    assert ended(events) == [RoundEnded(1, 1, "went_out", (19, 0), (19, 0))]
    assert game.rounds()[0].entered_by == player(1)


def test_in_mau_mau_150_the_winner_gains_the_others_cards_and_the_race_ends_at_150():
    game = in_person(3, MAU_MAU_150)
    for _ in range(3):
        game.enter_round(RoundEntry(winner=0, points=(0, 30, 25)), by(player(1)))
    facts = ended(game.collect_events())
    assert [f.points for f in facts if isinstance(f, RoundEnded)] == [(55, 0, 0)] * 3
    assert facts[-1] == MatchEnded((0,), (165, 0, 0))
    assert game.state.phase == OVER


def test_a_round_stopped_with_no_winner_scores_every_hand_in_club_and_nothing_in_mau_mau_150():
    club = in_person(2)
    club.enter_round(RoundEntry(winner=None, hands=hands("KC", "2S 3S")), by(REFEREE))
    assert ended(club.collect_events()) == [RoundEnded(1, -1, "stock_exhausted", (10, 5), (10, 5))]
    race = in_person(2, MAU_MAU_150)
    race.enter_round(RoundEntry(winner=None, points=(10, 7)), by(REFEREE))
    assert ended(race.collect_events()) == [RoundEnded(1, -1, "stock_exhausted", (0, 0), (0, 0))]


def test_rounds_are_numbered_one_after_another_without_a_deal():
    game = in_person(2)
    for _ in range(3):
        game.enter_round(RoundEntry(winner=0, points=(0, 4)), by(player(0)))
    assert game.state.round_no == 3
    assert [sheet.round_no for sheet in game.rounds()] == [1, 2, 3]
    assert game.state.phase == DEAL
    assert not any(isinstance(e, Game.Shuffled) for e in game.collect_events())


def test_an_in_person_game_deals_nothing_and_refuses_moves_and_clock_turns():
    game = in_person(2)
    assert game.state.phase == DEAL and game.state.hands == []
    refused("played_in_person", lambda: game.time_out_turn(0, by(SYSTEM)))
    refused("played_in_person", lambda: game.execute(DrawCard(0), by(player(0))))


@pytest.mark.parametrize(
    ("options", "code"),
    [
        ({"seats": (Seat("player", PLAYERS[0]), Seat("bot", "heuristic"))}, "bots_not_at_real_tables"),
        ({"deck": tuple(range(52))}, "played_in_person"),
        ({"first_dealer": 0}, "played_in_person"),
        ({"turn_clock": 30}, "played_in_person"),
    ],
)
def test_an_in_person_game_takes_no_bot_no_deck_no_dealer_and_no_clock(options, code):
    options.setdefault("seats", (Seat("player", PLAYERS[0]), Seat("player", PLAYERS[1])))
    refused(code, lambda: Game.create(ruleset=CLUB, seed="s", cause=by(REFEREE), in_person=True, **options))


IMPOSSIBLE = {
    "seat_count": RoundEntry(winner=0, hands=hands("", "KC")),
    "not_a_seat": RoundEntry(winner=3, points=(0, 4, 4)),
    "invalid_entry": RoundEntry(winner=0, hands=hands("", "KC", "QC"), points=(0, 10, 10)),
    "card_entered_twice": RoundEntry(winner=0, hands=hands("", "KC", "KC")),
    "too_many_cards": RoundEntry(
        winner=None, hands=(tuple(range(0, 20)), tuple(range(20, 40)), tuple(range(40, 52)))
    ),
    "winner_holds_cards": RoundEntry(winner=0, hands=hands("2C", "KC", "QC")),
    "loser_without_cards": RoundEntry(winner=0, hands=hands("", "", "")),
    "malformed_card": RoundEntry(winner=0, hands=((), (CARD_COUNT,), (3,))),
}
IMPOSSIBLE_POINTS = {
    "loser_without_cards": RoundEntry(winner=None, points=(0, 0, 7)),
    "impossible_points": RoundEntry(winner=0, points=(0, 1, 7)),
    "invalid_points": RoundEntry(winner=0, points=(0, -4, 7)),
    "winner_holds_cards": RoundEntry(winner=1, points=(5, 3, 7)),
}


@pytest.mark.parametrize("code", sorted(IMPOSSIBLE))
def test_an_impossible_entry_by_cards_is_refused_and_changes_nothing(code):
    entry_refused(code, in_person(3), IMPOSSIBLE[code])


@pytest.mark.parametrize("code", sorted(IMPOSSIBLE_POINTS))
def test_an_impossible_entry_by_points_is_refused_and_changes_nothing(code):
    entry_refused(code, in_person(3), IMPOSSIBLE_POINTS[code])


@pytest.mark.parametrize("card", ["X1", "X2.2", "KC.2"])
def test_a_joker_or_second_deck_card_the_ruleset_plays_without_is_refused(card):
    entry = RoundEntry(winner=0, hands=((), (parse_card(card),), (3,)))
    entry_refused("card_not_in_deck", in_person(3), entry)


def test_points_above_what_the_whole_deck_is_worth_are_refused():
    # club's 52 cards are worth 376; the top card of the pile, a 2 at least, is not in any hand
    game = in_person(2)
    entry_refused("impossible_points", game, RoundEntry(winner=None, points=(200, 175)))
    game.enter_round(RoundEntry(winner=None, points=(200, 174)), by(REFEREE))


def test_a_card_mau_mau_150_plays_without_is_not_in_its_deck():
    entry = RoundEntry(winner=0, hands=hands("", "2C", "KC"))
    entry_refused("card_not_in_deck", in_person(3, MAU_MAU_150), entry)
    entry_refused("impossible_points", in_person(3, MAU_MAU_150), RoundEntry(winner=0, points=(0, 5, 7)))


def test_a_player_from_another_table_cannot_enter_a_round():
    entry_refused("not_allowed", in_person(3), RoundEntry(winner=0, points=(0, 4, 4)), player(4))


def test_no_round_is_entered_while_a_dispute_is_open_or_after_the_match_ended():
    game = in_person(2, ruleset("club", single_round=True))
    game.raise_dispute(by(player(1)))
    game.collect_events()
    entry_refused("game_paused", game, RoundEntry(winner=0, points=(0, 4)))
    game.give_ruling(Resume(), by(REFEREE))
    game.enter_round(RoundEntry(winner=0, points=(0, 4)), by(player(0)))
    game.collect_events()
    entry_refused("game_over", game, RoundEntry(winner=0, points=(0, 4)))


def test_a_server_game_has_no_rounds_to_enter():
    server = Game.create(
        ruleset=CLUB,
        seats=(Seat("player", PLAYERS[0]), Seat("player", PLAYERS[1])),
        seed="s",
        cause=by(SYSTEM),
    )
    server.collect_events()
    entry_refused("not_in_person", server, RoundEntry(winner=0, points=(0, 4)))


def entry_refused(code: str, game: Game, entry: RoundEntry, actor: Actor = REFEREE) -> None:
    """``refused``, and the game untouched: its version, its pending events, its image."""
    version, image = game.version, game.image()
    refused(code, lambda: game.enter_round(entry, by(actor)))
    assert game.version == version
    assert not game.pending_events
    assert game.image() == image


# ---------------------------------------------------------------------------
# confirmations


def entered(seats: int = 3) -> Game:
    game = in_person(seats)
    game.enter_round(RoundEntry(winner=0, points=(0, 12, 30)), by(player(0)))
    game.collect_events()
    return game


def test_the_other_players_confirm_a_round_each_once():
    game = entered()
    game.confirm_round(1, by(player(2)))
    game.confirm_round(1, by(player(1)))
    assert game.rounds()[0].confirmed_by == (2, 1)
    events = game.collect_events()
    assert [type(e) for e in events] == [Game.RoundConfirmed, Game.RoundConfirmed]


@pytest.mark.parametrize(
    ("round_no", "actor", "code"),
    [
        (1, player(0), "own_entry"),
        (1, player(4), "not_allowed"),
        (1, REFEREE, "not_allowed"),
        (2, player(1), "no_such_round"),
        (0, player(1), "no_such_round"),
    ],
)
def test_a_confirmation_is_refused_from_the_scorer_a_stranger_or_for_no_round(round_no, actor, code):
    game = entered()
    version = game.version
    refused(code, lambda: game.confirm_round(round_no, by(actor)))
    assert game.version == version and not game.pending_events


def test_a_round_is_confirmed_once_per_player():
    game = entered()
    game.confirm_round(1, by(player(1)))
    game.collect_events()
    refused("already_confirmed", lambda: game.confirm_round(1, by(player(1))))


# ---------------------------------------------------------------------------
# corrections


def played(entries: list[RoundEntry], rules=CLUB, seats: int = 3) -> tuple[Game, list]:
    game = in_person(seats, rules)
    stored = list(_created(game))
    for entry in entries:
        game.enter_round(entry, by(player(0)))
        stored += game.collect_events()
    return game, stored


def _created(game: Game) -> list:
    """The creation's events again (``in_person`` took them off): a replay needs them."""
    fresh = Game.create(
        ruleset=game.ruleset,
        seats=game.seats,
        seed="s",
        cause=by(SYSTEM),
        entropy=SAME_ENTROPY,
        in_person=True,
        game_id=game.id,
    )
    return list(fresh.collect_events())


def correct(game: Game, stored: list, round_no: int, entry: RoundEntry) -> list:
    game.raise_dispute(by(player(1)), "not what we wrote", about=game.sheets[round_no].entered_at)
    stored += game.collect_events()
    game.give_ruling(Correct(round_no, entry), by(REFEREE), game_after=lambda n: game_after(stored, n))
    events = game.collect_events()
    stored += events
    return events


def test_a_correction_replaces_the_entry_and_scores_that_round_and_the_later_ones_again():
    game, stored = played([RoundEntry(winner=0, points=(0, 12, 30)), RoundEntry(winner=1, points=(5, 0, 5))])
    game.confirm_round(1, by(player(1)))
    stored += game.collect_events()
    events = correct(game, stored, 1, RoundEntry(winner=0, points=(0, 20, 30)))
    assert isinstance(events[0], Game.RulingGiven)
    assert ended(events) == [
        RoundEnded(1, 0, "went_out", (0, 20, 30), (0, 20, 30)),
        RoundEnded(2, 1, "went_out", (5, 0, 5), (5, 20, 35)),
    ]
    assert game.state.totals == [5, 20, 35]
    sheet = game.rounds()[0]
    assert sheet.entry.points == (0, 20, 30)
    assert sheet.confirmed_by == ()  # they confirmed the entry replaced
    assert [c.replaced.points for c in sheet.corrections] == [(0, 12, 30)]
    assert sheet.corrections[0].by == REFEREE
    # the game goes on from the corrected totals
    game.enter_round(RoundEntry(winner=2, points=(3, 3, 0)), by(player(2)))
    assert ended(game.collect_events())[0].totals == (8, 23, 35)


def test_a_correction_can_reopen_a_match_that_had_ended_and_end_one_that_had_not():
    over, stored = played([RoundEntry(winner=0, points=(0, 60, 101))])
    assert over.state.phase == OVER
    events = correct(over, stored, 1, RoundEntry(winner=0, points=(0, 60, 10)))
    assert not any(isinstance(f, MatchEnded) for f in ended(events))
    assert over.state.phase == DEAL and over.state.winners == ()
    over.enter_round(RoundEntry(winner=1, points=(10, 0, 40)), by(player(1)))
    assert over.state.totals == [10, 60, 50] and over.state.phase == DEAL

    going, stored = played([RoundEntry(winner=0, points=(0, 60, 10))])
    events = correct(going, stored, 1, RoundEntry(winner=0, points=(0, 60, 101)))
    assert ended(events)[-1] == MatchEnded((0,), (0, 60, 101))
    assert going.state.phase == OVER


def test_rounds_entered_after_the_end_a_correction_brings_forward_are_out_of_force():
    game, stored = played(
        [RoundEntry(winner=0, points=(0, 50, 10)), RoundEntry(winner=0, points=(0, 10, 10))]
    )
    events = correct(game, stored, 1, RoundEntry(winner=0, points=(0, 100, 10)))
    assert ended(events) == [
        RoundEnded(1, 0, "went_out", (0, 100, 10), (0, 100, 10)),
        MatchEnded((0,), (0, 100, 10)),
    ]
    assert [sheet.round_no for sheet in game.rounds()] == [1]
    refused("no_such_round", lambda: game.confirm_round(2, by(player(1))))


@pytest.mark.parametrize(
    ("ruling", "code"),
    [
        (Correct(2, RoundEntry(winner=0, points=(0, 4, 4))), "no_such_round"),
        (Correct(1, RoundEntry(winner=0, points=(0, 0, 0))), "loser_without_cards"),
    ],
)
def test_an_impossible_correction_is_refused_and_changes_nothing(ruling, code):
    game, stored = played([RoundEntry(winner=0, points=(0, 12, 30))])
    game.raise_dispute(by(player(1)))
    stored += game.collect_events()
    version = game.version
    refused(code, lambda: game.give_ruling(ruling, by(REFEREE), game_after=lambda n: game_after(stored, n)))
    assert game.version == version and not game.pending_events and game.paused


def test_a_round_of_a_server_game_cannot_be_corrected():
    server = Game.create(
        ruleset=CLUB,
        seats=(Seat("player", PLAYERS[0]), Seat("player", PLAYERS[1])),
        seed="s",
        cause=by(SYSTEM),
    )
    server.raise_dispute(by(REFEREE))
    ruling = Correct(1, RoundEntry(winner=0, points=(0, 4)))
    refused("not_in_person", lambda: server.give_ruling(ruling, by(REFEREE), game_after=lambda n: server))


def test_a_void_in_an_in_person_game_takes_later_entries_out_of_force():
    game, stored = played([RoundEntry(winner=0, points=(0, 12, 30)), RoundEntry(winner=1, points=(5, 0, 5))])
    game.raise_dispute(by(REFEREE))
    stored += game.collect_events()
    game.give_ruling(Void(game.sheets[2].entered_at), by(REFEREE), game_after=lambda n: game_after(stored, n))
    assert [sheet.round_no for sheet in game.rounds()] == [1]
    assert game.state.totals == [0, 12, 30]


def test_the_sheets_survive_a_snapshot():
    game, _ = played([RoundEntry(winner=0, points=(0, 12, 30))])
    game.confirm_round(1, by(player(2)))
    snapshot = Game.Snapshot.take(game)
    again = snapshot.mutate(None)
    assert again.in_person and again.rounds() == game.rounds()


def test_a_player_overtaken_after_going_out_without_mau_mau_is_entered_with_no_card():
    # docs/rules/club.md, section 6: a last card played without "Mau Mau" leaves the window open, and the
    # next player may go out with the right call and win; the first holds no card and loses
    for seed in (f"overtaken-{n}" for n in range(2000)):
        left, end = server_round_ends(CLUB, seed, 3)
        if any(seat != end.winner and not hand for seat, hand in enumerate(left)):
            break
    else:
        pytest.fail("no seed gave a round where a loser held no card")
    game = in_person(3, CLUB)
    winner = None if end.winner == -1 else end.winner
    game.enter_round(
        RoundEntry(winner=winner, hands=hands(*(" ".join(format_cards(h)) for h in left))), by(player(0))
    )
    assert ended(game.collect_events())[0] == end

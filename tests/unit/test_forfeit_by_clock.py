"""A seat whose clock runs out N times in a row forfeits: SeatForfeited, a loss, judged the same on replay."""

import random
import uuid

import pytest

from service.domain.bots import HeuristicBot
from service.domain.commands import Command, DrawCard
from service.domain.errors import RuleError
from service.domain.game import Game
from service.domain.history import Cause
from service.domain.league import League
from service.domain.legal import legal_actions
from service.domain.presets import CLUB
from service.domain.roles import SYSTEM, Actor
from service.domain.ruleset_options import ruleset
from service.domain.seats import Seat
from service.domain.state import PLAY
from service.domain.tournament import Tournament
from service.domain.tournament_plan import Plan
from tests.gameplay import SAME_ENTROPY, next_command

PLAYERS = [str(uuid.UUID(int=n)) for n in range(1, 5)]
TIME_OUT = Cause(SYSTEM, "TimeOutTurn")


def bot_move(game: Game, seat: int) -> Command:
    return HeuristicBot(random.Random(f"{game.version}:{seat}")).choose(game.state, seat)


def new_game(players: int = 2, forfeit_after: int = 3, seed: str = "forfeit") -> Game:
    return Game.create(
        ruleset=CLUB,
        seats=tuple(Seat("player", player) for player in PLAYERS[:players]),
        seed=seed,
        cause=Cause(SYSTEM, "CreateGame"),
        entropy=SAME_ENTROPY,
        turn_clock=30,
        forfeit_after=forfeit_after,
    )


def time_out_until_its_turn(game: Game, seat: int) -> None:
    """Let every other seat move (a move of its own) until ``seat`` is to move again."""
    while not game.over and game.seat_to_move != seat:
        other = game.seat_to_move
        game.execute(bot_move(game, other), Cause(Actor("player", PLAYERS[other]), "Move"))


def forfeited_events(game: Game) -> list[Game.SeatForfeited]:
    return [event for event in game.pending_events if isinstance(event, Game.SeatForfeited)]


def test_a_seat_whose_clock_runs_out_n_times_in_a_row_forfeits_and_the_other_seat_wins():
    game = new_game(players=2, forfeit_after=3)
    absent = game.seat_to_move
    for _ in range(3):
        time_out_until_its_turn(game, absent)
        assert not game.over, "the match went on to its end before the third timeout"
        game.time_out_turn(absent, TIME_OUT)
    [forfeit] = forfeited_events(game)
    assert (forfeit.seat, forfeit.turns) == (absent, 3)
    assert game.over and game.forfeited == (absent,)
    result = game.result()
    assert result.winners == (1 - absent,) and result.forfeited == (absent,)
    assert result.totals[absent] >= CLUB.target_score  # the worst total: a loss, last at the table


def test_n_minus_1_timeouts_in_a_row_do_not_forfeit():
    game = new_game(players=2, forfeit_after=3)
    absent = game.seat_to_move
    for _ in range(2):
        time_out_until_its_turn(game, absent)
        game.time_out_turn(absent, TIME_OUT)
    assert forfeited_events(game) == [] and game.forfeited == ()
    assert game.clock_runs[absent] == 2


def test_a_move_of_its_own_starts_the_count_again():
    game = new_game(players=2, forfeit_after=3)
    seat = game.seat_to_move
    for _ in range(2):
        time_out_until_its_turn(game, seat)
        game.time_out_turn(seat, TIME_OUT)
    time_out_until_its_turn(game, seat)
    game.execute(bot_move(game, seat), Cause(Actor("player", PLAYERS[seat]), "Move"))
    assert game.clock_runs[seat] == 0
    for _ in range(2):
        time_out_until_its_turn(game, seat)
        assert not game.over
        game.time_out_turn(seat, TIME_OUT)
    assert forfeited_events(game) == []


def test_forfeit_after_zero_never_forfeits():
    game = new_game(players=2, forfeit_after=0)
    absent = game.seat_to_move
    for _ in range(6):
        time_out_until_its_turn(game, absent)
        if game.over:
            break
        game.time_out_turn(absent, TIME_OUT)
    assert forfeited_events(game) == [] and game.forfeited == ()


def test_with_three_seats_the_forfeited_seat_stays_played_by_a_bot_and_cannot_win():
    game = new_game(players=3, forfeit_after=1)
    absent = game.seat_to_move
    game.time_out_turn(absent, TIME_OUT)
    assert game.forfeited == (absent,) and not game.over
    assert game.bot_for(absent) == "heuristic" and game.bot_for((absent + 1) % 3) is None
    time_out_until_its_turn(game, absent)
    with pytest.raises(RuleError) as refused:
        game.execute(DrawCard(absent), Cause(Actor("player", PLAYERS[absent]), "DrawCard"))
    assert refused.value.code == "seat_forfeited"
    with pytest.raises(RuleError) as refused:
        game.time_out_turn(absent, TIME_OUT)
    assert refused.value.code == "seat_forfeited"
    # the service plays the forfeited seat until the match ends; it is never among the winners
    while not game.over:
        seat = game.seat_to_move
        actor = SYSTEM if seat == absent else Actor("player", PLAYERS[seat])
        game.execute(bot_move(game, seat), Cause(actor, "Move"))
    result = game.result()
    assert absent not in result.winners and result.winners
    assert result.totals[absent] == max(CLUB.target_score, *game.state.totals)


def test_a_replay_of_the_events_judges_the_forfeit_the_same():
    game = new_game(players=2, forfeit_after=2)
    absent = game.seat_to_move
    for _ in range(2):
        time_out_until_its_turn(game, absent)
        game.time_out_turn(absent, TIME_OUT)
    events = game.collect_events()
    replayed = None
    for event in events:
        replayed = event.mutate(replayed)
    assert isinstance(replayed, Game)
    assert replayed.forfeited == game.forfeited == (absent,)
    assert replayed.result() == game.result() and replayed.over
    from_image = Game.from_image(game.id, game.version, game.image())
    assert from_image.result() == game.result() and from_image.clock_runs == game.clock_runs


def test_nothing_is_legal_once_a_two_seat_match_is_forfeited():
    game = new_game(players=2, forfeit_after=1)
    game.time_out_turn(game.seat_to_move, TIME_OUT)
    assert game.over and all(legal_actions(game.state, seat) == () for seat in range(2))
    with pytest.raises(RuleError) as refused:
        game.time_out_turn(game.seat_to_move, TIME_OUT)
    assert refused.value.code == "game_over"


@pytest.mark.parametrize(
    ("turn_clock", "forfeit_after", "code"),
    [
        (0, 3, "invalid_turn_clock"),
        (86_401, 3, "invalid_turn_clock"),
        ("30", 3, "invalid_turn_clock"),
        (30, -1, "invalid_forfeit_after"),
        (30, 101, "invalid_forfeit_after"),
        (30, True, "invalid_forfeit_after"),
        (30, 2.5, "invalid_forfeit_after"),
    ],
)
def test_a_league_with_a_bad_clock_setting_is_refused_and_nothing_is_founded(turn_clock, forfeit_after, code):
    with pytest.raises(RuleError) as refused:
        League.found("Clocked", "club", {}, turn_clock=turn_clock, forfeit_after=forfeit_after)
    assert refused.value.code == code


def test_a_league_keeps_its_clock_and_forfeit_setting_none_meaning_never():
    league = League.found("Clocked", "club", {}, turn_clock=45, forfeit_after=None)
    assert (league.turn_clock, league.forfeit_after) == (45, 0)
    assert League.found("Default").forfeit_after == 3 and League.found("Default").turn_clock is None


def test_a_tournament_table_result_counts_a_forfeit_as_a_loss_and_last_place():
    tournament = Tournament.announce(
        uuid.uuid4(), "Cup", "club", {}, Plan(format="swiss", table_size=2, rounds=1, turn_clock=30)
    )
    for player in PLAYERS:
        tournament.join(player)
    tournament.start("seed")
    game_ids = [uuid.uuid4() for _ in tournament.rounds[0].tables]
    for table, game_id in enumerate(game_ids):
        tournament.attach_game(1, table, game_id)
    absent = tournament.rounds[0].tables[0][0]
    # the absent player's table: the forfeiter's 100 beside a winner's 0; the other table played out
    with pytest.raises(RuleError) as refused:
        tournament.record_result(game_ids[0], (100, 0), (0,), (2, 0), forfeited=(0,))
    assert refused.value.code == "invalid_result"
    tournament.record_result(game_ids[0], (100, 0), (1,), (2, 0), forfeited=(0,))
    tournament.record_result(game_ids[1], (30, 12), (1,), (0, 0))
    ranking = tournament.standings()
    assert ranking[-1].entrant == absent and ranking[-1].forfeits == 1 and ranking[-1].wins == 0


def test_a_forfeit_leaving_one_seat_in_a_101_match_where_a_seat_is_out_ends_it_with_that_seat_winning():
    rng = random.Random(0)
    game = Game.create(
        ruleset=ruleset("101"),
        seats=tuple(Seat("player", player) for player in PLAYERS[:3]),
        seed="forfeit-101",
        cause=Cause(SYSTEM, "CreateGame"),
        entropy=SAME_ENTROPY,
        turn_clock=30,
        forfeit_after=1,
    )
    while not game.state.out or game.state.phase != PLAY:
        assert not game.over, "the match ended before a seat went out"
        game.execute(next_command(game.state, rng, challenge_rate=0), Cause(SYSTEM, "Move"))
    assert game.state.out.bit_count() == 1
    absent = game.seat_to_move
    (left,) = [seat for seat in range(3) if seat != absent and not game.state.out >> seat & 1]
    game.time_out_turn(absent, TIME_OUT)
    assert game.over and game.forfeited == (absent,)
    assert game.state.winners == (left,) and game.result().winners == (left,)


ERASED = Cause(SYSTEM, "ForfeitSeat")


def test_a_seat_whose_player_was_erased_forfeits_at_once_even_while_paused_and_only_once():
    game = new_game(players=3, forfeit_after=0)
    game.raise_dispute(Cause(Actor("player", PLAYERS[0]), "RaiseDispute"), "a card fell")
    game.forfeit_seat(1, ERASED)  # nobody would play the seat on after the ruling
    [forfeit] = forfeited_events(game)
    assert (forfeit.seat, forfeit.turns) == (1, 0) and game.forfeited == (1,) and not game.over
    assert game.bot_for(1) == "heuristic"
    game.forfeit_seat(0, ERASED)
    assert game.over and game.state.winners == (2,)  # the last seat in wins


@pytest.mark.parametrize(
    ("setup", "seat", "by", "code"),
    [
        (lambda game: None, 0, Cause(Actor("admin", "ann"), "ForfeitSeat"), "not_allowed"),
        (lambda game: None, 0, Cause(Actor("player", PLAYERS[0]), "ForfeitSeat"), "not_allowed"),
        (lambda game: None, 5, ERASED, "not_a_seat"),
        (lambda game: game.forfeit_seat(0, ERASED), 0, ERASED, "seat_forfeited"),
        (lambda game: game.abandon("rain", Cause(SYSTEM, "AbandonGame")), 0, ERASED, "game_abandoned"),
        (lambda game: [game.forfeit_seat(seat, ERASED) for seat in (1, 2)], 0, ERASED, "game_over"),
    ],
    ids=["an official", "a player", "no such seat", "twice", "abandoned", "over"],
)
def test_forfeiting_a_seat_for_its_erased_player_is_refused_with_its_code_recording_nothing(
    setup, seat, by, code
):
    game = new_game(players=3, forfeit_after=0)
    setup(game)
    version = game.version
    with pytest.raises(RuleError) as refused:
        game.forfeit_seat(seat, by)
    assert refused.value.code == code and game.version == version

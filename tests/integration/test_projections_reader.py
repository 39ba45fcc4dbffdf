"""The reader's API: positions, waiting for one, what unknown ids answer, names, and exactly-once writes."""

import random
import time
import uuid

import pytest
from eventsourcing.persistence import IntegrityError, Tracking

from service.domain.adjudication import Resume
from service.projections.runner import start_projections
from service.projections.views.base import APPLICATION, Changes
from tests.gameplay import next_command
from tests.integration.projecting import catch_up
from tests.integration.tables import REFEREE, play_out, players

pytestmark = pytest.mark.own_store  # each test reads the whole log: a store of the test's own


def test_before_anything_is_projected_the_position_is_zero_and_nothing_is_known(settings, reader):
    unknown = uuid.uuid4()
    assert reader.position() == 0
    assert reader.table(unknown) is None
    assert reader.hand(unknown, 0) is None
    assert reader.totals(unknown) is None
    assert reader.standings(unknown) is None
    history = reader.history(unknown)
    assert history.games == [] and history.position == 0 and history.player_id == unknown


def test_a_client_waiting_for_its_writes_position_reads_its_write(app, settings, reader):
    ann, bob = players(app, 2)
    running = start_projections(settings)
    try:
        created = app.create_game([ann, bob], seed=3)
        assert reader.wait_for(created.position, timeout=30) >= created.position
        assert reader.table(created.game_id).version == created.version
        game = app.get_game(created.game_id)
        moved = app.execute(created.game_id, next_command(game.state, random.Random(0), challenge_rate=0))
        reached = reader.wait_for(moved.position, timeout=30)
        assert reached >= moved.position
        table = reader.table(created.game_id)
        assert table.version == moved.version and table.position >= moved.position
    finally:
        running.stop()


def test_waiting_for_a_position_not_written_gives_up_after_the_timeout_with_the_position_reached(
    app, settings, reader
):
    players(app, 2)
    reached = catch_up(settings)
    assert reached > 0
    assert reader.wait_for(reached + 1000, timeout=0.05) == reached
    assert reader.wait_for(reached, timeout=0) == reached


def test_a_hand_is_one_seats_cards_and_only_the_seat_to_move_has_moves(app, settings, reader):
    ids = players(app, 3)
    created = app.create_game(ids, seed=8)
    catch_up(settings)
    game = app.get_game(created.game_id)
    mover = game.seat_to_move
    for seat in range(3):
        hand = reader.hand(created.game_id, seat)
        assert hand.cards == sorted(hand.cards, key=_card_order)
        assert len(hand.cards) == hand.table.seats[seat].cards == game.state.hands[seat].bit_count()
        if seat == mover:
            assert hand.legal
        else:
            assert hand.legal == [] and hand.drawn is None
    assert reader.hand(created.game_id, 3) is None
    assert reader.hand(created.game_id, -1) is None


def _card_order(name: str) -> tuple[int, int]:
    ranks = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
    return "CDHS".index(name[-1]), ranks.index(name[:-1])


def test_a_paused_game_offers_no_moves_until_the_ruling(app, settings, reader):
    ids = players(app, 2)
    created = app.create_game(ids, seed=4)
    app.raise_dispute(created.game_id, by=REFEREE)
    catch_up(settings)
    table = reader.table(created.game_id)
    assert table.paused
    assert all(reader.hand(created.game_id, seat).legal == [] for seat in range(2))
    app.give_ruling(created.game_id, Resume(), by=REFEREE)
    catch_up(settings)
    assert not reader.table(created.game_id).paused
    assert any(reader.hand(created.game_id, seat).legal for seat in range(2))


def test_a_league_without_finished_matches_lists_every_member_with_zeros_unranked_and_states_its_order(
    app, settings, reader
):
    ann, bob = players(app, 2)
    league = app.found_league("Quiet", "mau-mau-150")
    for player in (ann, bob):
        app.admit_member(league, player)
    app.create_game([ann, bob], league_id=league, seed=1)
    catch_up(settings)
    standings = reader.standings(league)
    assert {row.player_id for row in standings.rows} == {ann, bob}
    assert all(
        row.rank is None and row.matches_played == row.points == row.forfeits == 0 for row in standings.rows
    )
    assert standings.ruleset == "mau-mau-150" and standings.order == "highest_points"
    assert standings.tie_breaks[:3] == ["matches_won_or_shared", "matches_won", "forfeits"]
    assert "highest average points" in standings.rule and "forfeit" in standings.rule
    assert standings.position == reader.position()


def test_a_renamed_player_shows_the_new_name_in_every_read(app, settings, reader):
    ann, bob = players(app, 2)
    league = app.found_league("Names", "club", {"single_round": True})
    for player in (ann, bob):
        app.admit_member(league, player)
    game_id = app.create_game([ann, bob], league_id=league, seed=2).game_id
    play_out(app, game_id, seed=2)
    catch_up(settings)
    app.rename_player(ann, "Annabel")
    catch_up(settings)
    assert reader.table(game_id).seats[0].name == "Annabel"
    assert reader.totals(game_id).seats[0].name == "Annabel"
    assert [row.name for row in reader.standings(league).rows if row.player_id == ann] == ["Annabel"]
    assert reader.history(bob).games[0].opponents == ["Annabel"]


def test_a_batch_whose_position_the_tracking_record_has_passed_is_refused_whole(app, settings, reader):
    players(app, 2)
    position = catch_up(settings)
    intruder = uuid.uuid4()
    with pytest.raises(IntegrityError):
        reader.views.write(
            Changes(rows={"player": [(intruder, "Intruder", "intruder")]}), Tracking(APPLICATION, position)
        )
    assert reader.views.names([intruder]) == {}
    assert reader.position() == position


def test_the_bot_turns_are_exactly_the_games_a_bot_is_to_move_in_after_moves_an_end_and_a_pause(
    app, settings, reader
):
    ann, bob = players(app, 2)
    seatings = [[ann, "bot:random"], ["bot:heuristic", bob], ["bot:random", "bot:heuristic"], [ann, bob]]
    games = [app.create_game(seats, seed=n).game_id for n, seats in enumerate(seatings)]
    rng = random.Random(7)

    def bot_turns() -> set[uuid.UUID]:
        # every row: each was stored before an hour from now
        return set(reader.stalled_bot_turns(time.time() + 3600, limit=100))

    def bots_to_move() -> set[uuid.UUID]:
        found = set()
        for game_id in games:
            game = app.get_game(game_id)
            if not game.over and not game.paused and game.seats[game.seat_to_move].kind == "bot":
                found.add(game_id)
        return found

    seen: set[uuid.UUID] = set()
    for step in range(120):
        game_id = rng.choice(games)
        game = app.get_game(game_id)
        app.execute(game_id, next_command(game.state, rng), expected_version=game.version)
        if step % 10 == 9:
            catch_up(settings)
            expected = bots_to_move()
            assert bot_turns() == expected
            seen |= expected
    assert seen >= set(games[:3])  # each game with a bot had a bot to move at some look

    # a game over, and one paused with its bot to move, have no row; resumed, it has one again
    play_out(app, games[2], seed=1)
    paused = games[0]
    while paused not in bots_to_move():
        assert not app.get_game(paused).over
        game = app.get_game(paused)
        app.execute(paused, next_command(game.state, rng, challenge_rate=0), expected_version=game.version)
    app.raise_dispute(paused, by=REFEREE)
    catch_up(settings)
    assert games[2] not in bot_turns() and paused not in bot_turns()
    assert bot_turns() == bots_to_move()
    app.give_ruling(paused, Resume(), by=REFEREE)
    catch_up(settings)
    assert paused in bot_turns() and bot_turns() == bots_to_move()

    # since: the time of the game's last event, and only games waiting longer than asked are named
    since = app.get_game(paused).modified_on.timestamp()
    assert paused not in reader.stalled_bot_turns(since, limit=100)
    assert paused in reader.stalled_bot_turns(since + 0.001, limit=100)
    assert len(reader.stalled_bot_turns(time.time() + 3600, limit=1)) == 1

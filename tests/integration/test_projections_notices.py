"""The notices the projection makes of the log (``views/notices.py``), on PostgreSQL and SQLite: a
swiss tournament of members and bots played through; those who chose hear of their tables, of the
next round with its time and of their turns, the one who chose nothing hears of nothing, and no
notice names a card; a Mao match's seats hear of their table and turns as well (never its rule)."""

import json
import random
from datetime import datetime
from uuid import UUID

import pytest
from eventsourcing.persistence import Tracking

from service.application import MauMau
from service.application.mao import shuffled_deck
from service.domain.adjudication import Resume
from service.domain.mao.autoplay import bot_to_move, seat_to_move
from service.domain.mao.commands import DrawCard
from service.domain.mao.state import DEAL
from service.domain.roles import SYSTEM, Actor
from service.domain.tournament_plan import Plan
from service.persistence.notices import BROWSER, KINDS, Prefs
from service.projections.hooks import turn_of
from service.projections.reader import ReadModels
from service.projections.runner import Runner, rebuild
from service.projections.views.base import APPLICATION
from service.settings import Settings
from tests.gameplay import next_command
from tests.integration.projecting import catch_up, stopped_after_each_batch
from tests.integration.test_tournaments import clock_plays_out, league_of
from workers.conduct import bot_move

pytestmark = pytest.mark.own_store

PLAN = Plan(format="swiss", table_size=4, rounds=2, single_round=True, places=8, interval=3600)


def test_a_tournaments_tables_next_round_and_turns_are_noticed_for_those_who_chose_them(
    app: MauMau, settings: Settings, reader: ReadModels
):
    league, members = league_of(app, 3)
    notices = reader.views.notices
    chose, silent = [str(member) for member in members[:2]], str(members[2])
    for member in chose:
        notices.choose(member, Prefs(kinds=KINDS, channels=(BROWSER,)))
    tournament_id = app.create_tournament(league, "Notice cup", PLAN)
    for member in members:
        app.join_tournament(tournament_id, member)
    app.start_tournament(tournament_id, seed="notices")
    games = app.start_round(tournament_id, 1)
    for game_id in games:
        clock_plays_out(app, game_id)
        app.record_table_result(tournament_id, game_id)
    catch_up(settings)

    tournament = app.get_tournament(tournament_id)
    for member in chose:
        made = notices.after(member, 0)
        kinds = {notice.kind for notice in made}
        assert {"table_ready", "round_starting", "your_move"} <= kinds, kinds
        (ready,) = [notice for notice in made if notice.kind == "table_ready"]
        assert ready.data["round_no"] == 1 and ready.data["game_id"] in {str(game) for game in games}
        assert ready.data["tournament"] == "Notice cup" and ready.data["league_id"] == str(league)
        (starting,) = [notice for notice in made if notice.kind == "round_starting"]
        assert starting.data["round_no"] == 2
        # the interval after round 1's start, or its end if that came later
        assert tournament.started_at is not None
        due = datetime.fromisoformat(starting.data["starts_at"])
        assert (due - tournament.started_at).total_seconds() >= 3600
        for notice in made:
            assert notice.player_id == member and notice.mail == "none"  # the browser only
            assert not {"cards", "hand", "stock", "card"} & notice.data.keys()
    assert notices.after(silent, 0) == []


def test_a_ruling_is_noticed_by_each_person_at_the_table_who_chose_it(
    app: MauMau, settings: Settings, reader: ReadModels
):
    ada, bo = (app.register_player(name) for name in ("Ada", "Bo"))
    notices = reader.views.notices
    notices.choose(str(ada), Prefs(kinds=("dispute_ruled",), channels=(BROWSER,)))
    notices.choose(str(bo), Prefs(kinds=("your_move",), channels=(BROWSER,)))  # not rulings
    game_id = app.create_game([ada, bo]).game_id
    app.raise_dispute(game_id, reason="a card fell on the floor", by=Actor("player", str(ada)))
    app.give_ruling(game_id, Resume(), note="the 7 of hearts stays", by=Actor("admin"))
    catch_up(settings)
    (ruled,) = [notice for notice in notices.after(str(ada), 0) if notice.kind == "dispute_ruled"]
    assert ruled.data == {"game_id": str(game_id), "event_number": ruled.data["event_number"], "dispute": 1}
    assert "dispute_ruled" not in {notice.kind for notice in notices.after(str(bo), 0)}


def test_a_mao_seats_table_and_turns_are_noticed_for_the_person_who_chose_them_only(
    app: MauMau, settings: Settings, reader: ReadModels
):
    league = app.found_league("Mao notices", "mao", {"hand_size": 3})
    ada, bo = (app.register_player(name) for name in ("Ada", "Bo"))
    for member in (ada, bo):
        app.admit_member(league, member)
    notices = reader.views.notices
    notices.choose(str(ada), Prefs(kinds=("table_ready", "your_move"), channels=(BROWSER,)))
    notices.choose(str(bo), Prefs(kinds=("dispute_ruled",), channels=(BROWSER,)))  # not these
    match = app.create_mao_game(league, [str(ada), str(bo), "bot:random"], "server", first_dealer=2)
    # Ada's turns: each save (an act, folded in a batch of its own, as live) after which her seat is
    # on turn and was not before it; a turn a bot's play passes to her and its call takes away in the
    # same save (the call ends the round) is none
    game = app.get_mao_game(match.id)
    came = {game.version} if seat_to_move(game) == 0 else set()
    for _ in range(12):  # each person draws on their turn, the bot takes its own
        catch_up(settings)
        before = app.get_mao_game(match.id)
        if bot_to_move(before) is not None:
            app.mao_bot_turn(match.id, before.version)
        elif before.state.phase == DEAL:  # the bot went out: the server deals again
            app.mao_do(match.id, lambda _game, rng: shuffled_deck(rng), SYSTEM)
        else:
            seat = seat_to_move(before)
            assert seat is not None
            by = Actor("player", str((ada, bo)[seat]))
            app.mao_do(match.id, lambda _game, _rng, seat=seat: DrawCard(seat), by)
        after = app.get_mao_game(match.id)
        if seat_to_move(after) == 0 and seat_to_move(before) != 0:
            came.add(after.version)
    catch_up(settings)

    made = notices.after(str(ada), 0)
    (ready,) = [notice for notice in made if notice.kind == "table_ready"]
    assert ready.data == {"mao_game_id": str(match.id), "event_number": 1}
    moves = [notice for notice in made if notice.kind == "your_move"]
    assert len(came) >= 2 and len(moves) == len(came)
    for notice in moves:
        assert notice.data.keys() == {"mao_game_id", "event_number", "seat"} and notice.data["seat"] == 0
    assert {notice.data["event_number"] for notice in moves} == came
    assert notices.after(str(bo), 0) == []


def test_a_player_who_dropped_out_hears_of_no_turn_the_clock_bot_plays_for_them(
    app: MauMau, settings: Settings, reader: ReadModels
):
    """After a drop the clock bot plays the player's turns in their game in play at once
    (``workers.conduct``): no "your move" notice and no ``turn`` webhook tell them of those."""
    league, members = league_of(app, 4)
    ann = str(members[0])
    reader.views.notices.choose(ann, Prefs(kinds=("your_move",), channels=(BROWSER,)))
    hook, _ = app.register_webhook(league, "http://127.0.0.1:9/hook", ["turn"], [ann])
    plan = Plan(format="swiss", table_size=2, rounds=2, single_round=True, places=4)
    tournament_id = app.create_tournament(league, "Drop cup", plan)
    for member in members:
        app.join_tournament(tournament_id, member)
    app.start_tournament(tournament_id, seed="drop")
    games = app.start_round(tournament_id, 1)
    (mine,) = [g for g in games if ann in {seat.name for seat in app.get_game(g).seats}]
    seat = app.get_game(mine).seat_of(ann)
    moved = 0  # Ann's own moves before she drops, each after a turn of hers
    while moved < 2 and not (game := app.get_game(mine)).over:
        now = game.seat_to_move
        app.execute(mine, bot_move(game, now, "heuristic"), by=Actor("player", game.seats[now].name))
        moved += now == seat
    app.drop_out_of_tournament(tournament_id, ann)
    dropped_at = app.recorder.max_notification_id() or 0
    clock_plays_out(app, mine)  # her turns and the other's, by the clock bot
    catch_up(settings)
    told = [n.position for n in reader.views.notices.after(ann, 0) if n.kind == "your_move"]
    assert told and max(told) < dropped_at
    hooked = [row.position for row in reader.views.deliveries.of_hook(hook, 1000) if row.kind == "turn"]
    assert hooked and max(hooked) < dropped_at


def test_a_turn_a_move_passes_on_within_itself_is_noticed_to_nobody(
    app: MauMau, settings: Settings, reader: ReadModels
):
    """A move is stored as several events: the last card of a hand passes the turn to the next
    seat, then the round ends and the next is dealt (or the match ends). Only whom the whole move
    leaves to move hears of it, by notice and by ``turn`` webhook; never the seat passed through."""
    people, hook, expected = a_match_between_people(app, reader)
    catch_up(settings)
    assert told(reader, people, hook) == (expected, expected)


def test_a_catch_up_that_writes_in_the_middle_of_a_move_notices_the_same_turns(
    app: MauMau, settings: Settings, reader: ReadModels
):
    """A long catch-up writes every so many events, in the middle of the log: at the end of the move
    reached there, judged whole. Here the log is read one event a page and written every event."""
    people, hook, expected = a_match_between_people(app, reader)
    one_by_one = Runner(settings)
    try:
        one_by_one.catch_up(page_size=1, batch=1)
    finally:
        one_by_one.close()
    assert told(reader, people, hook) == (expected, expected)


def test_a_runner_stopped_after_each_batch_and_started_again_notices_the_same_turns(
    app: MauMau, settings: Settings, reader: ReadModels
):
    """A runner writes in the middle of the log only where a change ends, so one stopped after any
    write (and what it held in memory gone) leaves no move cut in two for the next: here a runner
    of its own folds each batch of two events and is stopped."""
    people, hook, expected = a_match_between_people(app, reader)
    last = app.recorder.max_notification_id() or 0
    stopped_after_each_batch(settings, 2, last)
    assert told(reader, people, hook) == (expected, expected)


def test_a_rebuild_of_the_webhooks_up_to_where_a_stopped_runner_wrote_cuts_no_move_in_two(
    app: MauMau, settings: Settings, reader: ReadModels
):
    """A rebuild of some parts folds up to the live position and leaves the rest to the runner: that
    position ends a change, so each turn is delivered whole, once."""
    people, hook, expected = a_match_between_people(app, reader)
    last = app.recorder.max_notification_id() or 0
    written = stopped_after_each_batch(settings, 2, last // 2)
    rebuild(settings, parts=["webhooks"])
    assert reader.views.position() == written
    catch_up(settings)
    assert told(reader, people, hook)[1] == expected


def test_the_read_models_are_not_fed_one_event_at_a_time(app: MauMau, settings: Settings, reader: ReadModels):
    """eventsourcing's one-event feed could not tell where a move ends (the next event tells): the
    projection refuses it and writes nothing; the runner feeds it."""
    people, hook, _ = a_match_between_people(app, reader)
    runner = Runner(settings)
    try:
        ((event, position),) = runner.source.read(0, 1)
        with pytest.raises(NotImplementedError):
            runner.projection.process_event(event, Tracking(APPLICATION, position))
    finally:
        runner.close()
    assert not reader.views.position()
    assert told(reader, people, hook) == (set(), set())


def test_a_rebuild_gives_a_hook_registered_half_way_through_a_match_the_turns_from_then_on(
    app: MauMau, settings: Settings, reader: ReadModels
):
    """A rebuild makes no notice, and follows the changes to games only while a hook takes turns: one
    registered half way through a match gets each turn from its registration on, as live."""
    league, members = league_of(app, 3)
    people = [str(member) for member in members]
    game_id = app.create_game(people, league_id=league, seed="half way").game_id
    rng = random.Random(11)
    for _ in range(12):
        app.execute(game_id, next_command(app.get_game(game_id).state, rng))
    hook, _ = app.register_webhook(league, "http://127.0.0.1:9/hook", ["turn"], people)
    expected = set()
    game = app.get_game(game_id)
    while not game.over:
        before = turn_of(game)
        app.execute(game_id, next_command(game.state, rng))
        game = app.get_game(game_id)
        now = turn_of(game)
        if now is not None and now != before:
            expected.add((people[now], game.version))
    assert expected
    rebuild(settings)  # the log's first fold: every delivery is the rebuild's
    assert told(reader, people, hook)[1] == expected


def a_match_between_people(app: MauMau, reader: ReadModels) -> tuple[list[str], UUID, set[tuple[str, int]]]:
    """A league match of three people played out, each choosing their turns' notices and a ``turn``
    hook on all: (the people, the hook, who is to move after which event number and was not before)."""
    league, members = league_of(app, 3)
    people = [str(member) for member in members]
    for person in people:
        reader.views.notices.choose(person, Prefs(kinds=("your_move",), channels=(BROWSER,)))
    hook, _ = app.register_webhook(league, "http://127.0.0.1:9/hook", ["turn"], people)
    game_id = app.create_game(people, league_id=league, seed="passed on").game_id
    rng = random.Random(7)
    expected = set()
    rounds = 0
    game = app.get_game(game_id)
    expected.add((people[game.seat_to_move], game.version))
    while not game.over:
        before, round_no = turn_of(game), game.state.round_no
        app.execute(game_id, next_command(game.state, rng))
        game = app.get_game(game_id)
        rounds += game.state.round_no != round_no or game.over
        now = turn_of(game)
        if now is not None and now != before:
            expected.add((people[now], game.version))
    assert rounds >= 2  # hands were played out: the case in question came up
    return people, hook, expected


def told(
    reader: ReadModels, people: list[str], hook: UUID
) -> tuple[set[tuple[str, int]], set[tuple[str, int]]]:
    """(who was noticed of their move after which event number, the same by the hook's deliveries)."""
    noticed = {
        (person, notice.data["event_number"])
        for person in people
        for notice in reader.views.notices.after(person, 0)
        if notice.kind == "your_move"
    }
    hooked = [json.loads(row.payload)["data"] for row in reader.views.deliveries.of_hook(hook, 10_000)]
    return noticed, {(data["player_id"], data["event_number"]) for data in hooked if "player_id" in data}


def test_a_turn_is_delivered_to_the_hooks_as_they_were_when_the_move_was_stored_though_folded_later(
    app: MauMau, settings: Settings, reader: ReadModels
):
    """A change is judged as soon as the log goes on with anything else: a hook registered right
    after a move (in the same batch of the read models) gets no ``turn`` of it, and one disabled
    right after it still does."""
    league, members = league_of(app, 2)
    people = [str(member) for member in members]
    before, _ = app.register_webhook(league, "http://127.0.0.1:9/before", ["turn"], people)
    game_id = app.create_game(people, league_id=league, seed="hooks as they were").game_id
    game = app.get_game(game_id)
    app.execute(game_id, next_command(game.state, random.Random(3)))
    game = app.get_game(game_id)
    assert turn_of(game) is not None
    after, _ = app.register_webhook(league, "http://127.0.0.1:9/after", ["turn"], people)
    app.disable_webhook(before, "moved on")
    catch_up(settings)  # all in one batch: the move, then the hooks' changes

    def turns(hook: object) -> set[tuple[str, int]]:
        rows = reader.views.deliveries.of_hook(hook, 1000)
        return {
            (data["player_id"], data["event_number"])
            for data in (json.loads(row.payload)["data"] for row in rows)
            if "player_id" in data
        }

    moved = (people[game.seat_to_move], game.version)
    assert moved in turns(before)
    assert turns(after) == set()


def test_a_mao_turn_a_bots_play_passes_on_and_its_call_takes_away_is_noticed_to_nobody(
    app: MauMau, settings: Settings, reader: ReadModels
):
    """A bot's turn is saved as several decisions: its play, then each call it says. When its last
    card passes the turn to the person after it and its call then ends the round, that person was
    never on turn: no notice, though every decision is folded in one batch."""
    league = app.found_league("Mao calls", "mao", {"hand_size": 2})
    ada = app.register_player("Ada")
    app.admit_member(league, ada)
    reader.views.notices.choose(str(ada), Prefs(kinds=("your_move",), channels=(BROWSER,)))
    passed_through = 0  # bot turns whose play gave Ada the turn and whose call took it away
    came = set()  # (match, event number) after each save that gave Ada the turn
    for _ in range(20):  # matches, until the case has come up (the bots' moves are random)
        match = app.create_mao_game(league, [str(ada), "bot:random", "bot:random"], "server", first_dealer=2)
        if seat_to_move(match) == 0:
            came.add((str(match.id), match.version))
        while not (before := app.get_mao_game(match.id)).over:
            if bot_to_move(before) is not None:
                app.mao_bot_turn(match.id, before.version)
            elif before.state.phase == DEAL:
                app.mao_do(match.id, lambda _game, rng: shuffled_deck(rng), SYSTEM)
            else:
                app.mao_do(match.id, lambda _game, _rng: DrawCard(0), Actor("player", str(ada)))
            after = app.get_mao_game(match.id)
            if seat_to_move(after) == 0 and seat_to_move(before) != 0:
                came.add((str(match.id), after.version))
            between = [
                app.repository.get(match.id, version=v) for v in range(before.version + 1, after.version)
            ]
            passed_through += seat_to_move(after) != 0 and any(seat_to_move(g) == 0 for g in between)
        if passed_through:
            break
    catch_up(settings)  # all in one batch: each save's decisions arrive together
    assert passed_through >= 1  # the case in question came up
    told, position = set(), 0
    while page := reader.views.notices.after(str(ada), position):  # a hundred at a time
        told |= {(n.data["mao_game_id"], n.data["event_number"]) for n in page if n.kind == "your_move"}
        position = page[-1].position
    assert told == came

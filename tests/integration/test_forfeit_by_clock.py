"""League turn clocks and forfeits by clock through the application, the workers' steps (in this
process, ``workers.inline``) and the read models, on PostgreSQL and on SQLite.

The same with a real worker, beat and HTTP server: tests/e2e/test_forfeit_by_clock.py.
"""

from datetime import UTC, datetime, timedelta
from uuid import UUID

import msgspec
import pytest

from service.application import MauMau
from service.domain.errors import RuleError
from service.domain.game import Game
from service.domain.roles import SYSTEM, Actor
from service.domain.tournament_plan import Plan
from service.persistence.notices import BROWSER, Prefs
from tests.integration.projecting import catch_up
from tests.integration.tables import players
from workers.conduct import Conductor, bot_move
from workers.inline import Inline

pytestmark = pytest.mark.own_store  # each test reads the whole log: a store of the test's own


def clocked_league(app: MauMau, members: int, forfeit_after: int = 2) -> tuple[UUID, list[UUID]]:
    league = app.found_league("Clocked club", turn_clock=30, forfeit_after=forfeit_after)
    joined = players(app, members)
    for player in joined:
        app.admit_member(league, player)
    return league, joined


def play_while_ann_stays_silent(
    app: MauMau, conductor: Conductor, inline: Inline, game_id: UUID, ann: UUID
) -> int:
    """Everyone but Ann moves at once; Ann's clock runs out each time (the step the worker queued);
    how many clocks were set for her."""
    clocks = 0
    while not (game := app.get_game(game_id)).over:
        seat = game.seat_to_move
        occupant = game.seats[seat]
        if occupant.name != str(ann) or seat in game.forfeited:
            by = Actor("player", occupant.name) if occupant.kind == "player" else SYSTEM
            app.execute(game_id, bot_move(game, seat, "heuristic"), by=by)
            continue
        inline.queue.clear()
        conductor.advance_game(game_id)  # the game's own clock: no tournament to look it up in
        [(due, _, name, args)] = inline.queue
        assert (name, args, due) == ("time_out_turn", (game_id, seat, game.version), 30.0)
        conductor.time_out_turn(*args)
        clocks += 1
    return clocks


def test_a_silent_player_in_a_league_game_forfeits_after_n_timeouts_and_the_standings_count_a_loss(
    app, settings, reader
):
    league, (ann, bea, cy) = clocked_league(app, 3, forfeit_after=2)
    game_id = app.create_game([ann, bea], league_id=league, seed="silent").game_id
    game = app.get_game(game_id)
    assert (game.turn_clock, game.forfeit_after) == (30, 2)  # the league's, fixed in the game
    inline = Inline()
    clocks = play_while_ann_stays_silent(app, Conductor(app, inline), inline, game_id, ann)
    seat = app.get_game(game_id).seat_of(str(ann))
    events = app.game_events(game_id)
    [forfeit] = [event for event in events if isinstance(event, Game.SeatForfeited)]
    assert (forfeit.seat, forfeit.turns, clocks) == (seat, 2, 2)
    assert [type(event) for event in events[-2:]] == [Game.TurnTimedOut, Game.SeatForfeited]
    # judged the same on replay: the game loaded from its events, and the referee's replay
    replayed = app.game_at(game_id, forfeit.originator_version)
    assert replayed.over and replayed.forfeited == (seat,) and replayed.result().winners == (1 - seat,)
    assert app.replay(game_id).winners == [1 - seat]
    assert [entry.type for entry in app.history(game_id)][-1] == "SeatForfeited"

    catch_up(settings)
    table = reader.table(game_id)
    assert table.over and table.forfeited == [seat] and table.winners == [1 - seat]
    assert table.seats[seat].forfeited and not table.seats[1 - seat].forfeited
    assert table.turn_deadline is None and table.seconds_left is None
    standings = reader.standings(league)
    rows = {row.player_id: row for row in standings.rows}
    assert (rows[bea].matches_won, rows[bea].forfeits) == (1, 0)
    assert (rows[ann].matches_played, rows[ann].matches_won, rows[ann].forfeits) == (1, 0, 1)
    assert rows[ann].points >= 100  # the table's worst total, at least club's target score
    assert (rows[cy].matches_played, rows[cy].points, rows[cy].forfeits) == (0, 0, 0)
    # a forfeit is a loss, ranked by what was played; a member who has not played has no rank, last
    assert [row.player_id for row in standings.rows] == [bea, ann, cy]
    assert [row.rank for row in standings.rows] == [1, 2, None]
    assert standings.tie_breaks.index("forfeits") == standings.tie_breaks.index("matches_won") + 1
    assert "forfeit_after" in standings.rule


def test_a_league_games_views_show_the_turn_deadline_and_the_seconds_left(app, settings, reader):
    league, (ann, bea) = clocked_league(app, 2)
    created = app.create_game([ann, bea], league_id=league, seed="deadline")
    catch_up(settings)
    table = reader.table(created.game_id)
    game = app.get_game(created.game_id)
    assert table.turn is not None and game.seats[table.turn].kind == "player"
    assert table.turn_deadline == game.modified_on + timedelta(seconds=30)
    assert table.seconds_left is not None and 0 < table.seconds_left <= 30
    hand = reader.hand(created.game_id, table.turn)
    assert hand.table.turn_deadline == table.turn_deadline and hand.table.seconds_left is not None
    # outside any league there is no clock
    other = app.create_game([ann, bea], seed="no clock").game_id
    catch_up(settings)
    assert reader.table(other).turn_deadline is None and reader.table(other).seconds_left is None


@pytest.mark.parametrize(
    ("setting", "code"),
    [
        ({"turn_clock": 0}, "invalid_turn_clock"),
        ({"turn_clock": 86_401}, "invalid_turn_clock"),
        ({"forfeit_after": -1}, "invalid_forfeit_after"),
        ({"forfeit_after": 101}, "invalid_forfeit_after"),
    ],
)
def test_a_league_with_a_bad_clock_setting_is_refused_and_nothing_is_stored(app, setting, code):
    before = app.recorder.max_notification_id()
    with pytest.raises(RuleError) as refused:
        app.found_league("Bad clock", **setting)
    assert refused.value.code == code
    assert app.recorder.max_notification_id() == before


def test_an_absent_player_no_longer_leads_a_swiss_tournament_but_is_last(app):
    league, (ann,) = clocked_league(app, 1, forfeit_after=2)
    plan = Plan(
        format="swiss",
        table_size=2,
        rounds=3,
        single_round=True,
        places=8,
        turn_clock=5,
        starts_at=datetime.now(UTC) - timedelta(seconds=1),
    )
    tournament_id = app.create_tournament(league, "Absent cup", plan)
    app.join_tournament(tournament_id, ann)
    inline = Inline()
    conductor = Conductor(app, inline)
    conductor.conduct_tournament(tournament_id)
    inline.run(conductor)
    tournament = app.get_tournament(tournament_id)
    assert tournament.finished
    ranking = tournament.standings()
    last = ranking[-1]
    assert last.entrant == str(ann) and (last.wins, last.forfeits, last.tables) == (0, 3, 3)
    for played in tournament.rounds:
        [(table, seat)] = [
            (t, entrants.index(str(ann))) for t, entrants in enumerate(played.tables) if str(ann) in entrants
        ]
        game = app.get_game(played.games[table])
        # the table's clock is the plan's; the forfeit rule the league's
        assert (game.turn_clock, game.forfeit_after, game.forfeited) == (5, 2, (seat,))
        assert played.results[table].forfeited == (seat,)


def test_a_clocked_turn_whose_step_was_lost_is_listed_for_the_tick_once_its_clock_ran_out(
    app, settings, reader
):
    league, (ann, bea) = clocked_league(app, 2)
    game_id = app.create_game([ann, bea], league_id=league, seed="lost clock").game_id
    catch_up(settings)
    deadline = reader.table(game_id).turn_deadline.timestamp()
    assert list(reader.stalled_bot_turns(deadline - 1, 10)) == []
    assert list(reader.stalled_bot_turns(deadline + 1, 10)) == [game_id]
    # the tick queues the game, and its step sets the clock again
    inline = Inline()
    conductor = Conductor(app, inline)
    assert conductor.requeue_stalled_games(reader.stalled_bot_turns(deadline + 1, 10)) == 1
    inline.run(conductor, until=lambda: bool(inline.queued("time_out_turn")))
    game = app.get_game(game_id)
    assert inline.queued("time_out_turn") == [(game_id, game.seat_to_move, game.version)]


def test_a_forfeited_seats_turns_are_no_longer_noticed_nor_hooked_for_its_player(app, settings, reader):
    """After the forfeit a bot plays the seat's turns at once: "your move" and the ``turn`` webhook
    would tell its player of turns they cannot play (and have no move left to make)."""
    league, (ann, bea, cy) = clocked_league(app, 3, forfeit_after=1)
    notices = reader.views.notices
    for member in (ann, bea):
        notices.choose(str(member), Prefs(kinds=("your_move",), channels=(BROWSER,)))
    hook, _ = app.register_webhook(league, "http://127.0.0.1:9/hook", ["turn"], [str(ann)])
    game_id = app.create_game([ann, bea, cy], league_id=league, seed="forfeit").game_id
    inline = Inline()
    conductor = Conductor(app, inline)
    seat = app.get_game(game_id).seat_of(str(ann))
    turns_after = 0  # the forfeited seat's turns the bot played
    while not (game := app.get_game(game_id)).over:
        now = game.seat_to_move
        if game.bot_for(now) is not None:
            turns_after += 1
            conductor.advance_game(game_id)  # the bot plays the forfeited seat's turns
        elif now == seat:
            inline.queue.clear()
            conductor.advance_game(game_id)
            [(_, _, _, args)] = inline.queue
            conductor.time_out_turn(*args)
        else:
            app.execute(game_id, bot_move(game, now, "heuristic"), by=Actor("player", game.seats[now].name))
    [forfeit] = [e for e in app.game_events(game_id) if isinstance(e, Game.SeatForfeited)]
    assert forfeit.seat == seat and turns_after >= 2  # the match went on with the bot in the seat

    catch_up(settings)
    told = [n.data["event_number"] for n in notices.after(str(ann), 0) if n.kind == "your_move"]
    assert told and max(told) <= forfeit.originator_version
    assert [n for n in notices.after(str(bea), 0) if n.data["event_number"] > forfeit.originator_version]
    hooked = [
        msgspec.json.decode(row.payload)["data"]["event_number"]
        for row in reader.views.deliveries.of_hook(hook, 1000)
        if row.kind == "turn"
    ]
    assert hooked and max(hooked) <= forfeit.originator_version

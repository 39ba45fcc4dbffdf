"""The application on PostgreSQL and on SQLite: games stored, loaded, refused, retried."""

import uuid

import pytest

from service.application import MauMau
from service.domain.adjudication import Resume
from service.domain.engine import fold
from service.domain.errors import RuleError
from service.domain.events import CardPlayed, MatchStarted, RoundDealt
from service.domain.game import Game
from service.domain.roles import Actor
from service.domain.ruleset_options import ruleset
from service.domain.seats import Seat
from tests.integration.tables import REFEREE, count_events, deck_for, play_out, players

# seat 1 moves first (dealer 0): 4H matches the starter 9H, 5S does not, 2C is not held
HANDS = {1: ["4H", "5S", "6D", "QC", "KD"], 0: ["2C", "3C", "4C", "5C", "6C"]}
SCRIPTED = deck_for(HANDS, starter="9H")


def scripted_game(app: MauMau, **kwargs) -> tuple[uuid.UUID, list[uuid.UUID]]:
    ann, bob = players(app, 2)
    outcome = app.create_game([ann, bob], deck=SCRIPTED, first_dealer=0, by=REFEREE, **kwargs)
    return outcome.game_id, [ann, bob]


def test_a_created_game_is_stored_dealt_and_loads_equal(app):
    ann, bob = players(app, 2)
    outcome = app.create_game([ann, bob, "bot:heuristic"], seed=42)
    assert outcome.version == 3
    assert [type(e.fact) for e in outcome.events[1:]] == [MatchStarted, RoundDealt]
    game = app.get_game(outcome.game_id)
    assert game.seats == (Seat("player", str(ann)), Seat("player", str(bob)), Seat("bot", "heuristic"))
    stored = app.game_events(outcome.game_id)
    assert stored == list(outcome.events)
    assert game.state == fold(e.fact for e in stored if isinstance(e, Game.Fact))


def test_a_move_is_stored_as_its_engine_events_numbered_on_from_the_game(app):
    game_id, (_, bob) = scripted_game(app)
    outcome = app.play(game_id, 1, "4H", by=Actor("player", str(bob)), expected_version=3)
    assert outcome.version == 4
    (played,) = outcome.events
    assert played.originator_version == 4
    assert isinstance(played.fact, CardPlayed) and played.cause.actor == Actor("player", str(bob))
    assert app.game_events(game_id)[-1] == played
    view = app.replay(game_id)
    assert view.top == "4H" and view.turn == 0 and view.number == 4


@pytest.mark.parametrize(
    ("command", "code"),
    [
        (lambda app, g, p: app.play(uuid.uuid4(), 1, "4H"), "game_not_found"),
        (lambda app, g, p: app.play("not-an-id", 1, "4H"), "game_not_found"),
        (lambda app, g, p: app.play(p[0], 1, "4H"), "game_not_found"),  # a player's id
        (lambda app, g, p: app.play(g, 1, "4H", by=Actor("player", str(p[0]))), "not_your_seat"),
        (lambda app, g, p: app.play(g, 0, "2C", by=Actor("player", str(p[0]))), "not_your_turn"),
        (lambda app, g, p: app.play(g, 5, "4H"), "not_a_seat"),
        (lambda app, g, p: app.play(g, 1, "5S"), "card_does_not_match"),
        (lambda app, g, p: app.play(g, 1, "2C"), "card_not_in_hand"),
        (lambda app, g, p: app.play(g, 1, "ZZ"), "malformed_card"),
        (lambda app, g, p: app.play(g, 1, 999), "malformed_card"),
        (lambda app, g, p: app.play(g, 1, "4H", suit="X"), "malformed_suit"),
        (lambda app, g, p: app.play(g, 1, "4H", call="hello"), "malformed_call"),
        (lambda app, g, p: app.play(g, 1, "4H", suit="S"), "suit_not_allowed"),
        (lambda app, g, p: app.draw(g, 1), "draw_not_allowed"),
        (lambda app, g, p: app.keep(g, 1), "nothing_to_keep"),
        (lambda app, g, p: app.challenge(g, 0), "nothing_to_challenge"),
        (lambda app, g, p: app.play(g, 1, "4H", expected_version=2), "stale_version"),
        (lambda app, g, p: app.give_ruling(g, Resume(), by=REFEREE), "no_dispute"),
    ],
)
def test_a_bad_command_raises_a_clear_error_and_stores_nothing(app, command, code):
    game_id, player_ids = scripted_game(app)
    before = app.game_events(game_id)
    with pytest.raises(RuleError) as refused:
        command(app, game_id, player_ids)
    assert refused.value.code == code
    assert app.game_events(game_id) == before


def test_moves_during_a_dispute_are_refused_with_game_paused_and_store_nothing(app):
    game_id, (ann, bob) = scripted_game(app)
    app.raise_dispute(game_id, reason="a card fell", by=Actor("player", str(ann)))
    before = count_events(app, game_id)
    for move in (
        lambda: app.play(game_id, 1, "4H", by=Actor("player", str(bob))),
        lambda: app.draw(game_id, 1),
        lambda: app.challenge(game_id, 0),
        lambda: app.raise_dispute(game_id, by=REFEREE),
    ):
        with pytest.raises(RuleError) as refused:
            move()
        assert refused.value.code in ("game_paused", "dispute_open")
    assert count_events(app, game_id) == before
    assert app.replay(game_id).paused


def test_moves_after_the_match_are_refused_with_game_over_and_store_nothing(app):
    outcome = app.create_game(["bot:random", "bot:random"], seed=5, options={"single_round": True})
    play_out(app, outcome.game_id, seed=5)
    before = count_events(app, outcome.game_id)
    view = app.replay(outcome.game_id)
    assert view.over and view.winners
    for seat in (0, 1):
        for move in (
            lambda s=seat: app.draw(outcome.game_id, s),
            lambda s=seat: app.play(outcome.game_id, s, "4H"),
        ):
            with pytest.raises(RuleError) as refused:
                move()
            assert refused.value.code == "game_over"
    assert count_events(app, outcome.game_id) == before


def test_a_retried_command_returns_the_first_result_and_stores_nothing_twice(app):
    game_id, _ = scripted_game(app)
    first = app.play(game_id, 1, "4H", key="move-1", expected_version=3)
    stored = count_events(app, game_id)
    # the retry carries the version the client saw the first time: still the first result
    again = app.play(game_id, 1, "4H", key="move-1", expected_version=3)
    assert again == first
    assert count_events(app, game_id) == stored
    with pytest.raises(RuleError) as refused:
        app.draw(game_id, 0, key="move-1")
    assert refused.value.code == "idempotency_key_reused"
    assert count_events(app, game_id) == stored


def test_a_command_says_the_log_position_of_its_last_event(app):
    game_id, _ = scripted_game(app)
    outcome = app.play(game_id, 1, "4H")
    assert outcome.position == app.recorder.max_notification_id()
    other = app.create_game(players(app, 2), seed=1)
    assert other.position == outcome.position + 2 + len(other.events)  # two players registered


def test_a_retried_command_that_ended_a_round_returns_all_its_events(app):
    rules = {"hand_size": 1, "single_round": False, "target_score": 500}
    deck = deck_for({1: ["4H"], 0: ["2C"]}, starter="9H", hand_size=1)
    game_id = app.create_game(players(app, 2), deck=deck, first_dealer=0, by=REFEREE, options=rules).game_id
    first = app.play(game_id, 1, "4H", call="mau_mau", key="out")
    kinds = [type(e).__name__ for e in first.events]
    assert kinds == ["CardPlayed", "RoundEnded", "DeckRevealed", "RoundDealt"]
    again = app.play(game_id, 1, "4H", call="mau_mau", key="out")
    assert again == first


def test_creating_a_game_with_a_key_twice_makes_one_game(app):
    ann, bob = players(app, 2)
    first = app.create_game([ann, bob], seed=1, key="table-7")
    again = app.create_game([ann, bob], seed=1, key="table-7")
    assert again == first
    assert count_events(app, first.game_id) == 3
    with pytest.raises(RuleError) as refused:
        app.create_game([bob, ann], seed=1, key="table-7")
    assert refused.value.code == "idempotency_key_reused"


def test_a_game_checks_its_players_and_its_league(app):
    ann, bob, cid = players(app, 3)
    with pytest.raises(RuleError) as refused:
        app.create_game([ann, uuid.uuid4()])
    assert refused.value.code == "player_not_found"
    with pytest.raises(RuleError) as refused:
        app.create_game([ann, ann])
    assert refused.value.code == "player_seated_twice"
    league = app.found_league("Tuesdays", "club", {"target_score": 30})
    app.admit_member(league, ann)
    app.admit_member(league, bob)
    app.appoint_referee(league, "rita")
    with pytest.raises(RuleError) as refused:
        app.create_game([ann, cid], league_id=league)
    assert refused.value.code == "not_a_member"
    game_id = app.create_game([ann, bob, "bot:random"], league_id=league).game_id
    assert app.get_game(game_id).ruleset == ruleset("club", target_score=30)
    app.raise_dispute(game_id, by=Actor("player", str(bob)))
    with pytest.raises(RuleError) as refused:
        app.give_ruling(game_id, Resume(), by=Actor("referee", "otto"))
    assert refused.value.code == "not_allowed"


def test_a_long_game_loads_from_snapshots_equal_to_the_fold_of_its_events(app):
    outcome = app.create_game(["bot:random"] * 4, seed=11, options={"target_score": 60})
    play_out(app, outcome.game_id, seed=11)
    stored = app.game_events(outcome.game_id)
    assert len(stored) > 100
    snapshots = list(app.snapshots.get(outcome.game_id))
    assert len(snapshots) >= len(stored) // 7 - 1
    game = app.get_game(outcome.game_id)
    assert game.state == fold(e.fact for e in stored if isinstance(e, Game.Fact))
    assert game.over

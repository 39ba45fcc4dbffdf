"""Replay at any event equals what the live game was right after that event.

Random games through the application, with disputes and every kind of ruling
(voids included) thrown in; a client follows the game from the outcomes of
its commands, folding each event as it comes. Afterwards the replay at every
event number (loaded from the store, from snapshots where there are some)
must equal the client's state at that number.
"""

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from service.application import MauMau
from service.domain.adjudication import Penalty, Resume, Void
from service.domain.errors import RuleError
from service.domain.game import Game
from service.domain.image import copy_state, restore
from service.domain.roles import Actor
from service.domain.state import OVER, State
from service.domain.views import table_view
from tests.gameplay import next_command
from tests.integration.tables import REFEREE, players


class Follower:
    """A client keeping the state of one game from the events its commands return."""

    def __init__(self) -> None:
        self.state = State()
        self.after: dict[int, State] = {}

    def follow(self, events) -> None:
        for event in events:
            if isinstance(event, Game.Fact):
                event.fact.apply(self.state)
            elif isinstance(event, Game.RulingGiven) and event.restored is not None:
                self.state = restore(event.restored)
            self.after[event.originator_version] = copy_state(self.state)


def adjudicate(app: MauMau, game_id, rng: random.Random, follower: Follower) -> None:
    game = app.get_game(game_id)
    raiser = rng.choice([REFEREE, Actor("player", game.seats[0].name)])
    follower.follow(app.raise_dispute(game_id, reason="random", by=raiser).events)
    raised_at = app.get_game(game_id).version
    kind = rng.choice(["resume", "penalty", "void", "void"])
    ruling: Resume | Penalty | Void = Resume()
    if kind == "penalty":
        ruling = Penalty(rng.randrange(len(game.seats)), rng.randint(1, 3))
    elif kind == "void":
        ruling = Void(rng.randint(max(3, raised_at - 12), raised_at - 1))
    try:
        outcome = app.give_ruling(game_id, ruling, by=REFEREE)
    except RuleError as error:
        assert error.code in ("invalid_ruling", "stock_exhausted"), error
        outcome = app.give_ruling(game_id, Resume(), by=REFEREE)
    follower.follow(outcome.events)


@settings(
    max_examples=10,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    seed=st.integers(0, 10**9),
    seats=st.integers(2, 4),
    dispute_rate=st.sampled_from([0.0, 0.05, 0.15]),
)
def test_the_replay_at_every_event_equals_the_live_game(app, seed, seats, dispute_rate):
    rng = random.Random(seed)
    follower = Follower()
    created = app.create_game(players(app, seats), seed=seed, options={"target_score": 60})
    game_id = created.game_id
    follower.follow(created.events)
    for _ in range(300):
        game = app.get_game(game_id)
        assert game.state == follower.state  # the live game is what the client followed
        if game.state.phase == OVER:
            break
        if rng.random() < dispute_rate:
            adjudicate(app, game_id, rng, follower)
            continue
        outcome = app.execute(game_id, next_command(game.state, rng), expected_version=game.version)
        follower.follow(outcome.events)

    last = app.get_game(game_id).version
    assert sorted(follower.after) == list(range(1, last + 1))
    for number in range(1, last + 1):
        assert app.state_at(game_id, number) == follower.after[number], number


def test_the_replay_view_shows_every_hand_the_stock_and_the_scores(app):
    outcome = app.create_game(["bot:random"] * 3, seed=8, options={"target_score": 30})
    game_id = outcome.game_id
    rng = random.Random(8)
    while not app.get_game(game_id).over:
        game = app.get_game(game_id)
        app.execute(game_id, next_command(game.state, rng), expected_version=game.version)
    last = app.get_game(game_id).version
    for number in (3, last // 2, last):
        view = app.replay(game_id, number)
        game = app.game_at(game_id, number)
        assert view == table_view(game)
        assert view.number == number
        in_hands = sum(seat.cards for seat in view.seats)
        assert in_hands + len(view.stock) + len(view.discard) == 52
    final = app.replay(game_id)
    assert final.over and final.winners and max(final.totals) >= 30
    assert len(final.round_points) >= 1


def test_replay_refuses_event_numbers_the_game_does_not_have(app):
    game_id = app.create_game(["bot:random"] * 2, seed=1).game_id
    for number in (0, -1, 4, 1000):
        try:
            app.replay(game_id, number)
        except RuleError as error:
            assert error.code == "no_such_event"
        else:
            raise AssertionError(number)
    history = app.history(game_id)
    assert [(entry.number, entry.type) for entry in history] == [
        (1, "Created"),
        (2, "MatchStarted"),
        (3, "RoundDealt"),
    ]
    assert "seed" not in history[0].data

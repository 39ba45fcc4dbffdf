"""A game's use cases, called as both faces call them (the API's controllers and the play, scorer and
referee pages): who may is checked in the use case, a refused one writes and notes nothing, and a
done write is noted for its writer's reads at the log position its answer names."""

from uuid import UUID

import pytest

from service.application import MauMau
from service.domain.roles import Actor
from service.domain.state import PHASE_NAMES
from service.projections.current import CurrentGames
from service.usecases import disputes, games, players
from service.usecases.disputes import DisputeCreate, PenaltyRuling, ResumeRuling, VoidRuling
from service.usecases.facts import Games
from service.usecases.games import ChallengeCreate, Draw, GameCreate, NameSuit
from service.usecases.players import PlayerCreate
from tests.refusals import refused

ADMIN = Actor("admin", "office")


class Table:
    """A context of the application and the games' facts, keeping the writes it is told of (a game's
    use cases read no read model)."""

    def __init__(self, app: MauMau) -> None:
        self.app = app
        self.games = Games(app)
        self.current: CurrentGames | None = None  # a seat's view is not asked for here
        self.noted: list[tuple[Actor, int | None]] = []

    def wrote(self, actor: Actor, position: int | None = None) -> None:
        self.noted.append((actor, position))


@pytest.fixture
def table(app: MauMau) -> Table:
    return Table(app)


def _player(table: Table, name: str) -> Actor:
    registered = players.register_player(table, ADMIN, PlayerCreate(name=name))
    table.noted.clear()
    return Actor("player", str(registered.id))


def _friendly_game(table: Table, ada: Actor) -> UUID:
    # a ruleset where a seat may always draw: a move whatever the cards dealt
    seats = [ada.id, "bot:heuristic"]
    made = games.create_game(table, ADMIN, GameCreate(seats=seats, ruleset="mau-mau-150"), None)
    table.noted.clear()
    return made.game_id


def test_a_game_made_is_noted_once_for_its_maker_at_the_position_its_answer_names(table: Table):
    ada = _player(table, "Ada")
    made = games.create_game(table, ada, GameCreate(seats=[ada.id, "bot:random"]), None)
    assert made.seats == [ada.id, "bot:random"]
    assert table.noted == [(ada, made.position)]


def test_a_player_may_not_make_a_game_they_do_not_sit_at_and_nothing_is_written_or_noted(table: Table):
    ada, bob = _player(table, "Ada"), _player(table, "Bob")
    before = table.app.recorder.max_notification_id()
    refused(
        "not_seated", lambda: games.create_game(table, bob, GameCreate(seats=[ada.id, "bot:random"]), None)
    )
    assert table.app.recorder.max_notification_id() == before
    assert table.noted == []


def test_a_player_not_at_the_table_may_neither_move_nor_challenge_there(table: Table):
    ada, bob = _player(table, "Ada"), _player(table, "Bob")
    game_id = _friendly_game(table, ada)
    version = table.app.get_game(game_id).version
    before = table.app.recorder.max_notification_id()
    refused("not_seated", lambda: games.make_move(table, bob, game_id, Draw(version=version), None))
    refused("not_seated", lambda: games.make_move(table, bob, game_id, ChallengeCreate(), None))
    assert table.app.recorder.max_notification_id() == before
    assert table.noted == []


def test_an_official_must_name_the_seat_a_move_is_for(table: Table):
    ada = _player(table, "Ada")
    game_id = _friendly_game(table, ada)
    refused("seat_required", lambda: games.make_move(table, ADMIN, game_id, Draw(version=0), None))


def test_a_move_body_makes_its_own_command_and_a_move_that_ends_no_round_is_not_noted(table: Table):
    ada = _player(table, "Ada")
    game_id = _friendly_game(table, ada)
    game = table.app.get_game(game_id)
    # an official moves for the seat whose turn it is (the bot's, maybe: no worker answers here);
    # a jack turned up as the starter has its dealer name a suit first
    move: Draw | NameSuit = Draw(version=game.version, seat=game.state.turn)
    if PHASE_NAMES[game.state.phase] == "name_suit":
        move = NameSuit(suit="H", version=game.version, seat=game.state.dealer)
    answer = games.make_move(table, ADMIN, game_id, move, None)
    assert answer.version > game.version
    assert [event.type for event in answer.events][:1] == [
        "CardsDrawn" if isinstance(move, Draw) else "SuitNamed"
    ]
    assert table.noted == []


def test_a_dispute_and_a_ruling_are_noted_for_their_writers_at_their_commands_positions(table: Table):
    ada = _player(table, "Ada")
    game_id = _friendly_game(table, ada)
    raised = disputes.raise_dispute(table, ada, game_id, DisputeCreate(reason="a card fell"), None)
    ruled = disputes.give_ruling(table, ADMIN, game_id, ResumeRuling(), None)
    assert table.noted == [(ada, raised.position), (ADMIN, ruled.position)]


@pytest.mark.parametrize(
    "ruling", [ResumeRuling(), PenaltyRuling(seat=0, cards=2), VoidRuling(from_event=5)], ids=type
)
def test_only_the_games_officials_rule_and_a_refused_ruling_writes_and_notes_nothing(table: Table, ruling):
    ada = _player(table, "Ada")
    game_id = _friendly_game(table, ada)
    disputes.raise_dispute(table, ada, game_id, DisputeCreate(reason="a card fell"), None)
    table.noted.clear()
    before = table.app.recorder.max_notification_id()
    refused("forbidden", lambda: disputes.give_ruling(table, ada, game_id, ruling, None))
    assert table.app.recorder.max_notification_id() == before
    assert table.noted == []


def test_a_stranger_may_not_raise_a_dispute_at_a_table_they_do_not_sit_at(table: Table):
    ada, bob = _player(table, "Ada"), _player(table, "Bob")
    game_id = _friendly_game(table, ada)
    refused("not_seated", lambda: disputes.raise_dispute(table, bob, game_id, DisputeCreate(), None))
    assert table.noted == []

"""The pages' queries (``service.usecases.queries``), with the API's checks: the console's game is
its officials' alone, an official alone chooses a seat to play for, a spectator sees the public
table and events and never a hand, and a query writes and notes nothing."""

from uuid import UUID

import pytest

from service.application import MauMau
from service.domain.roles import Actor
from service.projections.current import CurrentGames
from service.projections.reader import ReadModels
from service.usecases import games, players
from service.usecases.facts import Games
from service.usecases.games import GameCreate
from service.usecases.players import PlayerCreate
from service.usecases.queries import games as game_queries
from tests.refusals import refused

ADMIN = Actor("admin", "office")


class Viewing:
    """A context of the application, the games' facts and the current games, keeping the writes it is
    told of (a query is told of none)."""

    def __init__(self, app: MauMau, reader: ReadModels) -> None:
        self.app = app
        self.reader = reader
        self.games = Games(app)
        self.current = CurrentGames(app, reader.views)
        self.noted: list[tuple[Actor, int | None]] = []

    def wrote(self, actor: Actor, position: int | None = None) -> None:
        self.noted.append((actor, position))


@pytest.fixture
def viewing(app: MauMau, reader: ReadModels) -> Viewing:
    return Viewing(app, reader)


def a_game(viewing: Viewing) -> tuple[Actor, UUID]:
    ada = players.register_player(viewing, ADMIN, PlayerCreate(name="Ada"))
    seated = Actor("player", str(ada.id))
    made = games.create_game(viewing, ADMIN, GameCreate(seats=[seated.id, "bot:random"]), None)
    viewing.noted.clear()
    return seated, made.game_id


def test_the_console_and_the_choice_of_seats_are_the_games_officials_alone(viewing: Viewing):
    ada, game_id = a_game(viewing)
    stranger = Actor("player", "3f1c6c9e-8f7a-4d52-9a53-3e1b1c0b6a77")
    for nobody in (None, ada, stranger):
        assert game_queries.official_facts(viewing, nobody, game_id) is None
        assert game_queries.seats_to_name(viewing, nobody, game_id) == []
    official = game_queries.official_facts(viewing, ADMIN, game_id)
    assert official is not None and official.game_id == game_id
    assert game_queries.seats_to_name(viewing, ADMIN, game_id) == ["Ada", "bot:random"]
    assert viewing.noted == []


def test_a_spectator_sees_the_public_events_and_the_console_the_whole_log(viewing: Viewing):
    _ada, game_id = a_game(viewing)
    seen = game_queries.spectated(viewing, game_id, last=12)
    dealt = [event for event in seen.events if event.type == "RoundDealt"]
    assert dealt and all("deck" not in event.data for event in dealt)  # no hidden card
    official = game_queries.official_facts(viewing, ADMIN, game_id)
    assert official is not None
    whole = game_queries.console(viewing, official).log
    assert all("deck" in event.data for event in whole if event.type == "RoundDealt")
    assert [event.number for event in whole] == list(range(1, len(whole) + 1))
    assert seen.sheet is None and viewing.noted == []


def test_a_page_of_a_game_that_does_not_exist_is_game_not_found(viewing: Viewing):
    missing = UUID("9b2f4c1e-6a3d-4e8f-b1c2-7d5e9f0a1b2c")
    refused("game_not_found", lambda: game_queries.facts(viewing, missing))
    refused("game_not_found", lambda: game_queries.official_facts(viewing, ADMIN, missing))

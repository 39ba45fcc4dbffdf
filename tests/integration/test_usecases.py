"""The admin page's use cases, called as both faces call them: only an admin may, a refused one
writes and notes nothing, and a done one is noted once for its writer's reads (``context.write``)."""

from collections.abc import Callable
from functools import partial
from typing import Any
from uuid import UUID, uuid4

import pytest

from service.application import MauMau
from service.domain.roles import Actor
from service.usecases import leagues, players, tournaments
from service.usecases.leagues import LeagueCreate, LeagueRefereeCreate, MemberCreate
from service.usecases.players import PlayerCreate, RefereeCreate
from service.usecases.tournaments import TournamentCreate
from tests.refusals import refused

ADMIN = Actor("admin", "office")


class Office:
    """A context of the application alone, keeping the writes it is told of (the leagues' and players'
    use cases read no read model)."""

    def __init__(self, app: MauMau) -> None:
        self.app = app
        self.noted: list[tuple[Actor, int | None]] = []

    def wrote(self, actor: Actor, position: int | None = None) -> None:
        self.noted.append((actor, position))


UseCase = Callable[[Office, Actor, UUID], Any]
ADMINS_ONLY: dict[str, UseCase] = {
    "found a league": lambda office, actor, _: leagues.found_league(office, actor, LeagueCreate(name="Thu")),
    "register a player": lambda office, actor, _: players.register_player(
        office, actor, PlayerCreate(name="A")
    ),
    "register a referee": lambda office, actor, _: players.register_referee(
        office, actor, RefereeCreate(name="Rita")
    ),
    "admit a member": lambda office, actor, some: leagues.admit_member(
        office, actor, some, MemberCreate(player_id=some)
    ),
    "appoint a referee": lambda office, actor, some: leagues.appoint_referee(
        office, actor, some, LeagueRefereeCreate(referee_id=some)
    ),
    "dismiss a referee": lambda office, actor, some: leagues.dismiss_referee(office, actor, some, some),
    "announce a tournament": lambda office, actor, some: tournaments.announce(
        office, actor, some, TournamentCreate(name="Cup", format="swiss", table_size=4, rounds=3)
    ),
    "start a tournament": lambda office, actor, some: tournaments.start(office, actor, some),
}


@pytest.mark.parametrize("use_case", ADMINS_ONLY.values(), ids=ADMINS_ONLY.keys())
@pytest.mark.parametrize("actor", [Actor("player", str(uuid4())), Actor("referee", str(uuid4()))])
def test_only_an_admin_may_use_the_admin_pages_use_cases_and_a_refused_one_writes_and_notes_nothing(
    app: MauMau, use_case: UseCase, actor: Actor
):
    office = Office(app)
    before = app.recorder.max_notification_id()
    refused("forbidden", lambda: use_case(office, actor, uuid4()))
    assert app.recorder.max_notification_id() == before
    assert office.noted == []


def test_a_league_founded_a_player_registered_and_admitted_are_each_noted_once_for_the_admin(app: MauMau):
    office = Office(app)
    league = leagues.found_league(office, ADMIN, LeagueCreate(name="Thursday club"))
    ada = players.register_player(office, ADMIN, PlayerCreate(name="Ada"))
    admitted = leagues.admit_member(office, ADMIN, league.id, MemberCreate(player_id=ada.id))
    assert (league.name, ada.name, ada.issued.subject) == ("Thursday club", "Ada", str(ada.id))
    assert admitted.members == (ada.id,)
    assert office.noted == [(ADMIN, None)] * 3


def test_a_refusal_by_the_rules_inside_a_use_case_is_not_noted(app: MauMau):
    office = Office(app)
    league = leagues.found_league(office, ADMIN, LeagueCreate(name="Thursday club"))
    refused(
        "player_not_found",
        lambda: leagues.admit_member(office, ADMIN, league.id, MemberCreate(player_id=uuid4())),
    )
    assert office.noted == [(ADMIN, None)]


def test_a_referee_is_taken_off_a_league_once_noted_and_a_refused_dismissal_changes_nothing(app: MauMau):
    office = Office(app)
    league = leagues.found_league(office, ADMIN, LeagueCreate(name="Thursday club"))
    rita, otto = (
        players.register_referee(office, ADMIN, RefereeCreate(name=name)) for name in ("Rita", "Otto")
    )
    for referee in (rita, otto):
        leagues.appoint_referee(office, ADMIN, league.id, LeagueRefereeCreate(referee_id=referee.id))
    office.noted.clear()
    dismissed = leagues.dismiss_referee(office, ADMIN, league.id, rita.id)
    assert dismissed.referees == (str(otto.id),) == app.get_league(league.id).referees
    assert office.noted == [(ADMIN, None)]

    stranger = players.register_referee(office, ADMIN, RefereeCreate(name="Stranger")).id  # never appointed
    before, noted = app.recorder.max_notification_id(), list(office.noted)
    dismiss = partial(leagues.dismiss_referee, office)
    for referee_id in (rita.id, stranger, uuid4()):  # taken off already, never appointed, no such referee
        refused("league_referee_not_found", partial(dismiss, ADMIN, league.id, referee_id))
    refused("league_not_found", partial(dismiss, ADMIN, uuid4(), otto.id))
    for actor in (Actor("referee", str(otto.id)), Actor("player", str(uuid4()))):
        refused("forbidden", partial(dismiss, actor, league.id, otto.id))
    assert app.recorder.max_notification_id() == before
    assert office.noted == noted
    assert app.get_league(league.id).referees == (str(otto.id),)

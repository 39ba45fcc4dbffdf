"""The use cases of accounts, invitations, webhooks and Mao matches, called as both faces call them:
who may is checked in the use case, a refused one writes and notes nothing, and a done write is
noted once for its writer's reads (``context.write``; a redeemed invitation for whom it made; a Mao
act only when it deals or ends a round)."""

from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any
from uuid import UUID, uuid4

import pytest

from service.application import MauMau
from service.auth.tokens import Authenticator
from service.domain.mao.commands import WriteRule
from service.domain.mao.rule import TEACHING_TEXT
from service.domain.roles import Actor
from service.persistence.notices import Notices
from service.persistence.sessions import Sessions
from service.projections.reader import ReadModels
from service.settings import Settings
from service.usecases import invitations, leagues, mao, players, tokens, webhooks
from service.usecases.invitations import InvitationCreate, Redemption
from service.usecases.leagues import LeagueCreate
from service.usecases.mao import MaoGameCreate
from service.usecases.players import PlayerCreate, PlayerRename
from service.usecases.webhooks import WebhookCreate
from tests.refusals import refused

ADMIN = Actor("admin", "office")
STRANGER = Actor("player", str(uuid4()))


class Desk:
    """A context of the application, its tokens' authenticator and the settings, keeping the writes
    it is told of (these use cases read no read model)."""

    def __init__(self, app: MauMau, settings: Settings) -> None:
        self.app = app
        self.settings = settings
        self.auth = Authenticator(app)
        self.sessions: Sessions | None = None  # the pages' sessions, where a use case ends them
        self.notices: Notices | None = None  # the people's notices, where a use case forgets them
        self.noted: list[tuple[Actor, int | None]] = []

    def wrote(self, actor: Actor, position: int | None = None) -> None:
        self.noted.append((actor, position))


@pytest.fixture
def desk(app: MauMau, settings: Settings) -> Desk:
    return Desk(app, settings)


def in_a_week() -> datetime:
    return datetime.now(UTC) + timedelta(days=7)


UseCase = Callable[[Desk, Actor, UUID], Any]
ADMINS_ONLY: dict[str, UseCase] = {
    "make an invitation": lambda desk, actor, some: invitations.make_invitation(
        desk, actor, some, InvitationCreate(expires_at=in_a_week())
    ),
    "revoke an invitation": lambda desk, actor, some: invitations.revoke_invitation(desk, actor, some),
    "list invitations": lambda desk, actor, some: invitations.invitations_of(desk, actor, some),
    "register a webhook": lambda desk, actor, some: webhooks.register_webhook(
        desk, actor, some, WebhookCreate(url="https://club.example/hook", events=["table_ready"])
    ),
    "remove a webhook": lambda desk, actor, some: webhooks.remove_webhook(desk, actor, some),
    "rotate a webhook's secret": lambda desk, actor, some: webhooks.rotate_secret(desk, actor, some),
    "disable a webhook": lambda desk, actor, some: webhooks.disable_webhook(desk, actor, some),
    "enable a webhook": lambda desk, actor, some: webhooks.enable_webhook(desk, actor, some),
    "resend a delivery": lambda desk, actor, some: webhooks.resend(desk, actor, some, some),
    "erase a player": lambda desk, actor, some: players.erase_player(desk, actor, some),
    "remove a member": lambda desk, actor, some: leagues.remove_member(desk, actor, some, some),
}


@pytest.mark.parametrize("use_case", ADMINS_ONLY.values(), ids=ADMINS_ONLY.keys())
def test_only_an_admin_may_and_a_refused_one_writes_and_notes_nothing(desk: Desk, use_case: UseCase):
    before = desk.app.recorder.max_notification_id()
    refused("forbidden", lambda: use_case(desk, STRANGER, uuid4()))
    assert desk.app.recorder.max_notification_id() == before
    assert desk.noted == []


def test_only_the_holder_or_an_admin_may_get_see_revoke_tokens_rename_and_the_player_ends_a_session(
    desk: Desk,
):
    ada = players.register_player(desk, ADMIN, PlayerCreate(name="Ada"))
    desk.noted.clear()
    before = desk.app.recorder.max_notification_id()
    refused("forbidden", lambda: tokens.issue_token(desk, STRANGER, "player", ada.id, None))
    refused("forbidden", lambda: tokens.tokens_of(desk, STRANGER, "player", ada.id))
    refused("forbidden", lambda: tokens.revoke_tokens(desk, STRANGER, "player", ada.id))
    refused("forbidden", lambda: tokens.revoke_token(desk, STRANGER, ada.issued.credential_id))
    refused("forbidden", lambda: players.rename_player(desk, STRANGER, ada.id, PlayerRename(name="Eve")))
    refused("forbidden", lambda: players.end_session(desk, ADMIN, ada.id, uuid4()))
    assert desk.app.recorder.max_notification_id() == before
    assert desk.noted == []


def test_a_holder_gets_a_token_and_revokes_the_first_with_its_heirs_each_noted_once(desk: Desk):
    ada = players.register_player(desk, ADMIN, PlayerCreate(name="Ada"))
    holder = Actor("player", str(ada.id))
    first = ada.issued.credential_id
    second = tokens.issue_token(desk, holder, "player", ada.id, first)
    revoked = tokens.revoke_token(desk, holder, first)
    assert revoked.revoked == [first, second.credential_id]  # the second was made with the first
    assert desk.noted == [(ADMIN, None), (holder, None), (holder, None)]
    assert players.rename_player(desk, holder, ada.id, PlayerRename(name="Ada L.")).name == "Ada L."
    assert desk.noted[-1] == (holder, None)


def test_an_unknown_holder_is_not_found_and_nothing_is_noted(desk: Desk):
    refused("player_not_found", lambda: tokens.revoke_tokens(desk, ADMIN, "player", uuid4()))
    refused("referee_not_found", lambda: tokens.issue_token(desk, ADMIN, "referee", uuid4(), None))
    assert desk.noted == []


def test_a_redeemed_invitation_is_noted_for_the_newcomer_and_a_wrong_code_for_no_one(desk: Desk):
    league = leagues.found_league(desk, ADMIN, LeagueCreate(name="Thursday club"))
    invitation, code = invitations.make_invitation(
        desk, ADMIN, league.id, InvitationCreate(expires_at=in_a_week(), uses=2)
    )
    assert invitation.uses_left == 2
    joined = invitations.redeem_invitation(desk, Redemption(code=code, name="Bo"), "10.0.0.1")
    newcomer = Actor("player", str(joined.welcome.player_id))
    assert desk.noted == [(ADMIN, None), (ADMIN, None), (newcomer, None)]
    wrong = code[:-4] + ("aaaa" if not code.endswith("aaaa") else "bbbb")
    refused(
        "invitation_not_found",
        lambda: invitations.redeem_invitation(desk, Redemption(code=wrong, name="C"), "x"),
    )
    assert len(desk.noted) == 3
    assert invitations.invitations_of(desk, ADMIN, league.id)[0].redeemed_by == (joined.welcome.player_id,)


def test_an_erased_player_is_noted_once_and_gets_no_token(desk: Desk, reader: ReadModels):
    desk.sessions = Sessions(reader.views)  # their browsers are signed out
    desk.notices = Notices(reader.views)  # their choice of notices, with their address, forgotten
    ada = players.register_player(desk, ADMIN, PlayerCreate(name="Ada"))
    erased = players.erase_player(desk, ADMIN, ada.id)
    assert erased.revoked == [ada.issued.credential_id]
    assert desk.noted == [(ADMIN, None), (ADMIN, None)]
    refused("player_erased", lambda: tokens.issue_token(desk, ADMIN, "player", ada.id, None))
    assert len(desk.noted) == 2


def mao_night(desk: Desk) -> UUID:
    league = desk.app.found_league("Mao night", "mao", {"hand_size": 4})
    ada, bo = desk.app.register_player("Ada"), desk.app.register_player("Bo")
    for player in (ada, bo):
        desk.app.admit_member(league, player)
    return mao.create_match(
        desk,
        ADMIN,
        MaoGameCreate(
            league_id=league, seats=[str(ada), str(bo), "bot:learning"], judge="referee", judge_seat=0
        ),
    ).id


def test_a_mao_match_is_made_by_an_official_alone_and_noted_once(desk: Desk):
    league = desk.app.found_league("Mao night", "mao", {"hand_size": 4})
    data = MaoGameCreate(league_id=league, seats=[str(uuid4()), "bot:learning"])
    refused("forbidden", lambda: mao.create_match(desk, STRANGER, data))
    assert desk.noted == []
    mao_night(desk)
    assert desk.noted == [(ADMIN, None)]


def test_a_mao_act_is_noted_when_it_deals_and_not_when_it_changes_only_the_match(desk: Desk):
    game_id = mao_night(desk)
    desk.noted.clear()
    refused(
        "forbidden",
        lambda: mao.judge_act(desk, STRANGER, game_id, lambda: WriteRule(TEACHING_TEXT), None, ()),
    )
    mao.judge_act(desk, ADMIN, game_id, lambda: WriteRule(TEACHING_TEXT), None, ("rule",))
    assert desk.noted == []  # the rule is the match's own read
    dealt = mao.deal(desk, ADMIN, game_id, None, None, ("deals",))
    assert any(event["type"] == "RoundDealt" for event in dealt.events)
    assert desk.noted == [(ADMIN, None)]

"""Signing in without a token, as both faces' use cases do it: a password chosen at redemption
(only its argon2 hash stored), signing in by league, name and password, and one-time sign-in links
(who may make one, used once, expired, an erased player's)."""

from datetime import UTC, datetime, timedelta

import pytest

from service.application import MauMau, signins
from service.domain.roles import Actor
from service.settings import Settings
from service.usecases import invitations, leagues, players
from service.usecases import signins as signing
from service.usecases.invitations import InvitationCreate, Redemption
from service.usecases.leagues import LeagueCreate, LeagueRefereeCreate
from service.usecases.players import RefereeCreate
from tests.integration.test_account_usecases import ADMIN, Desk, in_a_week
from tests.refusals import refused

PASSWORD = "a long club password"


@pytest.fixture
def desk(app: MauMau, settings: Settings) -> Desk:
    return Desk(app, settings)


def joined(desk: Desk, league_id, name: str, password: str | None = PASSWORD):
    _, code = invitations.make_invitation(desk, ADMIN, league_id, InvitationCreate(expires_at=in_a_week()))
    return invitations.redeem_invitation(desk, Redemption(code=code, name=name), "10.0.0.1", password)


def stored_bytes(app: MauMau) -> bytes:
    return b"".join(n.state for n in app.recorder.select_notifications(1, 100_000))


def test_a_password_chosen_at_redemption_is_stored_only_as_its_hash_and_signs_in_by_league_and_name(
    desk: Desk,
):
    league = leagues.found_league(desk, ADMIN, LeagueCreate(name="Password club"))
    welcome = joined(desk, league.id, "Petra").welcome
    assert PASSWORD.encode() not in stored_bytes(desk.app)
    data = signing.PasswordSignIn(league_id=league.id, name="  petra ", password=PASSWORD)
    done = signing.sign_in_with_password(desk, data, "10.0.0.2")
    assert done.issued.subject == str(welcome.player_id) and done.issued.token.startswith("mm_")
    assert desk.auth.authenticate(done.issued.token)[0] == Actor("player", str(welcome.player_id))
    assert desk.noted[-1] == (Actor("player", str(welcome.player_id)), None)


def test_a_wrong_password_an_unknown_name_and_a_member_without_one_are_refused_alike(desk: Desk):
    league = leagues.found_league(desk, ADMIN, LeagueCreate(name="Alike club"))
    joined(desk, league.id, "Quinn")
    joined(desk, league.id, "Nopass", None)
    noted = len(desk.noted)
    for name, password in (("Quinn", "wrong password"), ("Nobody", PASSWORD), ("Nopass", PASSWORD)):
        data = signing.PasswordSignIn(league_id=league.id, name=name, password=password)
        error = refused(
            "unauthorized", lambda data=data: signing.sign_in_with_password(desk, data, "10.9.9.9")
        )
        assert error.why == "password_not_valid"
    assert len(desk.noted) == noted


def test_a_short_password_at_redemption_refuses_before_anything_is_made(desk: Desk):
    league = leagues.found_league(desk, ADMIN, LeagueCreate(name="Short club"))
    refused("invalid_password", lambda: joined(desk, league.id, "Shorty", "short"))
    assert desk.app.get_league(league.id).members == ()


def test_a_sign_in_link_is_made_by_an_admin_the_player_or_their_leagues_referee_and_signs_in_once(desk: Desk):
    league = leagues.found_league(desk, ADMIN, LeagueCreate(name="Link club"))
    referee = players.register_referee(desk, ADMIN, RefereeCreate(name="Rita"))
    other = players.register_referee(desk, ADMIN, RefereeCreate(name="Otto"))
    leagues.appoint_referee(desk, ADMIN, league.id, LeagueRefereeCreate(referee_id=referee.id))
    member = joined(desk, league.id, "Lina").welcome.player_id
    stranger = joined(desk, league.id, "Stan").welcome.player_id
    for maker in (ADMIN, Actor("player", str(member)), Actor("referee", str(referee.id))):
        made = signing.make_signin_link(desk, maker, member)
        assert made.name == "Lina" and made.expires_at > datetime.now(UTC) + timedelta(minutes=14)
    for outsider in (Actor("referee", str(other.id)), Actor("player", str(stranger))):
        refused("forbidden", lambda outsider=outsider: signing.make_signin_link(desk, outsider, member))

    code = signing.make_signin_link(desk, ADMIN, member).code
    assert code.split("_", 2)[2].encode() not in stored_bytes(desk.app)
    assert signing.link_holder(desk, code, "10.0.0.3") == "Lina"  # seen, not spent
    used = signing.use_signin_link(desk, code, "10.0.0.3")
    assert desk.auth.authenticate(used.issued.token)[0] == Actor("player", str(member))
    refused("signin_link_used", lambda: signing.use_signin_link(desk, code, "10.0.0.3"))
    refused("signin_link_used", lambda: signing.link_holder(desk, code, "10.0.0.3"))


def test_an_expired_link_and_an_erased_players_link_sign_nobody_in(desk: Desk):
    desk.sessions = None
    league = leagues.found_league(desk, ADMIN, LeagueCreate(name="Gone club"))
    member = joined(desk, league.id, "Gina").welcome.player_id
    _, expired = signins.make_link(desk.app, member, "admin:x", datetime.now(UTC) - timedelta(seconds=1))
    refused("signin_link_expired", lambda: signing.use_signin_link(desk, expired, "10.0.0.4"))
    code = signing.make_signin_link(desk, ADMIN, member).code
    desk.app.erase_player(member)
    kept = signins.find_password(desk.app, member)
    assert kept is not None and not kept.password_hash.startswith("$argon2")  # scrubbed with the name
    refused("player_erased", lambda: signing.use_signin_link(desk, code, "10.0.0.4"))
    refused("player_erased", lambda: signing.make_signin_link(desk, ADMIN, member))
    data = signing.PasswordSignIn(league_id=league.id, name="Gina", password=PASSWORD)
    refused("unauthorized", lambda: signing.sign_in_with_password(desk, data, "10.0.0.4"))

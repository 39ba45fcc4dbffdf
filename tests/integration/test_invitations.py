"""Invitations through the application, on both stores: redeemed in one transaction, races lost by version."""

import uuid
from datetime import UTC, datetime, timedelta

import pytest

from service.application import MauMau, credentials
from service.application.saving import Conflict
from service.domain.credential import keyring_id, parse_token
from service.domain.errors import RuleError
from service.domain.invitation import parse_code


def tomorrow() -> datetime:
    return datetime.now(UTC) + timedelta(days=1)


def test_a_redemption_stores_the_player_the_admission_the_use_and_the_token_together(app: MauMau):
    league = app.found_league("Invited club")
    invitation, code = app.make_invitation(league, tomorrow(), 2, "admin-1")
    before = app.recorder.max_notification_id() or 0
    welcome = app.redeem_invitation(code, "Nora")
    stored = app.recorder.select_notifications(before, 10, inclusive_of_start=False)
    assert {n.originator_id for n in stored} == {
        welcome.player_id,
        league,
        invitation.id,
        welcome.credential_id,
        keyring_id(str(welcome.player_id)),
    }
    assert app.get_player(welcome.player_id).name == "Nora"
    assert app.get_league(league).members == (welcome.player_id,)
    assert app.get_invitation(invitation.id).redeemed_by == (welcome.player_id,)
    parsed = parse_token(welcome.token)
    assert parsed is not None and parsed[0] == welcome.credential_id
    assert credentials.get(app, welcome.credential_id).accepts(parsed[1])
    assert [i.id for i in app.invitations_of(league)] == [invitation.id]
    assert app.invitations_of(app.found_league("Other club")) == []


def test_a_refused_redemption_stores_nothing(app: MauMau):
    league = app.found_league("Invited club")
    ada = app.register_player("Ada")
    app.admit_member(league, ada)
    _, code = app.make_invitation(league, tomorrow(), 1, "admin-1")
    before = app.recorder.max_notification_id()
    for name, refusal in (("ADA", "name_taken"), ("erased player", "name_reserved"), ("", "malformed_name")):
        with pytest.raises(RuleError) as error:
            app.redeem_invitation(code, name)
        assert error.value.code == refusal
    assert app.recorder.max_notification_id() == before


def test_two_redemptions_of_the_last_use_collide_on_the_invitations_version_and_the_later_is_refused(
    app: MauMau,
):
    league = app.found_league("Invited club")
    invitation, code = app.make_invitation(league, tomorrow(), 1, "admin-1")
    _, secret = parse_code(code)
    first, second = app.get_invitation(invitation.id), app.get_invitation(invitation.id)
    now = datetime.now(UTC)
    first.redeem(secret, uuid.uuid4(), now)
    second.redeem(secret, uuid.uuid4(), now)  # both saw a use left
    app.save(first)
    with pytest.raises(Conflict):
        app.save(second)
    assert app.get_invitation(invitation.id).redeemed_by == first.redeemed_by
    before = app.recorder.max_notification_id()
    with pytest.raises(RuleError) as error:
        app.redeem_invitation(code, "Late")
    assert error.value.code == "invitation_used_up"
    assert app.recorder.max_notification_id() == before

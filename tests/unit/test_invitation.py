"""The Invitation aggregate: made with an expiry and a number of uses, redeemed, revoked."""

import uuid
from datetime import UTC, datetime, timedelta
from functools import partial

from service.domain.credential import hash_secret
from service.domain.invitation import MAX_USES, Invitation, parse_code
from tests.refusals import refused

NOW = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)
LEAGUE = uuid.uuid4()


def made(uses: int = 2, days: int = 7) -> tuple[Invitation, str]:
    return Invitation.make(LEAGUE, NOW + timedelta(days=days), uses, "admin-1", NOW)


def test_an_invitation_keeps_only_the_hash_of_its_code_and_the_code_names_it():
    invitation, code = made()
    invitation_id, secret = parse_code(code)
    assert invitation_id == invitation.id
    assert invitation.code_hash == hash_secret(secret)
    assert secret not in repr(vars(invitation))
    (event,) = invitation.collect_events()
    assert secret not in repr(vars(event))


def test_an_invitation_is_redeemed_as_often_as_it_allows_then_refused_as_used_up():
    invitation, code = made(uses=2)
    _, secret = parse_code(code)
    first, second = uuid.uuid4(), uuid.uuid4()
    invitation.redeem(secret, first, NOW)
    invitation.redeem(secret, second, NOW)
    assert invitation.redeemed_by == (first, second) and invitation.uses_left == 0
    refused("invitation_used_up", partial(invitation.redeem, secret, uuid.uuid4(), NOW))
    assert [type(e).__name__ for e in invitation.collect_events()] == ["Made", "Redeemed", "Redeemed"]


def test_an_expired_or_revoked_invitation_or_a_wrong_secret_is_refused_and_records_nothing():
    invitation, code = made(days=1)
    _, secret = parse_code(code)
    invitation.collect_events()
    refused("invitation_expired", partial(invitation.redeem, secret, uuid.uuid4(), NOW + timedelta(days=1)))
    refused("invitation_not_found", partial(invitation.redeem, secret[:-1] + "x", uuid.uuid4(), NOW))
    invitation.revoke("admin-1")
    refused("invitation_revoked", partial(invitation.redeem, secret, uuid.uuid4(), NOW))
    refused("already_revoked", partial(invitation.revoke, "admin-1"))
    assert [type(e).__name__ for e in invitation.collect_events()] == ["Revoked"]


def test_an_invitation_needs_a_sensible_number_of_uses_and_expiry():
    for uses in (0, -1, MAX_USES + 1, True, 1.5):
        refused("invalid_uses", partial(Invitation.make, LEAGUE, NOW + timedelta(days=1), uses, "a", NOW))
    for expires_at in (NOW, NOW - timedelta(seconds=1), NOW + timedelta(days=367), datetime(2027, 1, 1)):
        refused("invalid_expiry", partial(Invitation.make, LEAGUE, expires_at, 1, "a", NOW))


def test_a_code_not_shaped_like_one_names_no_invitation():
    _, code = made()
    for bad in ("", "inv_", code + "x", code.replace("inv_", "mm_"), code[:-1], 7):
        refused("invitation_not_found", partial(parse_code, bad))

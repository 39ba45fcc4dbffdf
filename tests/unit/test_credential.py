"""Credentials: a token names its credential, only the hash of its secret is kept."""

from uuid import UUID, uuid4

import pytest

from service.domain.credential import (
    Credential,
    Keyring,
    format_token,
    hash_secret,
    keyring_id,
    parse_token,
)
from service.domain.errors import RuleError
from service.domain.roles import Actor


def test_a_token_names_its_credential_and_only_the_hash_of_its_secret_is_recorded():
    credential, token = Credential.issue("player", "p-1", "Ada")
    credential_id, secret = parse_token(token)
    assert credential_id == credential.id
    (issued,) = credential.collect_events()
    assert secret not in repr(vars(issued)) and token not in repr(vars(issued))
    assert issued.secret_hash == hash_secret(secret)
    assert credential.accepts(secret)
    assert not credential.accepts(secret + "x")


def test_a_credential_speaks_for_its_subject_in_its_role():
    credential, _ = Credential.issue("player", "p-1", "Ada")
    assert credential.actor == Actor("player", "p-1")


def test_without_a_subject_a_credential_is_its_own_subject():
    given = uuid4()
    credential, token = Credential.issue("referee", None, "Rita", credential_id=given)
    assert credential.id == given and credential.subject == str(given)
    assert token.startswith(f"mm_{given.hex}_")


def test_a_revoked_credential_accepts_no_secret_and_is_revoked_once():
    credential, token = Credential.issue("admin", None, "Club")
    _, secret = parse_token(token)
    credential.revoke()
    assert not credential.accepts(secret)
    with pytest.raises(RuleError) as refused:
        credential.revoke()
    assert refused.value.code == "already_revoked"


@pytest.mark.parametrize(
    "text",
    [
        "",
        "mm",
        "mm_",
        "xx_" + "0" * 32 + "_s",
        "mm_" + "0" * 31 + "_s",
        "mm_" + "g" * 32 + "_s",
        "mm_" + "0" * 32 + "_",
    ],
)
def test_text_not_shaped_like_a_token_is_no_token(text):
    assert parse_token(text) is None


def test_a_secret_may_hold_underscores():
    credential_id = UUID(int=7)
    assert parse_token(format_token(credential_id, "a_b_c")) == (credential_id, "a_b_c")


def test_an_unknown_role_or_an_empty_name_is_refused():
    with pytest.raises(RuleError) as refused:
        Credential.issue("king", "k", "Louis")  # type: ignore[arg-type]
    assert refused.value.code == "invalid_role"
    with pytest.raises(RuleError) as refused:
        Credential.issue("player", "p", "  ")
    assert refused.value.code == "invalid_name"


def test_a_token_minted_with_another_names_its_minter_and_the_minter_names_its_heir():
    minter, _ = Credential.issue("player", "p-1", "Ada")
    heir, _ = Credential.issue("player", "p-1", "Ada", minted_by=minter)
    assert heir.minted_by == minter.id
    assert minter.heirs == (heir.id,)
    assert [type(e) for e in minter.collect_events()] == [Credential.Issued, Credential.Minted]


def test_a_revoked_token_mints_no_other():
    minter, _ = Credential.issue("player", "p-1", "Ada")
    minter.revoke()
    with pytest.raises(RuleError) as refused:
        Credential.issue("player", "p-1", "Ada", minted_by=minter)
    assert refused.value.code == "unauthorized"
    assert minter.heirs == ()


def test_a_revocation_names_the_token_it_went_along_with():
    credential, _ = Credential.issue("player", "p-1", "Ada")
    cause = uuid4()
    credential.revoke(cause)
    assert credential.revoked_with == cause and credential.revoked_on is not None


def test_a_keyring_follows_from_its_subject_and_holds_only_its_subjects_credentials():
    keyring = Keyring.open("p-1")
    assert keyring.id == keyring_id("p-1") == Keyring.open("p-1").id != keyring_id("p-2")
    mine, _ = Credential.issue("player", "p-1", "Ada")
    keyring.add(mine)
    assert keyring.credentials == (mine.id,)
    with pytest.raises(ValueError):
        keyring.add(Credential.issue("player", "p-2", "Bob")[0])

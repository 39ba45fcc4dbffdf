"""A player's password (argon2, only its hash kept) and the one-time sign-in link (single use,
expiry, only its code's hash kept); the wrong-secret counter's check before a password is tried."""

import uuid
from datetime import UTC, datetime, timedelta
from functools import partial

from service.domain.credential import hash_secret
from service.domain.password import MAX_LENGTH, MIN_LENGTH, Password, checked_password, password_id
from service.domain.signin_link import SignInLink, parse_code
from service.usecases.invitations import Refusals
from tests.refusals import refused

NOW = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)
PLAYER = uuid.uuid4()
SECRET = "correct horse battery"


def test_a_password_keeps_only_its_argon2_hash_and_accepts_only_itself():
    password = Password.choose(PLAYER, SECRET)
    assert password.id == password_id(PLAYER) and password.password_hash.startswith("$argon2id$")
    (event,) = password.collect_events()
    assert SECRET not in repr(vars(event)) and SECRET not in repr(vars(password))
    assert password.accepts(SECRET)
    assert not password.accepts("correct horse batterY") and not password.accepts("")


def test_two_players_with_one_password_have_different_hashes():
    first, second = Password.choose(PLAYER, SECRET), Password.choose(uuid.uuid4(), SECRET)
    assert first.password_hash != second.password_hash


def test_a_changed_password_replaces_the_old_one():
    password = Password.choose(PLAYER, SECRET)
    password.change("another long one")
    assert password.accepts("another long one") and not password.accepts(SECRET)


def test_a_password_too_short_or_too_long_is_refused_and_records_nothing():
    refused("invalid_password", partial(Password.choose, PLAYER, "x" * (MIN_LENGTH - 1)))
    refused("invalid_password", partial(checked_password, "x" * (MAX_LENGTH + 1)))
    refused("invalid_password", partial(checked_password, None))
    password = Password.choose(PLAYER, SECRET)
    password.collect_events()
    refused("invalid_password", partial(password.change, "short"))
    assert password.collect_events() == [] and password.accepts(SECRET)


def made(minutes: int = 15) -> tuple[SignInLink, str]:
    return SignInLink.make(PLAYER, "admin:1", NOW + timedelta(minutes=minutes))


def test_a_sign_in_link_keeps_only_the_hash_of_its_code_and_the_code_names_it():
    link, code = made()
    link_id, secret = parse_code(code)
    assert link_id == link.id and link.code_hash == hash_secret(secret)
    (event,) = link.collect_events()
    assert secret not in repr(vars(event))


def test_a_sign_in_link_signs_in_once():
    link, code = made()
    _, secret = parse_code(code)
    link.use(secret, NOW)
    refused("signin_link_used", partial(link.use, secret, NOW))
    assert [type(e).__name__ for e in link.collect_events()] == ["Made", "Used"]


def test_an_expired_link_or_a_wrong_secret_is_refused_and_records_nothing():
    link, code = made(minutes=15)
    _, secret = parse_code(code)
    link.collect_events()
    refused("signin_link_expired", partial(link.use, secret, NOW + timedelta(minutes=15)))
    wrong = secret[:-1] + ("A" if secret[-1] != "A" else "B")
    refused("signin_link_not_found", partial(link.use, wrong, NOW))
    refused("signin_link_not_found", partial(parse_code, "inv_" + code[4:]))
    assert link.collect_events() == [] and not link.used


def test_the_check_before_a_password_refuses_once_the_limit_of_wrong_ones_is_reached_counting_nothing():
    refusals = Refusals(2)
    league = uuid.uuid4()
    refusals.check("198.51.100.1", league, why="password")  # nothing counted yet
    refusals.count("198.51.100.1", league, why="password")
    refusals.check("198.51.100.1", league, why="password")
    refusals.count("198.51.100.1", league, why="password")
    refused("too_many_attempts", partial(refusals.check, "198.51.100.1", league, why="password"))
    refusals.check("198.51.100.2", league, why="password")  # another address
    refusals.check("198.51.100.1", uuid.uuid4(), why="password")  # another league

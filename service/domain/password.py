"""The Password aggregate: a player's password, kept only as its argon2 hash.

Commands and the events they record:

    Password.choose(player_id, password)  -> Chosen   (at an invitation's redemption, or later)
    password.change(password)             -> Changed

Its id follows from the player's (``password_id``), so a sign-in loads it without a lookup and
two choices at once collide on its version. The hash is argon2id (argon2-cffi's defaults, salted
per password); the password itself is never stored, logged nor answered. No read model folds
these events: nothing public ever holds the hash (``docs/members.md``).

Refusals: invalid_password (too short or too long).
"""

import contextlib
import functools
from uuid import NAMESPACE_URL, UUID, uuid5

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from eventsourcing.domain import Aggregate

from service.domain.errors import RuleError

MIN_LENGTH = 8  # a club's password guards a seat at its tables, not a bank: long enough not to guess
MAX_LENGTH = 200  # argon2 takes any length; a bound keeps a huge form from costing the server
HASHER = PasswordHasher()
_PASSWORDS = uuid5(NAMESPACE_URL, "https://maumau.invalid/passwords")


def password_id(player_id: UUID) -> UUID:
    return uuid5(_PASSWORDS, str(player_id))


def checked_password(password: object) -> str:
    """A password as chosen (kept as typed: spaces count); ``invalid_password`` outside the bounds."""
    if not isinstance(password, str) or not MIN_LENGTH <= len(password) <= MAX_LENGTH:
        raise RuleError("invalid_password", min_length=MIN_LENGTH, max_length=MAX_LENGTH)
    return password


def hashed(password: str) -> str:
    return HASHER.hash(checked_password(password))


class Password(Aggregate):
    class Event(Aggregate.Event):
        pass

    class Chosen(Aggregate.Created):
        player_id: UUID
        password_hash: str

    class Changed(Event):
        password_hash: str

        def apply(self, password: "Password") -> None:
            password.password_hash = self.password_hash

    def __init__(self, player_id: UUID, password_hash: str) -> None:
        self.player_id = player_id
        self.password_hash = password_hash

    @classmethod
    def choose(cls, player_id: UUID, password: str) -> "Password":
        return cls._create(
            cls.Chosen, id=password_id(player_id), player_id=player_id, password_hash=hashed(password)
        )

    def change(self, password: str) -> None:
        self.trigger_event(self.Changed, password_hash=hashed(password))

    def accepts(self, password: str) -> bool:
        """The password is this one (argon2's check: constant time in the password)."""
        try:
            return HASHER.verify(self.password_hash, password)
        except (VerificationError, InvalidHashError):
            return False


def spend_a_check(password: str) -> None:
    """As long as checking a password takes, for a name that has none: a wrong name and a wrong
    password then answer alike, in time too."""
    with contextlib.suppress(VerificationError, InvalidHashError):
        HASHER.verify(_dummy(), password)


@functools.cache
def _dummy() -> str:
    # made at the first check, not at import: a hash costs half a second of a core, and every
    # process (each CLI command, worker and server) imported it whether it checked a password or not
    return HASHER.hash("a password nobody has")

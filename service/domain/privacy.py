"""Which fields of which events hold a person's personal data, and those events with it scrubbed.

A player's personal data is their name: in their own ``Registered`` and
``Renamed`` events, and in each of their tokens' ``Issued`` (the name it was
made for), and their password's hash in their ``Password``'s events. Every other event names a
player by id only. Erasing a player
(``docs/privacy.md``) rewrites these events of the player's own aggregates in
the store with each such field set to ``ERASED_NAME``.
"""

from typing import Any

from service.domain.credential import Credential
from service.domain.league import ERASED_NAME, Player
from service.domain.password import Password

PERSONAL_FIELDS: dict[type, tuple[str, ...]] = {
    Player.Registered: ("name",),
    Player.Renamed: ("name",),
    Credential.Issued: ("name",),
    # not a name, but theirs: written over too (what is left is no argon2 hash, so it accepts nothing)
    Password.Chosen: ("password_hash",),
    Password.Changed: ("password_hash",),
}


def scrubbed(event: Any) -> Any | None:
    """``event`` with its personal fields set to ``ERASED_NAME``; None when it holds none (left as it is)."""
    fields = PERSONAL_FIELDS.get(type(event), ())
    if all(getattr(event, name) == ERASED_NAME for name in fields):
        return None
    copy = object.__new__(type(event))
    # the events are frozen: a copy with the fields replaced, as the mapper builds them
    object.__setattr__(copy, "__dict__", {**vars(event), **dict.fromkeys(fields, ERASED_NAME)})
    return copy

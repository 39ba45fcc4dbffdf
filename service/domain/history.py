"""What a game's history is numbered and marked by: each command's ``Cause`` (on its first event:
who asked, which command, the client's idempotency key, so a retried command is recognised from
the stored events alone) and the event numbers every game's history starts with."""

import msgspec

from service.domain.roles import Actor

CREATED, MATCH_STARTED = 1, 2
# Voiding can reach back to the first deal (event 3): the state before it is
# "waiting for the deal", and the table is dealt again.
FIRST_VOIDABLE = MATCH_STARTED + 1


class Cause(msgspec.Struct, frozen=True, array_like=True):
    """On the first event of each command: who asked, what, and the client's idempotency key."""

    actor: Actor
    command: str  # the command's name: "PlayCard", "RaiseDispute", ...
    key: str | None = None
    digest: str = ""  # a fingerprint of the command, so a key reused for another command is refused

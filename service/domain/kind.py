"""What every game kind's aggregate is to the one act path (``service.application.core``): the
card game's ``Game`` (the ``club`` family and every other ruleset) and ``mao.aggregate.MaoGame``.

A kind decides a command into events inside its aggregate; the act path loads it (from the game
cache or the store), answers a request sent again from what the first one stored, lets the kind
decide and make the server's moves that follow, and saves it all at once, again on a conflict
(docs/architecture.md, "Game kinds").
"""

from typing import Any, ClassVar, Protocol
from uuid import UUID

from service.domain.errors import RuleError


class Keyed:
    """The one idempotency rule: a request's key, scoped to its client, with its digest (a
    fingerprint of the whole request) is remembered at the number of the first event it stored.
    The same key and digest again: what the first one stored; the key with another digest: refused."""

    keys: dict[str, tuple[str, int]]  # idempotency key -> (digest, number of its first event)

    def remember(self, key: str | None, digest: str, number: int) -> None:
        if key is not None:
            self.keys[key] = (digest, number)

    def done_before(self, key: str, digest: str) -> int | None:
        """The number of the first event the request with this key stored, if it was done already."""
        found = self.keys.get(key)
        if found is None:
            return None
        if found[0] != digest:
            raise RuleError("idempotency_key_reused", why="request")
        return found[1]


class GameKind(Protocol):
    """A game kind's aggregate, as the act path takes it."""

    not_found: ClassVar[str]  # the ``why`` of ``game_not_found`` for an id that is no game of this kind

    @property
    def id(self) -> UUID: ...

    @property
    def version(self) -> int: ...

    @property
    def pending_events(self) -> list[Any]: ...

    def done_before(self, key: str, digest: str) -> int | None: ...

    @staticmethod
    def begins_request(event: object) -> bool:
        """Whether a stored event is the first of a request a client made: what a request stored
        ends before the next one's (the server's moves after it are its own)."""
        ...

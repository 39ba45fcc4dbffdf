"""Reading your own writes: each actor's last write, remembered server-side, and the bounded waits
of the read models (``docs/consistency.md``; the API's check before each read is
``service.http.consistency``).

A game's own reads read the event store, current the moment a write's commit returns; the other
reads read the read models, which apply the log a moment later. A successful write they show notes
its log position under its actor (``Writes``: in the read models' store, which every process of a
deployment shares), and a read by the same actor waits until the read models have applied it, at
most ``READ_WAIT_SECONDS``.
"""

from collections.abc import Callable

from service.domain.roles import Actor
from service.projections.reader import ReadModels
from service.projections.store import Views

# How long a read waits for the read models to apply the position a client asks for.
READ_WAIT_SECONDS = 3.0
# ... of which the first part, before it asks whether the position was ever written
FIRST_WAIT_SECONDS = 0.25


class Writes:
    def __init__(self, views: Views) -> None:
        self.views = views

    def note(self, actor: Actor, position: int) -> None:
        """``actor`` wrote at log ``position`` (a later note of an earlier position changes nothing)."""
        self.views.last_writes.note(_key(actor), position)

    def last(self, actor: Actor) -> int:
        """The log position of ``actor``'s last write (0: none noted)."""
        return self.views.last_writes.of(_key(actor))


def _key(actor: Actor) -> str:
    return f"{actor.role}:{actor.id}"


def caught_up(reader: ReadModels, after: int | None, head: Callable[[], int | None]) -> None:
    """Wait until the read models have applied position ``after`` (or a few seconds have passed).

    A position past the log's ``head`` was never written, so no client saw it: the answer comes
    after a short first wait, as it would after the whole one (else any request could hold a
    thread for the whole wait). The head is only asked for then: most waits end sooner.
    """
    if not after or reader.position() >= after:
        return
    if reader.wait_for(after, timeout=FIRST_WAIT_SECONDS) < after and after <= (head() or 0):
        reader.wait_for(after, timeout=READ_WAIT_SECONDS - FIRST_WAIT_SECONDS)

"""The Webhook aggregate: a URL a league's admin registers to be told of chosen events.

Commands (methods) and the events they record:

    Webhook.register(league_id, url, events, players, secret)  -> Registered
    rotate_secret(secret)                                       -> SecretRotated
    disable(reason)                                             -> Disabled   (after failing deliveries)
    enable()                                                    -> Enabled
    remove()                                                    -> Removed

The secret signs every delivery (``service.webhooks.signature``); the application draws it, and
the API shows it once, when it is drawn. Which events make which deliveries, and what they carry,
is ``service.projections.hooks``'s.

Public methods validate and raise ``RuleError`` (codes below) changing nothing; the events'
``apply`` only mutate.

    invalid_webhook_url, unknown_webhook_event, invalid_webhook_players, webhook_not_found
    (a removed hook), already_enabled, already_disabled
"""

from collections.abc import Iterable
from urllib.parse import urlsplit
from uuid import UUID

from eventsourcing.domain import Aggregate

from service.domain.errors import RuleError

# the events a hook may ask for, in the order the documentation lists them
EVENT_KINDS = (
    "table_ready",
    "turn",
    "dispute_raised",
    "ruling_given",
    "round_started",
    "tournament_finished",
)
TURN = "turn"
MAX_URL = 2000
MAX_TURN_PLAYERS = 64


def checked_url(url: str) -> str:
    """An absolute http or https URL with a host, without credentials (a listing shows the URL)."""
    if (
        not isinstance(url, str)
        or not 0 < len(url) <= MAX_URL
        or any(c.isspace() or ord(c) < 32 for c in url)
    ):
        raise RuleError("invalid_webhook_url", why="length", max_url=MAX_URL)
    try:
        parts = urlsplit(url)
        port = parts.port  # raises on a port that is no number or out of range
    except ValueError:
        raise RuleError("invalid_webhook_url", why="unreadable") from None
    if parts.scheme not in ("http", "https"):
        raise RuleError("invalid_webhook_url", why="scheme")
    if not parts.hostname:
        raise RuleError("invalid_webhook_url", why="host")
    if parts.username is not None or parts.password is not None:
        raise RuleError("invalid_webhook_url", why="credentials")
    if parts.fragment:
        raise RuleError("invalid_webhook_url", why="fragment")
    if port == 0:
        raise RuleError("invalid_webhook_url", why="port")
    return url


def checked_events(events: Iterable[str]) -> tuple[str, ...]:
    chosen = tuple(dict.fromkeys(events))
    if not chosen:
        raise RuleError("unknown_webhook_event", why="name_least_event", event_kinds=", ".join(EVENT_KINDS))
    unknown = [kind for kind in chosen if kind not in EVENT_KINDS]
    if unknown:
        raise RuleError(
            "unknown_webhook_event",
            why="no_event_events",
            unknown=unknown[0],
            event_kinds=", ".join(EVENT_KINDS),
        )
    return tuple(kind for kind in EVENT_KINDS if kind in chosen)


def checked_players(events: tuple[str, ...], players: Iterable[str]) -> tuple[str, ...]:
    """The players whose turns a hook asks for: some exactly when it asks for turns."""
    chosen = tuple(dict.fromkeys(players))
    if (TURN in events) != bool(chosen):
        raise RuleError("invalid_webhook_players", why="hook_asks_turns")
    if len(chosen) > MAX_TURN_PLAYERS:
        raise RuleError(
            "invalid_webhook_players", why="hook_follows_turns", max_turn_players=MAX_TURN_PLAYERS
        )
    return chosen


class Webhook(Aggregate):
    class Event(Aggregate.Event):
        pass

    class Registered(Aggregate.Created):
        league_id: UUID
        url: str
        events: tuple[str, ...]
        players: tuple[str, ...]  # player ids whose turns are told (with the "turn" event only)
        secret: str

    class SecretRotated(Event):
        secret: str

        def apply(self, hook: "Webhook") -> None:
            hook.secret = self.secret

    class Disabled(Event):
        reason: str

        def apply(self, hook: "Webhook") -> None:
            hook.enabled = False
            hook.disabled_reason = self.reason

    class Enabled(Event):
        def apply(self, hook: "Webhook") -> None:
            hook.enabled = True
            hook.disabled_reason = ""

    class Removed(Event):
        def apply(self, hook: "Webhook") -> None:
            hook.removed = True
            hook.enabled = False

    def __init__(
        self, league_id: UUID, url: str, events: tuple[str, ...], players: tuple[str, ...], secret: str
    ) -> None:
        self.league_id = league_id
        self.url = url
        self.events = tuple(events)
        self.players = tuple(players)
        self.secret = secret
        self.enabled = True
        self.disabled_reason = ""
        self.removed = False

    @classmethod
    def register(
        cls, league_id: UUID, url: str, events: Iterable[str], players: Iterable[str], secret: str
    ) -> "Webhook":
        chosen = checked_events(events)
        return cls._create(
            cls.Registered,
            league_id=league_id,
            url=checked_url(url),
            events=chosen,
            players=checked_players(chosen, players),
            secret=secret,
        )

    def rotate_secret(self, secret: str) -> None:
        self._refuse_removed()
        self.trigger_event(self.SecretRotated, secret=secret)

    def disable(self, reason: str) -> None:
        self._refuse_removed()
        if not self.enabled:
            raise RuleError("already_disabled")
        self.trigger_event(self.Disabled, reason=reason)

    def enable(self) -> None:
        self._refuse_removed()
        if self.enabled:
            raise RuleError("already_enabled")
        self.trigger_event(self.Enabled)

    def remove(self) -> None:
        self._refuse_removed()
        self.trigger_event(self.Removed)

    def _refuse_removed(self) -> None:
        if self.removed:
            raise RuleError("webhook_not_found")

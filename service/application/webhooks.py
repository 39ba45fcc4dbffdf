"""Webhooks: register, list, rotate the secret, disable, enable, remove.

The secret is drawn here (256 bits from ``secrets``) and answered once, by ``register_webhook``
and ``rotate_webhook_secret``; afterwards only the workers read it, from the hook's events, to sign
deliveries. Refusals: the aggregate's (``service.domain.webhook``), ``league_not_found``,
``not_a_member`` (a turn player who is not the league's), ``invalid_webhook_players`` (an id that
is no id).
"""

import secrets
from collections.abc import Iterable
from uuid import UUID

from eventsourcing.utils import get_topic

from service.application.leagues import Leagues
from service.domain.errors import RuleError
from service.domain.webhook import Webhook

_PAGE = 500


class Webhooks(Leagues):
    def register_webhook(
        self, league_id: UUID | str, url: str, events: Iterable[str], players: Iterable[str] = ()
    ) -> tuple[UUID, str]:
        """A hook of the league for these events (and these players' turns): its id and its secret."""
        league = self.get_league(league_id)
        turn_players = []
        for player in players:
            try:
                player_id = UUID(str(player))
            except ValueError:
                raise RuleError("invalid_webhook_players", why="not_player_id", player=player) from None
            if player_id not in league.members:
                raise RuleError("not_a_member", why="player_not_member", player_id=player_id)
            turn_players.append(str(player_id))
        secret = secrets.token_hex(32)
        hook = Webhook.register(league.id, url, events, turn_players, secret)
        self.save(hook)
        return hook.id, secret

    def get_webhook(self, hook_id: UUID | str) -> Webhook:
        hook: Webhook = self._get(Webhook, hook_id, "webhook_not_found")
        if hook.removed:
            raise RuleError("webhook_not_found")
        return hook

    def league_webhooks(self, league_id: UUID | str) -> list[Webhook]:
        """The league's hooks, removed ones left out, oldest first (found from their registrations in
        the log: a league has few)."""
        league = self.get_league(league_id)
        topic = get_topic(Webhook.Registered)
        found: list[Webhook] = []
        start: int | None = None
        while True:
            page = self.recorder.select_notifications(start, _PAGE, topics=[topic], inclusive_of_start=False)
            for notification in page:
                registered = self.mapper.to_domain_event(notification)
                if registered.league_id == league.id:
                    hook = self._get(Webhook, registered.originator_id, "webhook_not_found")
                    if not hook.removed:
                        found.append(hook)
            if len(page) < _PAGE:
                return found
            start = page[-1].id

    def rotate_webhook_secret(self, hook_id: UUID | str) -> str:
        """A new secret for the hook, answered once; deliveries are signed with it from now on."""
        secret = secrets.token_hex(32)
        self._update(lambda: self.get_webhook(hook_id), lambda hook: hook.rotate_secret(secret))
        return secret

    def disable_webhook(self, hook_id: UUID | str, reason: str) -> None:
        self._update(lambda: self.get_webhook(hook_id), lambda hook: hook.disable(reason))

    def enable_webhook(self, hook_id: UUID | str) -> None:
        self._update(lambda: self.get_webhook(hook_id), lambda hook: hook.enable())

    def remove_webhook(self, hook_id: UUID | str) -> None:
        self._update(lambda: self.get_webhook(hook_id), lambda hook: hook.remove())

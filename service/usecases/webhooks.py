"""Webhooks: a league's admin registers URLs to be told of chosen events; deliveries, resending
(``docs/webhooks.md``).

Everything here is an admin's. The secret is answered only when it is drawn (registering,
rotating). Deliveries are in the read models' store, where the projection makes them and the
workers record their tries; a resend makes a finished delivery pending again, and the workers'
next tick queues it.
"""

import time
from typing import Annotated
from uuid import UUID

import msgspec

from service.domain.errors import RuleError
from service.domain.roles import Actor
from service.domain.webhook import EVENT_KINDS, Webhook
from service.projections.deliveries import DeliveryRow
from service.usecases import policy
from service.usecases.context import Context, write
from service.usecases.fields import PLAYER_ID

URL_EXAMPLE = "https://club.example/maumau-hook"
DELIVERIES_LISTED = 200

Url = Annotated[
    str, msgspec.Meta(max_length=2000, description="an http or https URL", examples=[URL_EXAMPLE])
]
Events = Annotated[
    list[str],
    msgspec.Meta(
        max_length=len(EVENT_KINDS),
        description=f"one or more of: {', '.join(EVENT_KINDS)}",
        examples=[["table_ready", "round_started"]],
    ),
]
Players = Annotated[
    list[str],
    msgspec.Meta(
        max_length=64,
        description="with the turn event only: the league members whose turns are told",
        examples=[[PLAYER_ID]],
    ),
]


class WebhookCreate(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    url: Url
    events: Events
    players: Players = msgspec.field(default_factory=list)


@write
def register_webhook(
    context: Context, actor: Actor, league_id: UUID, data: WebhookCreate
) -> tuple[Webhook, str]:
    """A webhook of the league, and its secret (shown this once)."""
    policy.check_admin(actor)
    hook_id, secret = context.app.register_webhook(league_id, data.url, data.events, data.players)
    return context.app.get_webhook(hook_id), secret


def webhooks_of(context: Context, actor: Actor, league_id: UUID) -> list[Webhook]:
    policy.check_admin(actor)
    return context.app.league_webhooks(league_id)


def webhook(context: Context, actor: Actor, webhook_id: UUID) -> Webhook:
    policy.check_admin(actor)
    return context.app.get_webhook(webhook_id)


@write
def remove_webhook(context: Context, actor: Actor, webhook_id: UUID) -> None:
    policy.check_admin(actor)
    context.app.remove_webhook(webhook_id)


@write
def rotate_secret(context: Context, actor: Actor, webhook_id: UUID) -> tuple[Webhook, str]:
    """A new secret, answered once: deliveries are signed with it from now on."""
    policy.check_admin(actor)
    secret = context.app.rotate_webhook_secret(webhook_id)
    return context.app.get_webhook(webhook_id), secret


@write
def disable_webhook(context: Context, actor: Actor, webhook_id: UUID) -> Webhook:
    policy.check_admin(actor)
    context.app.disable_webhook(webhook_id, "disabled by an admin")
    return context.app.get_webhook(webhook_id)


@write
def enable_webhook(context: Context, actor: Actor, webhook_id: UUID) -> Webhook:
    policy.check_admin(actor)
    context.app.enable_webhook(webhook_id)
    return context.app.get_webhook(webhook_id)


def deliveries_of(context: Context, actor: Actor, webhook_id: UUID) -> tuple[Webhook, list[DeliveryRow]]:
    """The webhook's newest ``DELIVERIES_LISTED`` deliveries, newest first."""
    hook = webhook(context, actor, webhook_id)
    return hook, context.reader.views.deliveries.of_hook(hook.id, DELIVERIES_LISTED)


@write
def resend(context: Context, actor: Actor, webhook_id: UUID, delivery_id: UUID) -> DeliveryRow:
    """A finished delivery pending again, with a fresh budget of tries."""
    hook = webhook(context, actor, webhook_id)
    if not hook.enabled:
        raise RuleError("webhook_disabled")
    deliveries = context.reader.views.deliveries
    if not deliveries.resend(hook.id, delivery_id, time.time()):
        if deliveries.one(hook.id, delivery_id) is None:
            raise RuleError("delivery_not_found")
        raise RuleError("delivery_pending")
    row = deliveries.one(hook.id, delivery_id)
    assert row is not None  # just made pending, and deliveries are never deleted
    return row

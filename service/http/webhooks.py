"""Webhooks: a league's admin registers URLs to be told of chosen events; deliveries, their tries,
resending (``service.usecases.webhooks``; ``docs/webhooks.md``).

Every route is an admin's. The secret is answered only when it is drawn (registering, rotating);
a listing never holds it. Deliveries are read from the read models' store, where the projection
makes them and the workers record their tries; a resend makes a finished delivery pending again,
and the workers' next tick queues it.
"""

from collections.abc import Callable
from datetime import UTC, datetime
from typing import Annotated, Any
from uuid import UUID

import msgspec
from litestar import delete, get, post
from litestar.handlers import HTTPRouteHandler
from litestar.openapi.spec import Example
from litestar.params import Body, Parameter

from service.domain.webhook import Webhook
from service.http.calls import Method, calls
from service.http.controller import ApiController
from service.http.encode import encode
from service.http.params import LEAGUE_ID, PLAYER_ID, LeagueId
from service.http.routes import RouteArgs, admin_route
from service.http.services import CallerDep
from service.projections.deliveries import PENDING, DeliveryRow
from service.usecases import webhooks
from service.usecases.queries import webhooks as webhook_queries
from service.usecases.services import Services
from service.usecases.webhooks import DELIVERIES_LISTED, URL_EXAMPLE, Events, Players, Url, WebhookCreate

WEBHOOK_ID = "e3b0c442-98fc-4c14-9afb-f4c8996fb924"
DELIVERY_ID = "7c9e6679-7425-40de-944b-e07fc1f90ae7"
WebhookId = Annotated[
    UUID, Parameter(description="the webhook's id", examples=[Example(summary="a webhook", value=WEBHOOK_ID)])
]
DeliveryId = Annotated[
    UUID,
    Parameter(description="the delivery's id", examples=[Example(summary="a delivery", value=DELIVERY_ID)]),
]


class WebhookRead(msgspec.Struct, frozen=True, kw_only=True):
    webhook_id: Annotated[UUID, msgspec.Meta(examples=[WEBHOOK_ID])]
    league_id: Annotated[UUID, msgspec.Meta(examples=[LEAGUE_ID])]
    url: Url
    events: Events
    players: Players
    enabled: bool
    disabled_reason: Annotated[str, msgspec.Meta(description="why it was disabled; empty while enabled")]


class WebhookSecret(msgspec.Struct, frozen=True, kw_only=True):
    webhook: WebhookRead
    secret: Annotated[
        str,
        msgspec.Meta(description="signs every delivery: shown this once, keep it", examples=["9f86d08..."]),
    ]


class WebhooksRead(msgspec.Struct, frozen=True, kw_only=True):
    webhooks: Annotated[list[WebhookRead], msgspec.Meta(description="oldest first")]


class AttemptRead(msgspec.Struct, frozen=True, kw_only=True):
    number: int
    at: datetime
    status_code: Annotated[int | None, msgspec.Meta(description="the receiver's answer; null: none came")]
    error: Annotated[str, msgspec.Meta(description="empty when the receiver took it")]
    duration_ms: float


class DeliveryRead(msgspec.Struct, frozen=True, kw_only=True):
    delivery_id: Annotated[UUID, msgspec.Meta(examples=[DELIVERY_ID])]
    event: Annotated[str, msgspec.Meta(examples=["table_ready"])]
    position: Annotated[int, msgspec.Meta(description="the event's position in the service's log")]
    status: Annotated[str, msgspec.Meta(description="pending, delivered, failed or cancelled")]
    created_at: datetime
    next_try_at: Annotated[datetime | None, msgspec.Meta(description="while pending: when it is due")]
    finished_at: datetime | None
    last_status_code: int | None
    last_error: str
    attempts: list[AttemptRead]
    payload: Annotated[str, msgspec.Meta(description="the JSON body sent")]


class DeliveriesRead(msgspec.Struct, frozen=True, kw_only=True):
    webhook_id: UUID
    deliveries: Annotated[
        list[DeliveryRead], msgspec.Meta(description=f"the newest {DELIVERIES_LISTED}, newest first")
    ]


def webhook_read(hook: Webhook) -> WebhookRead:
    return encode(WebhookRead, hook, webhook_id=hook.id, events=list(hook.events), players=list(hook.players))


def _time(seconds: float) -> datetime | None:
    return datetime.fromtimestamp(seconds, UTC) if seconds else None


def delivery_read(row: DeliveryRow, services: Services) -> DeliveryRead:
    attempts = webhook_queries.attempts(services, row.delivery_id)
    return DeliveryRead(
        delivery_id=row.delivery_id,
        event=row.kind,
        position=row.position,
        status=row.status,
        created_at=datetime.fromtimestamp(row.created, UTC),
        next_try_at=_time(row.next_at) if row.status == PENDING else None,
        finished_at=_time(row.finished),
        last_status_code=row.last_status,
        last_error=row.last_error,
        attempts=[
            AttemptRead(
                number=attempt.number,
                at=datetime.fromtimestamp(attempt.at, UTC),
                status_code=attempt.status_code,
                error=attempt.error,
                duration_ms=attempt.duration_ms,
            )
            for attempt in attempts
        ],
        payload=row.payload.decode(),
    )


WebhookBody = Annotated[
    WebhookCreate,
    Body(
        examples=[
            Example(
                summary="tables and rounds",
                value={"url": URL_EXAMPLE, "events": ["table_ready", "round_started"]},
            ),
            Example(
                summary="a player's turns",
                value={"url": URL_EXAMPLE, "events": ["turn"], "players": [PLAYER_ID]},
            ),
        ]
    ),
]


def _on_webhook(
    method: Method,
    path: str,
    operation_id: str,
    summary: str,
    route: RouteArgs,
    use_case: Callable[..., Any],
    answer: Any,
    encode: Callable[[Any], Any] = webhook_read,
) -> HTTPRouteHandler:
    """An admin's route on one webhook, at ``path`` below it: ``encode(use_case(webhook_id))``."""
    return method(f"/{{webhook_id:uuid}}{path}", operation_id=operation_id, summary=summary, **route)(
        calls(use_case, answer, encode=encode, webhook_id=WebhookId)
    )


# disabling or enabling a webhook: answered with the webhook; 409 when it already is
SWITCH = admin_route(404, 409, status_code=200)


def secret_read(made: tuple[Webhook, str]) -> WebhookSecret:
    hook, secret = made
    return WebhookSecret(webhook=webhook_read(hook), secret=secret)


class LeagueWebhookController(ApiController, path="/leagues/{league_id:uuid}/webhooks", tag="webhooks"):
    create = post(
        operation_id="createWebhook",
        summary="Register a webhook of the league: its secret is shown this once (admin)",
        **admin_route(404, 415, 422),
    )(
        calls(
            webhooks.register_webhook, WebhookSecret, encode=secret_read, league_id=LeagueId, data=WebhookBody
        )
    )

    @get(
        operation_id="listWebhooks",
        summary="The league's webhooks, without their secrets (admin)",
        **admin_route(404, reads_store=True),
    )
    def list_all(self, caller: CallerDep, league_id: LeagueId) -> WebhooksRead:
        found = caller.run(webhooks.webhooks_of, league_id)
        return WebhooksRead(webhooks=[webhook_read(hook) for hook in found])


class WebhookController(ApiController, path="/webhooks", tag="webhooks"):
    read = _on_webhook(
        get,
        "",
        "getWebhook",
        "A webhook, without its secret; why it was disabled, if it was (admin)",
        admin_route(404, reads_store=True),
        webhooks.webhook,
        WebhookRead,
    )
    remove = _on_webhook(
        delete,
        "",
        "removeWebhook",
        "Remove a webhook: nothing more is sent to it (admin)",
        admin_route(404),
        webhooks.remove_webhook,
        None,
    )
    rotate = _on_webhook(
        post,
        "/secret",
        "rotateWebhookSecret",
        "Draw a new secret for a webhook, shown this once (admin)",
        admin_route(404),
        webhooks.rotate_secret,
        WebhookSecret,
        secret_read,
    )
    disable = _on_webhook(
        post,
        "/disable",
        "disableWebhook",
        "Disable a webhook: nothing is sent to it until it is enabled (admin)",
        SWITCH,
        webhooks.disable_webhook,
        WebhookRead,
    )
    enable = _on_webhook(
        post,
        "/enable",
        "enableWebhook",
        "Enable a disabled webhook again (admin)",
        SWITCH,
        webhooks.enable_webhook,
        WebhookRead,
    )

    @get(
        "/{webhook_id:uuid}/deliveries",
        operation_id="listWebhookDeliveries",
        summary="A webhook's deliveries, newest first, each with its tries (admin)",
        **admin_route(404),
    )
    def deliveries(self, caller: CallerDep, webhook_id: WebhookId) -> DeliveriesRead:
        hook, rows = caller.run(webhooks.deliveries_of, webhook_id)
        return DeliveriesRead(
            webhook_id=hook.id, deliveries=[delivery_read(row, caller.services) for row in rows]
        )

    @post(
        "/{webhook_id:uuid}/deliveries/{delivery_id:uuid}/resend",
        operation_id="resendWebhookDelivery",
        summary="Send a finished delivery again, with a fresh budget of tries (admin)",
        **admin_route(404, 409, status_code=202),
    )
    def resend(self, caller: CallerDep, webhook_id: WebhookId, delivery_id: DeliveryId) -> DeliveryRead:
        return delivery_read(caller.run(webhooks.resend, webhook_id, delivery_id), caller.services)

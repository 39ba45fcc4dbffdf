"""Liveness and readiness, for load balancers and orchestrators.

``/health`` answers while the process does (liveness: nothing is checked).
``/ready`` checks the database, the projection runner's failures, the broker
(when one is configured) and the read models' lag, within two seconds: 503
``not_ready`` when one fails or does not answer (``service.observability.readiness``).
"""

from typing import Annotated, Literal

import msgspec
from litestar import get

from service.http.controller import ApiController
from service.http.routes import public_route
from service.http.services import ServicesDep


class Health(msgspec.Struct, frozen=True):
    status: Annotated[Literal["ok"], msgspec.Meta(examples=["ok"])] = "ok"


class StaleRead(msgspec.Struct, frozen=True, kw_only=True):
    view: Annotated[
        str, msgspec.Meta(examples=["webhooks"], description="the part of the read models: ratings, webhooks")
    ]
    position: Annotated[
        int, msgspec.Meta(description="the event it could not fold; its rows are as before it")
    ]
    reason: Annotated[str, msgspec.Meta(description="the event's type and originator, and the error's type")]


class Ready(msgspec.Struct, frozen=True, kw_only=True):
    status: Literal["ready"] = "ready"
    log_position: Annotated[int, msgspec.Meta(examples=[4711], description="the last event stored")]
    read_position: Annotated[
        int, msgspec.Meta(examples=[4709], description="the last event the read models applied")
    ]
    lag: Annotated[
        int, msgspec.Meta(ge=0, examples=[2], description="events stored but not yet in the read models")
    ]
    database: Annotated[Literal["ok"], msgspec.Meta(description="the database answered")] = "ok"
    broker: Annotated[
        Literal["ok", "embedded"],
        msgspec.Meta(
            examples=["ok"],
            description="ok: the broker answered; embedded: the filesystem broker in the data dir",
        ),
    ]
    stale: Annotated[
        list[StaleRead],
        msgspec.Meta(
            description="parts of the read models not required for ready that stopped at an event they "
            "could not fold (a required part that did answers 503): their reads are as they were then"
        ),
    ] = msgspec.field(default_factory=list)


class HealthController(ApiController, tag="health"):
    @get(
        "/health",
        operation_id="getHealth",
        summary="The process answers (liveness)",
        **public_route(reads_store=True, threaded=False),
    )
    async def health(self) -> Health:
        return Health()

    @get(
        "/ready",
        operation_id="getReadiness",
        summary="The database and the broker answer; how far the read models are behind the log (readiness)",
        **public_route(503, reads_store=True),
    )
    def ready(self, services: ServicesDep) -> Ready:
        found = services.readiness()
        return Ready(
            log_position=found.log_position,
            read_position=found.read_position,
            lag=found.lag,
            broker=found.broker,
            stale=[
                StaleRead(view=part.view, position=part.position, reason=part.reason) for part in found.stale
            ],
        )

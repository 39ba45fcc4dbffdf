"""Liveness and readiness, for load balancers and orchestrators."""

from typing import Annotated, Literal

import msgspec
from litestar import Controller, get

from service.domain.errors import RuleError
from service.http.errors import problems
from service.http.security import OPTIONAL_BEARER
from service.http.services import ServicesDep


class Health(msgspec.Struct, frozen=True):
    status: Annotated[Literal["ok"], msgspec.Meta(examples=["ok"])] = "ok"


class Ready(msgspec.Struct, frozen=True, kw_only=True):
    status: Literal["ready"] = "ready"
    log_position: Annotated[int, msgspec.Meta(examples=[4711], description="the last event stored")]
    read_position: Annotated[
        int, msgspec.Meta(examples=[4709], description="the last event the read models applied")
    ]
    lag: Annotated[
        int, msgspec.Meta(ge=0, examples=[2], description="events stored but not yet in the read models")
    ]


class HealthController(Controller):
    tags = ["health"]  # noqa: RUF012

    @get(
        "/health",
        operation_id="getHealth",
        summary="The process answers (liveness)",
        responses=problems(),
        security=OPTIONAL_BEARER,
    )
    async def health(self) -> Health:
        return Health()

    @get(
        "/ready",
        operation_id="getReadiness",
        summary="The database answers; how far the read models are behind the log (readiness)",
        responses=problems(503),
        security=OPTIONAL_BEARER,
        sync_to_thread=True,
    )
    def ready(self, services: ServicesDep) -> Ready:
        try:
            stored = services.app.recorder.max_notification_id() or 0
            applied = services.reader.position()
        except Exception as error:  # the database or the read models' store does not answer
            raise RuleError("not_ready", f"not ready: {type(error).__name__}") from None
        return Ready(log_position=stored, read_position=applied, lag=max(0, stored - applied))

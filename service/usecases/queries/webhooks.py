"""A webhook delivery's attempts, as ``GET /webhooks/{id}/deliveries`` shows each delivery (the
deliveries themselves come from the use cases, which check the admin)."""

from uuid import UUID

from service.projections.deliveries import Attempt
from service.usecases.context import Context


def attempts(context: Context, delivery_id: UUID) -> list[Attempt]:
    """Every try to send the delivery, the first first."""
    return context.reader.views.deliveries.attempts(delivery_id)

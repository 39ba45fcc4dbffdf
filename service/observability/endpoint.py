"""``GET /metrics``: the Prometheus text exposition of this process (or host, in multiprocess mode).

Public, like ``/health``: it holds counts by route, method, status, move kind,
refusal code and task, and positions in the log; no name, id, token or card.
Keep it off the public edge all the same (the ingress or proxy routes the
API's paths, Prometheus scrapes each process from inside: ``deploy/README.md``).
Left out of the OpenAPI document: it is for Prometheus, not for API clients.
"""

from litestar import Response, get

from service.http.services import ServicesDep
from service.observability.metrics import ProjectionLag, StaleParts, exposition
from service.observability.readiness import positions
from service.projections.parts import PARTS


@get("/metrics", include_in_schema=False, sync_to_thread=True)
def metrics_endpoint(services: ServicesDep) -> Response[bytes]:
    lag = ProjectionLag(lambda: positions(services.app, services.reader))
    stale = StaleParts(PARTS, lambda: [found.view for found in services.reader.views.stale_views()])
    body, content_type = exposition(lag, stale)
    # litestar adds the charset itself
    media_type = "; ".join(part for part in content_type.split("; ") if not part.startswith("charset="))
    return Response(body, media_type=media_type)

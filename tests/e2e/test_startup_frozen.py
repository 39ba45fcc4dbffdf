"""The objects the API makes at startup live as long as the process: the garbage collector is told so
(``gc.freeze``), so a full collection does not stall every request in flight while it scans them."""

import gc

import msgspec
from litestar.testing import TestClient

from service.app import create_app


def test_what_the_app_made_at_startup_is_kept_out_of_the_collectors_scans(http_settings):
    gc.unfreeze()  # whatever an earlier app of this test process froze
    assert gc.get_freeze_count() == 0
    settings = msgspec.structs.replace(http_settings, run_projections=False)
    with TestClient(create_app(settings)) as client:
        assert gc.get_freeze_count() > 10_000  # the modules, routes, schemas and services
        assert client.get("/health").status_code == 200

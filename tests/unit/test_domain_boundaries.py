"""Dependencies point inwards: the domain imports no web, worker or storage library."""

import json
import subprocess
import sys

# eventsourcing's `domain` module is allowed; its persistence and everything built on it is not.
FORBIDDEN = (
    "litestar",
    "celery",
    "kombu",
    "psycopg",
    "psycopg_pool",
    "eventsourcing.persistence",
    "eventsourcing.application",
    "eventsourcing.system",
    "eventsourcing.projection",
    "eventsourcing.postgres",
    "eventsourcing.sqlite",
    "eventsourcing.popo",
)

PROBE = """
import importlib, json, pkgutil, sys
import service.domain
names = [m.name for m in pkgutil.walk_packages(service.domain.__path__, "service.domain.")]
for name in names:
    importlib.import_module(name)
print(json.dumps({"imported": names, "modules": sorted(sys.modules)}))
"""


def test_the_domain_imports_nothing_from_litestar_celery_psycopg_or_eventsourcing_persistence():
    # a fresh interpreter, so nothing else the tests imported is in sys.modules
    done = subprocess.run(
        [sys.executable, "-c", PROBE], capture_output=True, text=True, check=True, timeout=120
    )
    found = json.loads(done.stdout)
    assert "service.domain.engine" in found["imported"]
    assert "service.domain.bots" in found["imported"]
    leaks = [
        module
        for module in found["modules"]
        if any(module == bad or module.startswith(bad + ".") for bad in FORBIDDEN)
    ]
    assert leaks == []

"""The fault tests: real faults, each bounded in time, against real processes and servers.

They are marked ``faults`` by the root conftest (by folder), so ``./run test -m "not faults"`` runs
everything else. Servers a test stops or kills are its own (``tests.faults.servers``), never the
shared ones. In-process tests here take a store of their own, as the projection tests do.
"""

from tests.integration.conftest import app, fresh_settings, postgres_schema, settings, store_kind

__all__ = ["app", "fresh_settings", "postgres_schema", "settings", "store_kind"]

"""The layers' imports point inwards: the use cases know no face; the web pages call the use cases,
never the HTTP controllers.

The move is in progress (docs/architecture.md): ``MIGRATED`` lists the web modules that import
nothing from ``service.http`` already, and grows as the others move to the use cases; the last one
moved, ``service.web`` as a whole, replaces the list. ``STILL_SHARED`` is what a migrated page may
still take from ``service.http`` until it moves too: the refusal codes' statuses (``status_of``).
"""

import json
import subprocess
import sys
from pathlib import Path

from tests.unit.test_domain_boundaries import _imported_by

ROOT = Path(__file__).resolve().parents[2]
FACES = ("litestar", "service.http", "service.web")
MIGRATED = ("service/web/admin.py", "service/web/admin_forms.py")
STILL_SHARED = {"service.http.errors"}

PROBE = """
import importlib, json, pkgutil, sys
import service.usecases
names = [m.name for m in pkgutil.walk_packages(service.usecases.__path__, "service.usecases.")]
for name in names:
    importlib.import_module(name)
print(json.dumps({"imported": names, "modules": sorted(sys.modules)}))
"""


def _within(module: str, packages: tuple[str, ...] | set[str]) -> bool:
    return any(module == package or module.startswith(package + ".") for package in packages)


def test_the_use_cases_import_neither_litestar_nor_the_http_layer_nor_the_pages_even_indirectly():
    # a fresh interpreter, so nothing else the tests imported is in sys.modules
    done = subprocess.run(
        [sys.executable, "-c", PROBE], capture_output=True, text=True, check=True, timeout=120, cwd=ROOT
    )
    found = json.loads(done.stdout)
    assert "service.usecases.leagues" in found["imported"]
    assert "service.usecases.tournaments" in found["imported"]
    assert [module for module in found["modules"] if _within(module, FACES)] == []


def test_the_migrated_pages_import_nothing_from_the_http_layer_but_what_is_still_shared():
    leaks = {
        path: sorted(
            name
            for name in _imported_by(ROOT / path)
            if _within(name, ("service.http",)) and not _within(name, STILL_SHARED)
        )
        for path in MIGRATED
    }
    assert {path: names for path, names in leaks.items() if names} == {}


def test_the_import_scan_sees_a_page_that_calls_a_controller(tmp_path):
    page = tmp_path / "page.py"
    page.write_text(
        "from service.http.leagues import LeagueController\nfrom service.http.errors import status_of\n"
    )
    found = {name for name in _imported_by(page) if _within(name, ("service.http",))}
    assert {name for name in found if not _within(name, STILL_SHARED)} == {"service.http.leagues"}

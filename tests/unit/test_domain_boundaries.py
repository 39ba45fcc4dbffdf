"""Dependencies point inwards: the domain imports no web, worker or storage library."""

import ast
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

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


def _imported_by(path: Path) -> set[str]:
    """Every module a file imports, at its top or inside a function."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module is not None and node.level == 0:
            found.add(node.module)
    return found


def test_the_http_layer_imports_nothing_from_the_workers():
    # it asks for follow-ups through the application (tasks by name), never through the workers' code
    files = sorted((ROOT / "service" / "http").rglob("*.py"))
    assert ROOT / "service" / "http" / "moves.py" in files
    leaks = {
        str(path.relative_to(ROOT)): sorted(
            name for name in _imported_by(path) if name == "workers" or name.startswith("workers.")
        )
        for path in files
    }
    assert {path: names for path, names in leaks.items() if names} == {}


def test_the_import_scan_sees_imports_inside_functions(tmp_path):
    path = tmp_path / "serve.py"
    path.write_text("import click\n\n\ndef serve():\n    from workers.embedded import start_embedded\n")
    assert _imported_by(path) == {"click", "workers.embedded"}

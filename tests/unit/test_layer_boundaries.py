"""The layers' imports point inwards (docs/architecture.md): the use cases know no face, and the two
faces know each other not at all. The pages (``service.web``) call the use cases, never the HTTP
controllers; the API (``service.http``) never reaches into the pages; the app that serves both is
composed outside them (``service.app``).

Each rule is checked twice: every file's own imports (at its top or inside a function), and what a
fresh interpreter has loaded once it imported every module of the layer (an import through a third
module counts too). The pages and the API read as they write, through the use cases
(``service.usecases.queries``): neither reaches into the application, the read models or the current
games itself.
"""

import ast
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FACES = ("litestar", "service.http", "service.web")
# each layer, and what none of its modules may import
RULES = {
    "service.usecases": FACES,
    "service.web": ("service.http", "service.application"),
    "service.http": ("service.web",),
}

PROBE = """
import importlib, json, pkgutil, sys
package = importlib.import_module(sys.argv[1])
names = [m.name for m in pkgutil.walk_packages(package.__path__, sys.argv[1] + ".")]
for name in names:
    importlib.import_module(name)
print(json.dumps({"imported": names, "modules": sorted(sys.modules)}))
"""


def _within(module: str, packages: tuple[str, ...]) -> bool:
    return any(module == package or module.startswith(package + ".") for package in packages)


def _imports(path: Path) -> set[str]:
    """Every module a file imports, at its top or inside a function; ``from a import b`` counts as
    ``a`` and ``a.b`` (``b`` may be a module: ``from service import http``)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module is not None and node.level == 0:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
    return found


def _files(layer: str) -> list[Path]:
    return sorted((ROOT / layer.replace(".", "/")).rglob("*.py"))


def _loaded(layer: str) -> dict[str, list[str]]:
    # a fresh interpreter, so nothing else the tests imported is in sys.modules
    done = subprocess.run(
        [sys.executable, "-c", PROBE, layer],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
        cwd=ROOT,
    )
    found: dict[str, list[str]] = json.loads(done.stdout)
    return found


def test_no_module_of_a_layer_imports_what_its_rule_forbids():
    leaks = {
        str(path.relative_to(ROOT)): sorted(name for name in _imports(path) if _within(name, forbidden))
        for layer, forbidden in RULES.items()
        for path in _files(layer)
    }
    assert {path: names for path, names in leaks.items() if names} == {}


def test_the_use_cases_import_neither_litestar_nor_the_http_layer_nor_the_pages_even_indirectly():
    found = _loaded("service.usecases")
    assert {"service.usecases.games", "service.usecases.services"} <= set(found["imported"])
    assert [module for module in found["modules"] if _within(module, FACES)] == []


def test_the_pages_do_not_load_the_http_layer_even_indirectly():
    found = _loaded("service.web")
    assert {"service.web.play", "service.web.scorer", "service.web.referee"} <= set(found["imported"])
    assert [module for module in found["modules"] if _within(module, ("service.http",))] == []


def test_the_http_layer_does_not_load_the_pages_even_indirectly():
    found = _loaded("service.http")
    assert {"service.http.api", "service.http.stream"} <= set(found["imported"])
    assert [module for module in found["modules"] if _within(module, ("service.web",))] == []


def test_the_import_scan_sees_a_page_that_calls_a_controller_however_it_is_imported(tmp_path):
    page = tmp_path / "page.py"
    page.write_text(
        "from service.http.leagues import LeagueController\n"
        "from service import http\n"
        "def later():\n    import service.http.errors\n"
    )
    found = {name for name in _imports(page) if _within(name, ("service.http",))}
    assert found == {
        "service.http.leagues",
        "service.http.leagues.LeagueController",
        "service.http",
        "service.http.errors",
    }


def test_the_app_that_serves_both_faces_is_composed_outside_them():
    imports = _imports(ROOT / "service" / "app.py")
    assert "service.web.router" in imports
    assert "service.http.api" in imports


# what the faces reach only through the use cases: the services' application, read models, current
# games and games' facts (``request.app.state``, ``.template_engine`` and ``.routes`` are litestar's
# app; ``self.app``, the app an ASGI middleware wraps)
READ_SIDE = {"reader", "current", "games"}
LITESTAR_APP = {"state", "template_engine", "routes"}


def _reaches(path: Path) -> list[str]:
    """Each ``x.reader``, ``x.current``, ``x.games`` and ``x.app.<y>`` (``y`` not litestar's) in a file."""
    tree = ast.parse(path.read_text(), filename=str(path))
    parents = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Attribute):
            continue
        parent = parents.get(node)
        litestar_app = (isinstance(parent, ast.Attribute) and parent.attr in LITESTAR_APP) or (
            isinstance(node.value, ast.Name) and node.value.id == "self"
        )
        on_app = node.attr == "app" and not litestar_app
        if node.attr in READ_SIDE or on_app:
            found.append(f"{ast.unparse(node)} (line {node.lineno})")
    return found


def test_no_page_reads_the_application_or_the_read_models_but_through_a_use_case():
    reaching = {str(path.relative_to(ROOT)): _reaches(path) for path in _files("service.web")}
    assert {path: found for path, found in reaching.items() if found} == {}


def test_no_controller_reads_the_application_or_the_read_models_but_through_a_use_case():
    # the API's handlers decode, call a use case or a query (``service.usecases.queries``), encode
    reaching = {str(path.relative_to(ROOT)): _reaches(path) for path in _files("service.http")}
    assert {path: found for path, found in reaching.items() if found} == {}


def test_the_read_scan_sees_a_page_that_reads_the_services_itself(tmp_path):
    page = tmp_path / "page.py"
    page.write_text(
        "def read(request, services):\n"
        "    services = request.app.state.services\n"
        "    request.app.template_engine.get_template('x')\n"
        "    request.app.routes, self.app(1)\n"
        "    services.reader.standings(1)\n"
        "    load = services.app.get_league\n"
        "    return services.current.table(1), services.games.facts(1)\n"
    )
    assert sorted(found.split(" (")[0] for found in _reaches(page)) == [
        "services.app",
        "services.current",
        "services.games",
        "services.reader",
    ]

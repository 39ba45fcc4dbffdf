"""docs/web.md shows every page: each page route of the app (read from its route table) has a
screenshot there, titled with the route, and each picture it shows is in docs/screenshots/. A new
page fails here until ``docs/screenshots/make.py`` takes its shot and docs/web.md shows it."""

import re
from pathlib import Path

import pytest

from service.app import create_app
from service.settings import Settings

ROOT = Path(__file__).resolve().parents[2]
WEB_MD = ROOT / "docs" / "web.md"
# ![what it shows](screenshots/NAME.png "/the/route/{id}")
IMAGE = re.compile(r'!\[([^\]]*)\]\((screenshots/[\w.-]+\.png)(?: "([^"]*)")?\)')
# GET routes of the pages that answer no page: a file of the pages' own (their stylesheet and
# script), the two charts, SVG images the table's and the league's pages show (in their shots), and
# a person's notices' event stream, which every page of theirs follows
NO_PAGE = {
    "/web/static/{name}",
    "/web/notices/stream",
    "/web/games/{game_id}/totals.svg",
    "/web/leagues/{league_id}/progression.svg",
}
# a page not in the pages' router: the API's documentation, an OpenAPI plugin of the app's
OTHER_PAGES = {"/schema"}


@pytest.fixture(scope="module")
def page_routes(tmp_path_factory: pytest.TempPathFactory) -> set[str]:
    app = create_app(Settings(data_dir=tmp_path_factory.mktemp("routes")))
    found = set()
    for route in app.routes:
        for handler in getattr(route, "route_handlers", []):
            if "GET" in handler.http_methods and handler.fn.__module__.startswith("service.web."):
                found.add(re.sub(r":\w+\}", "}", route.path))  # {game_id:uuid} as docs write it
    paths = {route.path for route in app.routes}
    assert paths >= OTHER_PAGES and found >= NO_PAGE  # the exceptions name real routes
    return (found - NO_PAGE) | OTHER_PAGES


def shown() -> list[tuple[str, str, str]]:
    return IMAGE.findall(WEB_MD.read_text(encoding="utf-8"))


def test_every_page_route_has_a_screenshot_in_the_pages_doc(page_routes: set[str]):
    titled = {title for _, _, title in shown()}
    assert len(page_routes) > 15  # the route table was read (19 pages when this was written)
    missing = sorted(page_routes - titled)
    # the way out: a shot in docs/screenshots/make.py's photograph, its picture in docs/web.md
    assert missing == [], f"pages with no screenshot in docs/web.md (titled with the route): {missing}"


def test_every_screenshot_the_doc_shows_exists_says_what_it_shows_and_names_a_page(page_routes: set[str]):
    images = shown()
    assert images
    for alt, path, title in images:
        assert (WEB_MD.parent / path).is_file(), path
        assert len(alt.split()) >= 3, f"{path}: say what it shows"
        assert title in page_routes, f"{path}: {title!r} is no page route (renamed?)"


def test_every_picture_in_the_folder_is_shown_on_the_pages_doc():
    """A page renamed or gone leaves its old picture behind (``make.py`` names it): remove it."""
    pictures = {f"screenshots/{found.name}" for found in (WEB_MD.parent / "screenshots").glob("*.png")}
    assert sorted(pictures - {path for _, path, _ in shown()}) == []

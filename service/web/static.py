"""The pages' own stylesheet and script, served by the service: no CDN, nothing from elsewhere."""

from pathlib import Path
from typing import Annotated

from litestar import get
from litestar.params import Parameter
from litestar.response import File

from service.domain.errors import RuleError

STATIC = Path(__file__).parent / "static"
ASSETS = frozenset(path.name for path in STATIC.iterdir() if path.is_file())
MEDIA_TYPES = {".css": "text/css; charset=utf-8", ".js": "text/javascript; charset=utf-8"}


@get("/web/static/{name:str}", name="web-static")
async def static_file(name: Annotated[str, Parameter()]) -> File:
    if name not in ASSETS:  # only the files that are there, by name: no path can reach further
        raise RuleError("not_found", why="no_such_file")
    path = STATIC / name
    return File(
        path=path,
        media_type=MEDIA_TYPES.get(path.suffix),
        content_disposition_type="inline",
        headers={"Cache-Control": "public, max-age=300"},
    )

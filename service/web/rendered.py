"""Pages drawn once per content: a page for nobody signed in is kept, drawn, under its address, its
language and a digest of the data it shows, and served again while that data is the same.

Drawing the standings of 500 members or the bracket of a 128-entrant Swiss in Jinja costs several
times what encoding the same data as JSON costs (``bench/pages.py``); the data itself is read
afresh at every request, as the API reads it, so a page is never older than its data. The read
models' ``position`` is left out of the digest: it moves with every event anywhere and is not
shown. A signed-in person's page carries their name and form token, so it is drawn every time.
"""

import hashlib
import threading
from collections import OrderedDict
from typing import Any

import msgspec
from litestar import Response
from litestar.enums import MediaType
from litestar.response import Template

from service.web.render import Page

MOST = 64  # pages kept per process; the least recently served goes first
_kept: OrderedDict[tuple[str, str, str, bytes], bytes] = OrderedDict()
_keeping = threading.Lock()
_encoder = msgspec.msgpack.Encoder()


def without_position(found: Any) -> Any:
    """``found`` with every read model's ``position`` as 0, so that only what is shown tells pages apart."""
    if isinstance(found, msgspec.Struct) and hasattr(found, "position"):
        return msgspec.structs.replace(found, position=0)
    if isinstance(found, list):
        return [without_position(each) for each in found]
    if isinstance(found, dict):
        return {key: without_position(value) for key, value in found.items()}
    return found


def served(page: Page, template: Template, data: dict[str, Any]) -> Response[bytes] | Template:
    """The page ``template`` draws from ``data``, drawn again only when ``data`` changed."""
    if page.actor is not None:
        return template
    digest = hashlib.blake2b(_encoder.encode(without_position(data)), digest_size=16).digest()
    key = (str(template.template_name), page.language, str(page.request.url), digest)
    body = _kept.get(key)
    if body is None:
        engine = page.request.app.template_engine
        assert engine is not None  # the app is made with its template engine: it serves pages
        drawn = engine.get_template(template.template_name)
        body = drawn.render(**template.context, request=page.request).encode()
    with _keeping:  # the handlers' threads share the list: one changes it at a time
        _kept[key] = body
        _kept.move_to_end(key)
        while len(_kept) > MOST:
            _kept.popitem(last=False)
    return Response(body, media_type=MediaType.HTML, cookies=template.cookies)

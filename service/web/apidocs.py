"""The API's documentation page, drawn by the server from the OpenAPI document: no script, no CDN.

litestar's Swagger UI and Scalar pages load their scripts from a CDN, so they are blank in a club's
back room without internet. This page lists every operation (method, path, summary, parameters,
body, answers, who may call it) from the same document ``/schema/openapi.json`` serves, linked
by tag, readable with no network but the service's.
"""

import re
from typing import Any

from litestar import Request
from litestar.openapi.plugins import OpenAPIRenderPlugin
from markupsafe import Markup, escape

from service.web.render import environment

METHODS = ("get", "post", "put", "patch", "delete")
CODE_SPAN = re.compile(r"`([^`]+)`")  # Markdown's code span, the only Markdown the descriptions use


def code_spans(text: str | None) -> Markup:
    """A description with its `backticks` as code: the rest escaped, as any text on a page."""
    escaped = str(escape(text or ""))
    return Markup(CODE_SPAN.sub(r"<code>\1</code>", escaped))


def _reference_name(schema: dict[str, Any] | None) -> str:
    if not schema:
        return ""
    if "$ref" in schema:
        return schema["$ref"].rsplit("/", 1)[-1]
    if schema.get("type") == "array":
        return f"array of {_reference_name(schema.get('items'))}"
    return str(schema.get("type", ""))


def _first_schema(content: dict[str, Any]) -> Any:
    """The schema of a content's first media type (None when it has none)."""
    for media in content.values():
        return media.get("schema")
    return None


def operations(document: dict[str, Any]) -> dict[str, list[dict[str, Any]]]:
    """The operations by tag, in the document's order of paths."""
    by_tag: dict[str, list[dict[str, Any]]] = {}
    for path, item in document.get("paths", {}).items():
        for method in METHODS:
            operation = item.get(method)
            if operation is None:
                continue
            body = operation.get("requestBody", {}).get("content", {})
            answers = [
                (
                    status,
                    answer.get("description", ""),
                    _reference_name(_first_schema(answer.get("content", {}))),
                )
                for status, answer in operation.get("responses", {}).items()
            ]
            entry = {
                "method": method.upper(),
                "path": path,
                "id": operation.get("operationId", f"{method}-{path}"),
                "summary": operation.get("summary", ""),
                "description": operation.get("description", ""),
                "parameters": operation.get("parameters", []),
                "body": _reference_name(_first_schema(body)) if body else "",
                "answers": answers,
                "bearer": bool(operation.get("security")),
            }
            for tag in operation.get("tags", ["other"]):
                by_tag.setdefault(tag, []).append(entry)
    return by_tag


class ApiDocsPage(OpenAPIRenderPlugin):
    def __init__(self, path: str | list[str]) -> None:
        super().__init__(path=path)
        env = environment()
        env.filters["code_spans"] = code_spans
        self._template = env.get_template("apidocs.html")

    def render(self, request: Request[Any, Any, Any], openapi_schema: dict[str, Any]) -> bytes:
        return self._template.render(
            info=openapi_schema.get("info", {}),
            tags=operations(openapi_schema),
            json_url=self.get_openapi_json_route(request),
        ).encode()

"""The OpenAPI schema of msgspec Structs, saying what the decoder enforces.

litestar's own Struct plugin leaves out that a Struct with
``forbid_unknown_fields`` refuses other fields; this one adds
``additionalProperties: false`` to those schemas, so that clients and
schemathesis know an unknown field is a 400; and it describes an
``array_like`` Struct (a seat's occupant in a replay) as the array it is
encoded as, not as an object.
"""

from typing import Any

import msgspec
from litestar._openapi.schema_generation.plugins.struct import StructSchemaPlugin
from litestar.openapi.spec import OpenAPIType, Schema


class StrictStructSchemaPlugin(StructSchemaPlugin):
    def to_openapi_schema(self, field_definition: Any, schema_creator: Any) -> Schema:
        schema = super().to_openapi_schema(field_definition, schema_creator)
        info = msgspec.inspect.type_info(field_definition.type_)
        if getattr(info, "forbid_unknown_fields", False):
            schema.additional_properties = False
        if getattr(info, "array_like", False):
            _as_array(schema, [field.encode_name for field in info.fields])
        return schema


def _as_array(schema: Schema, names: list[str]) -> None:
    """An ``array_like`` Struct is encoded as an array of its fields, in order (changed in place: the
    schema is already registered as a component)."""
    properties = schema.properties or {}
    schema.prefix_items = [properties[name] for name in names]
    schema.type = OpenAPIType.ARRAY
    schema.min_items = schema.max_items = len(names)
    schema.properties = schema.required = None
    schema.description = f"[{', '.join(names)}]"

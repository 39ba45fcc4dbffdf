"""The OpenAPI schema of msgspec Structs, saying what the decoder enforces.

litestar's own Struct plugin leaves out that a Struct with
``forbid_unknown_fields`` refuses other fields; this one adds
``additionalProperties: false`` to those schemas, so that clients and
schemathesis know an unknown field is a 400.
"""

from typing import Any

import msgspec
from litestar._openapi.schema_generation.plugins.struct import StructSchemaPlugin
from litestar.openapi.spec import Schema


class StrictStructSchemaPlugin(StructSchemaPlugin):
    def to_openapi_schema(self, field_definition: Any, schema_creator: Any) -> Schema:
        schema = super().to_openapi_schema(field_definition, schema_creator)
        info = msgspec.inspect.type_info(field_definition.type_)
        if getattr(info, "forbid_unknown_fields", False):
            schema.additional_properties = False
        return schema

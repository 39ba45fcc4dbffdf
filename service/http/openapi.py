"""The OpenAPI schema of msgspec Structs, saying what the decoder enforces.

litestar's own Struct plugin leaves out that a Struct with
``forbid_unknown_fields`` refuses other fields; this one adds
``additionalProperties: false`` to those schemas, so that clients and
schemathesis know an unknown field is a 400; and it describes an
``array_like`` Struct (a seat's occupant in a replay) as the array it is
encoded as, not as an object; and it keeps the bounds of 0 (``ge=0``) that
litestar leaves out, and the 64-bit range of an integer without bounds.
"""

from typing import Any

import msgspec
from litestar._openapi.schema_generation.plugins.struct import StructSchemaPlugin
from litestar.openapi.spec import OpenAPIType, Schema

from service.http.params import LARGEST

SMALLEST = -LARGEST - 1


class StrictStructSchemaPlugin(StructSchemaPlugin):
    def to_openapi_schema(self, field_definition: Any, schema_creator: Any) -> Schema:
        schema = super().to_openapi_schema(field_definition, schema_creator)
        info = msgspec.inspect.type_info(field_definition.type_)
        if getattr(info, "forbid_unknown_fields", False):
            schema.additional_properties = False
        fields = getattr(info, "fields", ())
        for field in fields:
            _int_bounds(field, (schema.properties or {}).get(field.encode_name))
        if getattr(info, "array_like", False):
            _as_array(schema, [field.encode_name for field in fields])
        return schema


def _unwrapped(found: Any) -> Any:
    while isinstance(found, msgspec.inspect.Metadata):
        found = found.type
    return found


def _int_bounds(field: msgspec.inspect.Field, schema: Any) -> None:
    """litestar copies a field's bounds into its schema unless they are 0 (``ge=0`` of a version or a
    seat, say): put those in; and an integer without bounds gets the 64-bit range."""
    found = _unwrapped(field.type)
    if isinstance(found, msgspec.inspect.UnionType):  # an optional value: its bounds are on its type
        values = [_unwrapped(t) for t in found.types if not isinstance(t, msgspec.inspect.NoneType)]
        found = values[0] if len(values) == 1 else None
    if isinstance(found, msgspec.inspect.StrType) and isinstance(schema, Schema):
        # an optional text's bounds: litestar leaves them out (they bind only a string, as the rest of
        # JSON Schema's keywords for strings do, so they may stand beside the oneOf)
        for bound, attribute in (
            ("min_length", "min_length"),
            ("max_length", "max_length"),
            ("pattern", "pattern"),
        ):
            if getattr(found, bound) is not None and getattr(schema, attribute) is None:
                setattr(schema, attribute, getattr(found, bound))
        return
    if not isinstance(found, msgspec.inspect.IntType) or not isinstance(schema, Schema):
        return
    for bound, attribute in (("ge", "minimum"), ("le", "maximum"), ("gt", "exclusive_minimum")):
        if getattr(found, bound) == 0 and getattr(schema, attribute) is None:
            setattr(schema, attribute, 0)
    # every integer of a body fits in the 64 bits the stores keep (service.http.strict refuses others)
    if schema.minimum is None and schema.exclusive_minimum is None:
        schema.minimum = SMALLEST
    if schema.maximum is None and schema.exclusive_maximum is None:
        schema.maximum = LARGEST


def _as_array(schema: Schema, names: list[str]) -> None:
    """An ``array_like`` Struct is encoded as an array of its fields, in order (changed in place: the
    schema is already registered as a component)."""
    properties = schema.properties or {}
    schema.prefix_items = [properties[name] for name in names]
    schema.type = OpenAPIType.ARRAY
    schema.min_items = schema.max_items = len(names)
    schema.properties = schema.required = None
    schema.description = f"[{', '.join(names)}]"

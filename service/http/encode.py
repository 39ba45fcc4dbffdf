"""One way from a domain object to its answer: a response struct takes each field from the object's
attribute of the same name, but for the fields given (a renamed id, a tuple as a list, cards in words)."""

from typing import TypeVar

import msgspec

R = TypeVar("R", bound=msgspec.Struct)


def encode(read: type[R], source: object, **given: object) -> R:
    return read(
        **{name: given[name] if name in given else getattr(source, name) for name in read.__struct_fields__}
    )

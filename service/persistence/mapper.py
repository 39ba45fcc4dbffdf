"""Stored events as compact msgpack, encoded and decoded by msgspec.

The stock ``Mapper`` turns an event into a dict and runs it through the JSON
transcoder, which costs more CPU than the rest of a save. This mapper keeps
the same ``StoredEvent`` (topic and state bytes) but the state is a msgpack
array of the event's fields in declaration order, without names, decoded
with a typed msgspec decoder made once per event class:

    Game.CardPlayed -> [timestamp, [seat, card, suit, call, ...], cause]

Engine events (msgspec Structs, encoded as maps by default) are stored as
arrays of their fields too. A field added at the end of a class with a
default still decodes older events (msgspec fills in the default), of an
engine event or of the aggregate event itself.

When the default would not say what an older event meant, the aggregate
event's class upcasts it: a static method ``upcast_<field>(state)`` answers
the field's value from the other fields of an event stored without it (the
field keeps a default, which new events never leave out). It runs once per
event decoded from a shorter array, never for an event stored with the field.

It works for any eventsourcing event class that is a dataclass whose field
types msgspec can decode (Structs, tuples, datetimes, UUIDs, ...), snapshots
included. The compressor and the cipher of the stock mapper are honoured.
"""

import dataclasses
import threading
import typing
from collections.abc import Callable
from typing import Any
from uuid import UUID

import msgspec
from eventsourcing.persistence import Mapper, MapperDeserialisationError, StoredEvent
from eventsourcing.utils import get_topic, resolve_topic

from service.domain.events import Event as EngineEvent

_ENVELOPE_FIELDS = ("originator_id", "originator_version")


class _Codec:
    """How one event class is stored."""

    def __init__(self, event_class: type) -> None:
        if not dataclasses.is_dataclass(event_class):
            raise TypeError(f"{event_class!r} is not a dataclass event")
        hints = typing.get_type_hints(event_class)
        self.event_class = event_class
        self.topic = get_topic(event_class)
        self.names: tuple[str, ...] = tuple(
            f.name for f in dataclasses.fields(event_class) if f.name not in _ENVELOPE_FIELDS
        )
        # fields holding an engine event: stored as an array, rebuilt from a mirror Struct
        self.flat: dict[int, Callable[[Any], Any]] = {}
        self.trims: dict[int, Callable[[Any], tuple[Any, ...]]] = {}
        types: list[Any] = []
        for index, name in enumerate(self.names):
            hint = hints[name]
            if isinstance(hint, type) and issubclass(hint, EngineEvent):
                mirror = _array_mirror(hint)
                self.flat[index] = _rebuilder(hint)
                self.trims[index] = _trimmer(hint)
                types.append(mirror)
            else:
                types.append(hint)
        self.encoder = msgspec.msgpack.Encoder()
        self.decoder = msgspec.msgpack.Decoder(tuple[tuple(types)])  # type: ignore[misc]
        # an event stored before fields with defaults were added at the end is a shorter array: the
        # fixed-length tuple refuses it, a Struct of the same fields fills in the defaults (slower,
        # so only tried when the tuple fails)
        self.padded: msgspec.msgpack.Decoder[Any] | None = None
        self.length = msgspec.msgpack.Decoder(list[msgspec.Raw])  # how many fields an event holds
        # the class's upcast of each field that has one (field -> upcast): see the module doc
        self.upcasts: dict[str, Callable[[dict[str, Any]], Any]] = {
            name: getattr(event_class, f"upcast_{name}")
            for name in self.names
            if hasattr(event_class, f"upcast_{name}")
        }
        defaults = _defaults(event_class, self.names)
        if defaults:
            fields = [
                (name, kind, defaults[name]) if name in defaults else (name, kind)
                for name, kind in zip(self.names, types, strict=True)
            ]
            padded = msgspec.defstruct(f"Stored{event_class.__name__}", fields, array_like=True)
            self.padded = msgspec.msgpack.Decoder(padded)

    def encode(self, event: Any) -> bytes:
        values = [getattr(event, name) for name in self.names]
        for index, trim in self.trims.items():
            values[index] = trim(values[index])
        return self.encoder.encode(values)

    def decode(self, data: bytes) -> dict[str, Any]:
        stored = len(self.names)
        try:
            values = self.decoder.decode(data)
        except msgspec.ValidationError:
            if self.padded is None:
                raise
            values = msgspec.structs.astuple(self.padded.decode(data))
            stored = len(self.length.decode(data))
        if self.flat:
            values = list(values)
            for index, rebuild in self.flat.items():
                values[index] = rebuild(values[index])
        state = dict(zip(self.names, values, strict=True))
        for name in self.names[stored:]:
            upcast = self.upcasts.get(name)
            if upcast is not None:
                state[name] = upcast(state)
        return state


def _defaults(event_class: type, names: tuple[str, ...]) -> dict[str, Any]:
    """The default of each of ``names`` that has one (a field added to an event class later)."""
    found: dict[str, Any] = {}
    for info in dataclasses.fields(event_class):
        if info.name not in names:
            continue
        if info.default is not dataclasses.MISSING:
            found[info.name] = info.default
        elif info.default_factory is not dataclasses.MISSING:
            found[info.name] = msgspec.field(default_factory=info.default_factory)
    return found


def _array_mirror(struct_type: type[msgspec.Struct]) -> type[msgspec.Struct]:
    """A Struct with the same fields (and defaults) as ``struct_type``, stored as an array."""
    fields: list[tuple[str, Any] | tuple[str, Any, Any]] = []
    for info in msgspec.structs.fields(struct_type):
        if info.default is not msgspec.NODEFAULT:
            fields.append((info.name, info.type, info.default))
        elif info.default_factory is not msgspec.NODEFAULT:
            fields.append((info.name, info.type, msgspec.field(default_factory=info.default_factory)))
        else:
            fields.append((info.name, info.type))
    return msgspec.defstruct(f"Stored{struct_type.__name__}", fields, array_like=True, frozen=True)


def _trimmer(struct_type: type[msgspec.Struct]) -> Callable[[Any], tuple[Any, ...]]:
    """An engine event's fields as a tuple without its trailing defaults: the mirror fills them in
    again, so a field added with a default costs nothing in the events that leave it as it is."""
    astuple = msgspec.structs.astuple
    nothing = msgspec.NODEFAULT
    defaults = [info.default for info in msgspec.structs.fields(struct_type)]  # nothing: required

    def trim(event: Any) -> tuple[Any, ...]:
        values = astuple(event)
        end = len(values)
        while end and defaults[end - 1] is not nothing and values[end - 1] == defaults[end - 1]:
            end -= 1
        return values[:end]

    return trim


def _rebuilder(struct_type: type) -> Callable[[Any], Any]:
    astuple = msgspec.structs.astuple

    def rebuild(mirror: Any) -> Any:
        return struct_type(*astuple(mirror))

    return rebuild


class MsgspecMapper(Mapper[UUID]):
    """A ``Mapper`` storing every event as a msgpack array, typed by its class (see the module doc)."""

    def __init__(self, transcoder: Any = None, compressor: Any = None, cipher: Any = None) -> None:
        # the transcoder is not used: the codecs are made per event class
        super().__init__(transcoder=transcoder, compressor=compressor, cipher=cipher)
        self._codecs: dict[type, _Codec] = {}
        self._lock = threading.Lock()

    def codec(self, event_class: type) -> _Codec:
        found = self._codecs.get(event_class)
        if found is None:
            with self._lock:
                found = self._codecs.get(event_class)
                if found is None:
                    found = self._codecs[event_class] = _Codec(event_class)
        return found

    def to_stored_event(self, domain_event: Any) -> StoredEvent:
        codec = self.codec(type(domain_event))
        state = codec.encode(domain_event)
        if self.compressor:
            state = self.compressor.compress(state)
        if self.cipher:
            state = self.cipher.encrypt(state)
        return StoredEvent(
            originator_id=domain_event.originator_id,
            originator_version=domain_event.originator_version,
            topic=codec.topic,
            state=state,
        )

    def to_domain_event(self, stored_event: StoredEvent) -> Any:
        event_class = resolve_topic(stored_event.topic)
        codec = self.codec(event_class)
        state = stored_event.state
        try:
            if self.cipher:
                state = self.cipher.decrypt(state)
            if self.compressor:
                state = self.compressor.decompress(state)
            fields = codec.decode(state)
        except Exception as error:
            raise MapperDeserialisationError(
                f"cannot decode stored event {stored_event.originator_id} "
                f"v{stored_event.originator_version} ({stored_event.topic}): {error}"
            ) from error
        originator_id = stored_event.originator_id
        fields["originator_id"] = originator_id if isinstance(originator_id, UUID) else UUID(originator_id)
        fields["originator_version"] = stored_event.originator_version
        event = object.__new__(event_class)
        object.__setattr__(event, "__dict__", fields)
        return event

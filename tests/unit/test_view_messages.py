"""The live streams' messages are encoded by us, byte for byte as litestar's own would be."""

from datetime import UTC, datetime

import msgspec
from litestar.response import ServerSentEventMessage

from service.http.streaming import WAITING, message
from service.usecases.events import EventRead


def test_a_view_message_is_the_bytes_litestar_s_message_encodes_to():
    data = b'{"seat":2,"cards":["7H","QS"],"note":"a \\"quoted\\"\\nline"}'
    expected = ServerSentEventMessage(data=data.decode(), id="17", event="view").encode()
    assert message(17, "view", data) == expected


def test_an_event_message_is_the_bytes_litestar_s_message_encodes_to():
    event = EventRead(number=3, type="CardPlayed", timestamp=datetime.now(UTC), data={"note": "two\nlines"})
    data = msgspec.json.encode(event)
    expected = ServerSentEventMessage(data=data.decode(), id="3", event="CardPlayed").encode()
    assert message(event.number, event.type, data) == expected


def test_the_keep_alive_is_litestar_s_comment_message():
    assert ServerSentEventMessage(comment="waiting").encode() == WAITING

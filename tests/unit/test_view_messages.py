"""A seat's view goes out as a Server-Sent Event encoded by us, byte for byte as litestar would."""

from litestar.response import ServerSentEventMessage

from service.http.stream import WAITING, view_message
from service.projections.live import View


def test_a_view_message_is_the_bytes_litestar_s_message_encodes_to():
    view = View(17, b'{"seat":2,"cards":["7H","QS"],"note":"a \\"quoted\\"\\nline"}', False)
    expected = ServerSentEventMessage(data=view.data.decode(), id="17", event="view").encode()
    assert view_message(view) == expected


def test_the_keep_alive_is_litestar_s_comment_message():
    assert ServerSentEventMessage(comment="waiting").encode() == WAITING

"""A request's client address: the connection's, or the one a trusted proxy forwarded."""

from typing import Any

from litestar import Request

from service.auth.peer import client_address

PROXIES = ("10.0.0.0/8", "192.0.2.10/32")


def request_from(peer: str, *forwarded: str) -> Request[Any, Any, Any]:
    headers = [(b"x-forwarded-for", value.encode()) for value in forwarded]
    scope = {"type": "http", "method": "POST", "path": "/", "query_string": b"", "headers": headers}
    return Request({**scope, "client": (peer, 40000)})  # type: ignore[arg-type]


def test_without_trusted_proxies_the_header_is_never_read():
    assert client_address(request_from("203.0.113.7", "198.51.100.1"), ()) == "203.0.113.7"


def test_a_connection_from_an_untrusted_address_is_its_own_client_whatever_it_forwards():
    assert client_address(request_from("203.0.113.7", "198.51.100.1"), PROXIES) == "203.0.113.7"


def test_behind_a_trusted_proxy_the_client_is_the_last_forwarded_address_no_proxy_owns():
    # the client sent a header of its own ("1.1.1.1"); the proxies appended what they saw
    request = request_from("10.1.2.3", "1.1.1.1, 198.51.100.1", "192.0.2.10")
    assert client_address(request, PROXIES) == "198.51.100.1"


def test_behind_a_trusted_proxy_that_forwards_nothing_the_client_is_the_proxy():
    assert client_address(request_from("10.1.2.3"), PROXIES) == "10.1.2.3"


def test_when_every_forwarded_address_is_a_proxys_the_first_one_is_the_client():
    assert client_address(request_from("10.1.2.3", "10.9.9.9, 192.0.2.10"), PROXIES) == "10.9.9.9"


def test_a_forwarded_word_that_is_no_address_is_taken_as_the_client_not_as_a_proxy():
    assert client_address(request_from("10.1.2.3", "unknown"), PROXIES) == "unknown"


def test_a_test_clients_name_for_a_peer_is_never_a_proxy():
    assert client_address(request_from("testclient", "198.51.100.1"), PROXIES) == "testclient"

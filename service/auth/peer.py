"""Whom a request came from: its client's address, through the reverse proxies we were told to trust.

Both faces count wrong secrets by it: the API's redemption, the pages' join, password and link forms.

Behind a proxy every connection comes from the proxy, so the address to count a client's
tries by is the one the proxy writes into ``X-Forwarded-For`` (each proxy appends the address
its connection came from). Anyone can send that header, so it is read only when the
connection comes from one of ``MAUMAU_TRUSTED_PROXIES``, and then from its end: the last
address no trusted proxy owns is the client's, whatever the client put before it. Without
the setting, the header is never read.
"""

import ipaddress
from functools import lru_cache
from typing import Any

from litestar import Request

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


@lru_cache(maxsize=8)
def _networks(trusted: tuple[str, ...]) -> tuple[Network, ...]:
    return tuple(ipaddress.ip_network(entry, strict=False) for entry in trusted)


def _trusted(address: str, networks: tuple[Network, ...]) -> bool:
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False  # not an address (a test client's name, garbage in the header): never a proxy
    return any(ip in network for network in networks)


def client_address(request: Request[Any, Any, Any], trusted: tuple[str, ...]) -> str:
    """The request's client address: the connection's, or, when that is a trusted proxy's, the last
    address in ``X-Forwarded-For`` that is not (the first one there when all are)."""
    peer = request.client.host if request.client else ""
    networks = _networks(trusted)
    if not networks or not _trusted(peer, networks):
        return peer
    hops = [
        hop.strip() for header in request.headers.getall("x-forwarded-for", []) for hop in header.split(",")
    ]
    hops = [hop for hop in hops if hop]
    for hop in reversed(hops):
        if not _trusted(hop, networks):
            return hop
    return hops[0] if hops else peer

"""Where the server may fetch a broadcast from: no server-side request forgery (issue 39, item 4).

An event's organiser types its broadcast URL, and the server polls it every few seconds. A URL that reaches
the server's own network (loopback, private ranges, link-local and the cloud metadata address
169.254.169.254, or any address that is not globally routable) would make the server a proxy into it. So
every connection a broadcast reading opens is checked **at the address actually connected to**, after the
name was resolved: a host name that resolves to a private address is refused like the address itself (DNS
rebinding included), and so is every redirect, which opens a connection of its own through the same check.

An operator whose LiveChess runs on the venue's LAN allows its network in settings
(``[web.broadcast] allowed_networks = ["192.168.1.0/24"]``). The operator's own ``adjudicator watch URL`` on the
command line is not a shared service and reads any address. Environment proxies are not used for broadcasts:
the address checked is the one the reading connects to.
"""

from __future__ import annotations

import http.client
import ipaddress
import socket
import urllib.request
from collections.abc import Iterable
from typing import Any

Network = ipaddress.IPv4Network | ipaddress.IPv6Network
Address = ipaddress.IPv4Address | ipaddress.IPv6Address

_LOCAL_NAMES = ("localhost", "localhost.localdomain", "ip6-localhost", "ip6-loopback")


class AddressRefused(OSError):
    """A broadcast address the server will not connect to (its words say why, for the organiser)."""


def networks_of(written: Iterable[str]) -> tuple[Network, ...]:
    """The operator's allowed networks (CIDR strings); ValueError names the first one that is not."""
    return tuple(ipaddress.ip_network(text.strip(), strict=False) for text in written)


def _plain(address: Address) -> Address:
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return address.ipv4_mapped
    return address


def refusal(address: str, allowed: tuple[Network, ...]) -> str | None:
    """Why the server may not connect to ``address`` (None: it may): only globally routable addresses, and
    the networks the operator allowed."""
    found = _plain(ipaddress.ip_address(address.split("%", 1)[0]))
    if any(found in network for network in allowed if network.version == found.version):
        return None
    if found.is_global and not found.is_multicast:
        return None
    kind = ("a loopback address" if found.is_loopback else "a link-local address (cloud metadata among them)"
            if found.is_link_local else "a private address" if found.is_private else "not a public address")
    return (f"the broadcast's server is at {found}, {kind}: the server reads broadcasts from public addresses "
            "only (an operator allows a venue's network with [web.broadcast] allowed_networks)")


def host_refusal(url: str, allowed: tuple[Network, ...]) -> str | None:
    """Why a URL is refused as it is written (an address or a local name), before any name is resolved: what
    an organiser is told when setting it. A name is checked again at each connection."""
    host = url.split("://", 1)[-1].split("/", 1)[0].rsplit("@", 1)[-1]
    if host.startswith("["):
        host = host[1:].split("]", 1)[0]
    else:
        host = host.rsplit(":", 1)[0] if host.count(":") == 1 else host
    host = host.strip().rstrip(".").lower()
    if host in _LOCAL_NAMES or host.endswith(".localhost"):
        return refusal("127.0.0.1", allowed)
    try:
        ipaddress.ip_address(host.split("%", 1)[0])
    except ValueError:
        return None
    return refusal(host, allowed)


def _guarded_connection(allowed: tuple[Network, ...]) -> Any:
    def create_connection(address: tuple[str, int], timeout: Any = socket._GLOBAL_DEFAULT_TIMEOUT,  # type: ignore[attr-defined]
                          source_address: tuple[str, int] | None = None) -> socket.socket:
        host, port = address
        last: OSError | None = None
        for family, kind, proto, _, where in socket.getaddrinfo(host, port, 0, socket.SOCK_STREAM):
            why = refusal(str(where[0]), allowed)
            if why is not None:
                last = AddressRefused(why)
                continue
            sock = socket.socket(family, kind, proto)
            try:
                if timeout is not socket._GLOBAL_DEFAULT_TIMEOUT:  # type: ignore[attr-defined]
                    sock.settimeout(timeout)
                if source_address:
                    sock.bind(source_address)
                sock.connect(where)
                peer = sock.getpeername()[0]
                why = refusal(str(peer), allowed)
                if why is not None:
                    raise AddressRefused(why)
                return sock
            except OSError as exc:
                sock.close()
                last = exc
        raise last if last is not None else OSError(f"{host} has no address")
    return create_connection


def guarded_opener(allowed: tuple[Network, ...]) -> urllib.request.OpenerDirector:
    """An opener whose every connection, redirects included, goes only to public addresses or ``allowed``."""
    create = _guarded_connection(allowed)

    class GuardedHTTP(http.client.HTTPConnection):
        def __init__(self, host: str, **kwargs: Any) -> None:
            super().__init__(host, **kwargs)
            self._create_connection = create

    class GuardedHTTPS(http.client.HTTPSConnection):
        def __init__(self, host: str, **kwargs: Any) -> None:
            super().__init__(host, **kwargs)
            self._create_connection = create

    class HTTPHandler(urllib.request.HTTPHandler):
        def http_open(self, req: urllib.request.Request) -> http.client.HTTPResponse:
            return self.do_open(GuardedHTTP, req)

    class HTTPSHandler(urllib.request.HTTPSHandler):
        def https_open(self, req: urllib.request.Request) -> http.client.HTTPResponse:
            return self.do_open(GuardedHTTPS, req)

    return urllib.request.build_opener(urllib.request.ProxyHandler({}), HTTPHandler(), HTTPSHandler())

"""Who a request comes from: the client's own address behind the balancers we trust, and the
same address as rate limits count it."""

from __future__ import annotations

import functools
import ipaddress
from collections.abc import Iterable

from gateway.http.asgi import Incoming


class TrustedProxies:
    """The balancers whose `X-Forwarded-For` / `-Proto` are believed (`TRUSTED_PROXIES`)."""

    def __init__(self, networks: Iterable[str]) -> None:
        self._networks = tuple(ipaddress.ip_network(n, strict=False) for n in networks)
        self._memo: dict[str, bool] = {}

    def trusts(self, peer: str) -> bool:
        known = self._memo.get(peer)
        if known is None:
            try:
                address = ipaddress.ip_address(peer)
                known = any(address in network for network in self._networks)
            except ValueError:
                known = False
            if len(self._memo) >= 4096:  # addresses seen: bounded, like any cache here
                self._memo.clear()
            self._memo[peer] = known
        return known

    def client_ip(self, incoming: Incoming) -> str:
        """The player's address: behind a trusted balancer, the last hop it saw."""
        peer = incoming.peer
        chain = incoming.headers.get("x-forwarded-for")
        if self.trusts(peer) and chain:
            hops = [hop.strip() for hop in chain.split(",") if hop.strip()]
            untrusted = [hop for hop in hops if not self.trusts(hop)]
            return untrusted[-1] if untrusted else peer
        return peer

    def forwarded(self, incoming: Incoming) -> tuple[str, str]:
        """`X-Forwarded-For` and `-Proto` for the platform: our hop added to a trusted chain."""
        peer, given = incoming.peer, incoming.headers
        trusted = self.trusts(peer)
        chain = given.get("x-forwarded-for") if trusted else None
        proto = given.get("x-forwarded-proto") if trusted else None
        return (f"{chain}, {peer}" if chain else peer), (proto if proto in {"http", "https"} else incoming.scheme)


@functools.lru_cache(maxsize=4096)  # parsing took a tenth of the guard's time; clients repeat
def address_key(ip: str) -> str:
    """The client as rate limits count it: an IPv4 address, or an IPv6 /64 (one subscriber's
    network: a client can pick any address inside its own)."""
    try:
        address = ipaddress.ip_address(ip)
    except ValueError:
        return ip
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.ip_network(f"{ip}/64", strict=False).network_address) + "/64"
    return str(address)

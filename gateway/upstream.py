"""Upstream HTTP clients: one pooled `httpx.AsyncClient` per upstream origin, with the
transport chosen by the app factory (the seam tests use to inject a mock transport).

httpx's own connection pool collapses under concurrency (encode/httpx#3215), so the
default transport is aiohttp's client (`gateway.transport`); `limits` go to the transport.
The hot path hands requests to the transport directly (`transport()`): the client's
auth, redirect, cookie and event-hook layers do nothing for a proxy and cost per call.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterable
from http.cookiejar import Cookie, DefaultCookiePolicy
from typing import Any

import httpx

from gateway.transport import AiohttpTransport

TransportFactory = Callable[[httpx.Limits], httpx.AsyncBaseTransport]

LIMITS = httpx.Limits(max_connections=256, max_keepalive_connections=128, keepalive_expiry=30)


class _NoCookies(DefaultCookiePolicy):
    """httpx clients keep a cookie jar of their own; a shared client would send one
    player's upstream cookies with every other player's calls. Cookies live in each
    session's jar instead, so the client's jar keeps nothing."""

    def set_ok(self, cookie: Cookie, request: Any) -> bool:
        return False

    def return_ok(self, cookie: Cookie, request: Any) -> bool:
        return False


def aiohttp_transport(limits: httpx.Limits) -> httpx.AsyncBaseTransport:
    return AiohttpTransport(limits)


class UpstreamClients:
    """Clients keyed by origin (`scheme://host:port`); created in the app lifespan."""

    def __init__(self, transport_factory: TransportFactory = aiohttp_transport, limits: httpx.Limits = LIMITS) -> None:
        self._factory = transport_factory
        self._limits = limits
        self._clients: dict[str, httpx.AsyncClient] = {}
        self._transports: dict[str, httpx.AsyncBaseTransport] = {}

    def open(self, origins: Iterable[str]) -> None:
        for origin in origins:
            self.client(origin)

    def client(self, origin: str) -> httpx.AsyncClient:
        client = self._clients.get(origin)
        if client is None:
            transport = self._transports[origin] = self._factory(self._limits)
            client = httpx.AsyncClient(
                transport=transport,
                follow_redirects=False,
                trust_env=False,
                headers={"user-agent": "casino-bff"},
            )
            client.cookies.jar.set_policy(_NoCookies())
            self._clients[origin] = client
        return client

    def transport(self, origin: str) -> httpx.AsyncBaseTransport:
        transport = self._transports.get(origin)
        if transport is None:
            self.client(origin)
            transport = self._transports[origin]
        return transport

    async def retire(self, in_use: Callable[[], set[str]], after_s: float) -> None:
        """Closes, once calls started before a configuration change have had `after_s` to
        finish, the clients of origins no skin uses any more."""
        await asyncio.sleep(after_s)
        keep = in_use()
        for origin in [o for o in self._clients if o not in keep]:
            self._transports.pop(origin, None)
            await self._clients.pop(origin).aclose()

    async def aclose(self) -> None:
        clients, self._clients, self._transports = self._clients, {}, {}
        for client in clients.values():
            await client.aclose()

    def origins(self) -> list[str]:
        return sorted(self._clients)

    async def reachable(self, origin: str, within: float = 1.0) -> tuple[bool, Any]:
        """Any HTTP answer from the origin counts: it is up and speaking HTTP."""
        try:
            response = await self.client(origin).get(origin + "/", timeout=within)
            await response.aclose()
        except Exception as exc:  # a health probe reports any failure, it never raises
            return False, type(exc).__name__
        return True, response.status_code

"""Upstream HTTP clients: one pooled `httpx.AsyncClient` per upstream origin, with the
transport chosen by the app factory (the seam tests use to inject a mock transport).

httpx's own connection pool collapses under concurrency (encode/httpx#3215), so the
default transport is `httpx-aiohttp`'s; `limits` go to the transport, not the client.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterable
from http.cookiejar import Cookie, DefaultCookiePolicy
from typing import Any

import aiohttp
import httpx
from httpx_aiohttp import AiohttpTransport

TransportFactory = Callable[[httpx.Limits], httpx.AsyncBaseTransport]

LIMITS = httpx.Limits(max_connections=256, max_keepalive_connections=128, keepalive_expiry=30)


class AiohttpUpstreamTransport(AiohttpTransport):
    """httpx-aiohttp, with failures told apart the way retries and idempotency need.

    Its exception map turns every `aiohttp.ClientConnectionError` (connection refused,
    server disconnected mid-answer) into `httpx.ConnectTimeout`. Here a failure to connect
    (nothing was sent) is `ConnectError` / `ConnectTimeout`, and a connection lost after the
    request went out is `ReadError`: the platform may have acted on it.
    """

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        try:
            return await super().handle_async_request(request)
        except httpx.TransportError as exc:
            cause = exc.__cause__
            if isinstance(cause, aiohttp.ConnectionTimeoutError):
                raise httpx.ConnectTimeout(str(exc), request=request) from cause
            if isinstance(cause, aiohttp.ClientConnectorError):
                raise httpx.ConnectError(str(exc), request=request) from cause
            if isinstance(cause, aiohttp.ServerTimeoutError):
                raise httpx.ReadTimeout(str(exc), request=request) from cause
            if isinstance(cause, aiohttp.ClientConnectionError):
                raise httpx.ReadError(str(exc), request=request) from cause
            raise


class _NoCookies(DefaultCookiePolicy):
    """httpx clients keep a cookie jar of their own; a shared client would send one
    player's upstream cookies with every other player's calls. Cookies live in each
    session's jar instead, so the client's jar keeps nothing."""

    def set_ok(self, cookie: Cookie, request: Any) -> bool:
        return False

    def return_ok(self, cookie: Cookie, request: Any) -> bool:
        return False


def aiohttp_transport(limits: httpx.Limits) -> httpx.AsyncBaseTransport:
    return AiohttpUpstreamTransport(limits=limits)


class UpstreamClients:
    """Clients keyed by origin (`scheme://host:port`); created in the app lifespan."""

    def __init__(self, transport_factory: TransportFactory = aiohttp_transport, limits: httpx.Limits = LIMITS) -> None:
        self._factory = transport_factory
        self._limits = limits
        self._clients: dict[str, httpx.AsyncClient] = {}

    def open(self, origins: Iterable[str]) -> None:
        for origin in origins:
            self.client(origin)

    def client(self, origin: str) -> httpx.AsyncClient:
        client = self._clients.get(origin)
        if client is None:
            client = httpx.AsyncClient(
                transport=self._factory(self._limits),
                follow_redirects=False,
                trust_env=False,
                headers={"user-agent": "casino-bff"},
            )
            client.cookies.jar.set_policy(_NoCookies())
            self._clients[origin] = client
        return client

    async def retire(self, in_use: Callable[[], set[str]], after_s: float) -> None:
        """Closes, once calls started before a configuration change have had `after_s` to
        finish, the clients of origins no skin uses any more."""
        await asyncio.sleep(after_s)
        keep = in_use()
        for origin in [o for o in self._clients if o not in keep]:
            await self._clients.pop(origin).aclose()

    async def aclose(self) -> None:
        clients, self._clients = self._clients, {}
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

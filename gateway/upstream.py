"""Upstream connections: one pool per upstream origin (`gateway.transport`), opened lazily and
retired when no skin uses its origin any more.

Tests inject an httpx transport instead (`httpx.MockTransport` with respx): `HttpxUpstream`
puts it behind the pool's API, so the gateway cannot tell the two apart.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterable, AsyncIterator, Callable, Iterable
from typing import Any, Protocol

import httpx

from gateway.transport import Answer, Pool, StreamedAnswer, Timeouts

TransportFactory = Callable[[httpx.Limits], httpx.AsyncBaseTransport]
"""Builds the httpx transport tests put in place of the pools."""

LIMITS = httpx.Limits(max_connections=256, max_keepalive_connections=128, keepalive_expiry=30)


class Upstream(Protocol):
    """What the gateway asks of an origin's connections."""

    async def request(
        self, method: str, target: str, headers: dict[str, str], body: bytes | None, timeouts: Timeouts
    ) -> Answer: ...

    async def stream(
        self,
        method: str,
        target: str,
        headers: dict[str, str],
        body: bytes | AsyncIterable[bytes] | None,
        timeouts: Timeouts,
        length: int | None = None,
    ) -> StreamedAnswer: ...

    async def aclose(self) -> None: ...


class HttpxUpstream:
    """An httpx transport behind the pool's API (the test seam)."""

    def __init__(self, origin: str, transport: httpx.AsyncBaseTransport) -> None:
        self.origin = origin
        self.transport = transport

    def _request(
        self, method: str, target: str, headers: dict[str, str], body: Any, timeouts: Timeouts
    ) -> httpx.Request:
        timeout = httpx.Timeout(connect=timeouts.connect, read=timeouts.read, write=timeouts.read,
                                pool=timeouts.connect)  # fmt: skip
        return httpx.Request(method, self.origin + target, headers=headers, content=body,
                             extensions={"timeout": timeout.as_dict()})  # fmt: skip

    async def request(
        self, method: str, target: str, headers: dict[str, str], body: bytes | None, timeouts: Timeouts
    ) -> Answer:
        response = await self.transport.handle_async_request(self._request(method, target, headers, body, timeouts))
        await response.aread()
        return Answer(response.status_code, _headers(response), response.content)

    async def stream(
        self,
        method: str,
        target: str,
        headers: dict[str, str],
        body: bytes | AsyncIterable[bytes] | None,
        timeouts: Timeouts,
        length: int | None = None,
    ) -> StreamedAnswer:
        if length is not None:
            headers = {**headers, "content-length": str(length)}
        request = self._request(method, target, headers, body, timeouts)
        response = await self.transport.handle_async_request(request)

        async def chunks() -> AsyncIterator[bytes]:
            if response.is_stream_consumed:  # a mock that read its answer already
                yield response.content
                return
            async for chunk in response.aiter_raw():
                yield chunk

        return StreamedAnswer(response.status_code, _headers(response), chunks(), response.aclose)

    async def aclose(self) -> None:
        await self.transport.aclose()


def _headers(response: httpx.Response) -> list[tuple[str, str]]:
    return [(name.lower(), value) for name, value in response.headers.multi_items()]


class UpstreamClients:
    """Connections keyed by origin (`scheme://host:port`)."""

    def __init__(self, transport_factory: TransportFactory | None = None, limits: httpx.Limits = LIMITS) -> None:
        self._factory = transport_factory
        self._limits = limits
        self._upstreams: dict[str, Upstream] = {}

    def open(self, origins: Iterable[str]) -> None:
        for origin in origins:
            self.upstream(origin)

    def upstream(self, origin: str) -> Upstream:
        found = self._upstreams.get(origin)
        if found is None:
            if self._factory is not None:
                found = HttpxUpstream(origin, self._factory(self._limits))
            else:
                found = Pool(
                    origin,
                    max_connections=self._limits.max_connections or 256,
                    keepalive_s=self._limits.keepalive_expiry or 30.0,
                )
            self._upstreams[origin] = found
        return found

    async def retire(self, in_use: Callable[[], set[str]], after_s: float) -> None:
        """Closes, once calls started before a configuration change have had `after_s` to
        finish, the connections to origins no skin uses any more."""
        await asyncio.sleep(after_s)
        keep = in_use()
        for origin in [o for o in self._upstreams if o not in keep]:
            await self._upstreams.pop(origin).aclose()

    async def aclose(self) -> None:
        upstreams, self._upstreams = self._upstreams, {}
        for upstream in upstreams.values():
            await upstream.aclose()

    def origins(self) -> list[str]:
        return sorted(self._upstreams)

    async def reachable(self, origin: str, within: float = 1.0) -> tuple[bool, Any]:
        """Any HTTP answer from the origin counts: it is up and speaking HTTP."""
        try:
            async with asyncio.timeout(within):
                answer = await self.upstream(origin).request("GET", "/", {}, None, Timeouts(within, within))
        except Exception as exc:  # a health probe reports any failure, it never raises
            return False, type(exc).__name__
        return True, answer.status

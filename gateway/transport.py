"""The upstream transport: aiohttp's client under httpx's transport API.

Why not `httpx-aiohttp`'s transport (which this replaces):
- its `ClientSession` keeps aiohttp's default cookie jar, shared by every player: an
  upstream's `Set-Cookie` for one player was sent with the next player's calls to that
  host (hidden on IP-addressed upstreams, where aiohttp's jar refuses cookies). Here the
  jar is aiohttp's `DummyCookieJar`; each session's cookies travel in its own `Cookie` header.
- it maps every `ClientConnectionError` to `ConnectTimeout`: here a failure before the
  request went out (`ConnectError`, `ConnectTimeout`) is told apart from a connection lost
  after it (`ReadError`), which retries and idempotency records depend on.
- per call it built a `ClientTimeout`, re-parsed the URL and streamed even small answers
  chunk by chunk through httpx; here timeouts are cached, the URL is handed over already
  encoded, and an answer with a known small length is read in one go.

The seam stays httpx's `AsyncBaseTransport`, so tests swap in `httpx.MockTransport`.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import httpx
from yarl import URL

BUFFER_LIMIT = 256 * 1024
"""Answers up to this size (by Content-Length) are read whole; larger ones stream."""


class _Body(httpx.AsyncByteStream):
    def __init__(self, response: aiohttp.ClientResponse) -> None:
        self._response = response

    async def __aiter__(self) -> AsyncIterator[bytes]:
        try:
            async for chunk in self._response.content.iter_chunked(64 * 1024):
                yield chunk
        except aiohttp.ClientError as exc:
            raise httpx.ReadError(str(exc)) from exc
        except TimeoutError as exc:
            raise httpx.ReadTimeout(str(exc)) from exc

    async def aclose(self) -> None:
        self._response.release()


async def _upload(stream: Any) -> AsyncIterator[bytes]:
    async for chunk in stream:
        yield chunk


class AiohttpTransport(httpx.AsyncBaseTransport):
    def __init__(self, limits: httpx.Limits) -> None:
        self._limits = limits
        self._session: aiohttp.ClientSession | None = None
        self._timeouts: dict[tuple[Any, ...], aiohttp.ClientTimeout] = {}

    def _client(self) -> aiohttp.ClientSession:
        if self._session is None:
            connector = aiohttp.TCPConnector(
                limit=self._limits.max_connections or 0,
                keepalive_timeout=self._limits.keepalive_expiry or 15.0,
                ttl_dns_cache=60,
            )
            self._session = aiohttp.ClientSession(
                connector=connector,
                cookie_jar=aiohttp.DummyCookieJar(),
                auto_decompress=False,
                skip_auto_headers=("User-Agent", "Accept", "Accept-Encoding"),
            )
        return self._session

    def _timeout(self, extensions: dict[str, Any]) -> aiohttp.ClientTimeout:
        given = extensions.get("timeout") or {}
        key = (given.get("connect"), given.get("read"), given.get("pool"))
        timeout = self._timeouts.get(key)
        if timeout is None:
            connect, read, pool = key
            # `connect` covers waiting for a pooled connection and opening one.
            timeout = self._timeouts[key] = aiohttp.ClientTimeout(
                total=None, connect=(connect or 0) + (pool or 0) or None, sock_connect=connect, sock_read=read
            )
        return timeout

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        session = self._client()
        try:
            data: Any = request.content or None
        except httpx.RequestNotRead:
            data = _upload(request.stream)
        headers = [(k, v) for k, v in request.headers.multi_items() if k != "transfer-encoding"]
        try:
            response = await session.request(
                request.method,
                URL(str(request.url), encoded=True),
                data=data,
                headers=headers,
                allow_redirects=False,
                timeout=self._timeout(request.extensions),
            )
        except aiohttp.ConnectionTimeoutError as exc:
            raise httpx.ConnectTimeout(str(exc), request=request) from exc
        except aiohttp.ClientConnectorError as exc:
            raise httpx.ConnectError(str(exc), request=request) from exc
        except (aiohttp.ServerTimeoutError, TimeoutError) as exc:
            raise httpx.ReadTimeout(str(exc), request=request) from exc
        except aiohttp.ClientPayloadError as exc:
            raise httpx.ReadError(str(exc), request=request) from exc
        except aiohttp.ClientError as exc:  # disconnected, reset, bad answer: after sending
            raise httpx.ReadError(str(exc), request=request) from exc
        length = response.content_length
        if length is not None and length <= BUFFER_LIMIT:
            try:
                body = await response.read()
            except aiohttp.ClientError as exc:
                raise httpx.ReadError(str(exc), request=request) from exc
            except TimeoutError as exc:
                raise httpx.ReadTimeout(str(exc), request=request) from exc
            finally:
                response.release()
            answer = httpx.Response(
                response.status, headers=response.raw_headers, stream=httpx.ByteStream(body), request=request
            )
            if "content-encoding" not in answer.headers:
                # The body is already whole and needs no decoding: httpx's `aread()` would
                # run it through its async chunk/decoder chain for nothing (httpx's own
                # `Response(content=...)` sets the same attribute).
                answer._content = body
            return answer
        return httpx.Response(response.status, headers=response.raw_headers, stream=_Body(response), request=request)

    async def aclose(self) -> None:
        if self._session is not None:
            await self._session.close()
            self._session = None

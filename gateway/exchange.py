"""One proxied exchange at the ASGI level: the player's request as the proxy reads it
(`Incoming`) and the answer it sends back (`Outgoing`).

Every player request and balance poll is proxied, so this path skips Litestar's `Request` and
`Response`: they build URL objects, header multidicts and cookie maps, and render through a
generic response pipeline, for a call that reads six headers and forwards bytes
(bench/throughput.py measures the difference). Everything else the gateway serves (`/bff/*`,
the SPA) stays on Litestar.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable, Iterable
from typing import Any

Message = dict[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]


class ClientGone(Exception):
    """The player went away before their request arrived whole."""


class BodyTooLarge(Exception):
    """The request body is over the limit for its route."""


class Incoming:
    """The player's request: method, path and query as sent, headers as a plain dict (the
    first value of a repeated name), cookies parsed when first asked for."""

    __slots__ = ("_cookies", "headers", "method", "path", "peer", "query", "receive", "scope")

    def __init__(self, scope: Any, receive: Any) -> None:
        """`scope` and `receive` of an ASGI HTTP request."""
        self.scope: dict[str, Any] = scope
        self.receive: Receive = receive
        self.method: str = scope["method"]
        self.path: str = scope["path"]
        self.query: str = scope["query_string"].decode("latin-1")
        self.headers = header_map(scope["headers"])
        client = scope.get("client")
        self.peer: str = client[0] if client else ""
        self._cookies: dict[str, str] | None = None

    @property
    def raw_path(self) -> str:
        raw: bytes | None = self.scope.get("raw_path")
        return raw.decode("latin-1") if raw else self.path

    @property
    def scheme(self) -> str:
        return str(self.scope.get("scheme", "http"))

    def cookie(self, name: str) -> str | None:
        if self._cookies is None:
            self._cookies = parse_cookies(self.headers.get("cookie", ""))
        return self._cookies.get(name)

    async def body(self, limit: int) -> bytes:
        """The whole body; `BodyTooLarge` past `limit` bytes, `ClientGone` if the player left."""
        message = await self.receive()
        if message["type"] == "http.disconnect":
            raise ClientGone
        first: bytes = message.get("body", b"")
        if len(first) > limit:
            raise BodyTooLarge
        if not message.get("more_body", False):
            return first
        parts, size = [first], len(first)
        async for chunk in self._rest():
            size += len(chunk)
            if size > limit:
                raise BodyTooLarge
            parts.append(chunk)
        return b"".join(parts)

    async def chunks(self, limit: int) -> AsyncIterator[bytes]:
        """The body as it arrives (uploads), never more than `limit` bytes."""
        size = 0
        more = True
        while more:
            message = await self.receive()
            if message["type"] == "http.disconnect":
                raise ClientGone
            chunk: bytes = message.get("body", b"")
            more = message.get("more_body", False)
            size += len(chunk)
            if size > limit:
                raise BodyTooLarge
            if chunk:
                yield chunk

    async def _rest(self) -> AsyncIterator[bytes]:
        while True:
            message = await self.receive()
            if message["type"] == "http.disconnect":
                raise ClientGone
            yield message.get("body", b"")
            if not message.get("more_body", False):
                return


def header_map(raw: Iterable[tuple[bytes, bytes]]) -> dict[str, str]:
    """ASGI headers as a plain dict, the first value of a repeated name winning."""
    pairs = raw if isinstance(raw, list) else list(raw)
    return {name.decode("latin-1"): value.decode("latin-1") for name, value in reversed(pairs)}


def parse_cookies(header: str) -> dict[str, str]:
    """`a=1; b=2` -> {"a": "1", "b": "2"}; the last of a repeated name wins, as in Litestar's
    parser, so the proxy and the `/bff/*` routes read the same session."""
    cookies: dict[str, str] = {}
    for part in header.split(";"):
        name, sep, value = part.partition("=")
        name = name.strip()
        if sep and name:
            value = value.strip()
            if len(value) >= 2 and value[0] == value[-1] == '"':
                value = value[1:-1]
            cookies[name] = value
    return cookies


class Outgoing:
    """What goes back to the player: a whole body, or chunks streamed from the platform."""

    __slots__ = ("body", "chunks", "close", "headers", "status")

    def __init__(
        self,
        status: int,
        headers: list[tuple[bytes, bytes]],
        body: bytes = b"",
        chunks: AsyncIterator[bytes] | None = None,
        close: Callable[[], Awaitable[None]] | None = None,
    ) -> None:
        self.status = status
        self.headers = headers
        self.body = body
        self.chunks = chunks
        self.close = close

    def set_header(self, name: str, value: str) -> None:
        key = name.encode("latin-1")
        self.headers = [(k, v) for k, v in self.headers if k != key]
        self.headers.append((key, value.encode("latin-1")))

    def header(self, name: str) -> str | None:
        key = name.encode("latin-1")
        for k, v in self.headers:
            if k == key:
                return v.decode("latin-1")
        return None

    async def send(self, send: Any) -> None:
        if self.chunks is None:
            if self.status not in (204, 304):  # no body, and no length for one (RFC 9110 8.6)
                self.headers.append((b"content-length", b"%d" % len(self.body)))
            await send({"type": "http.response.start", "status": self.status, "headers": self.headers})
            await send({"type": "http.response.body", "body": self.body, "more_body": False})
            return
        try:
            await send({"type": "http.response.start", "status": self.status, "headers": self.headers})
            async for chunk in self.chunks:
                await send({"type": "http.response.body", "body": chunk, "more_body": True})
            await send({"type": "http.response.body", "body": b"", "more_body": False})
        finally:
            if self.close is not None:
                await self.close()


def json_headers(request_id: str, *extra: tuple[bytes, bytes]) -> list[tuple[bytes, bytes]]:
    return [(b"content-type", b"application/json"), (b"x-request-id", request_id.encode("latin-1")), *extra]

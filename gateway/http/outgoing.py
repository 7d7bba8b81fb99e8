"""The player's side of the wire, going out: what goes back to the player (`Outgoing`). Every
answer the gateway gives is one: the proxied path sends it (`gateway.edge.entry`), and the
`/bff/*` and SPA handlers return it to Litestar, which sends it as the ASGI app it is.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Protocol

import msgspec


class HasRequestId(Protocol):
    """What an answer takes of its request's context (`gateway.http.asgi.RequestContext`): its id."""

    @property
    def request_id(self) -> str: ...


_json = msgspec.json.Encoder()


@dataclass(slots=True)
class Outgoing:
    """What goes back to the player: a whole body, or chunks streamed from the platform."""

    status: int
    headers: list[tuple[bytes, bytes]]
    body: bytes = b""
    chunks: AsyncIterator[bytes] | None = None
    close: Callable[[], Awaitable[None]] | None = None
    gzipped: bytes | None = None
    """`body` as the platform gzipped it, for the last stage to send instead where the browser
    takes gzip (`gateway.pipeline.encoding`)."""

    @classmethod
    def json(cls, status: int, data: Any, ctx: HasRequestId, *extra: tuple[bytes, bytes]) -> Outgoing:
        """`data` as JSON, with the request id."""
        headers = [(b"content-type", b"application/json"), (b"x-request-id", ctx.request_id.encode("latin-1")), *extra]
        return cls(status, headers, data if isinstance(data, bytes) else _json.encode(data))

    @classmethod
    def page(
        cls, status: int, body: bytes | str, media_type: str, ctx: HasRequestId, headers: dict[str, str] | None = None
    ) -> Outgoing:
        """A body of its own media type (a page, a file, an image), with the request id."""
        listed = [(b"content-type", media_type.encode()), (b"x-request-id", ctx.request_id.encode("latin-1"))]
        listed += [(name.encode(), value.encode("latin-1")) for name, value in (headers or {}).items()]
        return cls(status, listed, body.encode() if isinstance(body, str) else body)

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

    # Litestar sends what a handler returns, or an exception handler gives, as an ASGI app.
    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        await self.send(send)

    def to_asgi_response(self, *args: Any, **kwargs: Any) -> Outgoing:
        return self

"""The player's side of the wire, at the ASGI level, coming in: the request as the gateway reads
it (`Incoming`) and what the access line says of it (`RequestContext`, with the request's id).
One of each per request, made once at the front door (`gateway.edge.entry`); the answer that
goes back is an `Outgoing` (`gateway.http.outgoing`, named here too for the modules that take
both from here).

The proxied path reads `Incoming` instead of Litestar's `Request`, whose URL objects, header
multidicts and cookie maps cost more than the proxy's own work (docs/decisions.md). On a
proxied request the stages enter this module once past the front door: the guard reading the
body (`Incoming.body`).
"""

from __future__ import annotations

import re
import secrets
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from gateway.http.outgoing import Outgoing

Message = dict[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
__all__ = [
    "BodyTooLarge",
    "ClientGone",
    "Incoming",
    "Message",
    "Outgoing",
    "Receive",
    "RequestContext",
    "Send",
    "header_map",
    "parse_cookies",
    "request_id",
]
CONTEXT_KEY = "bff"
INCOMING_KEY = "bff.incoming"
REQUEST_ID = re.compile(r"^[A-Za-z0-9._-]{1,64}$")
"""A request id the gateway takes from `X-Request-Id` as sent (a proxy's in front of it)."""


def request_id(incoming: str | None) -> str:
    """The request's id: the one sent with it if well-formed, else a new one."""
    if incoming and REQUEST_ID.match(incoming):
        return incoming
    return secrets.token_hex(8)


class ClientGone(Exception):
    """The player went away before their request arrived whole."""


class BodyTooLarge(Exception):
    """The request body is over the limit for its route."""


@dataclass
class RequestContext:
    """What the access line and the metrics say about one request."""

    request_id: str
    started: float = field(default_factory=time.perf_counter)
    skin: str | None = None
    route: str | None = None
    route_class: str = "other"
    """`content`, `read`, `exclusive` (proxied), `bff`, `spa` or `other`."""
    cache: str | None = None
    dedup: str | None = None
    upstream_ms: float = 0.0
    upstream_status: int | None = None
    refusal: str | None = None
    """The platform's `success: false` by its code's label (`gateway.pipeline.observe.refusal`)."""
    canary: tuple[str, str] | None = None
    """(canary id, `old` or `new`): the side of a live canary this request's call went to
    (`gateway.canary.routing`), counted apart by `gateway.canary.figures`."""

    @staticmethod
    def of(scope: Any) -> RequestContext:
        """The request's context, made at the front door."""
        ctx: RequestContext = scope["state"][CONTEXT_KEY]
        return ctx


class Incoming:
    """The player's request: method, path and query as sent, headers as a plain dict (the
    first value of a repeated name), cookies parsed when first asked for."""

    # Not the scope itself (`kept_in`: no cycle between them).
    __slots__ = ("_cookies", "_raw_path", "headers", "method", "path", "peer", "query", "receive", "scheme")

    def __init__(self, scope: Any, receive: Any) -> None:
        """`scope` and `receive` of an ASGI HTTP request."""
        self.receive: Receive = receive
        self.method: str = scope["method"]
        self.path: str = scope["path"]
        self.query: str = scope["query_string"].decode("latin-1")
        self.headers = header_map(scope["headers"])
        client = scope.get("client")
        self.peer: str = client[0] if client else ""
        self.scheme: str = scope.get("scheme", "http")
        self._raw_path: bytes | None = scope.get("raw_path")
        self._cookies: dict[str, str] | None = None

    @staticmethod
    def of(scope: Any) -> Incoming:
        """The request as the front door read it (Litestar's handlers take it from the scope)."""
        incoming: Incoming = scope["state"][INCOMING_KEY]
        return incoming

    @classmethod
    def enter(cls, scope: Any, receive: Any) -> tuple[Incoming, RequestContext]:
        """A request coming in: read once, its context made once and kept in its scope."""
        incoming = cls(scope, receive)
        ctx = RequestContext(request_id(incoming.headers.get("x-request-id")))
        scope.setdefault("state", {})[CONTEXT_KEY] = ctx
        return incoming, ctx

    @contextmanager
    def kept_in(self, scope: Any) -> Iterator[None]:
        """This request in its scope while Litestar's handlers run (`Incoming.of`), and out of it
        after: the scope, the server's request cycle (`receive`) and this object would otherwise
        hold each other, and every request would be left to the garbage collector (what that cost:
        docs/decisions.md, "A request's context kept out of reference cycles")."""
        state = scope["state"]
        state[INCOMING_KEY] = self
        try:
            yield
        finally:
            del state[INCOMING_KEY]

    @property
    def raw_path(self) -> str:
        raw = self._raw_path
        return raw.decode("latin-1") if raw else self.path

    def cookie(self, name: str) -> str | None:
        if self._cookies is None:
            self._cookies = parse_cookies(self.headers.get("cookie", ""))
        return self._cookies.get(name)

    async def body(self, limit: int) -> bytes:
        """The whole body; `BodyTooLarge` past `limit` bytes, `ClientGone` if the player left."""
        parts: list[bytes] = []
        size, more = 0, True
        while more:
            chunk, more = await self._next(size, limit)
            size += len(chunk)
            parts.append(chunk)
        return parts[0] if len(parts) == 1 else b"".join(parts)

    async def chunks(self, limit: int) -> AsyncIterator[bytes]:
        """The body as it arrives (uploads), never more than `limit` bytes."""
        size, more = 0, True
        while more:
            chunk, more = await self._next(size, limit)
            size += len(chunk)
            if chunk:
                yield chunk

    async def _next(self, size: int, limit: int) -> tuple[bytes, bool]:
        message = await self.receive()
        if message["type"] == "http.disconnect":
            raise ClientGone
        chunk: bytes = message.get("body", b"")
        if size + len(chunk) > limit:
            raise BodyTooLarge
        return chunk, message.get("more_body", False)


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

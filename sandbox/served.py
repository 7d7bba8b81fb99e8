"""How the sandbox platform is served: what the intermediaries in front of a real platform (nginx,
a load balancer) do on the wire, wrapped around the sandbox's app so that every way it is served
meets them (`python -m sandbox`, the gateway's `--with-sandbox`, tests' in-process client).

By default, as nginx in front of a platform does (docs/platform.md):
- JSON and text answers of `MIN_COMPRESSED` bytes or more are compressed when the request asks:
  gzip, or HTTP's zlib-wrapped deflate where the request takes only deflate or prefers it; they go
  out chunked (no content-length), in more than one piece, with `Vary: Accept-Encoding`;
- a connection carries at most `Wire.keepalive_requests` requests (its last answer says
  `connection: close`) and is closed after `Wire.keepalive_timeout_s` idle (uvicorn's
  `timeout_keep_alive`, from `Served.uvicorn_config`).
By switch (`PUT /_sandbox/wire`, `SandboxSettings`, the CLI's flags), a load balancer's ways: HTML
error pages for 502/503/504, a sticky-session cookie, answers that trickle, unknown extra fields
at every level of JSON answers. The sandbox's control calls (`/_sandbox/`) are served plain.
"""

from __future__ import annotations

import asyncio
import functools
import time
import zlib
from collections import OrderedDict
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass
from email.utils import formatdate
from typing import TYPE_CHECKING, Any

import msgspec

from sandbox.state import LANDED_ON, PlatformState, Wire

if TYPE_CHECKING:
    import uvicorn

Message = MutableMapping[str, Any]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Any, Any, Any], Awaitable[None]]

MIN_COMPRESSED = 256
"""nginx's `gzip_min_length` as platforms set it: below it gzip's frame costs more than it saves,
so the gateway meets both plain small answers (refusals) and compressed larger ones (balances)."""
LEVEL = 1
"""nginx's default `gzip_comp_level`."""
PIECE = 4096
"""Compressed output leaves in pieces of at most this (nginx's `gzip_buffers` of one page)."""
TRICKLE_PIECE = 256
"""A trickling answer's body leaves this many bytes at a time."""
COMPRESSIBLE = (b"application/json", b"text/", b"application/javascript", b"application/xml")
"""nginx's `gzip_types` as platforms set them; images (SVG too) and uploads go as they are."""
STICKY_COOKIE = "AWSALB"
BACKENDS = ("i-0a1b2c3d", "i-4e5f6a7b")
"""The platform's backends behind the balancer; a call without their cookie goes to the next."""
STICKY_DAYS = 7
TRACKED_CONNECTIONS = 4096
"""Connections whose requests are counted at once; past it the longest unseen is forgotten."""
ERROR_PAGES = {502: "Bad Gateway", 503: "Service Temporarily Unavailable", 504: "Gateway Time-out"}
EXTRA_FIELD = "_lb"
SERVER_TIME_FIELD = "serverTime"


@functools.lru_cache(maxsize=64)
def coding_for(accept_encoding: str) -> str | None:
    """The coding an answer goes out in for this `Accept-Encoding`: gzip when accepted, deflate
    where the request takes only deflate or prefers it, None for neither."""
    weights: dict[str, float] = {}
    for part in accept_encoding.split(","):
        name, _, params = part.partition(";")
        weights[name.strip().lower()] = _weight(params)
    anything = weights.get("*", 0.0)
    gzip = weights.get("gzip", weights.get("x-gzip", anything))
    deflate = weights.get("deflate", anything)
    if deflate > gzip:
        return "deflate"
    return "gzip" if gzip > 0 else None


def _weight(params: str) -> float:
    for param in params.split(";"):
        name, _, value = param.strip().partition("=")
        if name.lower() == "q":
            try:
                return float(value)
            except ValueError:
                return 0.0
    return 1.0


def compressor(coding: str, length: int | None) -> Any:
    """gzip, or HTTP's deflate (zlib-wrapped, RFC 9110), at nginx's level, with nginx's window
    and memory for an answer of known `length`: halved while the answer fits in half of them
    (a small answer's full-size state costs ten times its compression)."""
    bits, memory = 15, 8
    while length is not None and length < 1 << (bits - 1) and bits > 9:
        bits, memory = bits - 1, max(memory - 1, 1)
    return zlib.compressobj(LEVEL, zlib.DEFLATED, bits + 16 if coding == "gzip" else bits, memory)


def error_page(status: int) -> bytes:
    """nginx's own error page for a status it answers in the platform's place."""
    title = f"{status} {ERROR_PAGES[status]}"
    return (
        f"<html>\r\n<head><title>{title}</title></head>\r\n<body>\r\n<center><h1>{title}</h1></center>\r\n"
        "<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n"
    ).encode()


def with_extra_fields(body: bytes) -> bytes:
    """A JSON answer with fields nobody documented added to every object in it, as a platform's
    newer release or its balancer adds them; what is not JSON is left as it is."""
    try:
        value = msgspec.json.decode(body)
    except msgspec.DecodeError:
        return body
    _add_fields(value, {EXTRA_FIELD: "x", SERVER_TIME_FIELD: int(time.time() * 1000)})
    return msgspec.json.encode(value)


def _add_fields(value: Any, extra: dict[str, Any]) -> None:
    if isinstance(value, dict):
        for item in value.values():
            _add_fields(item, extra)
        for name, added in extra.items():
            value.setdefault(name, added)
    elif isinstance(value, list):
        for item in value:
            _add_fields(item, extra)


class Connections:
    """Requests counted per client connection (the ASGI scope's client address), so that one is
    closed after its last allowed request."""

    def __init__(self, tracked: int = TRACKED_CONNECTIONS) -> None:
        self.tracked = tracked
        self.seen: OrderedDict[tuple[str, int], tuple[int, float]] = OrderedDict()
        """Requests so far and when the last began, longest unseen first."""

    def last_request(self, client: Any, wire: Wire) -> bool:
        """Whether this request is its connection's last (and the connection is forgotten)."""
        if not wire.keepalive_requests or not client:
            return False
        now, key = time.monotonic(), (client[0], client[1])
        count, last = self.seen.pop(key, (0, now))
        if now - last > wire.keepalive_timeout_s:
            count = 0  # that connection was closed idle: the address is a new connection's
        count += 1
        if count >= wire.keepalive_requests:
            return True
        self.seen[key] = (count, now)
        if len(self.seen) > self.tracked:
            self.seen.popitem(last=False)
        return False


class Balancer:
    """A sticky load balancer's choice of backend: the one its cookie names, else the next."""

    def __init__(self) -> None:
        self.turn = 0

    def landing(self, cookie_headers: list[bytes]) -> tuple[str, bytes | None]:
        """The backend for a call, and the `Set-Cookie` that sends the next ones there when the
        call did not carry it."""
        named = _cookie(cookie_headers, STICKY_COOKIE)
        if named in BACKENDS:
            return named, None
        backend = BACKENDS[self.turn % len(BACKENDS)]
        self.turn += 1
        expires = formatdate(time.time() + STICKY_DAYS * 86400, usegmt=True)
        return backend, f"{STICKY_COOKIE}={backend}; Expires={expires}; Path=/".encode()


def _cookie(headers: list[bytes], name: str) -> str | None:
    for header in headers:
        for pair in header.decode("latin-1").split(";"):
            key, _, value = pair.strip().partition("=")
            if key == name:
                return value
    return None


@dataclass(slots=True)
class Plan:
    """What the wire does to one answer."""

    compress: bool
    """Answers that may be compressed say `Vary: Accept-Encoding`, compressed or not."""
    coding: str | None
    """The coding the request asked for (None: it asked for none)."""
    close: bool
    cookie: bytes | None
    error_pages: bool
    extra_fields: bool
    trickle_s: float
    head: bool

    def changes_nothing(self) -> bool:
        return not (
            self.compress or self.close or self.cookie or self.error_pages or self.extra_fields or self.trickle_s
        )


class Served:
    """The sandbox's app as a real platform is served (the module's docstring)."""

    def __init__(self, app: ASGIApp, state: PlatformState, exclude: tuple[str, ...] = ("/_sandbox/",)) -> None:
        self.app = app
        self.state = state
        self.exclude = exclude
        """Paths served plain: the sandbox's control calls are not the platform's."""
        self.connections = Connections()
        self.balancer = Balancer()
        self.server: uvicorn.Config | None = None

    def uvicorn_config(self, **options: Any) -> uvicorn.Config:
        """How uvicorn serves the sandbox: its idle timeout is the wire's, and follows it when a
        control call changes it (for connections opened after)."""
        import uvicorn

        self.server = uvicorn.Config(self, **options)
        self._follow_wire()
        return self.server

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        wire = self.state.wire
        close = self.connections.last_request(scope.get("client"), wire)
        if close:
            self.state.wire_counts["keepaliveCloses"] += 1
        if scope["path"].startswith(self.exclude):
            await self.app(scope, receive, Reply(_plain(close), send).send if close else send)
            self._follow_wire()
            return
        backend, plan = self._plan(scope, wire, close)
        if backend is None:
            await self.app(scope, receive, send if plan.changes_nothing() else Reply(plan, send).send)
            return
        landed = LANDED_ON.set(backend)
        try:
            await self.app(scope, receive, Reply(plan, send).send)
        finally:
            LANDED_ON.reset(landed)

    def _plan(self, scope: Any, wire: Wire, close: bool) -> tuple[str | None, Plan]:
        accept, cookies = "", []
        for name, value in scope["headers"]:
            if name == b"accept-encoding":
                accept = value.decode("latin-1")
            elif name == b"cookie":
                cookies.append(value)
        backend, cookie = self.balancer.landing(cookies) if wire.sticky else (None, None)
        plan = Plan(
            compress=wire.compress,
            coding=coding_for(accept) if wire.compress and accept else None,
            close=close,
            cookie=cookie,
            error_pages=wire.balancer_errors,
            extra_fields=wire.extra_fields,
            trickle_s=wire.trickle_ms / 1000,
            head=scope["method"] == "HEAD",
        )
        return backend, plan

    def _follow_wire(self) -> None:
        if self.server is not None:
            # uvicorn types it int; its protocol hands it to call_later, which takes any float.
            self.server.timeout_keep_alive = self.state.wire.keepalive_timeout_s  # type: ignore[assignment]


def _plain(close: bool) -> Plan:
    return Plan(False, None, close, None, False, False, 0.0, False)


class Reply:
    """One answer on its way out through the wire's `Plan`: its head changed as the plan says,
    its body rewritten (an error page, extra fields), compressed, and trickled."""

    def __init__(self, plan: Plan, send: Send) -> None:
        self.plan = plan
        self.downstream = send
        self.start: Message | None = None
        self.held: list[bytes] | None = None
        """The body gathered whole before it is rewritten (extra fields, error pages)."""
        self.replaced: bytes | None = None
        self.deflating: Any = None

    async def send(self, message: Message) -> None:
        if message["type"] == "http.response.start":
            await self._begin(message)
        elif message["type"] == "http.response.body":
            await self._body(message.get("body", b""), message.get("more_body", False))
        else:
            await self.downstream(message)

    async def _begin(self, start: Message) -> None:
        status = start["status"]
        if self.plan.error_pages and status in ERROR_PAGES:
            self.replaced = error_page(status)
            self.start, self.held = _page_start(status, len(self.replaced)), []
            return
        if self.plan.extra_fields and _type_of(start["headers"]).startswith(b"application/json"):
            self.start, self.held = start, []
            return
        await self._head(start, _length(start["headers"]))

    async def _body(self, body: bytes, more: bool) -> None:
        if self.held is None:
            await self._out(body, more)
            return
        self.held.append(body)
        if more:
            return
        assert self.start is not None
        whole = self.replaced if self.replaced is not None else with_extra_fields(b"".join(self.held))
        self.held = None
        await self._head(_with_length(self.start, len(whole)), len(whole))
        await self._out(whole, False)

    async def _head(self, start: Message, length: int | None) -> None:
        headers = list(start["headers"])
        plan = self.plan
        if plan.compress and self._compressible(start["status"], headers, length):
            headers.append((b"vary", b"Accept-Encoding"))
            if plan.coding is not None:
                headers = [(n, v) for n, v in headers if n.lower() != b"content-length"]
                headers.append((b"content-encoding", plan.coding.encode()))
                self.deflating = compressor(plan.coding, length)
        if plan.cookie is not None:
            headers.append((b"set-cookie", plan.cookie))
        if plan.close:
            headers.append((b"connection", b"close"))
        await self.downstream({**start, "headers": headers})

    def _compressible(self, status: int, headers: list[tuple[bytes, bytes]], length: int | None) -> bool:
        if self.plan.head or status in (204, 304) or (length is not None and length < MIN_COMPRESSED):
            return False
        if any(name.lower() == b"content-encoding" for name, _ in headers):
            return False
        return _type_of(headers).startswith(COMPRESSIBLE)

    async def _out(self, body: bytes, more: bool) -> None:
        if self.deflating is not None:
            # What the compressor gives now (its header at least), then the rest at the end:
            # a compressed answer always leaves in more than one piece, as nginx's do.
            await self._pieces(self.deflating.compress(body), True)
            if more:
                return
            body = self.deflating.flush()
        await self._pieces(body, more)

    async def _pieces(self, body: bytes, more: bool) -> None:
        if more and not body:
            return
        trickle_s = self.plan.trickle_s
        size = TRICKLE_PIECE if trickle_s else PIECE
        last = max(len(body) - 1, 0) // size
        for n, at in enumerate(range(0, max(len(body), 1), size)):
            if trickle_s:
                await asyncio.sleep(trickle_s)
            piece = body if last == 0 else body[at : at + size]
            await self.downstream({"type": "http.response.body", "body": piece, "more_body": more or n < last})


def _with_length(start: Message, length: int) -> Message:
    headers = [(n, v) for n, v in start["headers"] if n.lower() != b"content-length"]
    return {**start, "headers": [*headers, (b"content-length", str(length).encode())]}


def _page_start(status: int, length: int) -> Message:
    headers = [(b"content-type", b"text/html"), (b"content-length", str(length).encode())]
    return {"type": "http.response.start", "status": status, "headers": headers}


def _type_of(headers: list[tuple[bytes, bytes]]) -> bytes:
    for name, value in headers:
        if name.lower() == b"content-type":
            return value.lower()
    return b""


def _length(headers: list[tuple[bytes, bytes]]) -> int | None:
    for name, value in headers:
        if name.lower() == b"content-length":
            return int(value)
    return None

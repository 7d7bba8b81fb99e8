"""A respx router served over real sockets: a small HTTP/1.1 server for tests, so the gateway's
production pool (`gateway.upstream.transport.Pool`) talks to a mocked platform exactly as to a real one.

    router = respx.Router(base_url=UPSTREAM, assert_all_called=False)
    router.post("/api/player/login").mock(return_value=httpx.Response(200, json={...}))
    async with RespxPlatform(router) as platform:   # inside the test's event loop
        ...  # point the gateway at platform.url; route.calls, route.call_count work as before
    # or: await platform.start() ... await platform.aclose()

Each request received becomes an `httpx.Request` for the origin the platform stands for (the
router's `base_url`: its scheme, host and port; `base_url=` overrides it, one platform per
origin when a router mocks several; with neither, the server's own URL) plus the target as
sent, with the method, the headers as received (all values, in order; `host` names the real
port) and the whole body (content-length or chunked).
`await router.async_handler(request)` answers it, so respx matches, runs side effects (sync or
async) and records the call as it does behind `httpx.MockTransport`.

The answer goes back with its status, every header in order (repeated `set-cookie` too) and
its raw body (never decoded). A body httpx already holds (`json=`, `content=bytes`) is sent with
a `content-length`; any other stream (`content=` an iterator, `stream=`) is sent chunked, each
chunk as it comes, so the pool's streaming path is exercised. Framing is the server's own: a
mocked `content-length` or `transfer-encoding` is replaced by the right one, at the end of the
head. `connection: close` from either side closes the connection after the answer; otherwise it
is kept alive for the next call. A stream that raises halfway cuts the connection where it is.

What a side effect raises becomes what a real platform would do to the connection, which is
all the pool can see (its outcome in the gateway in brackets; "exclusive" is a money call):

- `ConnectError`, `ConnectTimeout`, `PoolTimeout`: reset at once (RST, SO_LINGER 0), nothing
  answered. A connection cannot be refused once the call is on it, so the pool reads this as a
  call that went out and was lost: `ReadError` on a fresh connection ("broken": 502
  UPSTREAM_FAILED, never retried unless GET; an exclusive call's outcome is unknown), and
  `StaleConnection` on a kept-alive one ("stale": retried unless exclusive). For a faithful
  `ConnectError` use `async with platform.refusing():` instead: the server stops listening and
  closes its connections, so the pool's next connect is refused ("unreachable": 502
  UPSTREAM_UNREACHABLE, retried, an idempotency key freed). Refused calls never reach respx.
- `ReadTimeout`, `WriteTimeout` (any other `TimeoutException`): never answered; the connection
  is held until the pool gives up (`ReadTimeout` after its read timeout, the body having been
  taken: "timeout", 504 UPSTREAM_TIMEOUT, or the route's deadline) or the server stops. It
  takes the real timeout: give such tests short ones.
- `ReadError`, `WriteError`, `CloseError` (`NetworkError`): a head (200, `content-length`
  promising more) and part of a body, then the connection closes. A call read whole fails with
  `ReadError` whether or not the connection was reused ("broken"); a streamed call gets its
  head first, then fails while its body is read (the player's copy is cut).
- `RemoteProtocolError` (any `ProtocolError`): a malformed status line, then close: the pool
  fails with `RemoteProtocolError` before any head ("broken"), on any connection, read whole
  or streamed. The one to mock for "lost before the answer began" whatever the pool reuses.

Anything else raised while answering (respx's `AllMockedAssertionError` for an unmatched request
when `assert_all_mocked`, an `assert` failing in a side effect, a pass-through, another
`TransportError`) is a test bug, not platform behaviour: the call gets a 500 whose body is the
error, the error is kept in `platform.errors`, and leaving the `async with` raises it (the
error itself, or an `ExceptionGroup` of all of them) unless the block already raised. A test
expecting one inspects and clears `platform.errors` before leaving. In-process, such an error
was raised into the gateway, which sometimes swallowed it (the readiness probe's `GET /` reads
any exception as "unreachable"); here it fails the test, and the call wants a route.

A side effect still running when the pool closes the connection (it timed out, or gave up) is
cancelled, as the in-process mock's caller would cancel it. Leaving the `async with` stops
listening, closes every connection and cancels what is still running; nothing is left behind.

An `asyncio.Protocol` rather than streams: httptools is callback-driven, and the protocol sees
the pool hang up while a side effect still runs, so it can cancel it.
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
import struct
from collections import deque
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from types import TracebackType
from typing import Any, Self, cast

import httptools
import httpx
import respx

_RESET = (httpx.ConnectError, httpx.ConnectTimeout, httpx.PoolTimeout)
_FRAMING = (b"content-length", b"transfer-encoding")
_NO_BODY = (204, 304)


class RespxPlatform:
    """`router` served on `127.0.0.1`, on a free port (`url`), inside the running event loop."""

    def __init__(self, router: respx.Router, *, base_url: str | None = None) -> None:
        self.router = router
        self.base_url = base_url or _origin(router)
        self.port = 0
        self.accepted = 0
        """Connections accepted so far (keep-alive reuse shows as calls > accepted)."""
        self.errors: list[BaseException] = []
        """Test bugs met while answering (unmatched requests, failing side effects)."""
        self.listening = False
        self._server: asyncio.Server | None = None
        self._connections: set[_Connection] = set()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def connections(self) -> int:
        """Connections open now."""
        return len(self._connections)

    async def start(self) -> None:
        await self._listen()

    async def aclose(self, raise_errors: bool = True) -> None:
        """Stops listening, closes every connection, cancels what still runs; then raises the
        errors kept (unless told not to)."""
        await self._stop()
        if raise_errors and self.errors:
            errors, self.errors = self.errors, []
            if len(errors) == 1:
                raise errors[0]
            raise ExceptionGroup("RespxPlatform: errors while answering", cast(list[Exception], errors))

    async def __aenter__(self) -> Self:
        await self.start()
        return self

    async def __aexit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.aclose(raise_errors=exc is None)

    @contextlib.asynccontextmanager
    async def refusing(self) -> AsyncIterator[None]:
        """The platform down for real: its connections closed and its port no longer listening,
        so every connection the pool opens meanwhile is refused (`httpx.ConnectError`)."""
        await self._stop()
        await asyncio.sleep(0.05)  # lets the pool see the connections it kept idle closed
        try:
            yield
        finally:
            await self._listen()

    # --- the server ----------------------------------------------------------------------
    async def _listen(self) -> None:
        loop = asyncio.get_running_loop()
        self.listening = True
        self._server = await loop.create_server(lambda: _Connection(self), "127.0.0.1", self.port)
        self.port = self._server.sockets[0].getsockname()[1]

    async def _stop(self) -> None:
        """Stops listening and closes every connection (what still runs is cancelled)."""
        server, self._server = self._server, None
        self.listening = False
        if server is not None:
            server.close()
        connections = list(self._connections)
        for connection in connections:
            connection.drop()
        await asyncio.gather(*(c.finished() for c in connections))
        if server is not None:
            await server.wait_closed()  # after the connections: from 3.12 it waits for them

    def origin(self) -> str:
        return self.base_url or self.url


@dataclass
class _Received:
    """One request as it came in."""

    method: str = ""
    target: bytearray = field(default_factory=bytearray)
    headers: list[tuple[bytes, bytes]] = field(default_factory=list)
    body: list[bytes] = field(default_factory=list)
    keep_alive: bool = True


class _Connection(asyncio.Protocol):
    """One client connection: requests parsed as they arrive, answered one at a time."""

    def __init__(self, platform: RespxPlatform) -> None:
        self.platform = platform
        self.loop = asyncio.get_running_loop()
        self.transport: asyncio.Transport | None = None
        self.parser = httptools.HttpRequestParser(self)
        self.current = _Received()
        self.requests: deque[_Received] = deque()
        self.worker: asyncio.Task[None] | None = None
        self.silent = False
        """Nothing more is answered on this connection (held, or being cut)."""
        self.writable = asyncio.Event()
        self.writable.set()
        self.lost: asyncio.Future[None] = self.loop.create_future()

    # --- asyncio -------------------------------------------------------------------------
    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = cast(asyncio.Transport, transport)
        self.platform.accepted += 1
        self.platform._connections.add(self)
        if not self.platform.listening:  # accepted just as the server stopped
            self.drop()

    def data_received(self, data: bytes) -> None:
        if self.silent:
            return
        try:
            self.parser.feed_data(data)
        except (httptools.HttpParserError, httptools.HttpParserUpgrade) as exc:
            self.platform.errors.append(AssertionError(f"RespxPlatform: malformed request: {exc}"))
            self.silent = True
            assert self.transport is not None
            self.transport.write(b"HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\nconnection: close\r\n\r\n")
            self.transport.close()

    def connection_lost(self, exc: Exception | None) -> None:
        self.platform._connections.discard(self)
        self.writable.set()
        if self.worker is not None:
            self.worker.cancel()  # the pool hung up: a side effect still running is cancelled
        if not self.lost.done():
            self.lost.set_result(None)

    def pause_writing(self) -> None:
        self.writable.clear()

    def resume_writing(self) -> None:
        self.writable.set()

    # --- httptools -----------------------------------------------------------------------
    def on_message_begin(self) -> None:
        self.current = _Received()

    def on_url(self, url: bytes) -> None:
        self.current.target += url

    def on_header(self, name: bytes, value: bytes) -> None:
        self.current.headers.append((name, value))

    def on_headers_complete(self) -> None:
        self.current.method = self.parser.get_method().decode("ascii")
        self.current.keep_alive = self.parser.should_keep_alive()

    def on_body(self, body: bytes) -> None:
        self.current.body.append(body)

    def on_message_complete(self) -> None:
        self.requests.append(self.current)
        if self.worker is None or self.worker.done():
            self.worker = self.loop.create_task(self._serve())

    # --- answering -----------------------------------------------------------------------
    async def _serve(self) -> None:
        while self.requests and not self.silent:
            received = self.requests.popleft()
            try:
                response = await self.platform.router.async_handler(self._request(received))
            except _RESET:
                self._reset()
                return
            except httpx.TimeoutException:
                self.silent = True  # held: never answered
                return
            except httpx.NetworkError:
                self._cut(b"HTTP/1.1 200 OK\r\ncontent-length: 1024\r\n\r\nthe answer was cut")
                return
            except httpx.ProtocolError:
                self._cut(b"HTTP/1.1 ??? not an answer\r\n\r\n")
                return
            except Exception as exc:
                self.platform.errors.append(exc)
                response = httpx.Response(500, text=f"RespxPlatform: {type(exc).__name__}: {exc}")
            keep_alive = received.keep_alive and not _says_close(response.headers.raw)
            try:
                await self._answer(response, keep_alive)
            except Exception as exc:  # the answer's own stream failed halfway: cut it there
                if not isinstance(exc, httpx.TransportError):
                    self.platform.errors.append(exc)
                self._cut(b"")
                return
            finally:
                await response.aclose()
            if not keep_alive:
                self.silent = True
                assert self.transport is not None
                self.transport.close()

    def _request(self, received: _Received) -> httpx.Request:
        url = self.platform.origin() + received.target.decode("latin-1")
        request = httpx.Request(received.method, url, content=b"".join(received.body))
        request.headers = httpx.Headers(received.headers)  # as received: nothing added
        return request

    async def _answer(self, response: httpx.Response, keep_alive: bool) -> None:
        assert self.transport is not None
        status = response.status_code
        head = [b"HTTP/1.1 %d %s\r\n" % (status, response.reason_phrase.encode("latin-1"))]
        head += [b"%s: %s\r\n" % (k, v) for k, v in response.headers.raw if k.lower() not in _FRAMING]
        if not keep_alive and not _says_close(response.headers.raw):
            head.append(b"connection: close\r\n")
        stream = response.stream
        if status < 200 or status in _NO_BODY:
            self.transport.write(b"".join([*head, b"\r\n"]))
        elif isinstance(stream, httpx.ByteStream):  # a body httpx holds: its length is known
            body = b"".join(stream)
            self.transport.write(b"".join([*head, b"content-length: %d\r\n\r\n" % len(body), body]))
        else:
            self.transport.write(b"".join([*head, b"transfer-encoding: chunked\r\n\r\n"]))
            async for chunk in _chunks(stream):
                if chunk:
                    self.transport.write(b"%x\r\n%b\r\n" % (len(chunk), chunk))
                    await self.writable.wait()
                if self.transport.is_closing():
                    return
            self.transport.write(b"0\r\n\r\n")
        await self.writable.wait()

    def _reset(self) -> None:
        """Closes with a TCP reset (SO_LINGER 0): what a refused or crashed peer looks like."""
        self.silent = True
        assert self.transport is not None
        sock = self.transport.get_extra_info("socket")
        if sock is not None:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        self.transport.abort()

    def _cut(self, last_words: bytes) -> None:
        """Sends `last_words` (if any), then closes: the answer ends where it stands."""
        self.silent = True
        assert self.transport is not None
        if last_words:
            self.transport.write(last_words)
        self.transport.close()

    def drop(self) -> None:
        """The server stops: what runs is cancelled, the connection closed."""
        self.silent = True
        if self.worker is not None:
            self.worker.cancel()
        if self.transport is not None:
            if self.transport.get_write_buffer_size():
                self.transport.abort()  # a client not reading would keep it open forever
            else:
                self.transport.close()

    async def finished(self) -> None:
        await self.lost
        if self.worker is not None:
            await asyncio.wait([self.worker])


async def _chunks(stream: Any) -> AsyncIterator[bytes]:
    if isinstance(stream, httpx.AsyncByteStream):
        async for chunk in stream:
            yield chunk
    else:
        for chunk in stream:
            yield chunk


def _says_close(headers: list[tuple[bytes, bytes]]) -> bool:
    return any(k.lower() == b"connection" and b"close" in v.lower() for k, v in headers)


def _origin(router: respx.Router) -> str | None:
    """`scheme://host[:port]` of the router's base_url (respx keeps it only as patterns)."""
    bases: dict[str, Any] = getattr(router, "_bases", {})
    if "scheme" not in bases or "host" not in bases:
        return None
    port = bases.get("port")
    return f"{bases['scheme'].value}://{bases['host'].value}" + (f":{port.value}" if port is not None else "")

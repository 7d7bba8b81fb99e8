"""The upstream transport: keep-alive HTTP/1.1 connections per upstream origin, on asyncio
protocols and httptools' response parser.

Hand-written because every ready-made client costs more CPU per call than the rest of the
gateway together (bench/RESULTS.md; measured side by side on loopback at 64 in flight): aiohttp's
`ClientSession` ~55 us per call, httpx's request and response models ~60 us more on top of any
transport, this pool ~8 us. A proxy to a known platform needs little of what they do: no
redirects, no cookie jar (each session's cookies travel in its own `Cookie` header; a shared jar
once leaked one player's upstream cookies into another's calls), no proxies, no decoding of
answers it forwards. What it does need is here and tested (tests/unit/gateway/test_transport.py):

- a pool per origin: idle connections reused newest first, closed after `keepalive_s` idle or
  when the platform says `connection: close`; at most `max_connections` open, callers beyond
  that wait (up to the connect timeout, then `PoolTimeout`); TLS for `https` origins;
- timeouts: `connect` (opening, or waiting for, a connection) and `read` (the longest silence
  while the answer is awaited or read, and while a streamed body cannot be written);
- failures told apart as the retry and idempotency rules need them (httpx's exception types):
  `ConnectError`/`ConnectTimeout`/`PoolTimeout` (nothing was sent), `ReadTimeout`,
  `ReadError`/`RemoteProtocolError` (sent, then the connection failed or spoke nonsense),
  `LocalProtocolError` (a header or path that would split the request: never sent);
- answers read whole (`request`, bounded by `max_body`, gzip/deflate decoded) or streamed with
  backpressure (`stream`, bytes passed through untouched); request bodies whole or streamed
  (uploads, chunked).
"""

from __future__ import annotations

import asyncio
import contextlib
import ssl
import time
import zlib
from collections import deque
from collections.abc import AsyncIterable, AsyncIterator
from dataclasses import dataclass
from typing import Any, cast
from urllib.parse import urlsplit

import httptools
import httpx

from gateway.deadline import MovingDeadline

MAX_BODY = 32 * 1024 * 1024
"""Largest answer read whole (JSON, content); binary answers stream and have no cap."""
_INFLATE_STEP = 1024 * 1024
"""A compressed answer is inflated at most this much at a time (zlib's output is copied once whole)."""
_READ_CHUNK_HIGH = 256 * 1024
"""A streamed answer pauses reading from the platform past this much unread data."""


@dataclass(frozen=True, slots=True)
class Timeouts:
    connect: float
    """Seconds to open a connection, or to wait for a free one when the pool is full."""
    read: float
    """Longest silence while the answer is awaited or read (or a streamed body cannot be sent)."""
    reuse_idle: float | None = None
    """Reuse only a connection idle for less than this (None: up to the pool's keep-alive): a
    platform may close an idle connection just as a call is written to it, and a call that must
    not be sent twice cannot be retried on a fresh one."""


class StaleConnection(httpx.ReadError):
    """A kept-alive connection the platform closed before a byte of the answer came back: the
    platform almost surely dropped it idle as the call went out, and never read the call."""


class Answer:
    """An upstream answer read whole. Header names are lower case, values as sent."""

    __slots__ = ("body", "headers", "status")

    def __init__(self, status: int, headers: list[tuple[str, str]], body: bytes) -> None:
        self.status = status
        self.headers = headers
        self.body = body

    def header(self, name: str) -> str | None:
        for key, value in self.headers:
            if key == name:
                return value
        return None

    def header_values(self, name: str) -> list[str]:
        return [value for key, value in self.headers if key == name]


class StreamedAnswer(Answer):
    """An answer whose body is read as it arrives (`chunks()`); `aclose()` when done with it."""

    __slots__ = ("_chunks", "_close")

    def __init__(self, status: int, headers: list[tuple[str, str]], chunks: AsyncIterator[bytes], close: Any) -> None:
        super().__init__(status, headers, b"")
        self._chunks = chunks
        self._close = close

    def chunks(self) -> AsyncIterator[bytes]:
        return self._chunks

    async def aclose(self) -> None:
        await self._close()


class _Connection(asyncio.Protocol):
    """One keep-alive connection: one exchange at a time, answers parsed as they arrive."""

    def __init__(self, pool: Pool) -> None:
        self.pool = pool
        self.loop = asyncio.get_running_loop()
        self.transport: asyncio.Transport | None = None
        self.parser = httptools.HttpResponseParser(self)
        self.closed = False
        self.idle_since = 0.0
        self.exchanges = 0
        # the exchange in progress
        self.done: asyncio.Future[Answer] | None = None
        """Resolved with the whole answer (read whole) or with its head (streamed)."""
        self.streaming = False
        self.status = 0
        self.keep_alive = False
        self.headers: list[tuple[str, str]] = []
        self.parts: list[bytes] = []
        self.size = 0
        """Bytes held: of the answer as decoded (read whole), or as received (streamed)."""
        self.received = 0
        self.inflater: Any = None
        """A zlib decompressor while a compressed answer is read whole."""
        self.complete = False
        self.error: BaseException | None = None
        self.waiter: asyncio.Future[None] | None = None
        """The reader of a streamed answer, or a writer waiting to be able to write."""
        self.write_paused = False
        self.read_paused = False
        self.read_timeout = 0.0
        self.deadline = MovingDeadline(self.loop, self._timed_out)
        """The platform's: armed while the gateway waits on it, moved by every read."""

    # --- asyncio -----------------------------------------------------------------------------
    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = cast(asyncio.Transport, transport)  # uvloop's is not an asyncio.Transport subclass

    def data_received(self, data: bytes) -> None:
        if self.done is None:  # nothing was asked: a platform talking out of turn is not reused
            self.close()
            return
        self.deadline.push(self.read_timeout)
        try:
            self.parser.feed_data(data)
        except httptools.HttpParserError as exc:
            self._fail(httpx.RemoteProtocolError(f"malformed answer: {exc}"))
            self.close()
            return
        if self.streaming and not self.read_paused and self.size > _READ_CHUNK_HIGH and self.transport is not None:
            self.read_paused = True
            self.transport.pause_reading()

    def connection_lost(self, exc: Exception | None) -> None:
        self.closed = True
        self.deadline.cancel()
        if self.done is not None and not self.complete:
            if self.status and self._ends_at_close():
                self.on_message_complete()  # an answer without a length ends with the connection
            elif self.exchanges > 1 and not self.status and not self.received and not self.parts:
                self._fail(StaleConnection("the platform had closed the kept-alive connection"))
            else:
                self._fail(httpx.ReadError("the platform closed the connection"))
        self._wake()
        self.pool.forget(self)

    def pause_writing(self) -> None:
        self.write_paused = True

    def resume_writing(self) -> None:
        self.write_paused = False
        self._wake()

    # --- httptools ---------------------------------------------------------------------------
    def on_message_begin(self) -> None:
        self.headers = []
        self.parts = []
        self.size = 0
        self.received = 0
        self.inflater = None

    def on_header(self, name: bytes, value: bytes) -> None:
        self.headers.append((name.decode("latin-1").lower(), value.decode("latin-1")))

    def on_headers_complete(self) -> None:
        status = self.parser.get_status_code()
        if status < 200:  # 100 Continue and other interim answers: the real one follows
            return
        self.status = status
        self.keep_alive = self.parser.should_keep_alive()  # llhttp forgets it once the answer ends
        if self.streaming:
            if self.done is not None and not self.done.done():
                self.done.set_result(StreamedAnswer(status, self.headers, self._chunks(), self._release_streamed))
            return
        try:
            self.inflater = _inflater(self.headers)
        except httpx.RemoteProtocolError as exc:
            self._fail(exc)
            self.close()

    def on_body(self, body: bytes) -> None:
        if self.streaming:
            self.parts.append(body)
            self.size += len(body)
            self._wake()
            return
        if self.error is not None:
            return
        self.received += len(body)
        if self.inflater is None:
            self._keep(body)
            return
        # Inflated as it arrives, a megabyte at a time, never past the cap: a small gzip answer
        # can hold gigabytes.
        while body and self.error is None:
            try:
                self._keep(self.inflater.decompress(body, min(MAX_BODY - self.size + 1, _INFLATE_STEP)))
            except zlib.error as exc:
                self._fail(httpx.RemoteProtocolError(f"undecodable compressed answer: {exc}"))
                self.close()
                return
            body = self.inflater.unconsumed_tail if self.inflater is not None else b""

    def _keep(self, data: bytes) -> None:
        self.parts.append(data)
        self.size += len(data)
        if self.size > MAX_BODY or self.received > MAX_BODY:
            self._fail(httpx.RemoteProtocolError(f"answer larger than {MAX_BODY} bytes"))
            self.close()

    def on_message_complete(self) -> None:
        if not self.status:
            return  # the end of an interim answer
        self.complete = True
        self.deadline.clear()
        if self.streaming:
            self._wake()
            return
        done = self.done
        if done is None or done.done():
            return
        inflater, parts = self.inflater, self.parts
        self.parts, self.inflater = [], None  # an idle connection holds no answer
        if inflater is not None and not inflater.eof:
            done.set_exception(httpx.RemoteProtocolError("a compressed answer ended before its stream did"))
            return
        done.set_result(Answer(self.status, self.headers, b"".join(parts)))

    # --- one exchange ------------------------------------------------------------------------
    def begin(self, streaming: bool, read_timeout: float) -> asyncio.Future[Answer]:
        self.exchanges += 1
        self.received = 0
        self.done = self.loop.create_future()
        self.streaming = streaming
        self.status = 0
        self.complete = False
        self.error = None
        self.read_timeout = read_timeout
        self.deadline.clear()
        return self.done

    def await_answer(self) -> None:
        """The request is out: from now on the platform must not fall silent for longer than
        the read timeout."""
        self.deadline.arm(self.read_timeout)

    async def write_body(self, chunks: AsyncIterable[bytes], size: int | None) -> None:
        """A streamed request body, with backpressure from the socket: chunked, or exactly
        `size` bytes when the length was declared."""
        assert self.transport is not None
        sent = 0
        async for chunk in chunks:
            sent += len(chunk)
            if size is not None and sent > size:
                raise httpx.LocalProtocolError("the request body is longer than its content-length")
            if chunk:
                self.transport.write(b"%x\r\n%b\r\n" % (len(chunk), chunk) if size is None else chunk)
            # Waiting on the player's next chunk is not the platform's delay (the listener bounds
            # the player's pauses); waiting for the platform to take what was written is.
            while self.write_paused and not self.closed:
                self.deadline.arm(self.read_timeout)
                await self._until_woken()
            self.deadline.clear()
            if self.closed:
                raise self.error or httpx.WriteError("the platform closed the connection")
        if size is None:
            self.transport.write(b"0\r\n\r\n")
        elif sent != size:
            raise httpx.LocalProtocolError("the request body is shorter than its content-length")

    async def _chunks(self) -> AsyncIterator[bytes]:
        while True:
            if self.parts:
                parts, self.parts, self.size = self.parts, [], 0
                if self.read_paused and self.transport is not None and not self.closed:
                    self.read_paused = False
                    self.transport.resume_reading()
                yield b"".join(parts)
                continue
            if self.error is not None:
                raise self.error
            if self.complete:
                return
            await self._until_woken()

    async def _until_woken(self) -> None:
        """Until data arrives, the socket takes more, or the connection ends."""
        self.waiter = self.loop.create_future()
        try:
            await self.waiter
        finally:
            self.waiter = None

    def _wake(self) -> None:
        waiter = self.waiter
        if waiter is not None and not waiter.done():
            waiter.set_result(None)

    def _fail(self, error: BaseException) -> None:
        if not self.streaming:  # what was read is no use now: not kept while the error travels
            self.parts, self.size, self.inflater = [], 0, None
        if self.error is None:
            self.error = error
        done = self.done
        if done is not None and not done.done():
            done.set_exception(error)
        self._wake()

    async def _release_streamed(self) -> None:
        self.pool.release(self, reusable=self.complete and self.error is None)

    def finished(self) -> bool:
        """The exchange ended cleanly and the connection may carry another."""
        return self.complete and self.error is None and not self.closed and self.keep_alive

    def _ends_at_close(self) -> bool:
        names = {name for name, _ in self.headers}
        return "content-length" not in names and "transfer-encoding" not in names

    def _timed_out(self) -> None:
        if self.closed:
            return
        if self.read_paused:  # the gateway's reader is slow, not the platform
            self.deadline.arm(self.read_timeout)
            return
        if self.write_paused and not self.status:
            self._fail(httpx.WriteTimeout("the platform stopped taking the request body"))
        else:
            self._fail(httpx.ReadTimeout("the platform did not answer in time"))
        self.close()

    def close(self) -> None:
        if self.transport is not None and not self.closed:
            self.transport.close()
        self.closed = True


class Pool:
    """Connections to one upstream origin (`scheme://host[:port]`)."""

    def __init__(
        self,
        origin: str,
        max_connections: int = 256,
        keepalive_s: float = 30.0,
        ssl_context: ssl.SSLContext | None = None,
    ) -> None:
        parts = urlsplit(origin)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ValueError(f"not an http(s) origin: {origin!r}")
        self.origin = origin
        self.host = parts.hostname
        self.port = parts.port or (443 if parts.scheme == "https" else 80)
        default_port = (parts.scheme == "https" and self.port == 443) or (parts.scheme == "http" and self.port == 80)
        self.host_header = parts.netloc.rsplit("@", 1)[-1] if not default_port else parts.hostname
        self.ssl = (ssl_context or ssl.create_default_context()) if parts.scheme == "https" else None
        self.max_connections = max_connections
        self.keepalive_s = keepalive_s
        self._idle: deque[_Connection] = deque()
        self._waiting: deque[asyncio.Future[_Connection | None]] = deque()
        self._open = 0
        self._closed = False

    # --- calls -------------------------------------------------------------------------------
    async def request(
        self, method: str, target: str, headers: dict[str, str], body: bytes | None, timeouts: Timeouts
    ) -> Answer:
        """One call, its answer read whole."""
        head = _head(method, target, self.host_header, headers, len(body) if body is not None else None)
        connection = await self._acquire(timeouts)
        try:
            done = connection.begin(False, timeouts.read)
            assert connection.transport is not None
            connection.transport.write(head + body if body else head)
            connection.await_answer()
            answer = await done
        except BaseException:
            self.release(connection, reusable=False)
            raise
        self.release(connection, reusable=connection.finished())
        return answer

    async def stream(
        self,
        method: str,
        target: str,
        headers: dict[str, str],
        body: bytes | AsyncIterable[bytes] | None,
        timeouts: Timeouts,
        length: int | None = None,
    ) -> StreamedAnswer:
        """One call whose answer is read as it arrives; the caller must `aclose()` it. A body
        given as chunks goes chunked unless its `length` is known."""
        whole = body if isinstance(body, bytes) else None
        chunks = None if body is None or isinstance(body, bytes) else body
        size = len(whole) if whole is not None else length if chunks is not None else None
        head = _head(method, target, self.host_header, headers, size, chunked=chunks is not None and size is None)
        connection = await self._acquire(timeouts)
        try:
            done = connection.begin(True, timeouts.read)
            assert connection.transport is not None
            connection.transport.write(head + whole if whole else head)
            if chunks is not None:
                await connection.write_body(chunks, size)
            connection.await_answer()
            answer = await done
        except BaseException:
            self.release(connection, reusable=False)
            raise
        assert isinstance(answer, StreamedAnswer)
        return answer

    # --- the pool ----------------------------------------------------------------------------
    async def _acquire(self, timeouts: Timeouts) -> _Connection:
        connect_s = timeouts.connect
        if self._closed:
            raise httpx.ConnectError(f"{self.origin}: the pool is closed")
        now = time.monotonic()
        while self._idle:
            connection = self._idle[-1]  # the newest: the least likely to have been dropped
            idle = now - connection.idle_since
            if connection.closed or idle > self.keepalive_s:
                self._idle.pop()
                connection.close()
                continue
            if timeouts.reuse_idle is not None and idle > timeouts.reuse_idle:
                break  # idle too long for a call that cannot be retried: a new connection
            return self._idle.pop()
        if self._open >= self.max_connections:
            waiter: asyncio.Future[_Connection | None] = asyncio.get_running_loop().create_future()
            self._waiting.append(waiter)
            try:
                async with asyncio.timeout(connect_s):
                    handed = await waiter
            except BaseException as exc:
                if waiter.done() and not waiter.cancelled():
                    self._give_back(waiter.result())  # handed over just as the wait ended
                else:
                    waiter.cancel()
                if isinstance(exc, TimeoutError):
                    raise httpx.PoolTimeout(f"{self.origin}: no free connection within {connect_s}s") from None
                raise
            if handed is not None:
                return handed
            # a connection closed and left room: open one in its place (already counted for us)
        else:
            self._open += 1
        try:
            return await self._connect(connect_s)
        except BaseException:
            self._free_place()
            raise

    async def _connect(self, connect_s: float) -> _Connection:
        try:
            async with asyncio.timeout(connect_s):
                _, protocol = await asyncio.get_running_loop().create_connection(
                    lambda: _Connection(self),
                    self.host,
                    self.port,
                    ssl=self.ssl,
                    server_hostname=self.host if self.ssl else None,
                )
        except TimeoutError:
            raise httpx.ConnectTimeout(f"{self.origin}: no connection within {connect_s}s") from None
        except (OSError, ssl.SSLError) as exc:
            raise httpx.ConnectError(f"{self.origin}: {exc}") from None
        return protocol

    def release(self, connection: _Connection, reusable: bool) -> None:
        connection.done = None
        connection.deadline.clear()
        if connection.read_paused and connection.transport is not None and not connection.closed:
            connection.read_paused = False
            connection.transport.resume_reading()
        if not reusable or connection.closed or self._closed:
            connection.close()  # connection_lost will give its place back (forget)
            return
        if self._hand_over(connection):
            return
        connection.idle_since = time.monotonic()
        self._idle.append(connection)

    def forget(self, connection: _Connection) -> None:
        """A connection closed (by either side): its place in the pool is free again."""
        with contextlib.suppress(ValueError):
            self._idle.remove(connection)
        self._free_place()

    def _free_place(self) -> None:
        self._open -= 1
        if self._waiting and self._open < self.max_connections:
            self._open += 1  # counted for the waiter that will open it
            if not self._hand_over(None):
                self._open -= 1

    def _give_back(self, handed: _Connection | None) -> None:
        """What a waiter was given but will not use: the connection, or the right to open one."""
        if handed is None:
            self._free_place()
        else:
            self.release(handed, reusable=True)

    def _hand_over(self, connection: _Connection | None) -> bool:
        """Gives a connection (or, with None, the right to open one) to the longest waiter."""
        while self._waiting:
            waiter = self._waiting.popleft()
            if not waiter.done():
                waiter.set_result(connection)
                return True
        return False

    async def aclose(self) -> None:
        self._closed = True
        while self._idle:
            self._idle.pop().close()

    def stats(self) -> dict[str, int]:
        return {"open": self._open, "idle": len(self._idle), "waiting": len(self._waiting)}


def _head(
    method: str, target: str, host: str, headers: dict[str, str], length: int | None, chunked: bool = False
) -> bytes:
    lines = [f"{method} {target} HTTP/1.1\r\nhost: {host}\r\n"]
    lines += [f"{name}: {value}\r\n" for name, value in headers.items()]
    if chunked:
        lines.append("transfer-encoding: chunked\r\n")
    elif length is not None:
        lines.append(f"content-length: {length}\r\n")
    lines.append("\r\n")
    head = "".join(lines)
    # Every line break must be one of ours: a CR or LF inside a value or the target would let
    # it add headers or a second request (values come from sessions and the platform too).
    breaks = len(lines) + 1
    if head.count("\n") != breaks or head.count("\r") != breaks or " " in target or "\0" in head:
        raise httpx.LocalProtocolError("a header or the path would split the request")
    try:
        return head.encode("latin-1")
    except UnicodeEncodeError:
        raise httpx.LocalProtocolError("a header is not latin-1") from None


def _inflater(headers: list[tuple[str, str]]) -> Any:
    """A decompressor for an answer read whole, or None when it is not compressed. The gateway
    asks for `identity`; a platform that compresses anyway is decoded, since answers read whole
    are forwarded without their content-encoding."""
    encoding = next((value.strip().lower() for name, value in headers if name == "content-encoding"), "identity")
    if encoding in ("identity", ""):
        return None
    if encoding in ("gzip", "x-gzip", "deflate"):
        return zlib.decompressobj(47)  # 32 + 15: a gzip or zlib header, detected
    raise httpx.RemoteProtocolError(f"unsupported content-encoding {encoding!r}")

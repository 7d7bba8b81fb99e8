"""One keep-alive connection to an upstream origin: one exchange at a time, answers parsed by
httptools as they arrive, inflated as they arrive when compressed, streamed with backpressure."""

from __future__ import annotations

import asyncio
import zlib
from collections.abc import AsyncIterable, AsyncIterator
from typing import Any, Protocol, cast

import httptools
import httpx

from gateway.http.deadline import MovingDeadline
from gateway.upstream.transport.answer import Answer, StaleConnection, inflater, is_gzipped

_INFLATE_STEP = 1024 * 1024
"""A compressed answer is inflated at most this much at a time (zlib's output is copied once whole)."""
_READ_CHUNK_HIGH = 256 * 1024
"""A streamed answer pauses reading from the platform past this much unread data."""


class Owner(Protocol):
    """The pool a connection belongs to."""

    max_body: int

    def release(self, connection: Connection, reusable: bool | None = None) -> None: ...
    def forget(self, connection: Connection) -> None: ...


class Connection(asyncio.Protocol):
    """One keep-alive connection: one exchange at a time, answers parsed as they arrive."""

    def __init__(self, pool: Owner) -> None:
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
        self.keep_gzip = False
        """Set for a read whose gzip may pass through (`Pool.request(keep_gzip=True)`): the bytes
        as they came are kept beside the inflated ones (`raw`)."""
        self.raw: list[bytes] = []
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
        self.raw = []

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
                self.done.set_result(Answer(status, self.headers, b"", self._chunks(), self._release_streamed))
            return
        try:
            self.inflater = inflater(self.headers)
        except httpx.RemoteProtocolError as exc:
            self._fail(exc)
            self.close()
            return
        if self.keep_gzip and not is_gzipped(self.headers):
            self.keep_gzip = False  # only gzip passes through (a browser may not take deflate)

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
        if self.keep_gzip:
            self.raw.append(body)  # bounded with the rest: `received` is held to the cap too
        # Inflated as it arrives, a megabyte at a time, never past the cap: a small gzip answer
        # can hold gigabytes.
        while body and self.error is None:
            try:
                self._keep(self.inflater.decompress(body, min(self.pool.max_body - self.size + 1, _INFLATE_STEP)))
            except zlib.error as exc:
                self._fail(httpx.RemoteProtocolError(f"undecodable compressed answer: {exc}"))
                self.close()
                return
            body = self.inflater.unconsumed_tail if self.inflater is not None else b""

    def _keep(self, data: bytes) -> None:
        self.parts.append(data)
        self.size += len(data)
        if self.size > self.pool.max_body or self.received > self.pool.max_body:
            self._fail(httpx.RemoteProtocolError(f"answer larger than {self.pool.max_body} bytes"))
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
        inflater, parts, raw = self.inflater, self.parts, self.raw
        self.parts, self.inflater, self.raw = [], None, []  # an idle connection holds no answer
        if inflater is not None and not inflater.eof:
            done.set_exception(httpx.RemoteProtocolError("a compressed answer ended before its stream did"))
            return
        gzip = b"".join(raw) if inflater is not None and self.keep_gzip else None
        done.set_result(Answer(self.status, self.headers, b"".join(parts), gzip=gzip))

    # --- one exchange ------------------------------------------------------------------------
    def begin(self, streaming: bool, read_timeout: float, keep_gzip: bool = False) -> asyncio.Future[Answer]:
        """A new exchange on the connection: its answer not yet awaited (no deadline)."""
        done = self._new_exchange(streaming, read_timeout, keep_gzip)
        self.deadline.clear()
        return done

    def send(self, request: bytes, read_timeout: float, keep_gzip: bool) -> asyncio.Future[Answer]:
        """A whole request (head and body) written at once, its answer awaited from now on
        within the read timeout (`await_answer`)."""
        done = self._new_exchange(False, read_timeout, keep_gzip)
        assert self.transport is not None
        self.transport.write(request)
        self.deadline.arm(read_timeout)
        return done

    def _new_exchange(self, streaming: bool, read_timeout: float, keep_gzip: bool) -> asyncio.Future[Answer]:
        self.exchanges += 1
        self.keep_gzip = keep_gzip
        self.received = 0
        self.done = self.loop.create_future()
        self.streaming = streaming
        self.status = 0
        self.complete = False
        self.error = None
        self.read_timeout = read_timeout
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
            self.parts, self.size, self.inflater, self.raw = [], 0, None, []
        if self.error is None:
            self.error = error
        done = self.done
        if done is not None and not done.done():
            done.set_exception(error)
        self._wake()

    async def _release_streamed(self) -> None:
        self.pool.release(self, reusable=self.complete and self.error is None)

    def is_finished(self) -> bool:
        """The exchange ended cleanly and the connection may carry another."""
        return self.complete and self.error is None and not self.closed and self.keep_alive

    def end_exchange(self) -> bool:
        """The exchange is over (its answer read, or given up): no answer awaited, no deadline,
        reading resumed if it was paused; and whether it ended cleanly (`is_finished`), said before
        reading resumes."""
        finished = self.is_finished()
        self.done = None
        self.deadline.clear()
        if self.read_paused and self.transport is not None and not self.closed:
            self.read_paused = False
            self.transport.resume_reading()
        return finished

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

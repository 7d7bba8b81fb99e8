"""Connections to one upstream origin, kept alive and shared by the gateway's calls (why the
gateway has a pool of its own: `gateway.upstream.transport`)."""

from __future__ import annotations

import asyncio
import contextlib
import ssl
import time
from collections import deque
from collections.abc import AsyncIterable
from urllib.parse import urlsplit

import httpx

from gateway.upstream.transport.answer import MAX_BODY, Answer, Timeouts, request_head
from gateway.upstream.transport.connection import Connection


class Pool:
    """Connections to one upstream origin (`scheme://host[:port]`)."""

    def __init__(
        self,
        origin: str,
        max_connections: int = 256,
        keepalive_s: float = 30.0,
        ssl_context: ssl.SSLContext | None = None,
        max_body: int = MAX_BODY,
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
        self.max_body = max_body
        """The largest answer read whole, once inflated; past it the call fails."""
        self.keepalive_s = keepalive_s
        self._idle: deque[Connection] = deque()
        self._waiting: deque[asyncio.Future[Connection | None]] = deque()
        self._open = 0
        self._closed = False

    # --- calls -------------------------------------------------------------------------------
    async def request(
        self,
        method: str,
        target: str,
        headers: dict[str, str],
        body: bytes | None,
        timeouts: Timeouts,
        keep_gzip: bool = False,
    ) -> Answer:
        """One call, its answer read whole; a compressed one inflated as it arrives (and, with
        `keep_gzip`, its gzip kept as it came beside: `Answer.gzip`)."""
        head = request_head(method, target, self.host_header, headers, len(body) if body is not None else None)
        connection = await self._acquire(timeouts)
        try:
            answer = await connection.send(head + body if body else head, timeouts.read, keep_gzip)
        except BaseException:
            self.release(connection, reusable=False)
            raise
        self.release(connection)
        return answer

    async def stream(
        self,
        method: str,
        target: str,
        headers: dict[str, str],
        body: bytes | AsyncIterable[bytes] | None,
        timeouts: Timeouts,
        length: int | None = None,
    ) -> Answer:
        """One call whose answer is read as it arrives; the caller must `aclose()` it. A body
        given as chunks goes chunked unless its `length` is known."""
        whole = body if isinstance(body, bytes) else None
        chunks = None if body is None or isinstance(body, bytes) else body
        size = len(whole) if whole is not None else length if chunks is not None else None
        head = request_head(
            method, target, self.host_header, headers, size, chunked=chunks is not None and size is None
        )
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
        assert isinstance(answer, Answer)
        return answer

    # --- the pool ----------------------------------------------------------------------------
    async def _acquire(self, timeouts: Timeouts) -> Connection:
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
            waiter: asyncio.Future[Connection | None] = asyncio.get_running_loop().create_future()
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

    async def _connect(self, connect_s: float) -> Connection:
        try:
            async with asyncio.timeout(connect_s):
                _, protocol = await asyncio.get_running_loop().create_connection(
                    lambda: Connection(self),
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

    def release(self, connection: Connection, reusable: bool | None = None) -> None:
        """A connection back from its exchange: kept idle for the next call, or closed.
        `reusable`: None for as the exchange ended (`Connection.end_exchange`)."""
        finished = connection.end_exchange()
        if not (finished if reusable is None else reusable) or connection.closed or self._closed:
            connection.close()  # connection_lost will give its place back (forget)
            return
        if self._hand_over(connection):
            return
        connection.idle_since = time.monotonic()
        self._idle.append(connection)

    def forget(self, connection: Connection) -> None:
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

    def _give_back(self, handed: Connection | None) -> None:
        """What a waiter was given but will not use: the connection, or the right to open one."""
        if handed is None:
            self._free_place()
        else:
            self.release(handed, reusable=True)

    def _hand_over(self, connection: Connection | None) -> bool:
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

"""The public listener's HTTP/1.1 protocol: uvicorn's httptools protocol with the limits a
server facing the internet needs and uvicorn does not have.

Hand-written because uvicorn offers none of these for httptools (h11 has only a size cap):
- the request head (request line and headers) is capped, 431 beyond it: without a cap one
  client could make the gateway hold megabytes of headers per connection;
- the head must arrive within a deadline, 408 after it (slowloris: a client that sends a
  header line every few seconds would otherwise keep a connection forever); a connection that
  sends nothing at all in that time is closed without an answer;
- a request body may not stall: no new bytes for that long, 408 and the connection closes
  (the application was waiting on it; it sees the client go).
Keep-alive idleness between requests stays uvicorn's own timeout.
"""

from __future__ import annotations

import asyncio
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from gateway.config.settings import ListenerLimits
from gateway.http.deadline import MovingDeadline


class _StopParsing(Exception):
    """Raised inside a parser callback to stop parsing; httptools reports it as a parser error."""


_REASONS = {408: b"Request Timeout", 431: b"Request Header Fields Too Large"}


class GuardedHttpToolsProtocol(HttpToolsProtocol):
    limits = ListenerLimits()

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._head_bytes = 0
        self._refusal: int | None = None
        self._deadline = MovingDeadline(self.loop, self._timed_out)
        self._in_body = False
        self._started = False  # a byte of the current request has arrived

    # --- connection and parser callbacks ---------------------------------------------------
    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm(self.limits.head_timeout_s)

    def connection_lost(self, exc: Exception | None) -> None:
        self._deadline.cancel()
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if self._in_body:
            self._arm(self.limits.body_idle_timeout_s)
        super().data_received(data)

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._started = True
        self._head_bytes = 0
        self._arm(self.limits.head_timeout_s)

    def on_url(self, url: bytes) -> None:
        self._count(len(url))
        super().on_url(url)

    def on_header(self, name: bytes, value: bytes) -> None:
        self._count(len(name) + len(value) + 4)
        super().on_header(name, value)

    def on_headers_complete(self) -> None:
        self._in_body = True
        self._arm(self.limits.body_idle_timeout_s)
        super().on_headers_complete()

    def on_message_complete(self) -> None:
        self._in_body = False
        self._disarm()
        super().on_message_complete()

    def on_response_complete(self) -> None:
        # The next request's head deadline starts with its first byte (on_message_begin);
        # until then uvicorn's keep-alive timeout governs the idle connection.
        self._disarm()
        self._started = False
        super().on_response_complete()

    # --- refusals ----------------------------------------------------------------------------
    def send_400_response(self, msg: str) -> None:
        if self._refusal is None:
            super().send_400_response(msg)
        else:
            self._refuse(self._refusal)

    def _count(self, size: int) -> None:
        self._head_bytes += size
        if self._head_bytes > self.limits.max_head_bytes:
            self._refusal = 431
            raise _StopParsing

    def _arm(self, seconds: float) -> None:
        self._deadline.arm(seconds)

    def _disarm(self) -> None:
        self._deadline.clear()

    def _timed_out(self) -> None:
        if self.transport.is_closing():
            return
        if self.cycle is not None and not self.cycle.response_complete and not self._in_body:
            return  # the application is answering; not the client's delay
        if self._in_body and self.flow.read_paused:
            # Reading is paused because the application has not taken what arrived (an
            # upload to a slow platform): the client is waiting on us, not the other way.
            self._arm(self.limits.body_idle_timeout_s)
            return
        if (self.cycle is not None and self.cycle.response_started) or not self._started:
            # A connection that never began a request (a browser's preconnect) just closes.
            self.transport.close()
            return
        self._refuse(408)

    def _refuse(self, status: int) -> None:
        self._disarm()
        message = _REASONS[status]
        head = [b"HTTP/1.1 %d %s\r\n" % (status, message)]
        for name, value in self.server_state.default_headers:
            head.append(name + b": " + value + b"\r\n")
        head.append(b"content-type: text/plain; charset=utf-8\r\ncontent-length: %d\r\n" % len(message))
        head.append(b"connection: close\r\n\r\n" + message)
        self.transport.write(b"".join(head))
        self.transport.close()
        if self.cycle is not None and not self.cycle.response_complete:
            self.cycle.disconnected = True
            self.cycle.message_event.set()


def guarded_protocol(limits: ListenerLimits) -> type[GuardedHttpToolsProtocol]:
    """The protocol class for uvicorn's `http=` with these limits."""
    return type("GuardedHttpToolsProtocol", (GuardedHttpToolsProtocol,), {"limits": limits})

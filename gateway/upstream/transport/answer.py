"""What the pool takes and gives: timeouts, the platform's answer, and the bytes of a request head."""

from __future__ import annotations

import zlib
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import httpx

MAX_BODY = 32 * 1024 * 1024
"""Largest answer read whole (JSON, content); binary answers stream and have no cap."""


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


@dataclass(slots=True)
class Answer:
    """An upstream answer: its body read whole, or streamed (`stream`, then `aclose()`).
    Header names are lower case, values as sent."""

    status: int
    headers: list[tuple[str, str]]
    body: bytes = b""
    stream: AsyncIterator[bytes] | None = None
    close: Callable[[], Awaitable[None]] | None = None
    gzip: bytes | None = None
    """The platform's own gzip of `body`, as it came (asked with `keep_gzip`): `body` is always
    the answer inflated, checked whole and within the cap; this may pass through to a browser."""

    def header(self, name: str) -> str | None:
        for key, value in self.headers:
            if key == name:
                return value
        return None

    def header_values(self, name: str) -> list[str]:
        return [value for key, value in self.headers if key == name]

    async def aclose(self) -> None:
        """Gives a streamed answer's connection back (read to its end, or not)."""
        if self.close is not None:
            await self.close()


def request_head(
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


def is_gzipped(headers: list[tuple[str, str]]) -> bool:
    encoding = next((value.strip().lower() for name, value in headers if name == "content-encoding"), "")
    return encoding in ("gzip", "x-gzip")


def inflater(headers: list[tuple[str, str]]) -> Any:
    """A decompressor for an answer read whole, or None when it is not compressed. The gateway
    asks for gzip; what it reads is inflated (and forwarded without its content-encoding), what
    passes through is also kept as it came (`Pool.request(keep_gzip=True)`)."""
    encoding = next((value.strip().lower() for name, value in headers if name == "content-encoding"), "identity")
    if encoding in ("identity", ""):
        return None
    if encoding in ("gzip", "x-gzip"):
        return zlib.decompressobj(31)
    if encoding == "deflate":
        return Deflate()
    raise httpx.RemoteProtocolError(f"unsupported content-encoding {encoding!r}")


class Deflate:
    """HTTP's `deflate`: zlib-wrapped as RFC 9110 says, or raw deflate as some servers send it,
    told apart by the first bytes (a zlib header is a multiple of 31 with method 8)."""

    def __init__(self) -> None:
        self._inner: Any = None
        self._first = b""

    def decompress(self, data: bytes, max_length: int = 0) -> bytes:
        if self._inner is None:
            data = self._first + data
            if len(data) < 2:  # an answer that trickles may bring its first byte alone
                self._first = data
                return b""
            wrapped = len(data) >= 2 and data[0] & 0x0F == 8 and (data[0] << 8 | data[1]) % 31 == 0
            self._inner = zlib.decompressobj(15 if wrapped else -15)
        return bytes(self._inner.decompress(data, max_length))

    @property
    def unconsumed_tail(self) -> bytes:
        return bytes(self._inner.unconsumed_tail) if self._inner is not None else b""

    @property
    def eof(self) -> bool:
        return bool(self._inner is not None and self._inner.eof)

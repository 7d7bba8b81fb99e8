"""A body as it crossed the wire, decoded as its `Content-Encoding` says (tests read raw bodies:
httpx would decode them itself)."""

from __future__ import annotations

import gzip
from collections.abc import AsyncIterator

import brotli
import httpx


def decoded(response: httpx.Response, raw: bytes) -> bytes:
    coding = response.headers.get("content-encoding")
    if coding == "br":
        return brotli.decompress(raw)
    if coding == "gzip":
        return gzip.decompress(raw)
    assert coding is None, coding
    return raw


class Raw(httpx.AsyncByteStream):
    """A body sent as it is (respx would decode one given as `content=` with its encoding)."""

    def __init__(self, body: bytes, step: int = 65536) -> None:
        self.body = body
        self.step = step

    async def __aiter__(self) -> AsyncIterator[bytes]:
        for start in range(0, len(self.body), self.step):
            yield self.body[start : start + self.step]

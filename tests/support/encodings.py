"""A body as it crossed the wire, decoded as its `Content-Encoding` says (tests read raw bodies:
httpx would decode them itself)."""

from __future__ import annotations

import gzip

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

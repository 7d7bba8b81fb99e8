"""Content kept compressed: the bytes a content copy holds from the moment it enters the cache
(`StoredBody`), and the answer a browser gets from them (`serve`).

A copy is compressed once, when it enters the cache (a miss, a refresh, a revalidation that
changed it), in brotli 5 and gzip 6 (`CONTENT`): 0.34 and 0.24 ms for the 30 kB sports events,
once per copy and refresh, where brotli 10 would hold the event loop 14 ms (bench/compression.py).
A textual answer of 1 kB or more keeps those two and not its identity bytes; a smaller one, or an
image, keeps its bytes as they came. The same struct goes into the process's LRU and, msgpacked,
into Redis, whose copies shrink about 5x. A hit picks the variant the request accepts and sends it
as it is: no per-request compression. A client that accepts neither (curl, a probe: every browser
sends gzip) gets the gzip variant inflated as it is sent, about 36 us for 30 kB; keeping the
identity bytes too would cost Redis 30 kB per such copy for clients that never come.
"""

from __future__ import annotations

import zlib
from collections.abc import Mapping

import msgspec

from gateway.http.asgi import Outgoing
from gateway.http.compression import MIN_BYTES, Coding, Levels, compress, digest, etag, matches, negotiate, textual

CONTENT = Levels(gzip=6, br=5)
"""A content copy's levels: once per copy and refresh (docs/wire.md, the proxied path's table)."""
_OFFERED: tuple[Coding, ...] = ("br", "gzip")


class StoredBody(msgspec.Struct, array_like=True, frozen=True):
    """One answer's body as a cached copy keeps it: brotli and gzip, or its bytes as they came."""

    digest: str
    """The identity bytes' digest: every variant's strong ETag is made from it."""
    size: int
    """The identity bytes' length."""
    br: bytes = b""
    gzip: bytes = b""
    identity: bytes = b""
    """Kept only when nothing is compressed (under 1 kB, not textual, or no smaller compressed)."""

    @classmethod
    def pack(cls, body: bytes, media_type: str) -> StoredBody:
        """`body` compressed now, once, for every request that will get it."""
        named = digest(body)
        if len(body) < MIN_BYTES or not textual(media_type):
            return cls(named, len(body), identity=body)
        br, gzipped = compress(body, "br", CONTENT), compress(body, "gzip", CONTENT)
        if len(br) >= len(body) or len(gzipped) >= len(body):  # random text: kept as it came
            return cls(named, len(body), identity=body)
        return cls(named, len(body), br=br, gzip=gzipped)

    @property
    def is_compressed(self) -> bool:
        return bool(self.gzip)

    @property
    def kept_bytes(self) -> int:
        """What the copy holds (the store's bound applies to this, not to the identity size)."""
        return len(self.br) + len(self.gzip) + len(self.identity)

    def coding_for(self, accept_encoding: str | None) -> Coding:
        return negotiate(accept_encoding, _OFFERED) if self.gzip else "identity"

    def body(self, coding: Coding) -> bytes:
        if coding == "br":
            return self.br
        if coding == "gzip":
            return self.gzip
        if not self.gzip:
            return self.identity
        return zlib.decompress(self.gzip, 31)  # the gateway's own gzip, of a known size


def serve(
    kept: StoredBody,
    status: int,
    headers: list[tuple[bytes, bytes]],
    asked: Mapping[str, str],
    extra: list[tuple[bytes, bytes]],
) -> Outgoing:
    """A stored copy as this request gets it: the variant its `Accept-Encoding` accepts, with
    that variant's strong ETag and `Vary: Accept-Encoding`; 304 with no body when its
    `If-None-Match` names that variant (another encoding's tag is another representation).
    `headers`: what the browser may see of the platform's (its own ETag and `Last-Modified` are
    the copy's business with the platform, left out by the caller), made once per copy; `extra`
    added as they are."""
    coding = kept.coding_for(asked.get("accept-encoding"))
    tag = etag(kept.digest, coding)
    listed = [*headers, (b"etag", tag.encode("latin-1")), *extra]
    if matches(asked.get("if-none-match"), tag):
        return Outgoing(304, [(name, value) for name, value in listed if name != b"content-type"])
    if coding != "identity":
        listed.append((b"content-encoding", coding.encode("latin-1")))
    return Outgoing(status, listed, kept.body(coding))

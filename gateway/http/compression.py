"""Compression and validators toward the browser: which encoding an answer travels in
(`negotiate`), the answer kept once in each encoding worth sending with a strong ETag per
encoding (`Variants`), the browser's `If-None-Match` (`matches`), and whether an answer may be
compressed at all (`may_compress`, the BREACH rule).

Why not Litestar's `CompressionMiddleware`: it compresses every answer again on every request,
picks the encoding by substring (`br;q=0` still gets brotli; `gzip;q=0` still gets gzip) and
gives no validator. Here an answer is compressed once (the build's files at build time,
`index.html`, a skin's config and the public files the first time they are served) and its
stored bytes are sent as they are, each encoding with its own ETag, so a browser revalidates for
a 304 of a few hundred bytes. Compressing per request is what stored bytes avoid: compressing a
content cache hit on every hit would double its CPU, sending the stored bytes costs nothing (the
figures, and those behind each level below: docs/decisions.md, "Compression toward the browser";
docs/benchmarks.md, `bench/compression.py`).

Brotli through `brotli`, Google's own binding, rather than `brotlicffi`: a C extension calls
without CFFI's overhead on CPython, and it can bound a decompression's output
(`Decompressor.process(data, output_buffer_limit=...)`), what inflating a platform's brotli safely
would need (brotli-stubs 1.2.1 does not declare that argument yet); docs/decisions.md, "brotli".
"""

from __future__ import annotations

import base64
import functools
import gzip
import hashlib
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Literal

import brotli

from gateway.http.asgi import Outgoing, RequestContext

Coding = Literal["br", "gzip", "identity"]
PREFERRED: tuple[Coding, ...] = ("br", "gzip")
"""What the gateway offers, best first: among codings a browser weighs alike, brotli, the smaller
(docs/decisions.md)."""
MIN_BYTES = 1024
"""Smaller answers travel as they are: a compressed kilobyte saves less than a packet."""
TEXT_TYPES = frozenset(
    {"application/json", "application/javascript", "application/xml", "image/svg+xml", "application/manifest+json"}
)
MAX_ELEMENTS = 32
"""An `Accept-Encoding` is read up to this many codings (browsers send four)."""
_TOKEN = re.compile(r"^[!#$%&'*+.^_`|~0-9a-z-]+$")
_QVALUE = re.compile(r"^[01](?:\.[0-9]{0,6})?$")
_ENTITY_TAG = re.compile(r'(?:W/)?("[^"]*")')


@dataclass(frozen=True, slots=True)
class Levels:
    """How hard each coding works: once for bytes served many times, cheaply for bytes sent once."""

    gzip: int
    br: int


STORED = Levels(gzip=9, br=10)
"""Compressed once and kept (index.html, a skin's config, the public files): on the event loop,
once per content, so brotli's 10 rather than 11, which takes three times as long for a few bytes
less (the build's files get 11 from spa/vite.shared.ts, where time is free). Not for content
entering the cache, once per refresh: too long on the event loop for a 30 kB answer."""
ON_THE_FLY = Levels(gzip=1, br=3)
"""Compressed as it is sent (an answer read once): gzip's cheapest; brotli's 3, smaller than gzip 1
for a little more CPU (its 1 costs as much as gzip 1 and is larger; docs/decisions.md)."""


def compress(body: bytes, coding: Coding, levels: Levels) -> bytes:
    if coding == "br":
        return brotli.compress(body, mode=brotli.MODE_TEXT, quality=levels.br)
    if coding == "gzip":
        return gzip.compress(body, compresslevel=levels.gzip, mtime=0)
    return body


def textual(media_type: str) -> bool:
    """Whether an answer of this type shrinks when compressed (images and fonts already are)."""
    kind = media_type.partition(";")[0].strip().lower()
    return kind.startswith("text/") or kind in TEXT_TYPES or kind.endswith(("+json", "+xml"))


def varies_on_encoding(vary: str) -> bool:
    """Whether a `Vary` value names Accept-Encoding already (nginx's `gzip_vary` puts it on a
    platform's answers): the gateway's own is then not added a second time."""
    return "accept-encoding" in (name.strip().lower() for name in vary.split(","))


@functools.lru_cache(maxsize=512)  # browsers send a handful of distinct values; bounded for the rest
def negotiate(accept_encoding: str | None, offered: tuple[Coding, ...] = PREFERRED) -> Coding:
    """The coding to send (RFC 9110 12.5.3): the offered coding the browser weighs highest, `*`
    standing for any it does not name, ties to the gateway's order; `identity` when it accepts none
    of them, or weighs `identity` (named, or through `*`) above them. No header: `identity` (a
    client that says nothing, a script or a probe, seldom decodes). A malformed element (no
    coding, a weight that is not one) is passed over; nothing here is ever an error: at worst the
    answer travels uncompressed, which every client can read."""
    if accept_encoding is None:
        return "identity"
    weights = _weights(accept_encoding)
    anything = weights.get("*")
    best: Coding = "identity"
    best_weight = 0.0
    for coding in offered:  # in the gateway's order: a tie keeps the earlier
        weight = weights.get(coding, anything or 0.0)
        if weight > best_weight:
            best, best_weight = coding, weight
    # identity competes only when weighed (named, or through `*`); a tie goes to the smaller answer
    return best if best_weight >= weights.get("identity", anything or 0.0) else "identity"


def _weights(accept_encoding: str) -> dict[str, float]:
    """`gzip;q=0.8, br` -> {"gzip": 0.8, "br": 1.0}; the first mention of a coding counts."""
    weights: dict[str, float] = {}
    for element in accept_encoding.lower().split(",")[:MAX_ELEMENTS]:
        name, _, parameters = element.partition(";")
        name = name.strip()
        weight: float | None = 1.0
        for parameter in parameters.split(";") if parameters else ():
            key, _, value = parameter.partition("=")
            if key.strip() == "q":
                value = value.strip()
                weight = float(value) if _QVALUE.match(value) and float(value) <= 1 else None
        if weight is None or not _TOKEN.match(name):
            continue
        weights.setdefault("gzip" if name == "x-gzip" else name, weight)
    return weights


def digest(body: bytes) -> str:
    """A short name for these exact bytes: 96 bits of SHA-256, URL-safe (SHA-256 rather than BLAKE2b:
    twice as fast where the CPU has SHA instructions; docs/benchmarks.md)."""
    return base64.urlsafe_b64encode(hashlib.sha256(body).digest()[:12]).decode("ascii")


def etag(identity_digest: str, coding: Coding) -> str:
    """A strong validator per encoding: the identity bytes' digest, and the coding they travel in.
    A browser's copy in one encoding is never taken for the bytes of another."""
    return f'"{identity_digest}"' if coding == "identity" else f'"{identity_digest}-{coding}"'


def headers_digest(headers: Mapping[str, str]) -> str:
    """A short name for a set of header values (48 bits of SHA-256): part of an ETag."""
    listed = "\n".join(f"{name}:{value}" for name, value in sorted(headers.items()))
    return digest(listed.encode("latin-1"))[:8]


def matches(if_none_match: str | None, current: str) -> bool:
    """Whether `If-None-Match` names the current ETag (RFC 9110 13.1.2: weak comparison, so a
    `W/` prefix is passed over; `*` names any). Garbage between or instead of quoted tags names
    nothing: the whole answer is sent."""
    if not if_none_match:
        return False
    if if_none_match.strip() == "*":
        return True
    wanted = current.removeprefix("W/")
    return any(tag == wanted for tag in _ENTITY_TAG.findall(if_none_match))


def may_compress(*, carries_secret: bool, reflects_request: bool, headers: Iterable[tuple[bytes, bytes]] = ()) -> bool:
    """The BREACH rule: an answer that carries a secret (a token, a session id, a CSRF value, or
    sets a cookie) together with anything the request can influence (a query or path parameter,
    a field of the body, a header echoed back) is never compressed, since an attacker who makes a
    player's browser send guesses could read the secret off the compressed sizes. Either alone
    is safe: a secret beside nothing chosen by the request, or reflected input beside no secret."""
    secret = carries_secret or any(name.lower() == b"set-cookie" for name, _ in headers)
    return not (secret and reflects_request)


@dataclass(frozen=True, slots=True)
class Variant:
    coding: Coding
    body: bytes
    etag: str


class Variants:
    """One answer kept in each encoding worth sending (the identity bytes always), each with its
    strong ETag."""

    __slots__ = ("_etags", "codings", "digest", "encoded", "identity")

    def __init__(self, identity: bytes, encoded: Mapping[Coding, bytes]) -> None:
        """`encoded`: the same bytes compressed, by coding (made at build time, or by `compressed`)."""
        self.identity = identity
        self.digest = digest(identity)
        self.encoded: dict[Coding, bytes] = {coding: encoded[coding] for coding in PREFERRED if coding in encoded}
        self.codings: tuple[Coding, ...] = tuple(self.encoded)
        self._etags = {coding: etag(self.digest, coding) for coding in (*self.codings, "identity")}

    @classmethod
    def compressed(cls, body: bytes, media_type: str, levels: Levels = STORED) -> Variants:
        """`body` compressed now in every coding that makes it smaller (textual, over `MIN_BYTES`)."""
        if len(body) < MIN_BYTES or not textual(media_type):
            return cls(body, {})
        packed = {coding: compress(body, coding, levels) for coding in PREFERRED}
        return cls(body, {coding: data for coding, data in packed.items() if len(data) < len(body)})

    def pick(self, accept_encoding: str | None, extra_tag: str = "") -> Variant:
        """The variant the browser accepts; its ETag also names `extra_tag` when given."""
        coding = negotiate(accept_encoding, self.codings) if self.codings else "identity"
        body = self.encoded[coding] if coding != "identity" else self.identity
        tag = etag(f"{self.digest}.{extra_tag}", coding) if extra_tag else self._etags[coding]
        return Variant(coding, body, tag)


def represent(
    variants: Variants,
    asked: Mapping[str, str],
    media_type: str,
    ctx: RequestContext,
    headers: dict[str, str],
    extra_tag: str = "",
) -> Outgoing:
    """The variant the browser accepts (`asked`: the request's headers), with its ETag; `304` and
    no body when its `If-None-Match` names that variant. `headers` (`Cache-Control`, the page's
    security headers...) go on both: a 304 updates what the browser stored (RFC 9111 4.3.4).
    `extra_tag` (`headers_digest(...)` of headers that change apart from the body, such as a
    page's CSP from its skin's frame hosts) goes into the ETag, so a change there is a 200 with
    the new headers: browsers keep some stored headers over a 304's."""
    chosen = variants.pick(asked.get("accept-encoding"), extra_tag)
    headers = {**headers, "etag": chosen.etag}
    if variants.codings:
        headers["vary"] = "accept-encoding"
    if matches(asked.get("if-none-match"), chosen.etag):
        response = Outgoing.page(304, b"", media_type, ctx, headers)
        response.headers = [(name, value) for name, value in response.headers if name != b"content-type"]
        return response
    if chosen.coding != "identity":
        headers["content-encoding"] = chosen.coding
    return Outgoing.page(200, chosen.body, media_type, ctx, headers)


class Packed:
    """Answers that change seldom (index.html, a skin's config, the public files), compressed once
    per content and kept by name: the same bytes again are served from what was kept; new bytes
    (a configuration swapped, a file rebuilt) are compressed once more."""

    def __init__(self, limit: int = 1024) -> None:
        self.limit = limit
        self._kept: dict[str, Variants] = {}

    def variants(self, name: str, body: bytes, media_type: str) -> Variants:
        kept = self._kept.get(name)
        if kept is not None and kept.identity == body:
            return kept
        if len(self._kept) >= self.limit:  # names come from the configuration and the build; bounded all the same
            self._kept.clear()
        kept = self._kept[name] = Variants.compressed(body, media_type)
        return kept

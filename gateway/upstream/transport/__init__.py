"""The upstream transport: keep-alive HTTP/1.1 connections per upstream origin, on asyncio
protocols and httptools' response parser (`Pool`, `gateway.upstream.transport.pool`).

Hand-written for a measured reason: every ready-made client costs more CPU per call than the
rest of the proxied path together. Side by side, one core, 64 calls in flight on loopback, this
pool costs well under half of what pyreqwest (a Rust client) costs per call, and a fraction of
aiohttp's `ClientSession`; httpx's models add more on top of any transport (docs/decisions.md,
"The gateway's own upstream connection pool"; the figures, measured once when the transport was
chosen: docs/benchmarks.md, "Figures with no script here").
A proxy to a known platform needs little of what they do: no redirects, no cookie jar (each
session's cookies travel in its own `Cookie` header; a shared jar once leaked one player's
upstream cookies into another's calls), no proxies, no decoding of answers it forwards. What it
does need is here and tested (tests/unit/gateway/upstream/test_transport.py):

- a pool per origin: idle connections reused newest first, closed after `keepalive_s` idle or
  when the platform says `connection: close`; at most `max_connections` open, callers beyond
  that wait (up to the connect timeout, then `PoolTimeout`); TLS for `https` origins;
- timeouts: `connect` (opening, or waiting for, a connection) and `read` (the longest silence
  while the answer is awaited or read, and while a streamed body cannot be written);
- failures told apart as the retry and idempotency rules need them (httpx's exception types):
  `ConnectError`/`ConnectTimeout`/`PoolTimeout` (nothing was sent), `StaleConnection` (a
  kept-alive connection the platform had dropped: the call was never read), `ReadTimeout`,
  `ReadError`/`RemoteProtocolError` (sent, then the connection failed or spoke nonsense),
  `LocalProtocolError` (a header or path that would split the request: never sent);
- answers read whole (`request`, bounded by `MAX_BODY`, gzip/deflate inflated as they arrive)
  or streamed with backpressure (`stream`, bytes passed through untouched); request bodies
  whole or streamed (uploads, chunked).
"""

from gateway.upstream.transport.answer import MAX_BODY, Answer, StaleConnection, Timeouts
from gateway.upstream.transport.pool import Pool

__all__ = ["MAX_BODY", "Answer", "Pool", "StaleConnection", "Timeouts"]

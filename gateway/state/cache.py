"""The content cache: `/capi` GETs and the sports-events feed, per skin + path + sorted query.

Fresh entries are HITs; entries past their TTL but within stale-while-revalidate are served
STALE while one background refresh runs (a lock elects it, so there is no herd); when the
upstream fails, entries within stale-if-error are served STALE instead of the error.
Only anonymous `content` routes come here: per-session answers are never cached.

The platform's `Cache-Control` is obeyed as RFC 9111 asks of a shared cache: `no-store` and
`private` answers are neither stored nor shared with concurrent requests; `Vary: *`, or a
`Vary` on a header the gateway forwards, is not cached either; `s-maxage`, `max-age` (less the
answer's `Age`) or `Expires` give the lifetime, the route's (`Route.cache`, else `ttl_s`) otherwise; `no-cache` (and a
lifetime that ran out) is revalidated with the copy's validators before it is used again;
`must-revalidate`, `proxy-revalidate`, `s-maxage` and `no-cache` forbid serving a stale copy,
except as far as an explicit `stale-while-revalidate` / `stale-if-error` (RFC 5861) allows.

A small in-process LRU sits in front of the shared store, so anonymous content is still
served from memory while Redis is down.
"""

from __future__ import annotations

import contextlib
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from email.utils import parsedate_to_datetime
from typing import Literal

import msgspec

from contracts.catalogue import Caching
from gateway.http.stored import StoredBody
from gateway.state.outcome import Outcome
from gateway.store import MAX_VALUE_BYTES, Shared, StoreUnavailable, TooLarge, keys

State = Literal["HIT", "STALE", "MISS"]
FORWARDED: frozenset[str] = frozenset()
"""Request headers of the browser's that content calls forward: none (`upstream/call.py` sends
the platform only the gateway's own), so a platform's `Vary` on one of them splits no copy: it only
ever sees the gateway's values. An answer that varies on one of them would not be cached."""


@dataclass(frozen=True)
class CacheConfig:
    ttl_s: float = 30.0
    stale_while_revalidate_s: float = 300.0
    stale_if_error_s: float = 86400.0
    max_body_bytes: int = MAX_VALUE_BYTES - 64 * 1024
    """Larger answers are served but not kept (the shared store takes nothing over its bound)."""
    local_entries: int = 4096
    shared_entries: int = 20_000
    """Per skin in the shared store: the oldest copies go first past it."""


class CacheEntry(msgspec.Struct, array_like=True, tag="c2"):
    """A copy (tagged: a copy an older gateway wrote decodes as none, and is fetched again)."""

    stored: float
    answer: Outcome
    """The platform's answer (its status is 200); its body is empty when `kept` holds it."""
    fresh_s: float = 30.0
    """How long after `stored` the copy is fresh (0: revalidated before each use)."""
    stale_s: float = 0.0
    """How long past freshness it may be served while one refresh runs."""
    error_s: float = 0.0
    """How long past freshness it may be served when the platform fails."""
    kept: StoredBody | None = None
    """The body compressed once when the copy was made (`gateway.http.stored`); None: `answer.body`."""

    def stored_body(self) -> StoredBody:
        return self.kept if self.kept is not None else StoredBody.pack(self.answer.body, "")


def directives(header: str | None) -> dict[str, str]:
    """`Cache-Control` as {directive: argument} (lower-case names, quotes dropped)."""
    found: dict[str, str] = {}
    for part in (header or "").split(","):
        name, _, value = part.strip().partition("=")
        if name:
            found.setdefault(name.strip().lower(), value.strip().strip('"'))
    return found


def shareable(headers: dict[str, str]) -> bool:
    """Whether one visitor's copy of a content answer may serve another (stored or joined)."""
    control = directives(headers.get("cache-control"))
    if "no-store" in control or "private" in control:
        return False
    varies = {name.strip().lower() for name in headers.get("vary", "").split(",") if name.strip()}
    return "*" not in varies and not varies & FORWARDED


def _seconds(value: str | None) -> float | None:
    if value is None or not value.isdigit():
        return None
    return float(value)


_encoder = msgspec.msgpack.Encoder()
_decoder = msgspec.msgpack.Decoder(CacheEntry)


class ContentCache:
    def __init__(self, shared: Shared, config: CacheConfig, clock: Callable[[], float] = time.time) -> None:
        self.shared = shared
        self.config = config
        self.clock = clock
        self._local: OrderedDict[str, CacheEntry] = OrderedDict()

    async def get(self, key: str) -> CacheEntry | None:
        entry = self._local.get(key)
        if entry is not None:
            self._local.move_to_end(key)
            return entry
        try:
            raw = await self.shared.get(key)
        except StoreUnavailable:
            return None
        if raw is None:
            return None
        try:
            entry = _decoder.decode(raw)
        except msgspec.DecodeError:  # a copy in an older format: fetched again
            return None
        self._remember(key, entry)
        return entry

    async def put(self, key: str, entry: CacheEntry) -> None:
        if len(entry.answer.body) + (entry.kept.kept_bytes if entry.kept else 0) > self.config.max_body_bytes:
            return
        self._remember(key, entry)
        keep_ms = int((self.config.stale_if_error_s + self.config.stale_while_revalidate_s) * 1000) + 60_000
        index = keys.content_index(key)
        with contextlib.suppress(StoreUnavailable, TooLarge):  # the local copy still serves this instance
            await self.shared.set_capped(key, _encoder.encode(entry), keep_ms, index, self.config.shared_entries)

    async def purge(self, prefix: str) -> int:
        doomed = [k for k in self._local if k.startswith(prefix)]
        for key in doomed:
            del self._local[key]
        return len(doomed)

    def entry(self, caching: Caching, answer: Outcome, kept: StoredBody | None = None) -> CacheEntry | None:
        """The copy to keep of an answer, its lifetimes from its own headers (else the route's,
        else the configured ones), its body compressed now (or `kept`, the copy's own when a 304
        confirmed it); None when it may not be kept."""
        headers = answer.headers
        if answer.status != 200 or not shareable(headers):
            return None
        if kept is None:
            # compressing is bounded by what the store could hold (text shrinks 5-10x, hence 16x)
            if len(answer.body) > 16 * self.config.max_body_bytes:
                return None
            kept = StoredBody.pack(answer.body, headers.get("content-type", "application/json"))
            if kept.kept_bytes > self.config.max_body_bytes:
                return None
            answer = Outcome(answer.status, answer.headers, b"")
        control = directives(headers.get("cache-control"))
        fresh = _lifetime(control, headers)
        if fresh is None:  # no lifetime given: the route's, as RFC 9111 4.2.2 allows
            fresh = _either(caching.ttl_s, self.config.ttl_s)
        if "no-cache" in control:
            fresh = 0.0
        strict = control.keys() & {"must-revalidate", "proxy-revalidate", "s-maxage", "no-cache"}
        stale = _seconds(control.get("stale-while-revalidate"))
        on_error = _seconds(control.get("stale-if-error"))
        if stale is None:
            stale = 0.0 if strict else _either(caching.stale_while_revalidate_s, self.config.stale_while_revalidate_s)
        if on_error is None:
            on_error = 0.0 if strict else _either(caching.stale_if_error_s, self.config.stale_if_error_s)
        return CacheEntry(self.clock(), answer, fresh, stale, on_error, kept)

    def state(self, entry: CacheEntry) -> State | None:
        """HIT or STALE (servable now), or None (must be fetched, or revalidated)."""
        age = self.clock() - entry.stored
        if age < entry.fresh_s:
            return "HIT"
        if age < entry.fresh_s + entry.stale_s:
            return "STALE"
        return None

    def usable_on_error(self, entry: CacheEntry) -> bool:
        return self.clock() - entry.stored < entry.fresh_s + entry.error_s

    def age(self, entry: CacheEntry) -> int:
        return max(0, int(self.clock() - entry.stored))

    def revalidated(self, entry: CacheEntry, caching: Caching, headers: dict[str, str]) -> CacheEntry:
        """The copy confirmed by a 304: fresh again, with the 304's newer headers (RFC 9111 4.3.4)."""
        answer = Outcome(entry.answer.status, {**entry.answer.headers, **headers}, entry.answer.body)
        kept = entry.stored_body()
        renewed = self.entry(caching, answer, kept)
        return renewed if renewed is not None else CacheEntry(self.clock(), answer, 0.0, kept=kept)

    async def forget(self, key: str) -> None:
        """An answer that may no longer be kept replaces the copy: the copy goes too."""
        self._local.pop(key, None)
        with contextlib.suppress(StoreUnavailable):
            await self.shared.delete(key)

    async def refresh_once(self, key: str, fetch: Callable[[], Awaitable[CacheEntry | None]]) -> bool:
        """Starts the background refresh unless another request (or instance) already did."""
        try:
            won = await self.shared.set_nx(keys.beside(key, "refreshing"), b"1", 10_000)
        except StoreUnavailable:
            won = True  # alone without the shared store: this instance refreshes its own copy
        if not won:
            return False
        entry = await fetch()
        if entry is not None:
            await self.put(key, entry)
        with contextlib.suppress(StoreUnavailable):
            await self.shared.delete(keys.beside(key, "refreshing"))
        return True

    def _remember(self, key: str, entry: CacheEntry) -> None:
        self._local[key] = entry
        self._local.move_to_end(key)
        while len(self._local) > self.config.local_entries:
            self._local.popitem(last=False)


def _either(route: float | None, configured: float) -> float:
    return configured if route is None else route


def _lifetime(control: dict[str, str], headers: dict[str, str]) -> float | None:
    """The answer's own freshness left: s-maxage, else max-age, else Expires, less its Age."""
    given = _seconds(control.get("s-maxage"))
    if given is None:
        given = _seconds(control.get("max-age"))
    if given is None:
        given = _expires_in(headers)
    if given is None:
        return None
    return max(0.0, given - (_seconds(headers.get("age")) or 0.0))


def _expires_in(headers: dict[str, str]) -> float | None:
    """`Expires` less `Date` (RFC 9111 4.2.1); an unparsable `Expires` means already expired."""
    expires = headers.get("expires")
    if expires is None:
        return None
    try:
        at = parsedate_to_datetime(expires).timestamp()
    except (TypeError, ValueError):
        return 0.0
    try:
        now = parsedate_to_datetime(headers["date"]).timestamp()
    except (KeyError, TypeError, ValueError):
        now = time.time()
    return max(0.0, at - now)


def validators(entry: CacheEntry) -> dict[str, str]:
    """The conditional headers that ask the platform whether `entry` is still current."""
    found = {}
    if etag := entry.answer.headers.get("etag"):
        found["if-none-match"] = etag
    if modified := entry.answer.headers.get("last-modified"):
        found["if-modified-since"] = modified
    return found

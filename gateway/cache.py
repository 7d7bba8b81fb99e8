"""The content cache: `/capi` GETs and the sports-events feed, per skin + path + sorted query.

Fresh entries are HITs; entries past their TTL but within stale-while-revalidate are served
STALE while one background refresh runs (a lock elects it, so there is no herd); when the
upstream fails, entries within stale-if-error are served STALE instead of the error.
Only anonymous `content` routes come here: per-session answers are never cached.

A small in-process LRU sits in front of the shared store, so anonymous content is still
served from memory while Redis is down.
"""

from __future__ import annotations

import contextlib
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Literal

import msgspec

from gateway.shared import Shared, StoreUnavailable

State = Literal["HIT", "STALE", "MISS"]


@dataclass(frozen=True)
class CacheConfig:
    ttl_s: float = 30.0
    stale_while_revalidate_s: float = 300.0
    stale_if_error_s: float = 86400.0
    max_body_bytes: int = 2 * 1024 * 1024
    local_entries: int = 4096
    shared_entries: int = 20_000
    """Per skin in the shared store: the oldest copies go first past it."""
    ttl_by_route: dict[str, float] = field(default_factory=lambda: {"media": 3600.0, "sportsEvents": 60.0})

    def ttl(self, route: str) -> float:
        return self.ttl_by_route.get(route, self.ttl_s)


class Entry(msgspec.Struct, array_like=True):
    stored: float
    status: int
    headers: dict[str, str]
    body: bytes


_encoder = msgspec.msgpack.Encoder()
_decoder = msgspec.msgpack.Decoder(Entry)


class ContentCache:
    def __init__(self, shared: Shared, config: CacheConfig, clock: Callable[[], float] = time.time) -> None:
        self.shared = shared
        self.config = config
        self.clock = clock
        self._local: OrderedDict[str, Entry] = OrderedDict()

    async def get(self, key: str) -> Entry | None:
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
        entry = _decoder.decode(raw)
        self._remember(key, entry)
        return entry

    async def put(self, key: str, entry: Entry) -> None:
        if len(entry.body) > self.config.max_body_bytes:
            return
        self._remember(key, entry)
        keep_ms = int((self.config.stale_if_error_s + self.config.stale_while_revalidate_s) * 1000) + 60_000
        index = key.split(":cache:", 1)[0] + ":cache:~index"
        with contextlib.suppress(StoreUnavailable):  # the local copy still serves this instance
            await self.shared.set_capped(key, _encoder.encode(entry), keep_ms, index, self.config.shared_entries)

    async def purge(self, prefix: str) -> int:
        doomed = [k for k in self._local if k.startswith(prefix)]
        for key in doomed:
            del self._local[key]
        return len(doomed)

    def state(self, entry: Entry, route: str) -> State | None:
        """HIT or STALE (servable now), or None (must be fetched)."""
        age = self.clock() - entry.stored
        ttl = self.config.ttl(route)
        if age < ttl:
            return "HIT"
        if age < ttl + self.config.stale_while_revalidate_s:
            return "STALE"
        return None

    def usable_on_error(self, entry: Entry, route: str) -> bool:
        return self.clock() - entry.stored < self.config.ttl(route) + self.config.stale_if_error_s

    async def refresh_once(self, key: str, fetch: Callable[[], Awaitable[Entry | None]]) -> bool:
        """Starts the background refresh unless another request (or instance) already did."""
        try:
            won = await self.shared.set_nx(f"{key}:refreshing", b"1", 10_000)
        except StoreUnavailable:
            won = True  # alone without the shared store: this instance refreshes its own copy
        if not won:
            return False
        entry = await fetch()
        if entry is not None:
            await self.put(key, entry)
        with contextlib.suppress(StoreUnavailable):
            await self.shared.delete(f"{key}:refreshing")
        return True

    def _remember(self, key: str, entry: Entry) -> None:
        self._local[key] = entry
        self._local.move_to_end(key)
        while len(self._local) > self.config.local_entries:
            self._local.popitem(last=False)

"""Sessions in Redis, with a replica of each found session kept in this instance.

A logged-in player's read needs its session; fetched from Redis every time, that is one round
trip per read. Here a session once found is kept locally for at most `MAX_AGE_S` and never past
its key's own PTTL (read with the value, one script, one round trip), at most `MAX_REPLICAS` of
them. Every write and delete runs as a script that also PUBLISHes `<instance>|<key>` on
`keys.SESSION_CHANGES` in the same round trip; every instance listens on that channel through
its presence connection (`gateway.state.presence`) and drops its replica of a changed key. A miss is
never kept (a session made on another instance is seen at once). While that subscription is not
confirmed (at start, after Redis went away, after redis-py reconnected it silently) this
instance is deaf and serves no replica: reads go to Redis, and fail fast when it is down.

Why pub/sub and not Redis 6's client-side caching (RESP3 `CLIENT TRACKING`): the installed
redis-py (8.1) offers client-side caching only in its synchronous client (`cache_config`); its
asyncio `Redis` has no cache and no tracking. Doing tracking by hand would mean `CLIENT TRACKING
ON REDIRECT <id>` on every pooled connection, re-issued whenever the pool or the redirect
connection reconnects (the id changes), with the same deafness rules; our own writes already go
through scripts, so publishing from them costs no extra round trip and needs no server state.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import timedelta

from litestar.stores.base import Store
from redis.asyncio import Redis

from gateway.state.dedup import Dedup
from gateway.store import keys
from gateway.store.redis import FailFast

MAX_REPLICAS = 100_000
MAX_AGE_S = 60.0
EVERYTHING = "*"
"""The key a `delete_all` announces: every replica goes."""

# The value and its PTTL in one round trip (nil when absent); renews the expiry when ARGV[1] > 0.
READ = (
    "local v = redis.call('get', KEYS[1]) if not v then return false end "
    "local left = redis.call('pttl', KEYS[1]) "
    "if tonumber(ARGV[1]) > 0 and left > 0 then redis.call('pexpire', KEYS[1], ARGV[1]) left = tonumber(ARGV[1]) end "
    "return {v, left}"
)
# Writes (ARGV[2] ms of life, '0': none) and announces the change. ARGV: value, ttl ms, message.
WRITE = (
    "if ARGV[2] == '0' then redis.call('set', KEYS[1], ARGV[1]) "
    "else redis.call('set', KEYS[1], ARGV[1], 'PX', ARGV[2]) end "
    f"redis.call('publish', '{keys.SESSION_CHANGES}', ARGV[3]) return 1"
)
# Deletes and announces (only what existed can have replicas). ARGV: message.
DELETE = (
    f"if redis.call('del', KEYS[1]) == 1 then redis.call('publish', '{keys.SESSION_CHANGES}', ARGV[1]) end return 1"
)


@dataclass
class _Read:
    """A read of Redis in flight: spoiled when its key changed (or we went deaf) meanwhile."""

    spoiled: bool = False


class SessionReplicas(Store):
    """The sessions' Litestar store over Redis, with this instance's replicas (see the module)."""

    def __init__(
        self,
        redis: Redis,
        guard: FailFast,
        instance: str,
        namespace: str = keys.SESSIONS,
        clock: Callable[[], float] = time.monotonic,
        max_replicas: int = MAX_REPLICAS,
    ) -> None:
        self.redis = redis
        self.guard = guard
        self.instance = instance
        self.namespace = namespace
        self.clock = clock
        self.max_replicas = max_replicas
        self.listening = False
        """The changes channel's subscription is confirmed: replicas may be served."""
        self._replicas: dict[str, tuple[bytes, float]] = {}
        self._reads: dict[str, list[_Read]] = {}
        self._loads: Dedup[bytes | None] = Dedup()
        """Reads of Redis in flight, joined (a burst of one player's calls: one read)."""
        self._read, self._write, self._delete = (
            redis.register_script(READ),
            redis.register_script(WRITE),
            redis.register_script(DELETE),
        )

    def full_key(self, key: str) -> str:
        return f"{self.namespace}:{key}"

    # --- what the presence connection tells (gateway.presence.Listener) -------------------

    def heard(self, key: str) -> None:
        """Another instance changed `key`: our replica (and any read of it in flight) is stale."""
        if key == EVERYTHING:
            self._forget_all()
            return
        self._replicas.pop(key, None)
        self._loads.forget(key)  # a later load must not join a read made before the change
        for read in self._reads.get(key, ()):
            read.spoiled = True

    def deaf(self) -> None:
        """Changes may be missed from now on: no replica is trusted until `hearing`."""
        self.listening = False
        self._forget_all()

    def hearing(self) -> None:
        self.listening = True

    def _forget_all(self) -> None:
        self._replicas.clear()
        self._loads.forget_all()
        for reads in self._reads.values():
            for read in reads:
                read.spoiled = True

    # --- the Store ----------------------------------------------------------------------------

    async def get(self, key: str, renew_for: int | timedelta | None = None) -> bytes | None:
        full = self.full_key(key)
        renew_ms = _ms(renew_for)
        if renew_ms == 0 and self.listening:
            replica = self._replicas.get(full)
            if replica is not None:
                if replica[1] > self.clock():
                    return replica[0]
                del self._replicas[full]
        if renew_ms:
            return await self._fetch(full, renew_ms)
        value, _ = await self._loads.join(full, lambda: self._fetch(full, 0))
        return value

    async def _fetch(self, full: str, renew_ms: int) -> bytes | None:
        started = self.clock()
        read = _Read(spoiled=not self.listening)
        reads = self._reads.setdefault(full, [])
        reads.append(read)
        try:
            found = await self.guard(lambda: self._read([full], [renew_ms]))
        finally:
            reads.remove(read)
            if not reads:
                self._reads.pop(full, None)
        if not found:
            return None  # a miss is never kept
        value, left_ms = bytes(found[0]), int(found[1])
        if not read.spoiled and self.listening:
            self._keep(full, value, started + (MAX_AGE_S if left_ms < 0 else min(MAX_AGE_S, left_ms / 1000)))
        return value

    def _keep(self, full: str, value: bytes, until: float) -> None:
        self._replicas.pop(full, None)
        self._replicas[full] = (value, until)
        while len(self._replicas) > self.max_replicas:
            del self._replicas[next(iter(self._replicas))]  # the oldest replica goes first

    async def set(self, key: str, value: str | bytes, expires_in: int | timedelta | None = None) -> None:
        full = self.full_key(key)
        data = value.encode() if isinstance(value, str) else value
        await self._changing(full, lambda: self._write([full], [data, _ms(expires_in), self._message(full)]))

    async def delete(self, key: str) -> None:
        full = self.full_key(key)
        await self._changing(full, lambda: self._delete([full], [self._message(full)]))

    async def announce(self, full_key: str) -> None:
        """Announces a session key written without this store (its full key, `keys.stored_session`)."""
        await self._changing(full_key, lambda: self.redis.publish(keys.SESSION_CHANGES, self._message(full_key)))

    async def _changing(self, full: str, change: Callable[[], Awaitable[object]]) -> None:
        """Our own change: our replica and reads in flight are dropped before and after it (the
        other instances hear of it; this one skips its own messages)."""
        self.heard(full)
        try:
            await self.guard(change)
        finally:
            self.heard(full)

    def _message(self, full: str) -> bytes:
        return f"{self.instance}|{full}".encode()

    async def delete_all(self) -> None:
        async def unlink_all() -> None:
            batch: list[bytes] = []
            async for found in self.redis.scan_iter(match=f"{self.namespace}:*", count=500):
                batch.append(found)
                if len(batch) >= 500:
                    await self.redis.unlink(*batch)
                    batch.clear()
            if batch:
                await self.redis.unlink(*batch)
            await self.redis.publish(keys.SESSION_CHANGES, self._message(EVERYTHING))

        self._forget_all()
        await self.guard(unlink_all)

    async def exists(self, key: str) -> bool:
        found = await self.guard(lambda: self.redis.exists(self.full_key(key)))
        return bool(found)

    async def expires_in(self, key: str) -> int | None:
        left = await self.guard(lambda: self.redis.ttl(self.full_key(key)))
        return int(left) if int(left) >= 0 else None

    def replicas(self) -> int:
        return len(self._replicas)


def _ms(expires: int | timedelta | None) -> int:
    if expires is None:
        return 0
    seconds = expires.total_seconds() if isinstance(expires, timedelta) else expires
    return max(int(seconds * 1000), 0)

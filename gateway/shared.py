"""State the gateway instances share: Redis when `REDIS_URL` is set, process memory otherwise.

Redis trouble must cost milliseconds, not hang players: calls have short socket timeouts,
and after a failure the backend answers `StoreUnavailable` at once for a second before it
tries Redis again (so service resumes by itself when Redis returns).
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from datetime import timedelta
from typing import Any, Protocol, TypeVar

from litestar.stores.base import Store
from redis.asyncio import BlockingConnectionPool, Redis
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import RedisError

T = TypeVar("T")
RETRY_AFTER_S = 1.0

# Deletes a key only while it still holds our token (a lease we own).
_RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end"
# Stores a result and gives up the lease that guarded its making (if still ours): one round trip.
_SET_AND_RELEASE = (
    "redis.call('set', KEYS[1], ARGV[1], 'PX', ARGV[2]) "
    "if redis.call('get', KEYS[2]) == ARGV[3] then redis.call('del', KEYS[2]) end return 1"
)
# Extends a key's expiry only while it still holds our token.
_EXTEND = (
    "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) else return 0 end"
)
# A fixed-window counter: INCR, and start the window's expiry on the first hit.
_HIT = (
    "local n = redis.call('incr', KEYS[1]) if n == 1 then redis.call('pexpire', KEYS[1], ARGV[1]) end "
    "return {n, redis.call('pttl', KEYS[1])}"
)


class StoreUnavailable(Exception):
    """The shared store cannot be reached right now."""


class Shared(Protocol):
    distributed: bool

    async def get(self, key: str) -> bytes | None: ...
    async def get_many(self, *keys: str) -> list[bytes | None]: ...
    async def set(self, key: str, value: bytes, ttl_ms: int) -> None: ...
    async def set_capped(self, key: str, value: bytes, ttl_ms: int, index: str, limit: int) -> None:
        """`set`, and `key` joins `index`; past `limit` members the oldest are deleted."""
        ...

    async def set_nx(self, key: str, value: bytes, ttl_ms: int) -> bool: ...
    async def delete(self, key: str) -> None: ...
    async def release(self, key: str, token: bytes) -> None: ...
    async def set_and_release(self, key: str, value: bytes, ttl_ms: int, lease: str, token: bytes) -> None:
        """`set(key, value, ttl_ms)`, then `release(lease, token)`, in one round trip."""
        ...

    async def extend(self, key: str, token: bytes, ttl_ms: int) -> bool: ...
    async def hit(self, key: str, window_ms: int) -> tuple[int, int]: ...
    async def ping(self) -> None: ...
    async def delete_prefix(self, prefix: str) -> int: ...


CONTENT_KEY = ":cache:"  # gateway/cache.py's keys: bff:{skin}:cache:{path}?{query}


class MemoryShared:
    """One process: the same operations over a dict with expiry times."""

    distributed = False

    def __init__(self, clock: Callable[[], float] = time.monotonic, max_entries: int = 200_000) -> None:
        self._data: dict[str, tuple[bytes, float]] = {}
        self._clock = clock
        self._max_entries = max_entries

    def _put(self, key: str, value: bytes, expires: float) -> None:
        self._data[key] = (value, expires)
        if len(self._data) > self._max_entries:
            self._make_room()

    def _live(self, key: str) -> bytes | None:
        entry = self._data.get(key)
        if entry is None:
            return None
        if entry[1] <= self._clock():
            del self._data[key]
            return None
        return entry[0]

    async def get(self, key: str) -> bytes | None:
        return self._live(key)

    async def get_many(self, *keys: str) -> list[bytes | None]:
        return [self._live(k) for k in keys]

    async def set(self, key: str, value: bytes, ttl_ms: int) -> None:
        self._put(key, value, self._clock() + ttl_ms / 1000)

    async def set_capped(self, key: str, value: bytes, ttl_ms: int, index: str, limit: int) -> None:
        await self.set(key, value, ttl_ms)  # the whole store is bounded (_make_room)

    async def set_nx(self, key: str, value: bytes, ttl_ms: int) -> bool:
        if self._live(key) is not None:
            return False
        await self.set(key, value, ttl_ms)
        return True

    async def delete(self, key: str) -> None:
        self._data.pop(key, None)

    async def release(self, key: str, token: bytes) -> None:
        if self._live(key) == token:
            del self._data[key]

    async def set_and_release(self, key: str, value: bytes, ttl_ms: int, lease: str, token: bytes) -> None:
        await self.set(key, value, ttl_ms)
        await self.release(lease, token)

    async def extend(self, key: str, token: bytes, ttl_ms: int) -> bool:
        if self._live(key) != token:
            return False
        self._put(key, token, self._clock() + ttl_ms / 1000)
        return True

    async def hit(self, key: str, window_ms: int) -> tuple[int, int]:
        now = self._clock()
        entry = self._data.get(key)
        if entry is None or entry[1] <= now:
            count, expires = 1, now + window_ms / 1000
        else:
            count, expires = int(entry[0]) + 1, entry[1]
        self._put(key, str(count).encode(), expires)
        return count, int((expires - now) * 1000)

    async def ping(self) -> None:
        return None

    async def delete_prefix(self, prefix: str) -> int:
        doomed = [k for k in self._data if k.startswith(prefix)]
        for key in doomed:
            del self._data[key]
        return len(doomed)

    def expires_in_ms(self, key: str) -> int | None:
        entry = self._data.get(key)
        if entry is None or entry[1] <= self._clock():
            return None
        return int((entry[1] - self._clock()) * 1000)

    def _make_room(self) -> None:
        """Down to 90% of the bound, so the scan is paid once per tenth of it: the expired
        first, then the oldest content copies (a flood of distinct content URLs must not push
        out leases, idempotency records or rate-limit counters), then the oldest of anything."""
        now = self._clock()
        for key in [k for k, (_, expires) in self._data.items() if expires <= now]:
            del self._data[key]
        excess = len(self._data) - int(self._max_entries * 0.9)
        for content_only in (True, False):
            if excess <= 0:
                return
            doomed: list[str] = []
            for key in self._data:
                if len(doomed) >= excess:
                    break
                if not content_only or CONTENT_KEY in key:
                    doomed.append(key)
            for key in doomed:
                del self._data[key]
            excess -= len(doomed)


class FailFast:
    """After a Redis failure, refuse at once for `RETRY_AFTER_S`, then try again."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._down_until = 0.0
        self._clock = clock

    @property
    def up(self) -> bool:
        return self._clock() >= self._down_until

    async def __call__(self, operation: Callable[[], Awaitable[T]]) -> T:
        if not self.up:
            raise StoreUnavailable("redis is down")
        try:
            return await operation()
        except (RedisError, OSError, TimeoutError) as exc:
            self._down_until = self._clock() + RETRY_AFTER_S
            raise StoreUnavailable(type(exc).__name__) from exc


class RedisShared:
    """Many instances: one Redis connection pool per process, namespaced keys."""

    distributed = True

    def __init__(self, redis: Redis, guard: FailFast) -> None:
        self.redis = redis
        self.guard = guard

    async def get(self, key: str) -> bytes | None:
        value = await self.guard(lambda: self.redis.get(key))
        return value if isinstance(value, bytes) else None

    async def get_many(self, *keys: str) -> list[bytes | None]:
        values = await self.guard(lambda: self.redis.mget(keys))
        return [v if isinstance(v, bytes) else None for v in values]

    async def set(self, key: str, value: bytes, ttl_ms: int) -> None:
        await self.guard(lambda: self.redis.set(key, value, px=ttl_ms))

    async def set_capped(self, key: str, value: bytes, ttl_ms: int, index: str, limit: int) -> None:
        """One round trip (a second only past the limit): distinct content URLs are the
        client's to choose, so without a cap a flood of them would fill Redis for a day."""

        async def store() -> None:
            async with self.redis.pipeline(transaction=False) as pipe:
                pipe.set(key, value, px=ttl_ms)
                pipe.zadd(index, {key: time.time()})
                pipe.pexpire(index, ttl_ms)
                pipe.zcard(index)
                *_, members = await pipe.execute()
            excess = int(members) - limit
            if excess > 0:
                oldest: list[Any] = await self.redis.zpopmin(index, excess)
                if oldest:
                    await self.redis.unlink(*[pair[0] for pair in oldest])

        await self.guard(store)

    async def set_nx(self, key: str, value: bytes, ttl_ms: int) -> bool:
        done = await self.guard(lambda: self.redis.set(key, value, px=ttl_ms, nx=True))
        return bool(done)

    async def delete(self, key: str) -> None:
        await self.guard(lambda: self.redis.delete(key))

    async def release(self, key: str, token: bytes) -> None:
        await self.guard(lambda: self.redis.eval(_RELEASE, 1, key, token))

    async def set_and_release(self, key: str, value: bytes, ttl_ms: int, lease: str, token: bytes) -> None:
        await self.guard(lambda: self.redis.eval(_SET_AND_RELEASE, 2, key, lease, value, ttl_ms, token))

    async def extend(self, key: str, token: bytes, ttl_ms: int) -> bool:
        done = await self.guard(lambda: self.redis.eval(_EXTEND, 1, key, token, ttl_ms))
        return bool(done)

    async def hit(self, key: str, window_ms: int) -> tuple[int, int]:
        count, ttl = await self.guard(lambda: self.redis.eval(_HIT, 1, key, window_ms))
        return int(count), max(int(ttl), 0)

    async def ping(self) -> None:
        await self.guard(lambda: self.redis.ping())

    async def delete_prefix(self, prefix: str) -> int:
        """SCAN (never KEYS, which blocks Redis) and UNLINK in batches; `prefix` holds no glob characters."""

        async def scan_and_unlink() -> int:
            deleted = 0
            batch: list[bytes] = []
            async for key in self.redis.scan_iter(match=f"{prefix}*", count=500):
                batch.append(key)
                if len(batch) >= 500:
                    deleted += await self.redis.unlink(*batch)
                    batch.clear()
            if batch:
                deleted += await self.redis.unlink(*batch)
            return deleted

        return await self.guard(scan_and_unlink)


def connect(url: str) -> Redis:
    """One pool per process; short timeouts so a dead Redis is noticed in well under a second.

    The pool blocks (briefly) when all its connections are busy: redis-py's default pool
    raises instead, and under a burst that would read as "Redis is down".
    """
    pool = BlockingConnectionPool.from_url(
        url,
        max_connections=128,
        timeout=0.5,
        socket_timeout=0.3,
        socket_connect_timeout=0.3,
        retry_on_timeout=False,
        # One immediate retry on a new connection: after Redis restarts, pooled sockets are stale.
        retry=Retry(NoBackoff(), 1),
        retry_on_error=[RedisConnectionError],
        health_check_interval=5,
    )
    return Redis(connection_pool=pool, decode_responses=False)


class FailFastStore(Store):
    """A Litestar store (the sessions') behind the same fail-fast guard."""

    def __init__(self, store: Store, guard: FailFast) -> None:
        self._store = store
        self._guard = guard

    async def set(self, key: str, value: str | bytes, expires_in: int | Any = None) -> None:
        await self._guard(lambda: self._store.set(key, value, expires_in=expires_in))

    async def get(self, key: str, renew_for: int | Any = None) -> bytes | None:
        value: bytes | None = await self._guard(lambda: self._store.get(key, renew_for=renew_for))
        return value

    async def delete(self, key: str) -> None:
        await self._guard(lambda: self._store.delete(key))

    async def delete_all(self) -> None:
        await self._guard(self._store.delete_all)

    async def exists(self, key: str) -> bool:
        found: bool = await self._guard(lambda: self._store.exists(key))
        return found

    async def expires_in(self, key: str) -> int | None:
        left: int | None = await self._guard(lambda: self._store.expires_in(key))
        return left


class ProcessStore(Store):
    """A Litestar store (the sessions') in the one-process `MemoryShared`, under `namespace`.

    Litestar's `MemoryStore` takes an anyio lock on every read (a trip through the event loop,
    a tenth of a proxied call's CPU) and never drops what nobody reads again; here sessions
    share the bounded store with everything else (expired entries go first when it is full).
    """

    def __init__(self, shared: MemoryShared, namespace: str = "bff:sessions:") -> None:
        self._shared = shared
        self._namespace = namespace

    async def set(self, key: str, value: str | bytes, expires_in: int | timedelta | None = None) -> None:
        seconds = expires_in.total_seconds() if isinstance(expires_in, timedelta) else expires_in
        ttl_ms = int(seconds * 1000) if seconds else FOREVER_MS
        await self._shared.set(self._namespace + key, value.encode() if isinstance(value, str) else value, ttl_ms)

    async def get(self, key: str, renew_for: int | timedelta | None = None) -> bytes | None:
        return await self._shared.get(self._namespace + key)

    async def delete(self, key: str) -> None:
        await self._shared.delete(self._namespace + key)

    async def delete_all(self) -> None:
        await self._shared.delete_prefix(self._namespace)

    async def exists(self, key: str) -> bool:
        return await self._shared.get(self._namespace + key) is not None

    async def expires_in(self, key: str) -> int | None:
        left = self._shared.expires_in_ms(self._namespace + key)
        return None if left is None else left // 1000


FOREVER_MS = 10 * 365 * 24 * 3600 * 1000

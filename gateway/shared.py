"""State the gateway instances share: Redis when `REDIS_URL` is set, process memory otherwise.

Redis trouble must cost milliseconds, not hang players: calls have short socket timeouts,
and after a failure the backend answers `StoreUnavailable` at once for a second before it
tries Redis again (so service resumes by itself when Redis returns).

Nothing larger than `MAX_VALUE_BYTES` is ever written (`TooLarge` instead): one oversized
write would hold Redis past every instance's socket timeout and read as an outage to all.

Leases name their holder (`<instance>:<random>`). Each instance stays subscribed to its own
presence channel (`gateway.presence`); Redis drops the subscription the moment the process
dies, so `PUBSUB NUMSUB` tells a live holder from a dead one inside the scripts below, with no
per-flight renewal and no periodic traffic.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from datetime import timedelta
from typing import Any, Literal, Protocol, TypeVar

import structlog
from litestar.stores.base import Store
from redis.asyncio import BlockingConnectionPool, Redis
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import RedisError

T = TypeVar("T")
RETRY_AFTER_S = 1.0
MAX_VALUE_BYTES = 1024 * 1024
"""The largest value written to the shared store (a flight's result, a cached copy, a record)."""
PRESENCE_CHANNEL = "bff:instance:"
"""+ instance id: the channel an instance listens on while it lives."""

log = structlog.get_logger("gateway.store")

# Stores a result and gives up the lease that guarded its making (if still ours): one round trip.
_SET_AND_RELEASE = (
    "redis.call('set', KEYS[1], ARGV[1], 'PX', ARGV[2]) "
    "if redis.call('get', KEYS[2]) == ARGV[3] then redis.call('del', KEYS[2]) end return 1"
)
# Whether the instance named by a holder token (`<instance>:<random>`) is alive.
_ALIVE = (
    "local function alive(token) local id = string.match(token, '^([^:|]+):') if not id then return false end "
    f"return redis.call('pubsub', 'numsub', '{PRESENCE_CHANNEL}' .. id)[2] > 0 end "
)
# Leads a flight (lease, and the exclusive slot when there is one) or says whom to follow.
# KEYS: lease[, slot]; ARGV: token, ttl ms, flight key, takeover ('1': a dead holder's lease is taken).
_LEAD = _ALIVE + (
    "if KEYS[2] then local held = redis.call('get', KEYS[2]) if held then "
    "local sep = string.find(held, '|', 1, true) "
    "if sep and string.sub(held, sep + 1) ~= ARGV[3] and alive(string.sub(held, 1, sep - 1)) then "
    "return {'conflict'} end end end "
    "local holder = redis.call('get', KEYS[1]) "
    "if holder == ARGV[1] then return {'lead'} end "  # our own lease: this script ran once already (a client retry)
    "if holder then if alive(holder) then return {'follow', holder} end "
    "if ARGV[4] ~= '1' then return {'lost', holder} end end "
    "redis.call('set', KEYS[1], ARGV[1], 'PX', ARGV[2]) "
    "if KEYS[2] then redis.call('set', KEYS[2], ARGV[1] .. '|' .. ARGV[3], 'PX', ARGV[2]) end "
    "return {'lead'}"
)
# A follower's look at a flight: its result, 0 (still in flight), or 1 (gone without one).
# KEYS: result, lease; ARGV: the holder's token.
_POLL = _ALIVE + (
    "local r = redis.call('get', KEYS[1]) if r then return r end "
    "if redis.call('get', KEYS[2]) == ARGV[1] and alive(ARGV[1]) then return 0 end return 1"
)
# A leader lands: its result (unless '' : not shared), its lease and slot given up.
# KEYS: result, lease[, slot]; ARGV: value, ttl ms, token, flight key.
_LAND = (
    "if ARGV[1] ~= '' then redis.call('set', KEYS[1], ARGV[1], 'PX', ARGV[2]) end "
    "if redis.call('get', KEYS[2]) == ARGV[3] then redis.call('del', KEYS[2]) end "
    "if KEYS[3] and redis.call('get', KEYS[3]) == ARGV[3] .. '|' .. ARGV[4] then redis.call('del', KEYS[3]) end "
    "return 1"
)
# Claims a record for a new call (the record, and its holder's lease), or reads the existing
# one with whether its holder still lives. KEYS: record, lease; ARGV: record, record ttl, token, lease ttl.
_CLAIM = _ALIVE + (
    "if redis.call('set', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then "
    "redis.call('set', KEYS[2], ARGV[3], 'PX', ARGV[4]) return {1} end "
    "local holder = redis.call('get', KEYS[2]) "
    "if holder == ARGV[3] then return {1} end "  # our own claim: this script ran once already (a client retry)
    "return {0, redis.call('get', KEYS[1]) or '', (holder and alive(holder)) and 1 or 0}"
)
# Replaces a value only while it is still the one we read.
_SWAP = (
    "if redis.call('get', KEYS[1]) == ARGV[1] then redis.call('set', KEYS[1], ARGV[2], 'PX', ARGV[3]) return 1 end "
    "return 0"
)
# Takes one of `limit` places in a window, or says how long until one frees.
_RESERVE = (
    "local n = tonumber(redis.call('get', KEYS[1]) or '0') "
    "if n >= tonumber(ARGV[1]) then return {0, redis.call('pttl', KEYS[1])} end "
    "n = redis.call('incr', KEYS[1]) if n == 1 then redis.call('pexpire', KEYS[1], ARGV[2]) end "
    "return {1, redis.call('pttl', KEYS[1])}"
)
# Gives a place back (never below zero; the window's expiry stays).
_GIVE_BACK = "if tonumber(redis.call('get', KEYS[1]) or '0') > 0 then redis.call('decr', KEYS[1]) end return 1"
# A fixed-window counter: INCR, and start the window's expiry on the first hit.
_HIT = (
    "local n = redis.call('incr', KEYS[1]) if n == 1 then redis.call('pexpire', KEYS[1], ARGV[1]) end "
    "return {n, redis.call('pttl', KEYS[1])}"
)


class StoreUnavailable(Exception):
    """The shared store cannot be reached right now."""


class TooLarge(ValueError):
    """A value over `MAX_VALUE_BYTES`: it is not written."""


def checked(value: bytes) -> bytes:
    if len(value) > MAX_VALUE_BYTES:
        raise TooLarge(f"{len(value)} bytes is over the store's {MAX_VALUE_BYTES}")
    return value


Lead = Literal["lead", "follow", "lost", "conflict"]
"""`lead`: the flight is ours; `follow`: a live holder has it; `lost`: its holder died and the
flight may not be taken over; `conflict`: another request holds the exclusive slot."""


class Shared(Protocol):
    distributed: bool

    async def get(self, key: str) -> bytes | None: ...
    async def set(self, key: str, value: bytes, ttl_ms: int) -> None: ...
    async def set_capped(self, key: str, value: bytes, ttl_ms: int, index: str, limit: int) -> None:
        """`set`, and `key` joins `index`; past `limit` members the oldest are deleted."""
        ...

    async def set_nx(self, key: str, value: bytes, ttl_ms: int) -> bool: ...
    async def delete(self, *keys: str) -> None: ...
    async def set_and_release(self, key: str, value: bytes, ttl_ms: int, lease: str, token: bytes) -> None:
        """`set(key, value, ttl_ms)`, and the lease deleted while it still holds `token`, in one round trip."""
        ...

    async def swap(self, key: str, expected: bytes, value: bytes, ttl_ms: int) -> bool:
        """Replaces `key`'s value only while it is still `expected`."""
        ...

    async def lead(
        self, lease: str, token: bytes, ttl_ms: int, slot: str | None, flight: str, takeover: bool
    ) -> tuple[Lead, bytes | None]:
        """Takes a flight's lease (and its exclusive slot), or names the live holder to follow."""
        ...

    async def poll(self, result: str, lease: str, holder: bytes) -> tuple[bytes | None, bool]:
        """(the flight's result, whether it is still in flight under `holder`)."""
        ...

    async def land(
        self, result: str, value: bytes | None, ttl_ms: int, lease: str, token: bytes, slot: str | None, flight: str
    ) -> None:
        """Stores a leader's result (None: not shared) and gives up its lease and slot."""
        ...

    async def claim(
        self, record: str, value: bytes, ttl_ms: int, lease: str, token: bytes, lease_ms: int
    ) -> tuple[bool, bytes | None, bool]:
        """(claimed, the existing record, whether its holder lives): a record for a new call
        with its holder's lease, or the one already there."""
        ...

    async def hit(self, key: str, window_ms: int) -> tuple[int, int]: ...
    async def reserve(self, key: str, limit: int, window_ms: int) -> tuple[bool, int]:
        """Takes one of `limit` places in the window: (taken, ms until the window ends)."""
        ...

    async def give_back(self, key: str) -> None: ...
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

    async def set(self, key: str, value: bytes, ttl_ms: int) -> None:
        self._put(key, checked(value), self._clock() + ttl_ms / 1000)

    async def set_capped(self, key: str, value: bytes, ttl_ms: int, index: str, limit: int) -> None:
        await self.set(key, value, ttl_ms)  # the whole store is bounded (_make_room)

    async def set_nx(self, key: str, value: bytes, ttl_ms: int) -> bool:
        if self._live(key) is not None:
            return False
        await self.set(key, value, ttl_ms)
        return True

    async def delete(self, *keys: str) -> None:
        for key in keys:
            self._data.pop(key, None)

    def _release(self, key: str, token: bytes) -> None:
        if self._live(key) == token:
            del self._data[key]

    async def set_and_release(self, key: str, value: bytes, ttl_ms: int, lease: str, token: bytes) -> None:
        await self.set(key, value, ttl_ms)
        self._release(lease, token)

    async def swap(self, key: str, expected: bytes, value: bytes, ttl_ms: int) -> bool:
        if self._live(key) != expected:
            return False
        await self.set(key, value, ttl_ms)
        return True

    # One process: every holder is this process, alive while its lease lasts.
    async def lead(
        self, lease: str, token: bytes, ttl_ms: int, slot: str | None, flight: str, takeover: bool
    ) -> tuple[Lead, bytes | None]:
        if slot is not None:
            held = self._live(slot)
            if held is not None and held.partition(b"|")[2] != flight.encode():
                return "conflict", None
        holder = self._live(lease)
        if holder is not None and holder != token:
            return "follow", holder
        await self.set(lease, token, ttl_ms)
        if slot is not None:
            await self.set(slot, token + b"|" + flight.encode(), ttl_ms)
        return "lead", None

    async def poll(self, result: str, lease: str, holder: bytes) -> tuple[bytes | None, bool]:
        found = self._live(result)
        return found, found is None and self._live(lease) == holder

    async def land(
        self, result: str, value: bytes | None, ttl_ms: int, lease: str, token: bytes, slot: str | None, flight: str
    ) -> None:
        if value is not None:
            await self.set(result, value, ttl_ms)
        self._release(lease, token)
        if slot is not None:
            self._release(slot, token + b"|" + flight.encode())

    async def claim(
        self, record: str, value: bytes, ttl_ms: int, lease: str, token: bytes, lease_ms: int
    ) -> tuple[bool, bytes | None, bool]:
        if await self.set_nx(record, value, ttl_ms):
            await self.set(lease, token, lease_ms)
            return True, None, True
        return False, self._live(record), self._live(lease) is not None

    async def hit(self, key: str, window_ms: int) -> tuple[int, int]:
        now = self._clock()
        entry = self._data.get(key)
        if entry is None or entry[1] <= now:
            count, expires = 1, now + window_ms / 1000
        else:
            count, expires = int(entry[0]) + 1, entry[1]
        self._put(key, str(count).encode(), expires)
        return count, int((expires - now) * 1000)

    async def reserve(self, key: str, limit: int, window_ms: int) -> tuple[bool, int]:
        now = self._clock()
        entry = self._data.get(key)
        live = entry is not None and entry[1] > now
        if live and entry is not None and int(entry[0]) >= limit:
            return False, int((entry[1] - now) * 1000)
        _, left_ms = await self.hit(key, window_ms)
        return True, left_ms

    async def give_back(self, key: str) -> None:
        entry = self._data.get(key)
        if entry is not None and entry[1] > self._clock() and int(entry[0]) > 0:
            self._data[key] = (str(int(entry[0]) - 1).encode(), entry[1])

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
            result = await operation()
        except (RedisError, OSError, TimeoutError) as exc:
            self._down_until = self._clock() + RETRY_AFTER_S
            raise StoreUnavailable(type(exc).__name__) from exc
        except Exception as exc:  # redis-py leaks the event loop's own errors ("handler is closed") when Redis dies
            self._down_until = self._clock() + RETRY_AFTER_S
            log.warning("store.unexpected_error", error=type(exc).__name__, detail=str(exc)[:200])
            raise StoreUnavailable(type(exc).__name__) from exc
        # On Python 3.11 a cancellation that lands while redis-py waits inside its own timeout can
        # be swallowed; the task still counts it, so it is raised here instead of lost.
        task = asyncio.current_task()
        if task is not None and task.cancelling():
            raise asyncio.CancelledError
        return result


class RedisShared:
    """Many instances: one Redis connection pool per process, namespaced keys."""

    distributed = True

    def __init__(self, redis: Redis, guard: FailFast) -> None:
        self.redis = redis
        self.guard = guard
        # EVALSHA, the script loaded again by redis-py after a Redis restart forgot it.
        script = redis.register_script
        self._set_and_release, self._swap, self._lead, self._poll = (
            script(_SET_AND_RELEASE),
            script(_SWAP),
            script(_LEAD),
            script(_POLL),
        )
        self._land, self._claim, self._hit, self._reserve, self._give_back = (
            script(_LAND),
            script(_CLAIM),
            script(_HIT),
            script(_RESERVE),
            script(_GIVE_BACK),
        )

    async def get(self, key: str) -> bytes | None:
        value = await self.guard(lambda: self.redis.get(key))
        return value if isinstance(value, bytes) else None

    async def set(self, key: str, value: bytes, ttl_ms: int) -> None:
        checked(value)
        await self.guard(lambda: self.redis.set(key, value, px=ttl_ms))

    async def set_capped(self, key: str, value: bytes, ttl_ms: int, index: str, limit: int) -> None:
        """One round trip (a second only past the limit): distinct content URLs are the
        client's to choose, so without a cap a flood of them would fill Redis for a day."""
        checked(value)

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
        checked(value)
        done = await self.guard(lambda: self.redis.set(key, value, px=ttl_ms, nx=True))
        return bool(done)

    async def delete(self, *keys: str) -> None:
        await self.guard(lambda: self.redis.delete(*keys))

    async def set_and_release(self, key: str, value: bytes, ttl_ms: int, lease: str, token: bytes) -> None:
        checked(value)
        await self.guard(lambda: self._set_and_release([key, lease], [value, ttl_ms, token]))

    async def swap(self, key: str, expected: bytes, value: bytes, ttl_ms: int) -> bool:
        checked(value)
        done = await self.guard(lambda: self._swap([key], [expected, value, ttl_ms]))
        return bool(done)

    async def lead(
        self, lease: str, token: bytes, ttl_ms: int, slot: str | None, flight: str, takeover: bool
    ) -> tuple[Lead, bytes | None]:
        keys = [lease, slot] if slot is not None else [lease]
        args: list[bytes | str | int] = [token, ttl_ms, flight, "1" if takeover else "0"]
        answer = await self.guard(lambda: self._lead(keys, args))
        holder = answer[1] if len(answer) > 1 else None
        kind = answer[0].decode()
        if kind == "lead" or kind == "follow" or kind == "lost" or kind == "conflict":
            return kind, holder
        raise StoreUnavailable(f"unexpected answer {kind!r}")

    async def poll(self, result: str, lease: str, holder: bytes) -> tuple[bytes | None, bool]:
        answer = await self.guard(lambda: self._poll([result, lease], [holder]))
        if isinstance(answer, bytes):
            return answer, False
        return None, answer == 0

    async def land(
        self, result: str, value: bytes | None, ttl_ms: int, lease: str, token: bytes, slot: str | None, flight: str
    ) -> None:
        keys = [result, lease, slot] if slot is not None else [result, lease]
        shared = checked(value) if value is not None else b""
        await self.guard(lambda: self._land(keys, [shared, ttl_ms, token, flight]))

    async def claim(
        self, record: str, value: bytes, ttl_ms: int, lease: str, token: bytes, lease_ms: int
    ) -> tuple[bool, bytes | None, bool]:
        checked(value)
        answer = await self.guard(lambda: self._claim([record, lease], [value, ttl_ms, token, lease_ms]))
        if answer[0] == 1:
            return True, None, True
        return False, answer[1] or None, answer[2] == 1

    async def hit(self, key: str, window_ms: int) -> tuple[int, int]:
        count, ttl = await self.guard(lambda: self._hit([key], [window_ms]))
        return int(count), max(int(ttl), 0)

    async def reserve(self, key: str, limit: int, window_ms: int) -> tuple[bool, int]:
        taken, ttl = await self.guard(lambda: self._reserve([key], [limit, window_ms]))
        return taken == 1, max(int(ttl), 0)

    async def give_back(self, key: str) -> None:
        await self.guard(lambda: self._give_back([key]))

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

    def __init__(self, shared: MemoryShared, namespace: str) -> None:
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

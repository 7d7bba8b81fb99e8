"""Many instances: the shared store in Redis, one connection pool per process.

Redis trouble must cost milliseconds, not hang players: calls have short socket timeouts,
and after a failure the store answers `StoreUnavailable` at once for a second before it
tries Redis again (so service resumes by itself when Redis returns, or when Sentinel has
promoted a replica: `gateway.store.sentinel`). A server that answers `READONLY` was demoted:
every connection is dropped, so the next ones find the new primary.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from functools import partial
from typing import Any, TypeVar

import structlog
from redis.asyncio import BlockingConnectionPool, Redis
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import ReadOnlyError, RedisError

from gateway.runtime.lifecycle import Lifecycle
from gateway.store import Claim, Later, Lead, StoreUnavailable, hand_back, within_value_cap
from gateway.store.address import SharedRedis
from gateway.store.journal import Journal
from gateway.store.scripts import (
    CLAIM,
    GIVE_BACK,
    HIT,
    LAND,
    LEAD,
    POLL,
    RELEASE,
    RESERVE,
    SET_AND_RELEASE,
    SWAP,
)
from gateway.store.sentinel import primary

T = TypeVar("T")
RETRY_AFTER_S = 1.0
WAIT_TIMEOUT_MS = 200
"""How long a money call's claim waits for `REDIS_WAIT_REPLICAS` replicas: under the 0.3 s socket timeout."""
RELEASE_WITHIN_S = 30.0
"""How long a claim whose call never went out is offered back to a Redis that could not take it."""

log = structlog.get_logger("gateway.store")


class FailFast:
    """After a Redis failure, refuse at once for `RETRY_AFTER_S`, then try again."""

    def __init__(
        self, clock: Callable[[], float] = time.monotonic, on_readonly: Callable[[], Awaitable[None]] | None = None
    ) -> None:
        self._down_until = 0.0
        self._clock = clock
        self._on_readonly = on_readonly
        """Drops the pool's connections: they lead to a primary that was demoted."""

    @property
    def up(self) -> bool:
        return self._clock() >= self._down_until

    @property
    def down_for(self) -> float:
        """Seconds until Redis is tried again (0 when it is up)."""
        return max(0.0, self._down_until - self._clock())

    async def __call__(self, operation: Callable[[], Awaitable[T]]) -> T:
        if not self.up:
            raise StoreUnavailable("redis is down")
        try:
            result = await operation()
        except (RedisError, OSError, TimeoutError) as exc:
            self._down_until = self._clock() + RETRY_AFTER_S
            if isinstance(exc, ReadOnlyError) and self._on_readonly is not None:
                log.warning("store.primary_demoted")
                await self._on_readonly()
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

    def __init__(self, redis: Redis, guard: FailFast, wait_replicas: int = 0, later: Later | None = None) -> None:
        self.redis = redis
        self.guard = guard
        self.wait_replicas = wait_replicas
        self.later = later or Lifecycle().spawn
        """Runs a chore off the request: the app's `Lifecycle.spawn` (drained at shutdown), or one
        of its own that keeps the chores referenced until done."""
        # EVALSHA, the script loaded again by redis-py after a Redis restart forgot it.
        script = redis.register_script
        self._set_and_release, self._swap, self._lead, self._poll = (
            script(SET_AND_RELEASE),
            script(SWAP),
            script(LEAD),
            script(POLL),
        )
        self._land, self._claim, self._hit, self._reserve, self._give_back = (
            script(LAND),
            script(CLAIM),
            script(HIT),
            script(RESERVE),
            script(GIVE_BACK),
        )
        self._release = script(RELEASE)
        self.journal = Journal()
        """The money records' last writes, made again on a new primary (`replay`)."""

    async def replay(self, attempts: int = 5) -> None:
        """The journal's writes made again once the store answers (a primary changed); all of
        them again while some are refused (each is harmless twice), a few times."""
        for _ in range(attempts):
            await asyncio.sleep(self.guard.down_for)
            made, kept = await self.journal.replay(self.guard)
            if made == kept:
                return

    async def get(self, key: str) -> bytes | None:
        value = await self.guard(lambda: self.redis.get(key))
        return value if isinstance(value, bytes) else None

    async def set(self, key: str, value: bytes, ttl_ms: int) -> None:
        within_value_cap(value)
        await self.guard(lambda: self.redis.set(key, value, px=ttl_ms))

    async def set_capped(self, key: str, value: bytes, ttl_ms: int, index: str, limit: int) -> None:
        """One round trip (a second only past the limit): distinct content URLs are the
        client's to choose, so without a cap a flood of them would fill Redis for a day."""
        within_value_cap(value)

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
        within_value_cap(value)
        done = await self.guard(lambda: self.redis.set(key, value, px=ttl_ms, nx=True))
        return bool(done)

    async def delete(self, *keys: str) -> None:
        await self.guard(lambda: self.redis.delete(*keys))

    async def set_and_release(
        self, key: str, value: bytes, ttl_ms: int, lease: str, token: bytes, slot: str | None = None
    ) -> None:
        within_value_cap(value)
        keys = [key, lease, slot] if slot is not None else [key, lease]

        async def finish(_ago_s: float = 0.0) -> None:
            await self._set_and_release(keys, [value, ttl_ms, token])

        self.journal.drop(key)
        await self.guard(finish)
        self.journal.wrote("finish", key, finish)

    async def swap(self, key: str, expected: bytes, value: bytes, ttl_ms: int) -> bool:
        within_value_cap(value)
        done = await self.guard(lambda: self._swap([key], [expected, value, ttl_ms]))
        return bool(done)

    async def lead(
        self, lease: str, token: bytes, ttl_ms: int, slot: str | None, flight: str, takeover: bool
    ) -> tuple[Lead, bytes | None]:
        keys = [lease, slot] if slot is not None else [lease]
        args: list[bytes | str | int] = [token, ttl_ms, flight, "1" if takeover else "0"]
        try:
            answer = await self.guard(lambda: self._lead(keys, args))
        except StoreUnavailable as exc:
            if exc.__cause__ is not None:  # it reached Redis: the lease (and the exclusive slot) may be ours
                given_up = [lease, lease, slot] if slot is not None else [lease, lease]  # LAND with no result
                await self._offer(lambda: self._land(given_up, [b"", 0, token, flight]))
            raise
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
        shared = within_value_cap(value) if value is not None else b""
        await self.guard(lambda: self._land(keys, [shared, ttl_ms, token, flight]))

    async def claim(
        self, record: str, value: bytes, ttl_ms: int, lease: str, token: bytes, lease_ms: int, slot: str
    ) -> tuple[Claim, bytes | None, bool]:
        within_value_cap(value)
        args: list[bytes | int] = [value, ttl_ms, token, lease_ms]
        try:
            answer, acked = await self.guard(lambda: self._claim_on_replicas([record, lease, slot], args))
        except StoreUnavailable as exc:
            if exc.__cause__ is not None:  # it reached Redis: the answer was lost, not necessarily the claim
                await self.release(record, lease, token, slot)
            raise
        kind = answer[0].decode()
        if kind == "claimed" and acked < self.wait_replicas:
            await self.release(record, lease, token, slot)
            raise StoreUnavailable(f"{acked} of {self.wait_replicas} replicas took the claim in {WAIT_TIMEOUT_MS} ms")
        if kind == "claimed":
            again = partial(self._claim_again, [record, lease, slot], value, ttl_ms, token, lease_ms)
            self.journal.wrote("claim", record, again)
        if kind == "exists":
            return kind, answer[1], answer[2] == 1
        if kind == "claimed" or kind == "conflict":
            return kind, None, True
        raise StoreUnavailable(f"unexpected answer {kind!r}")

    async def _claim_on_replicas(self, keys: list[str], args: list[bytes | int]) -> tuple[Any, int]:
        """The claim, and with `wait_replicas` a WAIT on the same connection (WAIT counts the
        writes of its own connection): a replica promoted later holds the claim, so a retry
        there cannot send the call a second time."""
        if not self.wait_replicas:
            return await self._claim(keys, args), 0
        async with self.redis.pipeline(transaction=False) as pipe:
            await self._claim(keys, args, client=pipe)
            pipe.wait(self.wait_replicas, WAIT_TIMEOUT_MS)
            answer, acked = await pipe.execute()
        return answer, int(acked)

    async def _claim_again(
        self, keys: list[str], value: bytes, ttl_ms: int, token: bytes, lease_ms: int, ago_s: float
    ) -> None:
        """A claim made again on a new primary, with what is left of its lease (none left: the
        call is over, and its finish, if it had one, is in the journal after it)."""
        left_ms = lease_ms - int(ago_s * 1000)
        if left_ms > 0:
            await self._claim(keys, [value, ttl_ms, token, left_ms])

    async def release(self, record: str, lease: str, token: bytes, slot: str | None = None) -> None:
        keys = [record, lease, slot] if slot is not None else [record, lease]

        async def give_back(_ago_s: float = 0.0) -> None:
            await self._release(keys, [token])

        async def give_up() -> None:
            await give_back()
            self.journal.wrote("give-back", record, give_back)

        self.journal.drop(record)
        await self._offer(give_up)

    async def _offer(self, give_up: Callable[[], Awaitable[Any]]) -> None:
        """Gives up something still held by this instance's token (a claim or a lease whose call
        never went out), offered again every half second for a while when Redis cannot take it
        now: a player's retry is then not kept waiting behind a call that was never made."""
        await hand_back(lambda: self.guard(give_up), RELEASE_WITHIN_S, self.later, "store.give_up", every_s=0.5)

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


def connect(shared: SharedRedis) -> Redis:
    """One pool per process; short timeouts so a dead Redis is noticed in well under a second.

    The pool blocks (briefly) when all its connections are busy: redis-py's default pool
    raises instead, and under a burst that would read as "Redis is down".
    """
    pool: dict[str, Any] = dict(
        max_connections=128,
        timeout=0.5,
        socket_timeout=0.3,
        socket_connect_timeout=0.3,
        retry_on_timeout=False,
        # One immediate retry on a new connection: after Redis restarts (or fails over), pooled sockets are stale.
        retry=Retry(NoBackoff(), 1),
        retry_on_error=[RedisConnectionError],
        health_check_interval=5,
    )
    if shared.sentinels:
        return primary(shared, **pool)
    assert shared.url is not None
    return Redis(connection_pool=BlockingConnectionPool.from_url(shared.url, **pool), decode_responses=False)

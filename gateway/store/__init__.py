"""The store: where the gateway instances keep what they share, Redis when `REDIS_URL` (or
`REDIS_SENTINELS`, `address`) is set, process memory otherwise; and every key's name (`keys`).

`Shared` is what the gateway asks of either (`gateway.store.memory`, `gateway.store.redis`:
its scripts, the journal of money records made again after a failover, the Sentinel's primary).
Nothing larger than `MAX_VALUE_BYTES` is ever written (`TooLarge` instead): one oversized
write would hold Redis past every instance's socket timeout and read as an outage to all.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any, Literal, Protocol, TypeVar

import structlog
from redis.exceptions import RedisError

log = structlog.get_logger("gateway.store")
T = TypeVar("T")

MAX_VALUE_BYTES = 1024 * 1024
"""The largest value written to the shared store (a flight's result, a cached copy, a record)."""


class StoreUnavailable(Exception):
    """The shared store cannot be reached right now."""


class TooLarge(ValueError):
    """A value over `MAX_VALUE_BYTES`: it is not written."""


async def or_unavailable(call: Awaitable[T]) -> T:
    """A Redis call made outside the store (the configuration's history, the instances' records):
    Redis failing is `StoreUnavailable` there too."""
    try:
        return await call
    except (RedisError, OSError, TimeoutError) as exc:
        raise StoreUnavailable(type(exc).__name__) from exc


def within_value_cap(value: bytes) -> bytes:
    if len(value) > MAX_VALUE_BYTES:
        raise TooLarge(f"{len(value)} bytes is over the store's {MAX_VALUE_BYTES}")
    return value


Lead = Literal["lead", "follow", "lost", "conflict"]
"""`lead`: the flight is ours; `follow`: a live holder has it; `lost`: its holder died and the
flight may not be taken over; `conflict`: another request holds the exclusive slot."""

Claim = Literal["claimed", "exists", "conflict"]
"""`claimed`: the record, its holder's lease and the exclusive slot are ours; `exists`: the key's
record is already there; `conflict`: another request of the session and route holds the slot."""


class Shared(Protocol):
    distributed: bool

    async def get(self, key: str) -> bytes | None: ...
    async def set(self, key: str, value: bytes, ttl_ms: int) -> None: ...
    async def set_capped(self, key: str, value: bytes, ttl_ms: int, index: str, limit: int) -> None:
        """`set`, and `key` joins `index`; past `limit` members the oldest are deleted."""
        ...

    async def set_nx(self, key: str, value: bytes, ttl_ms: int) -> bool: ...
    async def delete(self, *keys: str) -> None: ...
    async def set_and_release(
        self, key: str, value: bytes, ttl_ms: int, lease: str, token: bytes, slot: str | None = None
    ) -> None:
        """`set(key, value, ttl_ms)`, and the lease and the exclusive slot taken
        with `claim` deleted while they still hold `token`, in one round trip."""
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
        self, record: str, value: bytes, ttl_ms: int, lease: str, token: bytes, lease_ms: int, slot: str
    ) -> tuple[Claim, bytes | None, bool]:
        """(verdict, the existing record, whether its holder lives): a record for a new call with
        its holder's lease and the session and route's exclusive slot (all for `lease_ms`), or the
        record already there, or a conflict with the different request that holds the slot."""
        ...

    async def release(self, record: str, lease: str, token: bytes, slot: str | None = None) -> None:
        """Gives up a claim (record, lease, slot) still held by `token` (its call never went out),
        now or, when the store cannot be reached, as soon as it can again."""
        ...

    async def hit(self, key: str, window_ms: int) -> tuple[int, int]: ...
    async def reserve(self, key: str, limit: int, window_ms: int) -> tuple[bool, int]:
        """Takes one of `limit` places in the window: (taken, ms until the window ends)."""
        ...

    async def give_back(self, key: str) -> None: ...
    async def ping(self) -> None: ...
    async def delete_prefix(self, prefix: str) -> int: ...


async def settle(release: Callable[[], Awaitable[None]], within_s: float, every_s: float = 1.0) -> bool:
    """A release the store refused (a blip, a paused or failed-over Redis), tried again every
    `every_s` until the store takes it or `within_s` passed, by when the leases it frees would
    have expired anyway: whether it was taken. Meant to run as a chore, off the request."""
    loop = asyncio.get_running_loop()
    give_up = loop.time() + within_s
    tries = 0
    while loop.time() + every_s < give_up:
        await asyncio.sleep(every_s)
        tries += 1
        try:
            await release()
        except StoreUnavailable:
            continue
        log.info("store.release_settled", tries=tries)
        return True
    log.warning("store.release_expired", tries=tries, within_s=round(within_s, 1))
    return False


Later = Callable[[Coroutine[Any, Any, Any]], object]
"""Runs a chore off the request (the app's `Lifecycle.spawn`: drained at shutdown)."""


async def hand_back(
    give_up: Callable[[], Awaitable[None]], within_s: float, later: Later, what: str, every_s: float = 1.0
) -> None:
    """Gives something back to the store now (a lease, a slot, a record's landing); when the
    store refuses, the caller goes on (its answer goes back) and a chore tries again (`settle`)."""
    try:
        await give_up()
    except StoreUnavailable:
        log.warning(what + "_deferred", within_s=round(within_s, 1))
        later(settle(give_up, within_s, every_s))

"""In-flight deduplication: identical concurrent requests share one upstream call.

The upstream call runs in a task owned by the flight, not by the request that started
it, so a leader whose client goes away hands over to its followers instead of failing
them. This issue does it in one process; the scale-out issue extends it across instances.
"""

from __future__ import annotations

import asyncio
import hashlib
import secrets
from collections.abc import Awaitable, Callable, Hashable
from dataclasses import dataclass, field
from typing import Any, Generic, Literal, TypeVar

R = TypeVar("R")
Role = Literal["leader", "follower"]


class ExclusiveConflict(Exception):
    """Another, different request on the same exclusive route and session is in flight."""


@dataclass
class _Flight(Generic[R]):
    task: asyncio.Task[R]
    slot: Hashable | None
    waiters: int = 1


@dataclass
class Dedup(Generic[R]):
    _flights: dict[Hashable, _Flight[R]] = field(default_factory=dict)
    _slots: dict[Hashable, Hashable] = field(default_factory=dict)
    """Exclusive slot (skin, session, route) -> the key of the flight holding it."""

    async def run(
        self, key: Hashable, call: Callable[[], Awaitable[R]], slot: Hashable | None = None
    ) -> tuple[R, Role]:
        flight = self._flights.get(key)
        if flight is not None:
            flight.waiters += 1
            return await asyncio.shield(flight.task), "follower"
        if slot is not None and slot in self._slots:
            raise ExclusiveConflict
        task = asyncio.ensure_future(call())
        self._flights[key] = _Flight(task, slot)
        if slot is not None:
            self._slots[slot] = key
        task.add_done_callback(lambda done: self._land(key, done))
        return await asyncio.shield(task), "leader"

    def _land(self, key: Hashable, task: asyncio.Task[R]) -> None:
        if not task.cancelled():
            task.exception()  # retrieved here too: every waiter may have gone away
        flight = self._flights.pop(key, None)
        if flight is not None and flight.slot is not None:
            self._slots.pop(flight.slot, None)

    def in_flight(self) -> int:
        return len(self._flights)


def body_digest(body: bytes) -> str:
    return hashlib.blake2b(body, digest_size=16).hexdigest()


class LeaderLost(Exception):
    """The instance leading an exclusive call went away; its outcome is unknown."""


@dataclass
class SharedFlights(Generic[R]):
    """Joins identical requests across instances through the shared store.

    One instance wins a lease (`SET NX PX`) and calls the upstream, renewing the lease while
    it waits; the others poll for its result. The result key carries the lease's token, so
    a follower only takes the answer of the flight it joined, never a stale one from an
    earlier flight. Polling a result key is chosen over pub/sub: a message published before a
    follower subscribes is lost, so a result key would be needed anyway; and since requests
    are joined in-process first, each instance polls at most once per key (cheap MGETs).

    If the lease expires without a result, its leader died: for calls safe to repeat, one
    follower takes over; for exclusive (money) calls the outcome is unknown and the
    followers say so rather than send it twice.
    """

    shared: Any
    encode: Callable[[R], bytes]
    decode: Callable[[bytes], R]
    instance: str
    lease_ms: int = 1500
    result_ms: int = 15000
    poll_s: float = 0.01
    max_wait_s: float = 60.0
    namespace: str = "bff:flight"

    async def run(self, key: str, call: Callable[[], Awaitable[R]], slot: str | None, takeover: bool) -> tuple[R, Role]:
        lease = f"{self.namespace}:lease:{key}"
        deadline = asyncio.get_running_loop().time() + self.max_wait_s
        while True:
            token = f"{self.instance}:{secrets.token_hex(8)}".encode()
            if slot is not None:
                await self._claim_slot(slot, key)
            if await self.shared.set_nx(lease, token, self.lease_ms):
                return await self._lead(key, lease, token, call, slot), "leader"
            held = await self.shared.get(lease)
            if held is None:
                continue  # the lease ended between the two calls: try to win it
            found = await self._follow(key, lease, held, deadline)
            if found is not None:
                return found, "follower"
            if not takeover:
                raise LeaderLost

    async def _claim_slot(self, slot: str, key: str) -> None:
        name = f"{self.namespace}:slot:{slot}"
        if await self.shared.set_nx(name, key.encode(), self.lease_ms):
            return
        holder = await self.shared.get(name)
        if holder is not None and holder != key.encode():
            raise ExclusiveConflict

    async def _lead(self, key: str, lease: str, token: bytes, call: Callable[[], Awaitable[R]], slot: str | None) -> R:
        slot_key = f"{self.namespace}:slot:{slot}" if slot is not None else None
        heartbeat = asyncio.ensure_future(self._renew(lease, token, slot_key, key.encode()))
        try:
            result = await call()
        finally:
            heartbeat.cancel()
        result_key = f"{self.namespace}:result:{key}:{token.decode()}"
        await self.shared.set_and_release(result_key, self.encode(result), self.result_ms, lease, token)
        if slot_key is not None:
            await self.shared.release(slot_key, key.encode())
        return result

    async def _renew(self, lease: str, token: bytes, slot_key: str | None, slot_value: bytes) -> None:
        while True:
            await asyncio.sleep(self.lease_ms / 3000)
            await self.shared.extend(lease, token, self.lease_ms)
            if slot_key is not None:
                await self.shared.extend(slot_key, slot_value, self.lease_ms)

    async def _follow(self, key: str, lease: str, token: bytes, deadline: float) -> R | None:
        result_key = f"{self.namespace}:result:{key}:{token.decode()}"
        loop = asyncio.get_running_loop()
        delay = self.poll_s
        while loop.time() < deadline:
            result, holder = await self.shared.get_many(result_key, lease)
            if result is not None:
                return self.decode(result)
            if holder != token:
                return None  # the leader is gone (its lease expired or moved on) without an answer
            await asyncio.sleep(delay)
            delay = min(delay * 1.5, 0.05)
        raise TimeoutError("no answer from the leading instance")

"""In-flight deduplication: identical concurrent requests share one upstream call.

The upstream call runs in a task owned by the flight, not by the request that started
it, so a leader whose client goes away hands over to its followers instead of failing
them. `Dedup` joins requests in one process; `SharedFlights` joins content and exclusive calls
across instances through the shared store (reads join in their own instance only: why, in
docs/decisions.md, "Identical calls joined").
"""

from __future__ import annotations

import asyncio
import hashlib
import secrets
from collections.abc import Awaitable, Callable, Hashable
from dataclasses import dataclass, field
from functools import partial
from typing import Generic, Literal, TypeVar

from gateway.runtime.lifecycle import Lifecycle
from gateway.store import MAX_VALUE_BYTES, Shared, hand_back, keys

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

    async def join(
        self, key: Hashable, call: Callable[[], Awaitable[R]], slot: Hashable | None = None
    ) -> tuple[R, Role]:
        flight = self._flights.get(key)
        if flight is not None:
            flight.waiters += 1
            return await asyncio.shield(flight.task), "follower"
        if slot is not None and slot in self._slots:
            raise ExclusiveConflict
        task = asyncio.ensure_future(call())
        flight = self._flights[key] = _Flight(task, slot)
        if slot is not None:
            self._slots[slot] = key
        task.add_done_callback(lambda _: self._land(key, flight))
        return await asyncio.shield(task), "leader"

    def _land(self, key: Hashable, flight: _Flight[R]) -> None:
        if not flight.task.cancelled():
            flight.task.exception()  # retrieved here too: every waiter may have gone away
        if self._flights.get(key) is flight:  # not a later flight of a forgotten key
            del self._flights[key]
        if flight.slot is not None:
            self._slots.pop(flight.slot, None)

    def forget(self, key: Hashable) -> None:
        """Callers of `key` from now on make a call of their own: the one in flight may answer
        from before a change. Its waiters still get its result; its exclusive slot, if any, stays
        held until it lands."""
        self._flights.pop(key, None)

    def forget_all(self) -> None:
        self._flights.clear()

    def in_flight(self) -> int:
        return len(self._flights)


def body_digest(body: bytes) -> str:
    return hashlib.blake2b(body, digest_size=16).hexdigest()


class LeaderLost(Exception):
    """The instance leading an exclusive call went away; its outcome is unknown."""


LEASE_MARGIN_MS = 2000
"""A lease outlives its flight's deadline by this much (the result's write, a slow loop)."""


@dataclass
class SharedFlights(Generic[R]):
    """Joins identical requests across instances through the shared store.

    One instance takes the flight's lease and calls the upstream; the others poll for its
    result. The lease lasts the route's deadline (plus a margin), which bounds the call, so
    nothing renews it: there is no per-flight task to outlive its flight. The result key
    carries the lease's token, so a follower only takes the answer of the flight it joined,
    never a stale one from an earlier flight. Polling a result key is chosen over pub/sub: a
    message published before a follower subscribes is lost, so a result key would be needed
    anyway; and since requests are joined in-process first, each instance polls at most once
    per key.

    The store's scripts check that the lease's holder still lives (`gateway.state.presence`): when
    it dies, for calls safe to repeat one follower takes the flight over at once; for exclusive
    (money) calls the outcome is unknown and the followers say so rather than send it twice.
    A result over the store's size bound, or one that may not be shared (`shareable`), is given
    up with the lease without being stored: followers make their own call (or, for exclusive
    calls, say the outcome is unknown). A landing the store refused is tried again by a chore
    of the app's `lifecycle` until the lease would have ended: the session's next exclusive call
    is not refused (409) for a slot nobody holds.
    """

    shared: Shared
    encode: Callable[[R], bytes]
    decode: Callable[[bytes], R]
    instance: str
    lifecycle: Lifecycle
    shareable: Callable[[R], bool] = lambda _: True
    """Whether a result may go to followers (else they make their own call)."""
    result_ms: int = 15000
    poll_s: float = 0.01

    async def join(
        self, key: str, call: Callable[[], Awaitable[R]], slot: str | None, takeover: bool, within_s: float
    ) -> tuple[R, Role]:
        """`within_s`: the route's deadline, which bounds both the leader's call and a follower's wait."""
        lease = keys.flight("lease", key)
        slot_key = keys.flight("slot", slot) if slot is not None else None
        lease_ms = int(within_s * 1000) + LEASE_MARGIN_MS
        loop = asyncio.get_running_loop()
        deadline = loop.time() + within_s
        while True:
            token = f"{self.instance}:{secrets.token_hex(8)}".encode()
            until = loop.time() + lease_ms / 1000
            kind, holder = await self.shared.lead(lease, token, lease_ms, slot_key, key, takeover)
            if kind == "lead":
                return await self._lead(key, lease, token, slot_key, call, until), "leader"
            if kind == "conflict":
                raise ExclusiveConflict
            if kind == "lost" or holder is None:
                raise LeaderLost
            found = await self._follow(key, lease, holder, deadline)
            if found is not None:
                return found, "follower"
            if not takeover:
                raise LeaderLost

    async def _lead(
        self, key: str, lease: str, token: bytes, slot_key: str | None, call: Callable[[], Awaitable[R]], until: float
    ) -> R:
        result_key = keys.flight("result", key, token.decode())

        def land(value: bytes | None) -> Callable[[], Awaitable[None]]:
            return partial(self.shared.land, result_key, value, self.result_ms, lease, token, slot_key, key)

        try:
            result = await call()
        except BaseException:
            await self._land(land(None), until)  # followers see the lease go and take over at once
            raise
        encoded = self.encode(result) if self.shareable(result) else b""
        shared = encoded if 0 < len(encoded) <= MAX_VALUE_BYTES else None
        # The call was made: its answer goes back even if the store cannot take the result
        # (followers then wait for the retry, or out the lease, and take over or say the outcome is unknown).
        await self._land(land(shared), until)
        return result

    async def _land(self, land: Callable[[], Awaitable[None]], until: float) -> None:
        await hand_back(land, until - asyncio.get_running_loop().time(), self.lifecycle.spawn, "flight.land")

    async def _follow(self, key: str, lease: str, holder: bytes, deadline: float) -> R | None:
        """The leader's result, or None when it went away without one."""
        result_key = keys.flight("result", key, holder.decode())
        loop = asyncio.get_running_loop()
        delay = self.poll_s
        while loop.time() < deadline:
            result, in_flight = await self.shared.poll(result_key, lease, holder)
            if result is not None:
                return self.decode(result)
            if not in_flight:
                return None  # the leader is gone (died, or its lease ended) without an answer
            await asyncio.sleep(delay)
            delay = min(delay * 1.5, 0.05)
        raise TimeoutError("no answer from the leading instance")

"""In-flight deduplication: identical concurrent requests share one upstream call.

The upstream call runs in a task owned by the flight, not by the request that started
it, so a leader whose client goes away hands over to its followers instead of failing
them. This issue does it in one process; the scale-out issue extends it across instances.
"""

from __future__ import annotations

import asyncio
import hashlib
from collections.abc import Awaitable, Callable, Hashable
from dataclasses import dataclass, field
from typing import Generic, Literal, TypeVar

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

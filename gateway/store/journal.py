"""The money records' last writes, made again on a new primary.

Measured reason (tests/faults/test_failover.py, a planned `SENTINEL FAILOVER` on a loaded
machine): between a replica's promotion and the moment an instance follows it, the old primary
still takes writes, and loses them when Sentinel converts it. A withdrawal's finish written
there left its record "in flight" on the new primary, its holder alive and its session's slot
held, so the player's next withdrawal was answered 409 `IN_PROGRESS` until the lease ran out
(14 of 996 answers, 2.3-3.9 s after the failover; and a retry of the first one's key would have
been told its outcome is unknown). Redis replication cannot close that window (`WAIT` is
acknowledged by a replica that is about to resync from the new primary too).

So each instance keeps, for `KEEP_S`, the idempotency writes Redis acknowledged (claims,
finishes, give-backs) and makes them again, in order, when its pool finds another primary.
Every one of them is guarded by its holder token or is the same value again, so one that did
reach the new primary changes nothing the second time.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from functools import partial
from typing import Any

import structlog

log = structlog.get_logger("gateway.store")

KEEP_S = 15.0
"""Longer than the window: Sentinel converts an old primary within 10 s, and instances ask every 0.5 s."""

Write = Callable[[float], Awaitable[Any]]
"""Makes the write again, given how many seconds ago it was first made (a lease shortens by that)."""


@dataclass(frozen=True)
class JournalEntry:
    at: float
    what: str
    record: str
    write: Write


class Journal:
    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._entries: deque[JournalEntry] = deque()
        self._clock = clock

    def __len__(self) -> int:
        return len(self._entries)

    def wrote(self, what: str, record: str, write: Write) -> None:
        """A write about `record` that Redis acknowledged; it replaces the record's earlier ones
        (a claim made again after its call had been given back would hold the slot for nothing)."""
        now = self._clock()
        self._forget(now)
        self.drop(record)
        self._entries.append(JournalEntry(now, what, record, write))

    def drop(self, record: str) -> None:
        """The record's call is over (finished or given back): its claim is not made again."""
        if any(entry.record == record for entry in self._entries):
            self._entries = deque(entry for entry in self._entries if entry.record != record)

    async def replay(self, guard: Callable[[Callable[[], Awaitable[Any]]], Awaitable[Any]]) -> tuple[int, int]:
        """Makes the kept writes again through the store's `guard`, oldest first, until one is
        refused (the guard then refuses the rest too for a while). How many were made again, of how many."""
        now = self._clock()
        self._forget(now)
        entries, made = list(self._entries), 0
        for entry in entries:
            try:
                await guard(partial(entry.write, now - entry.at))
            except Exception as exc:  # the store says why in its own log
                log.warning("store.replay_refused", what=entry.what, error=type(exc).__name__, left=len(entries) - made)
                break
            made += 1
        log.info("store.replayed", writes=made, of=len(entries))
        return made, len(entries)

    def _forget(self, now: float) -> None:
        while self._entries and now - self._entries[0].at > KEEP_S:
            self._entries.popleft()

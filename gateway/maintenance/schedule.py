"""Changes (and canaries, and rollbacks) given a time to run at: kept for every instance, run once.

When one is due every instance wakes, and the one that claims it (`Shelf.claim`) runs it, through
the path an immediate change goes (`gateway.console.plans.runner`); the others find it claimed.
An instance killed before the time never claimed it, so another one runs it; one killed while it
runs it leaves it claimed and pending, and it is never run again (a half-known outcome is the
operators' to look at, not the gateway's to repeat). The outcome is written on the item.
"""

from __future__ import annotations

import time
from typing import Any

from gateway.http.errors import FieldError
from gateway.maintenance.records import Item, ItemState
from gateway.maintenance.shelf import Shelf
from gateway.maintenance.windows import MAX_AHEAD_S

APART_S = 600
"""Two pending items on one skin's upstream must be this far apart (a rollback: on any of the
skin's upstreams): the first one's outcome (and a canary's first step) is judged before the next."""


def at_errors(at: Any, now: float, field: str = "at") -> list[FieldError]:
    """What is wrong with a time to run at: epoch seconds, in the future, within a month."""
    if isinstance(at, bool) or not isinstance(at, (int, float)):
        return [FieldError(field, "TIME_INVALID", "A time in epoch seconds")]
    if at <= now:
        return [FieldError(field, "TIME_PAST", "A time still to come")]
    if at > now + MAX_AHEAD_S:
        return [FieldError(field, "TIME_TOO_FAR", "At most 30 days ahead")]
    return []


class Schedule:
    def __init__(self, shelf: Shelf[Item]) -> None:
        self.shelf = shelf
        self.running: set[str] = set()
        """The items this instance runs right now (not `due_for` their own start)."""

    def pending(self) -> list[Item]:
        return sorted((i for i in self.shelf.records.values() if i.state == "pending"), key=lambda i: i.at)

    def listed(self) -> list[Item]:
        """Pending ones first, soonest first; then the rest, newest first."""
        ended = sorted((i for i in self.shelf.records.values() if i.state != "pending"), key=lambda i: -i.at)
        return self.pending() + ended

    def get(self, item_id: str) -> Item | None:
        return self.shelf.records.get(item_id)

    async def due_for(self, skin: str, before: float) -> Item | None:
        """A pending item on `skin` due before `before` (a canary that would still run then is refused
        with 409 `SCHEDULED_CHANGE_DUE`: the change would land in the middle of its judgment)."""
        pending = (i for i in self.pending() if i.skin == skin and i.at <= before)
        return next((i for i in pending if i.id not in self.running), None)

    def overlapping(self, skin: str, upstream: str | None, at: float) -> Item | None:
        """A pending item on the same skin's upstream less than `APART_S` from `at`."""
        for item in self.pending():
            same = item.upstream is None or upstream is None or item.upstream == upstream
            if item.skin == skin and same and abs(item.at - at) < APART_S:
                return item
        return None

    def due(self, now: float) -> list[Item]:
        return [i for i in self.pending() if i.at <= now and i.id not in self.running]

    async def add(self, item: Item) -> None:
        await self.shelf.put(item.id, item)

    async def claim(self, item: Item, holder: str) -> bool:
        return await self.shelf.claim(item.id, holder)

    async def end(
        self, item: Item, state: ItemState, outcome: str, by: str, reason: str | None, version: str | None = None
    ) -> Item:
        """The item as it ended: done, failed (its outcome says why) or cancelled."""
        item.state, item.outcome, item.version = state, outcome, version
        item.ended, item.endedBy, item.endedReason = time.time(), by, reason
        await self.shelf.put(item.id, item)
        return item

"""Maintenance windows, scheduled changes and approvals: what operators plan ahead, shared by
every instance (`shelf`: Redis hashes and an announcement, else this process's memory).

`windows` (a skin in maintenance: the player site's page, money calls and sign-ins refused),
`schedule` (a change given a time: run once across instances), `approvals` (a change waiting for a
second operator), `records` (what is kept of a change that waits). Running them is the console's
(`gateway.console.plans`): they go the way an immediate change goes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, cast

import msgspec
from redis.asyncio import Redis

from gateway.maintenance.approvals import Approvals
from gateway.maintenance.records import Approval, Item
from gateway.maintenance.schedule import Schedule
from gateway.maintenance.shelf import Shelf, listen
from gateway.maintenance.windows import Maintenance, Window

KEPT_S = 30 * 86400
"""How long an ended record stays listed (the trail keeps it for good)."""


@dataclass
class Plans:
    """The three shelves, as one part of the gateway (`Gateway.plans`)."""

    maintenance: Maintenance
    schedule: Schedule
    approvals: Approvals
    redis: Redis | None = None

    @classmethod
    def open(cls, redis: Redis | None) -> Plans:
        return cls(
            Maintenance(Shelf("maintenance", Window, redis)),
            Schedule(Shelf("scheduled", Item, redis)),
            Approvals(Shelf("approvals", Approval, redis)),
            redis,
        )

    @property
    def shelves(self) -> list[Shelf[msgspec.Struct]]:
        found: list[Any] = [self.maintenance.shelf, self.schedule.shelf, self.approvals.shelf]
        return cast("list[Shelf[msgspec.Struct]]", found)

    async def listen(self) -> None:
        await listen(self.redis, self.shelves)

    async def prune(self, now: float) -> None:
        """Records over for `KEPT_S` dropped: ended items and approvals, expired approvals, past windows."""
        old = now - KEPT_S
        for item_id, item in list(self.schedule.shelf.records.items()):
            if item.ended is not None and item.ended < old:
                await self.schedule.shelf.drop(item_id)
        for approval_id, approval in list(self.approvals.shelf.records.items()):
            if (approval.ended or approval.expires) < old and approval.state_at(now) != "pending":
                await self.approvals.shelf.drop(approval_id)
        for skin, window in list(self.maintenance.shelf.records.items()):
            if window.until < old:
                await self.maintenance.shelf.drop(skin)

"""Each instance's runner of what was planned: it sleeps until the next scheduled change is due or
a maintenance window starts or ends (or a shelf changes), never on a short timer.

When a change is due every instance's runner wakes; the one whose claim wins runs it
(`running.carry_out`) and writes the outcome on the item, in the trail (`schedule-run`) and the timeline
(`scheduled.done|failed`). A window's start and end go to the timeline once for the cluster
(`Timeline.move` on `maintenance:<skin>`). Only instances with the admin listener (and so the
trail) run changes; every instance follows the shelves (`Plans.listen`), the player side included.
"""

from __future__ import annotations

import asyncio
import time
from contextlib import suppress

import msgspec
import structlog

from gateway.accounts.audit import Audit, AuditEntry
from gateway.config.history import iso
from gateway.console.plans.running import Ran, carry_out
from gateway.maintenance.records import Item, ItemState
from gateway.monitoring.events import Timeline, TimelineEntry
from gateway.parts import Gateway
from gateway.store import StoreUnavailable

log = structlog.get_logger("gateway.plans")
STUCK_S = 300.0
"""An item claimed by another instance and still pending this long after its time: that instance
stopped while it ran it. It is marked failed for the operators to look at, never run again."""
AT_MOST_S = 3600.0
"""The longest a runner sleeps (the wall clock may have moved)."""


class Runner:
    def __init__(self, gateway: Gateway, audit: Audit | None) -> None:
        self.gateway = gateway
        self.plans = gateway.plans
        self.audit = audit
        self.instance = gateway.instances.instance
        self.timeline: Timeline | None = gateway.watch.timeline if gateway.watch is not None else None
        self.wake = asyncio.Event()
        self._windows: dict[str, str] = {}
        self._others: dict[str, float] = {}
        """Items another instance claimed: their time."""
        for shelf in self.plans.shelves:
            shelf.changed = self.wake.set

    async def carry_out_due(self) -> None:
        while True:
            self.wake.clear()
            now = time.time()
            try:
                await self.round(now)
            except StoreUnavailable as exc:
                log.warning("plans.round_failed", error=str(exc))
                await asyncio.sleep(1.0)
                continue
            except Exception:  # a round that failed is logged, and the runner goes on
                log.exception("plans.round_failed")
                await asyncio.sleep(1.0)
                continue
            with suppress(TimeoutError):
                await asyncio.wait_for(self.wake.wait(), timeout=self.sleep_s(time.time()))

    def sleep_s(self, now: float) -> float:
        moments = self.plans.maintenance.boundaries(now)[:1]
        mine = [i.at for i in self.plans.schedule.pending() if i.id not in self._others][:1]
        soonest = [*moments, *mine, *(at + STUCK_S for at in self._others.values())]
        return max(0.01, min([AT_MOST_S, *(t - now for t in soonest)]))

    async def round(self, now: float) -> None:
        await self.windows(now)
        await self.plans.prune(now)
        if self.audit is None:
            return
        for item in self.plans.schedule.due(now):
            if item.id in self._others:
                if now >= item.at + STUCK_S:
                    await self.mark_interrupted(item)
                continue
            if await self.plans.schedule.claim(item, self.instance):
                await self.run_item(item, self.audit)
            else:
                self._others[item.id] = item.at

    async def run_item(self, item: Item, audit: Audit) -> None:
        schedule = self.plans.schedule
        schedule.running.add(item.id)
        try:
            done = await carry_out(self.gateway, audit, item)
        except Exception as exc:  # recorded as failed, never run again
            log.exception("plans.run_failed", id=item.id)
            done = Ran(False, f"FAILED: {type(exc).__name__}")
        finally:
            schedule.running.discard(item.id)
        state: ItemState = "done" if done.ok else "failed"
        await schedule.end(item, state, done.result, f"instance {self.instance}", None, done.version)
        detail = {"id": item.id, "at": item.at, "kind": item.kind, "outcome": done.result, "askedBy": item.by}
        entry = AuditEntry(
            "schedule-run",
            item.by,
            "schedule",
            None,
            "ok" if done.ok else "failed",
            item.skin,
            item.upstream,
            item.reason,
        )
        await audit.record(msgspec.structs.replace(entry, detail=detail))
        await self.written(f"scheduled.{state}", item.skin, item.upstream, f"{item.kind} {item.id}: {done.result}")

    async def mark_interrupted(self, item: Item) -> None:
        outcome = "INTERRUPTED: the instance that ran it stopped; see the configuration's history"
        self._others.pop(item.id, None)
        await self.plans.schedule.end(item, "failed", outcome, f"instance {self.instance}", None)
        await self.written("scheduled.failed", item.skin, item.upstream, f"{item.kind} {item.id}: {outcome}")

    async def windows(self, now: float) -> None:
        """Each skin's window starting or ending, once in the timeline for the cluster."""
        if self.timeline is None:
            return
        for skin in self.gateway.config.skins.all:
            window = self.plans.maintenance.on(skin.id, now)
            state = "on" if window is not None else "off"
            if self._windows.get(skin.id, "off" if state == "off" else None) == state:
                continue
            self._windows[skin.id] = state
            moved = await self.timeline.move(f"maintenance:{skin.id}", state)
            if moved.first and (state == "on" or moved.before == "on"):
                detail = f"until {iso(window.until)}: {window.reason}" if window is not None else None
                kind = "maintenance.start" if state == "on" else "maintenance.end"
                since = moved.before_since if state == "off" else None
                await self.timeline.write(TimelineEntry(kind, now, self.instance, skin.id, since=since, detail=detail))

    async def written(self, kind: str, skin: str, upstream: str | None, detail: str) -> None:
        if self.timeline is not None:
            await self.timeline.write(TimelineEntry(kind, time.time(), self.instance, skin, upstream, detail=detail))


def start(gateway: Gateway) -> list[asyncio.Task[None]]:
    """The shelves followed, and this instance's runner (`gateway.app.lifespan`)."""
    runner = Runner(gateway, gateway.audit)
    return [asyncio.create_task(gateway.plans.listen()), asyncio.create_task(runner.carry_out_due())]

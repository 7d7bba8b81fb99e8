"""What each instance watches on a timer, for the console's status line and the event timeline:
its heartbeat (`Instances.beat`, every `BEAT_S`), each skin's upstreams' health (probed every
`PROBE_EVERY_S` while a console shows the status line, a breaker is not closed or an upstream is
down; else only when someone looks, as before), its breakers, the configuration, the platform's
error share per skin.

Two loops, so that a slow probe never delays a beat. Each round of the second turns what this
instance sees into the status line's problems (`Status`, answered by the console without touching
Redis, so it answers while the store does not) and, for what changed, into the timeline
(`gateway.monitoring.events`: one entry per event in the cluster). While the store does not
answer, nothing is written and what changed is written once it answers again.
"""

from __future__ import annotations

import asyncio
import hashlib
import time
from collections.abc import Awaitable, Callable
from contextlib import suppress
from dataclasses import dataclass, field
from typing import Any

import structlog

from contracts.catalogue import UPSTREAMS
from gateway.config.history import iso
from gateway.config.live import LiveConfig
from gateway.monitoring.events import Timeline, TimelineEntry
from gateway.monitoring.health import Health
from gateway.monitoring.instances import BEAT_S, Instances, is_stale
from gateway.monitoring.platform_errors import storm
from gateway.store import StoreUnavailable
from gateway.upstream.resilience import Breakers

PROBE_EVERY_S = 4.0
"""The upstreams' health checked at least this often while watched: a stopped platform is on the page within 10 s."""
WATCHED_FOR_S = 30.0
"""A status line asked for keeps the upstreams checked this long."""

log = structlog.get_logger("gateway.watch")


@dataclass
class Problem:
    kind: str
    """upstream | breaker | storm | instance | store | config"""
    level: str
    """down | degraded"""
    since: float | None
    skin: str | None = None
    upstream: str | None = None
    instance: str | None = None
    detail: str | None = None

    @property
    def subject(self) -> str:
        """What it is about, as the timeline names it (`upstream:aurora/capi`)."""
        about = f"{self.skin}/{self.upstream}" if self.upstream else self.skin or self.instance
        return f"{self.kind}:{about}"

    def public(self) -> dict[str, Any]:
        return {**self.__dict__, "since": iso(self.since) if self.since is not None else None}


@dataclass
class Watch:
    instances: Instances
    health: Health
    breakers: Breakers
    config: LiveConfig
    timeline: Timeline
    error_share: Callable[[str], Awaitable[float | None]] | None = None
    """The share of a skin's answers the platform refused lately (`Series.storm_share`); None: not watched."""
    seen: dict[str, float] = field(default_factory=dict)
    """The live instances by their last beat, as the last beat read them."""
    store_down_since: float | None = None
    answered_at: float | None = None
    """When the store last answered a beat."""
    problems: list[Problem] = field(default_factory=list)
    watched_at: float | None = None
    looked_at: float | None = None
    """When someone last asked for the status line."""
    _local: dict[str, str] = field(default_factory=dict)
    """subject -> its state as this instance last recorded it in the timeline."""
    _since: dict[str, float] = field(default_factory=dict)
    _storms: dict[str, bool] = field(default_factory=dict)

    async def watch(self) -> None:
        """Both loops, until cancelled; then this instance's beats end (it left)."""
        try:
            # Each round half a beat after the beat: it sees what the beat just read.
            await asyncio.gather(self._every(self.beat), self._every(self.look, BEAT_S / 2))
        finally:
            with suppress(StoreUnavailable):
                await self.instances.leave()

    @staticmethod
    async def _every(work: Callable[[], Any], offset_s: float = 0.0) -> None:
        """`work` at every multiple of `BEAT_S` (plus `offset_s`) on the wall clock: every instance at once."""
        while True:
            await asyncio.sleep(BEAT_S - (time.time() - offset_s) % BEAT_S)
            try:
                await work()
            except Exception as exc:  # a round that failed is logged and the next one runs
                log.exception("watch.failed", error=type(exc).__name__)

    async def beat(self) -> None:
        """This instance's heartbeat; the store's state is its answer."""
        now = time.time()
        try:
            self.seen = await self.instances.beat()
        except StoreUnavailable as exc:
            if self.store_down_since is None:
                self.store_down_since = now
                log.warning("watch.store_unavailable", error=str(exc))
            return
        self.answered_at = now
        if self.store_down_since is not None and await self.timeline.claim("store-back"):
            since, self.store_down_since = self.store_down_since, None
            await self.timeline.write(TimelineEntry("store.back", now, self.instances.instance, since=since))
        self.store_down_since = None

    async def look(self) -> None:
        """One round: what is wrong now, and what changed written to the timeline."""
        now = time.time()
        observed = await self._observe(now)
        self.problems = [p for p in observed if p is not None]
        wrong = {p.subject for p in self.problems}
        self._since = {subject: since for subject, since in self._since.items() if subject in wrong}
        if self.store_down_since is None:
            with suppress(StoreUnavailable):  # what changed is written in a later round
                await self._record(now)
        self.watched_at = now

    async def _observe(self, now: float) -> list[Problem | None]:
        probes = await self.health.probe_stale(PROBE_EVERY_S) if self._probing(now) else self.health.known()
        problems: list[Problem | None] = []
        for skin in self.config.skins.all:
            for name in UPSTREAMS:
                probe = probes.get((skin.id, name))
                subject = f"{skin.id}/{name}"
                if probe is not None and not probe.up:
                    problems.append(
                        Problem(
                            "upstream",
                            "down",
                            self._began("upstream:" + subject, now),
                            skin.id,
                            name,
                            detail=probe.detail,
                        )
                    )
            share = await self._share(skin.id)
            self._storms[skin.id] = storm(self._storms.get(skin.id, False), share)
            if self._storms[skin.id]:
                detail = f"{share:.0%}" if share is not None else None
                since = self._began("storm:" + skin.id, now)
                problems.append(Problem("storm", "degraded", since, skin.id, detail=detail))
        down = {(p.skin, p.upstream) for p in problems if p is not None}
        for breaker in self.breakers:
            if breaker.state != "closed" and (breaker.skin, breaker.upstream) not in down:
                subject = f"breaker:{breaker.skin}/{breaker.upstream}"
                problems.append(
                    Problem(
                        "breaker",
                        "degraded",
                        self._began(subject, now),
                        breaker.skin,
                        breaker.upstream,
                        detail=breaker.state,
                    )
                )
        problems += [self._stale(i, now) for i, seen in self.seen.items() if is_stale(seen, now)]
        if self.config.error is not None:
            problems.append(Problem("config", "degraded", self.config.error_at, detail=self.config.error))
        return problems

    def _probing(self, now: float) -> bool:
        """Whether to check the upstreams now: someone looks at the status line, a breaker is not
        closed (calls are failing), or an upstream was down; else nothing calls the platform."""
        looked = self.looked_at is not None and now - self.looked_at < WATCHED_FOR_S
        failing = any(b.state != "closed" for b in self.breakers)
        return looked or failing or any(p.kind == "upstream" for p in self.problems)

    def _began(self, subject: str, now: float) -> float:
        """Since when a problem has been seen (by the cluster, once the timeline says so)."""
        return self._since.setdefault(subject, now)

    def _stale(self, instance: str, now: float) -> Problem:
        seen = self.seen[instance]
        return Problem("instance", "degraded", seen, instance=instance, detail=f"{now - seen:.0f}")

    # --- the timeline --------------------------------------------------------------------

    async def _record(self, now: float) -> None:
        down = {(p.skin, p.upstream): p for p in self.problems if p.kind == "upstream"}
        for skin in self.config.skins.all:
            for name in UPSTREAMS:
                problem = down.get((skin.id, name))
                await self._upstream(skin.id, name, problem)
            await self._storm(skin.id)
        for breaker in self.breakers:
            subject, state = f"breaker:{breaker.skin}/{breaker.upstream}", breaker.state
            if state == "closed" and subject not in self._local:
                continue  # a breaker made by a first call starts closed: nothing happened
            await self._move(subject, "closed" if state == "closed" else "open", breaker.skin, breaker.upstream)
        for instance, seen in self.seen.items():
            await self._instance(instance, "stale" if is_stale(seen, now) else "serving")
        gone = [s.removeprefix("instance:") for s in self._local if s.startswith("instance:")]
        for instance in gone:
            if instance not in self.seen and self._local["instance:" + instance] != "left":
                await self._instance(instance, "left")
        await self._configuration()

    async def _upstream(self, skin: str, name: str, problem: Problem | None) -> None:
        await self._move(f"upstream:{skin}/{name}", "down" if problem else "up", skin, name, problem)

    async def _share(self, skin: str) -> float | None:
        if self.error_share is None:
            return None
        try:
            return await self.error_share(skin)
        except StoreUnavailable:
            return None  # judged again once the store answers

    async def _storm(self, skin: str) -> None:
        await self._move("storm:" + skin, "storm" if self._storms.get(skin) else "calm", skin)

    async def _instance(self, instance: str, state: str) -> None:
        subject = "instance:" + instance
        if self._local.get(subject) == state:
            return
        moved = await self.timeline.move(subject, state)
        self._local[subject] = state
        kind = {"serving": "back" if moved.before == "stale" else "joined", "stale": "stale", "left": "left"}[state]
        if moved.first and not (kind == "joined" and moved.before == "serving"):
            since = moved.before_since if kind in ("back", "left") else None
            await self.timeline.write(
                TimelineEntry("instance." + kind, time.time(), self.instances.instance, instance=instance, since=since)
            )

    async def _move(
        self, subject: str, state: str, skin: str, upstream: str | None = None, problem: Problem | None = None
    ) -> None:
        """`subject` moved to `state` in the cluster's timeline, written once: an entry when it went
        wrong (down, open, storm) and one when it came back (with since when it was wrong)."""
        if self._local.get(subject) == state:
            return
        moved = await self.timeline.move(subject, state)
        self._local[subject] = state
        wrong = state in ("down", "open", "storm")
        if wrong:
            self._since[subject] = moved.since
        else:
            self._since.pop(subject, None)
        if not moved.first or (not wrong and moved.before in (None, "up", "closed", "calm")):
            return
        kind = subject.partition(":")[0] + "." + _WORDS[state]
        since = None if wrong else moved.before_since
        detail = problem.detail if problem is not None else None
        event = TimelineEntry(kind, time.time(), self.instances.instance, skin, upstream, since=since, detail=detail)
        await self.timeline.write(event)

    async def _configuration(self) -> None:
        version, error = self.config.version, self.config.error
        if self._local.get("config") != version:
            moved = await self.timeline.move("config", version)
            self._local["config"] = version
            if moved.first and moved.before is not None:
                detail = f"{moved.before[:12]} -> {version[:12]}"
                await self.timeline.write(
                    TimelineEntry("config.changed", time.time(), self.instances.instance, detail=detail)
                )
        digest = hashlib.sha256(error.encode()).hexdigest()[:16] if error else "none"
        if self._local.get("config-error") != digest:
            moved = await self.timeline.move("config-error", digest)
            self._local["config-error"] = digest
            if moved.first and error:
                await self.timeline.write(
                    TimelineEntry("config.rejected", time.time(), self.instances.instance, detail=error)
                )

    # --- the status line ------------------------------------------------------------------

    def status(self) -> dict[str, Any]:
        """The status line: the worst level and every problem, as the last round saw them (and
        from now on, for `WATCHED_FOR_S`, each round checks the upstreams)."""
        now = self.looked_at = time.time()
        problems = list(self.problems)
        if self.store_down_since is not None:  # as the last beat found it, not the last round
            problems.insert(0, Problem("store", "down", self.store_down_since))
        levels = {p.level for p in problems}
        return {
            "level": "down" if "down" in levels else "degraded" if levels else "ok",
            "problems": [p.public() for p in problems],
            "store": {
                "kind": "redis" if self.instances.redis is not None else "memory",
                "status": "unavailable" if self.store_down_since is not None else "ok",
                "since": iso(self.store_down_since) if self.store_down_since is not None else None,
                "answeredAt": iso(self.answered_at) if self.answered_at is not None else None,
            },
            "watchedAt": iso(self.watched_at) if self.watched_at is not None else None,
            "ageS": round(now - self.watched_at, 1) if self.watched_at is not None else None,
            "everyS": BEAT_S,
        }


_WORDS = {"down": "down", "up": "back", "open": "open", "closed": "closed", "storm": "start", "calm": "end"}

"""The figures behind the overview's charts: per skin, for every 10 s of the last hour, requests
per second, the share of 5xx answers, the p95 latency and the cache hit ratio.

Counted on the front door's access path (`gateway.monitoring.observability.Access`), beside the
Prometheus metrics, once per request with a skin: a few integer increments into its step's
counts, nothing else. Latency goes into a histogram whose buckets grow
by a quarter from 0.25 ms to 100 s, so that counts from several instances add up and a p95 read
from their sum is within a bucket's width (interpolated inside it).

Without Redis the process keeps its last hour in memory. With Redis each instance adds what it
counted to the skin's hour key (`bff:<skin>:series:<hour>`, a hash of `<step>:<figure>` fields,
HINCRBY, one pipeline) a quarter second after the first request it has not written yet, so the
console shows the whole cluster; an instance that answered nothing writes nothing.
"""

from __future__ import annotations

import asyncio
import time
from bisect import bisect_left
from collections.abc import Callable, Coroutine
from typing import Any

import structlog
from redis.asyncio import Redis

from gateway.store import StoreUnavailable, answered, keys

STEP_S = 10
STEPS = 360
"""An hour of steps: what is kept, and what one Redis key holds."""
KEEP_S = 2 * 3600 + 60
"""An hour's key is read until the end of the next hour."""
BOUNDS_S = tuple(0.00025 * 1.25**k for k in range(59))
"""Upper bounds of the latency buckets (the last one, beyond 104 s, has none)."""
REQUESTS, ERRORS, CONTENT, HITS, FIRST_BUCKET = range(5)
WIDTH = FIRST_BUCKET + len(BOUNDS_S) + 1
WRITE_AFTER_S = 0.25

log = structlog.get_logger("gateway.series")
Counts = dict[tuple[str, int], list[int]]
"""(skin, step) -> [requests, 5xx, content answers, cache hits, latency buckets...]."""


class Series:
    def __init__(
        self,
        redis: Redis | None,
        spawn: Callable[[Coroutine[Any, Any, Any]], None],
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.redis = redis
        self.spawn = spawn
        self.clock = clock
        self._counts: Counts = {}
        """Not yet written to Redis; without Redis, the last hour."""
        self._step, self._until = -1, 0.0
        self._now: dict[str, list[int]] = {}
        """The step under way's counts, by skin (the same lists as in `_counts`)."""
        self._pending = False
        self._failed_at = 0.0

    def add(self, skin: str, status: int, seconds: float, cache: str | None) -> None:
        """One answered request (the front door's access path: a float compare, a dict lookup and a
        few increments, under a microsecond; a step's counts are made once, by its first request)."""
        if self.clock() >= self._until:
            self._turn()
        counts = self._now.get(skin)
        if counts is None:
            counts = self._open(skin)
        counts[REQUESTS] += 1
        if status >= 500:
            counts[ERRORS] += 1
        if cache is not None:
            counts[CONTENT] += 1
            if cache != "MISS":
                counts[HITS] += 1
        counts[FIRST_BUCKET + bisect_left(BOUNDS_S, seconds)] += 1

    def _turn(self) -> None:
        """A new step: its counts start empty; without Redis, those older than an hour go."""
        self._step = int(self.clock()) // STEP_S
        self._until, self._now = (self._step + 1) * STEP_S, {}
        if self.redis is None:
            for old in [k for k in self._counts if k[1] <= self._step - STEPS]:
                del self._counts[old]

    def _open(self, skin: str) -> list[int]:
        counts = self._now[skin] = self._counts[(skin, self._step)] = [0] * WIDTH
        if self.redis is not None and not self._pending:  # the first count since the last write
            self._pending = True
            asyncio.get_running_loop().call_later(WRITE_AFTER_S, self._write_due)
        return counts

    def _write_due(self) -> None:
        self._pending = False
        self.spawn(self.write(self._taken()))

    def _taken(self) -> Counts:
        """What is counted so far, for Redis; counting starts again from nothing."""
        counts, self._counts, self._now = self._counts, {}, {}
        return counts

    async def flush(self) -> None:
        """Writes what is counted now (at shutdown)."""
        if self.redis is not None and self._counts:
            await self.write(self._taken())

    async def write(self, counts: Counts) -> None:
        assert self.redis is not None
        pipe = self.redis.pipeline(transaction=False)
        for (skin, step), values in counts.items():
            key = _key(skin, step // STEPS)
            for figure, n in enumerate(values):
                if n:
                    pipe.hincrby(key, f"{step}:{figure}", n)
            pipe.expire(key, KEEP_S)
        try:
            await answered(pipe.execute())
        except StoreUnavailable as exc:  # these seconds are missing from the charts; said once a minute
            if time.time() - self._failed_at > 60:
                self._failed_at = time.time()
                log.warning("series.write_failed", error=str(exc))

    # --- read ----------------------------------------------------------------------

    async def read(self, skins: list[str], minutes: int) -> dict[str, Any]:
        now = self.clock()
        last = int(now) // STEP_S
        first = last - minutes * 60 // STEP_S + 1
        counts = self._counts if self.redis is None else await self._stored(skins, first, last)
        figures = {skin: _figures(counts, skin, first, last, now) for skin in skins}
        return {
            "stepS": STEP_S,
            "scope": "instance" if self.redis is None else "cluster",
            "from": first * STEP_S,
            "to": last * STEP_S,
            "skins": figures,
        }

    async def _stored(self, skins: list[str], first: int, last: int) -> Counts:
        assert self.redis is not None
        hours = sorted({first // STEPS, last // STEPS})
        pipe = self.redis.pipeline(transaction=False)
        for skin in skins:
            for hour in hours:
                pipe.hgetall(_key(skin, hour))
        stored = iter(await answered(pipe.execute()))
        counts: Counts = {}
        for skin in skins:
            for _ in hours:
                for field, value in next(stored).items():
                    step, _, figure = field.decode().partition(":")
                    counts.setdefault((skin, int(step)), [0] * WIDTH)[int(figure)] += int(value)
        return counts


def _key(skin: str, hour: int) -> str:
    return keys.of_skin(skin, keys.SERIES, str(hour))


def _figures(counts: Counts, skin: str, first: int, last: int, now: float) -> dict[str, list[Any]]:
    figures: dict[str, list[Any]] = {
        "t": [],
        "requests": [],
        "rps": [],
        "errorRate": [],
        "p95Ms": [],
        "cacheHitRatio": [],
    }
    for step in range(first, last + 1):
        values = counts.get((skin, step)) or [0] * WIDTH
        n = values[REQUESTS]
        seconds = STEP_S if step < last else max(1.0, now - step * STEP_S)  # the step under way, so far
        figures["t"].append(step * STEP_S)
        figures["requests"].append(n)
        figures["rps"].append(round(n / seconds, 2))
        figures["errorRate"].append(round(values[ERRORS] / n, 4) if n else None)
        figures["p95Ms"].append(p95_ms(values[FIRST_BUCKET:]) if n else None)
        figures["cacheHitRatio"].append(round(values[HITS] / values[CONTENT], 4) if values[CONTENT] else None)
    return figures


def p95_ms(buckets: list[int]) -> float:
    """The 95th percentile of a latency histogram, interpolated within its bucket."""
    target, seen = 0.95 * sum(buckets), 0
    for i, n in enumerate(buckets):
        if n and seen + n >= target:
            lower = BOUNDS_S[i - 1] if i > 0 else 0.0
            upper = BOUNDS_S[i] if i < len(BOUNDS_S) else lower
            return round((lower + (upper - lower) * (target - seen) / n) * 1000, 1)
        seen += n
    return 0.0

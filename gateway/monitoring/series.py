"""The figures behind the overview's charts: per skin and step, requests per second, the share of
5xx answers, the share of the platform's own refusals (`success: false`, and of those
`SESSION_EXPIRED`), the p95 latency and the cache hit ratio. Two resolutions: every 10 s of the
last hour (`FINE`), and every 2 minutes of the last day (`COARSE`), which longer ranges read.

Counted on the front door's access path (`gateway.monitoring.observability.Access`), beside the
Prometheus metrics, once per request with a skin: a few integer increments into its fine step's
counts, nothing else (a finished step is folded into its coarse one off that path). Latency goes
into a histogram whose buckets grow by a quarter from 0.25 ms to 100 s, so that counts from
several instances add up and a p95 read from their sum is within a bucket's width.

Without Redis the process keeps its last hour and day in memory. With Redis each instance adds what
it counted to the skin's hour key (`bff:<skin>:series:<hour>`, a hash of `<step>:<figure>` fields)
and its day key (`bff:<skin>:series:2m:<day>`), HINCRBY, one pipeline, a quarter second after the
first request it has not written yet, so the console shows the whole cluster; an instance that
or_unavailable nothing writes nothing. Figures are numbered in the order they were added (the platform's
refusals after the latency buckets), so an older instance's fields keep their meaning.
"""

from __future__ import annotations

import asyncio
import time
from bisect import bisect_left
from collections.abc import Callable, Coroutine
from typing import Any, Generic, Literal, TypeVar

import msgspec
import structlog
from redis.asyncio import Redis

from contracts.base import SESSION_EXPIRED
from gateway.monitoring.figures import (
    BOUNDS_S,
    COARSE,
    CONTENT,
    ERRORS,
    EXPIRED,
    FINE,
    FIRST_BUCKET,
    HITS,
    REFUSED,
    REQUESTS,
    WIDTH,
    Counts,
    Recent,
    Resolution,
    SkinFigures,
    figures,
)
from gateway.store import StoreUnavailable, keys, or_unavailable

WRITE_AFTER_S = 0.25
MAX_MINUTES = COARSE.steps * COARSE.step_s // 60
"""The longest range the charts may ask for: a day."""
STORM_WINDOW_S = 120
STORM_SHARE = 0.2
STORM_MIN_ANSWERS = 60
"""A platform error storm: a fifth of a skin's answers or more refused over 2 minutes, with at
least 60 answers (half one a second) in them."""

log = structlog.get_logger("gateway.series")
K = TypeVar("K")


class Batched(Generic[K]):
    """Counts kept in this process and, with Redis, added to it off the request path: a quarter
    second after the first count not written yet, in one pipeline (`write`), nothing while idle;
    a failed write is said once a minute. The charts' `Series` and a canary's figures
    (`gateway.canary.figures`) are written so."""

    def __init__(
        self,
        redis: Redis | None,
        spawn: Callable[[Coroutine[Any, Any, Any]], None],
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.redis = redis
        self.spawn = spawn
        self.clock = clock
        self._counts: dict[K, list[int]] = {}
        """Not yet written to Redis (without Redis, what the process keeps)."""
        self._pending = False
        self._failed_at = 0.0
        self._keep()

    def _keep(self) -> None:
        """What a kind of counts keeps besides `_counts`, made with it."""

    def _soon(self) -> None:
        """A first count since the last write: the next write is due in `WRITE_AFTER_S`."""
        if self.redis is not None and not self._pending:
            self._pending = True
            asyncio.get_running_loop().call_later(WRITE_AFTER_S, self._write_due)

    def _write_due(self) -> None:
        self._pending = False
        self.spawn(self.write(self._taken()))

    def _taken(self) -> dict[K, list[int]]:
        """What is counted so far, for Redis; counting starts again from nothing."""
        counts, self._counts = self._counts, {}
        return counts

    async def flush(self) -> None:
        """Writes what is counted now (at shutdown)."""
        if self.redis is not None and self._counts:
            await self.write(self._taken())

    async def write(self, counts: dict[K, list[int]]) -> None:
        raise NotImplementedError

    def _log_failure(self, event: str, exc: StoreUnavailable) -> None:
        """A write Redis refused: those seconds are missing from what it keeps; said once a minute."""
        if time.time() - self._failed_at > 60:
            self._failed_at = time.time()
            log.warning(event, error=str(exc))


class Chart(msgspec.Struct, rename="camel"):
    """The charts' answer: every skin's figures per step of `step_s`, from `from_` to `to` (epoch
    seconds, the step under way last); `cluster`: every instance's counts (Redis), else this one's."""

    step_s: int
    scope: Literal["cluster", "instance"]
    from_: int = msgspec.field(name="from")
    to: int
    skins: dict[str, SkinFigures]


class Series(Batched[tuple[str, int]]):
    def _keep(self) -> None:
        self._coarse: Counts = {}
        """Without Redis: the last day's coarse steps, each finished fine step folded in."""
        self._step, self._until = -1, 0.0
        self._now: dict[str, list[int]] = {}
        """The step under way's counts, by skin (the same lists as in `_counts`)."""
        self._counted: dict[str, int] = {}
        """The last fine step each skin had an answer on this instance (the storm's share is read only then)."""

    def add(self, skin: str, status: int, seconds: float, cache: str | None, refusal: str | None = None) -> None:
        """One or_unavailable request (the front door's access path: a float compare, a dict lookup and a
        few increments, under a microsecond; a step's counts are made once, by its first request).
        `refusal`: the label of the platform's `success: false` code, if it said so."""
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
        if refusal is not None:
            counts[REFUSED] += 1
            if refusal == SESSION_EXPIRED:
                counts[EXPIRED] += 1
        counts[FIRST_BUCKET + bisect_left(BOUNDS_S, seconds)] += 1

    def _turn(self) -> None:
        """A new step: its counts start empty; without Redis, the step that ended is folded into its
        coarse step, and steps older than each resolution keeps go."""
        if self.redis is None:
            _fold(self._coarse, ((skin, self._step) for skin in self._now), self._now.values())
        self._step = int(self.clock()) // FINE.step_s
        self._until, self._now = (self._step + 1) * FINE.step_s, {}
        if self.redis is None:
            _forget(self._counts, self._step - FINE.steps)
            _forget(self._coarse, COARSE.of(self._step * FINE.step_s) - COARSE.steps)

    def _open(self, skin: str) -> list[int]:
        counts = self._now[skin] = self._counts[(skin, self._step)] = [0] * WIDTH
        self._counted[skin] = self._step
        self._soon()
        return counts

    def _taken(self) -> Counts:
        self._now = {}
        return super()._taken()

    async def write(self, counts: Counts) -> None:
        """Adds `counts` to their hour keys, and folded into coarse steps to their day keys."""
        assert self.redis is not None
        coarse: Counts = {}
        _fold(coarse, iter(counts), counts.values())
        pipe = self.redis.pipeline(transaction=False)
        for resolution, taken in ((FINE, counts), (COARSE, coarse)):
            for (skin, step), values in taken.items():
                key = _key(skin, resolution, step // resolution.steps)
                for figure, n in enumerate(values):
                    if n:
                        pipe.hincrby(key, f"{step}:{figure}", n)
                pipe.expire(key, resolution.keep_s)
        try:
            await or_unavailable(pipe.execute())
        except StoreUnavailable as exc:
            self._log_failure("series.write_failed", exc)

    # --- read ----------------------------------------------------------------------

    async def read(self, skins: list[str], minutes: int) -> Chart:
        """The charts' figures of the last `minutes` (up to `MAX_MINUTES`): fine steps up to an hour,
        coarse ones beyond."""
        now = self.clock()
        resolution = FINE if minutes * 60 <= FINE.steps * FINE.step_s else COARSE
        last = resolution.of(now)
        first = last - minutes * 60 // resolution.step_s + 1
        if self.redis is not None:
            counts = await self._read_stored(skins, resolution, first, last)
        else:
            counts = self._counts if resolution is FINE else self._coarse_so_far()
        return Chart(
            step_s=resolution.step_s,
            scope="instance" if self.redis is None else "cluster",
            from_=first * resolution.step_s,
            to=last * resolution.step_s,
            skins={skin: figures(counts, skin, (first, last), resolution, now) for skin in skins},
        )

    def _coarse_so_far(self) -> Counts:
        """The coarse steps with the fine step under way folded in (a copy of the last one)."""
        coarse = dict(self._coarse)
        for skin in self._now:
            key = (skin, COARSE.of(self._step * FINE.step_s))
            coarse[key] = list(coarse.get(key) or [0] * WIDTH)
        _fold(coarse, ((skin, self._step) for skin in self._now), self._now.values())
        return coarse

    async def _read_stored(self, skins: list[str], resolution: Resolution, first: int, last: int) -> Counts:
        assert self.redis is not None
        spans = sorted({first // resolution.steps, last // resolution.steps})
        pipe = self.redis.pipeline(transaction=False)
        for skin in skins:
            for span in spans:
                pipe.hgetall(_key(skin, resolution, span))
        stored = iter(await or_unavailable(pipe.execute()))
        counts: Counts = {}
        for skin in skins:
            for _ in spans:
                for field, value in next(stored).items():
                    step, _, figure = field.decode().partition(":")
                    counts.setdefault((skin, int(step)), [0] * WIDTH)[int(figure)] += int(value)
        return counts

    # --- the platform's refusals, for the status line and the timeline -----------------

    async def recent(self, skin: str, seconds: int = STORM_WINDOW_S) -> Recent:
        """The skin's answers and the platform's refusals among them over the last `seconds` (the
        cluster's with Redis, raises `StoreUnavailable` without it; this instance's without Redis)."""
        last = FINE.of(self.clock())
        steps = range(last - seconds // FINE.step_s + 1, last + 1)
        wanted = (REQUESTS, REFUSED, EXPIRED)
        found = [0, 0, 0]
        for step in steps:  # this instance's, not yet written (or all it keeps, without Redis)
            values = self._counts.get((skin, step))
            if values is not None:
                found = [n + values[figure] for n, figure in zip(found, wanted, strict=True)]
        if self.redis is not None:
            pipe = self.redis.pipeline(transaction=False)
            for step in steps:
                pipe.hmget(_key(skin, FINE, step // FINE.steps), [f"{step}:{figure}" for figure in wanted])
            for values in await or_unavailable(pipe.execute()):
                found = [n + int(v or 0) for n, v in zip(found, values, strict=True)]
        return Recent(*found)

    async def storm_share(self, skin: str) -> float | None:
        """The share of the skin's answers over the last `STORM_WINDOW_S` that the platform refused,
        as the timeline's storm detector reads it (`gateway.monitoring.watch`): 0 when this instance
        or_unavailable none of the skin's calls meanwhile (nothing read from Redis: an idle instance asks
        it nothing), None under `STORM_MIN_ANSWERS` (too few to judge)."""
        if self._counted.get(skin, -1) < FINE.of(self.clock()) - STORM_WINDOW_S // FINE.step_s:
            return 0.0
        recent = await self.recent(skin)
        return recent.share if recent.answers >= STORM_MIN_ANSWERS else None


def _key(skin: str, resolution: Resolution, span: int) -> str:
    return keys.of_skin(skin, keys.SERIES, *resolution.prefix, str(span))


def _fold(into: Counts, steps: Any, values: Any) -> None:
    """Adds each fine step's counts into its coarse step's in `into`."""
    for (skin, step), counted in zip(steps, values, strict=True):
        key = (skin, COARSE.of(step * FINE.step_s))
        coarse = into.get(key)
        if coarse is None:
            coarse = into[key] = [0] * WIDTH
        for figure, n in enumerate(counted):
            coarse[figure] += n


def _forget(counts: Counts, before: int) -> None:
    for old in [k for k in counts if k[1] <= before]:
        del counts[old]

"""A canary's figures per side: what its judge reads of each upstream, and that several instances'
counts add up in Redis."""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from typing import Any

import pytest
from redis.asyncio import Redis

from gateway.canary.figures import SLOT_S, CanaryFigures, figures_key
from gateway.http.asgi import RequestContext
from gateway.monitoring.figures import BOUNDS_S
from tests.support.cluster import RedisServer

pytestmark = pytest.mark.anyio
NOW = 1_000_000.0


def ctx(
    side: str, route: str = "balance", refusal: str | None = None, canary: str = "c1", upstream: int | None = 200
) -> RequestContext:
    context = RequestContext("r", route=route, refusal=refusal, upstream_status=upstream)
    context.canary = (canary, side)
    return context


def figures(redis: Redis | None = None, clock: list[float] | None = None) -> CanaryFigures:
    at = clock or [NOW]
    tasks: list[asyncio.Task[Any]] = []

    def spawn(work: Coroutine[Any, Any, Any]) -> None:
        tasks.append(asyncio.ensure_future(work))

    return CanaryFigures(redis, spawn, clock=lambda: at[0])


async def test_each_side_is_counted_apart_with_its_shares() -> None:
    counted = figures()
    for n in range(100):
        counted.add(ctx("old"), 200, 0.010)
        counted.add(ctx("new"), 502 if n < 5 else 200, 0.010 if n < 98 else 0.900)
    for n in range(10):
        counted.add(ctx("new", "login", refusal="BAD_CREDENTIALS" if n < 3 else None), 200, 0.05)
        counted.add(ctx("new", "buy"), 504 if n == 0 else 200, 0.05)
    sides = await counted.read("c1", NOW - 60, NOW)
    old, new = sides["old"], sides["new"]
    assert (old.answers, old.errors, old.refused, old.logins, old.money) == (100, 0.0, 0.0, 0, 0)
    assert new.answers == 120 and new.errors == round(6 / 120, 4) and new.refused == round(3 / 120, 4)
    assert (new.logins, new.login_success) == (10, 0.7)
    assert (new.money, new.money_success) == (10, 0.9)
    assert old.p99_s is not None and 0.008 < old.p99_s <= 0.0125, "within a bucket of 10 ms"
    assert new.p99_s is not None and 0.7 < new.p99_s <= 0.95, "two slow answers in 120 are over the 99th"


async def test_a_window_reads_only_its_slots_and_its_canary() -> None:
    clock = [NOW]
    counted = figures(clock=clock)
    counted.add(ctx("new"), 200, 0.01)
    clock[0] = NOW + 3 * SLOT_S
    counted.add(ctx("new"), 500, 0.01)
    counted.add(ctx("new", canary="c2"), 500, 0.01)
    later = await counted.read("c1", NOW + SLOT_S, NOW + 4 * SLOT_S)
    assert later["new"].answers == 1 and later["new"].errors == 1.0
    assert later["old"].answers == 0 and later["old"].errors is None and later["old"].p99_s is None


async def test_two_instances_counts_add_up_in_redis(redis_server: RedisServer) -> None:
    redis = Redis.from_url(redis_server.url)
    await redis.delete(figures_key("c1"))
    try:
        one, two = figures(redis), figures(redis)
        for instance in (one, two):
            for _ in range(30):
                instance.add(ctx("new"), 200, BOUNDS_S[10])
            instance.add(ctx("old", "login"), 200, 0.02)
        await one.flush()
        await two.flush()
        assert 0 < await redis.ttl(figures_key("c1")) <= 86400
        reader = figures(redis)  # an instance that counted nothing reads the cluster's
        sides = await reader.read("c1", NOW - 10, NOW)  # a check's window: its fields by name
        assert sides["new"].answers == 60 and sides["old"].logins == 2
        assert sides["new"].p99_s is not None and BOUNDS_S[9] < sides["new"].p99_s <= BOUNDS_S[10]
        assert await reader.read("c1", NOW - 3600, NOW + 3600) == sides, "a long one: the whole hash"
        assert (await reader.read("c1", NOW + 3600, NOW + 7200))["new"].answers == 0
        await one.flush()
        assert await redis.hlen(figures_key("c1")) > 0
    finally:
        await redis.aclose()


async def test_only_the_platforms_answers_and_failures_count() -> None:
    counted = figures()
    counted.add(ctx("new", "homeBanners", upstream=None), 200, 0.001)  # a cached copy
    counted.add(ctx("new", "homeBanners", upstream=503), 200, 0.02)  # a stale copy over the platform's 503
    counted.add(ctx("new", upstream=None), 504, 5.0)  # no answer in time
    new = (await counted.read("c1", NOW - 60, NOW))["new"]
    assert (new.answers, new.errors) == (2, 1.0)


async def test_nothing_is_written_while_no_canary_request_came() -> None:
    counted = figures()
    counted.add(RequestContext("r", route="balance"), 200, 0.01)
    assert (await counted.read("c1", NOW - 60, NOW))["new"].answers == 0
    await counted.flush()

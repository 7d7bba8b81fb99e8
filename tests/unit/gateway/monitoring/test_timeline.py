"""The event timeline's one writer per event (over a real redis-server, and in one process), its
reading, the error-storm detector, and the watch that turns what an instance sees into the
status line and the timeline: two instances seeing one upstream go down write it once, and its
"back" keeps when it went down."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from redis.asyncio import Redis

from gateway.monitoring.events import Timeline, TimelineEntry
from gateway.monitoring.health import Probe
from gateway.monitoring.platform_errors import storm
from gateway.monitoring.series import Series
from gateway.monitoring.watch import Watch
from gateway.store import StoreUnavailable
from gateway.store.address import SharedRedis
from gateway.store.redis import connect
from tests.support.cluster import RedisServer

pytestmark = pytest.mark.anyio


@pytest.fixture
async def redis(redis_server: RedisServer) -> AsyncIterator[Redis]:
    async with connect(SharedRedis(url=redis_server.url)) as client:
        await client.flushdb()  # each test's timeline starts empty
        yield client


@dataclass
class Skin:
    id: str


@dataclass
class Skins:
    all: list[Skin]


@dataclass
class Config:
    skins: Skins = field(default_factory=lambda: Skins([Skin("aurora"), Skin("pampa")]))
    version: str = "v1" * 8
    error: str | None = None
    error_at: float | None = None


@dataclass
class Health:
    down: set[tuple[str, str]] = field(default_factory=set)
    rounds: int = 0
    """How many times the platform was called."""
    last: dict[tuple[str, str], Probe] = field(default_factory=dict)

    async def probe_stale(self, max_age_s: float) -> dict[tuple[str, str], Probe]:
        self.rounds += 1
        now = time.time()
        self.last = {
            (skin, name): Probe((skin, name) not in self.down, "capi: refused", 1.0, now)
            for skin in ("aurora", "pampa")
            for name in ("api", "capi", "sbapi", "rest")
        }
        return self.last

    def known(self) -> dict[tuple[str, str], Probe]:
        return self.last


@dataclass
class Instances:
    instance: str
    redis: Redis | None
    seen: dict[str, float] = field(default_factory=dict)

    async def beat(self) -> dict[str, float]:
        return {self.instance: time.time(), **self.seen}


def watch(instance: str, redis: Redis | None, health: Health, config: Config | None = None, **more: Any) -> Watch:
    parts: Any = (Instances(instance, redis), health, [], config or Config())
    return Watch(*parts, Timeline(instance, redis), **more)


async def entries(timeline: Timeline, **asked: Any) -> list[dict[str, Any]]:
    return await timeline.read(asked.get("since"), asked.get("until"), asked.get("skin"))


@pytest.mark.redis
async def test_two_instances_moving_one_subject_the_first_writes_and_the_back_keeps_since(redis: Redis) -> None:
    one, two = Timeline("one", redis), Timeline("two", redis)
    first = await one.move("upstream:aurora/capi", "down")
    second = await two.move("upstream:aurora/capi", "down")
    assert first.first and not second.first, "the second instance finds it moved already"
    assert second.since == pytest.approx(first.since), "both say since when it has been down"
    back = await two.move("upstream:aurora/capi", "up")
    assert back.first and back.before == "down" and back.before_since == pytest.approx(first.since)
    assert not (await one.move("upstream:aurora/capi", "up")).first


async def test_in_one_process_the_same_moves_and_claims_hold() -> None:
    timeline = Timeline("solo", None)
    assert (await timeline.move("breaker:aurora/api", "open")).first
    assert not (await timeline.move("breaker:aurora/api", "open")).first
    assert (await timeline.move("breaker:aurora/api", "closed")).before == "open"
    assert await timeline.claim("store-back") and not await timeline.claim("store-back")


@pytest.mark.redis
async def test_a_claim_is_won_by_one_instance(redis: Redis) -> None:
    won = await asyncio.gather(*(Timeline(f"i{n}", redis).claim("store-back") for n in range(5)))
    assert sorted(won) == [False] * 4 + [True]


@pytest.mark.redis
async def test_reading_filters_by_skin_and_time_newest_first(redis: Redis) -> None:
    timeline = Timeline("one", redis)
    now = time.time()
    await timeline.write(TimelineEntry("upstream.down", now, "one", "aurora", "capi"))
    await timeline.write(TimelineEntry("config.changed", now, "one", detail="a -> b"))
    await timeline.write(TimelineEntry("upstream.back", now, "one", "pampa", "api", since=now - 60))
    assert [e["kind"] for e in await entries(timeline)] == ["upstream.back", "config.changed", "upstream.down"]
    assert [e["skin"] for e in await entries(timeline, skin="aurora")] == ["aurora"]
    assert await entries(timeline, until=now - 10) == []
    assert (await entries(timeline, since=now - 10))[0]["since"].endswith("Z")


def test_an_error_storm_starts_at_a_fifth_and_ends_under_a_twentieth() -> None:
    assert storm(False, 0.2) and not storm(False, 0.19)
    assert storm(True, 0.1), "between the two, a storm goes on"
    assert not storm(True, 0.04)
    assert not storm(False, None) and storm(True, None), "no figures: as it was"


@pytest.mark.redis
async def test_two_watching_instances_write_an_outage_once_with_down_at_and_back_at(redis: Redis) -> None:
    health = Health({("aurora", "capi")})
    one, two = watch("one", redis, health), watch("two", redis, health)
    for instance in (one, two, one, two):
        instance.status()  # a console looks at each
        await instance.look()
    assert one.status()["level"] == "down"
    problem = one.status()["problems"][0]
    assert (problem["kind"], problem["skin"], problem["upstream"]) == ("upstream", "aurora", "capi")
    assert two.status()["problems"][0]["since"] == problem["since"], "both say since when, the cluster's"
    health.down.clear()
    for instance in (two, one):
        await instance.look()
    kinds = [(e["kind"], e["skin"], e["upstream"]) for e in await entries(one.timeline)]
    assert kinds == [("upstream.back", "aurora", "capi"), ("upstream.down", "aurora", "capi")], "each once"
    back = (await entries(two.timeline))[0]
    assert back["since"] == problem["since"] and back["at"] >= back["since"], "down at, back at"
    assert one.status() == one.status() | {"level": "ok", "problems": []}


async def test_the_platform_refusing_a_fifth_of_a_skins_calls_is_a_storm_in_the_line_and_the_timeline() -> None:
    now = [time.time()]
    series = Series(None, lambda work: None, lambda: now[0])
    solo = watch("solo", None, Health(), error_share=series.storm_share)
    for n in range(200):  # a mass logout: every third balance answer is SESSION_EXPIRED
        series.add("aurora", 200, 0.01, None, "SESSION_EXPIRED" if n % 3 == 0 else None)
    await solo.look()
    (problem,) = solo.status()["problems"]
    assert (problem["kind"], problem["skin"], problem["detail"]) == ("storm", "aurora", "34%")
    for _ in range(400):  # the platform is well again
        now[0] += 0.5
        series.add("aurora", 200, 0.01, None, None)
    await solo.look()
    assert solo.status()["problems"] == []
    kinds = [(e["kind"], e["skin"]) for e in await entries(solo.timeline)]
    assert kinds == [("storm.end", "aurora"), ("storm.start", "aurora")]


async def test_a_stale_instance_is_named_and_a_configuration_error_shown() -> None:
    config = Config(error="skins[0].hosts: empty", error_at=time.time())
    solo = watch("solo", None, Health(), config)
    solo.seen = {"solo": time.time(), "frozen": time.time() - 7}
    await solo.look()
    status = solo.status()
    assert status["level"] == "degraded"
    assert {(p["kind"], p["instance"]) for p in status["problems"]} == {("instance", "frozen"), ("config", None)}
    kinds = {e["kind"]: e for e in await entries(solo.timeline)}
    assert kinds["instance.stale"]["instance"] == "frozen"
    assert kinds["config.rejected"]["detail"] == "skins[0].hosts: empty"


async def test_the_store_unavailable_is_said_at_once_and_its_outage_written_once_it_answers() -> None:
    solo = watch("solo", None, Health())
    answers = [False, False, True, True]

    async def beat() -> dict[str, float]:
        if not answers.pop(0):
            raise StoreUnavailable("TimeoutError")
        return {"solo": time.time()}

    solo.instances.beat = beat  # type: ignore[method-assign]
    await solo.beat()
    await solo.beat()
    status = solo.status()
    assert status["level"] == "down" and status["store"]["status"] == "unavailable"
    assert status["problems"][0]["kind"] == "store" and status["problems"][0]["since"] == status["store"]["since"]
    await solo.beat()
    await solo.beat()
    assert solo.status()["store"]["status"] == "ok" and solo.status()["level"] == "ok"
    outages = await entries(solo.timeline)
    assert [e["kind"] for e in outages] == ["store.back"], "one entry, once it could be written"
    assert outages[0]["since"] == status["store"]["since"]


@dataclass
class Breaker:
    skin: str
    upstream: str
    state: str = "closed"


async def test_a_breaker_made_closed_is_nothing_to_record_and_its_opening_is() -> None:
    """Seen from outside: after load, each instance recorded the breakers its first calls made,
    calling Redis from an idle cluster."""
    breaker = Breaker("aurora", "api")
    parts: Any = (Instances("solo", None), Health(), [breaker], Config())
    solo = Watch(*parts, Timeline("solo", None))
    await solo.look()
    assert "breaker:aurora/api" not in solo.timeline._states
    breaker.state = "open"
    await solo.look()
    breaker.state = "closed"
    await solo.look()
    assert [e["kind"] for e in await entries(solo.timeline)] == ["breaker.closed", "breaker.open"]


async def test_the_platform_is_checked_on_the_timer_only_while_someone_looks_or_calls_fail() -> None:
    """Tests and idle clusters count the platform's calls: nobody looking, nothing failing, no call."""
    health = Health()
    solo = watch("solo", None, health)
    await solo.look()
    assert health.rounds == 0
    solo.status()
    await solo.look()
    assert health.rounds == 1, "a console shows the status line"
    solo.looked_at = time.time() - 31
    health.down.add(("aurora", "api"))
    await solo.look()
    assert health.rounds == 1 and solo.status()["level"] == "ok", "nobody looked: the last check stands"
    await solo.look()  # status() above is someone looking
    assert health.rounds == 2 and solo.status()["level"] == "down"
    solo.looked_at = time.time() - 31
    await solo.look()
    assert health.rounds == 3, "an upstream down is checked until it is back"
    health.down.clear()
    await solo.look()
    await solo.look()
    assert health.rounds == 4, "back: no more checks on the timer"

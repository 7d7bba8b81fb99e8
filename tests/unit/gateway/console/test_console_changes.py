"""The console's changes in one process: versions kept in a file across a restart, one change
of two made from one version (Redis), the charts' figures per step, the probe of a new upstream
(TLS included), which instances are live and which did not take a version, and the admin routes:
the overview, the metrics behind the alerts, and the role every write needs."""

from __future__ import annotations

import asyncio
import datetime
import ssl
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import httpx
import msgspec
import pytest
import respx
import trustme
from redis.asyncio import Redis

from gateway.accounts.operators import token_digest
from gateway.config import skins
from gateway.config.history import Author, Change, FileVersions, RedisVersions
from gateway.config.live import LiveConfig
from gateway.config.probe import probe
from gateway.config.timings import BreakerConfig
from gateway.console import changes, conflicts, history, overview
from gateway.monitoring.figures import p95_ms
from gateway.monitoring.instances import Instances
from gateway.monitoring.series import Series
from gateway.runtime.lifecycle import Lifecycle
from gateway.state.presence import Presence
from gateway.store.address import SharedRedis
from gateway.store.redis import connect
from gateway.upstream.resilience import Breakers
from tests.support.browser import AsyncBrowser
from tests.support.cluster import RedisServer
from tests.support.gateway import ALLOWED, ONE_SKIN, UPSTREAM, admin_on
from tests.support.stack import free_port

pytestmark = pytest.mark.anyio

SKIN = ONE_SKIN.format(api="http://api-1.test")


ANN = Author("ann", "console", "moving the wallet")


async def answers(_: str) -> tuple[bool, Any]:
    return True, 200


def wallet(url: str) -> Any:
    return lambda overrides: {**overrides, "aurora": {**overrides.get("aurora", {}), "api": url}}


# --- versions -------------------------------------------------------------------------


async def test_versions_kept_in_a_file_outlive_a_restart_and_bring_the_overrides_back(tmp_path: Path) -> None:
    skins_file, kept = tmp_path / "skins.toml", tmp_path / "var" / "history.jsonl"
    skins_file.write_text(SKIN)
    config = LiveConfig(
        skins_file, lambda: skins.builtin(UPSTREAM), probe=answers, versions=FileVersions(kept), allowed=ALLOWED
    )
    await config.start()
    first = config.version
    made = await config.commit(wallet("http://api-2.test"), base=first, author=ANN)
    assert made.result == "applied" and made.changes == [
        Change("aurora", "api", "http://api-1.test", "http://api-2.test")
    ]
    late = await config.commit(wallet("http://api-3.test"), base=first, author=Author("bo", "token", "me too"))
    assert late.result == "conflict" and late.moved == ["aurora"]
    assert config.skins.all[0].upstreams.api == "http://api-2.test", "the conflict changed nothing"

    restarted = LiveConfig(
        skins_file, lambda: skins.builtin(UPSTREAM), probe=answers, versions=FileVersions(kept), allowed=ALLOWED
    )
    assert restarted.version == first, "the file alone, until the kept versions are read"
    await restarted.start()
    assert restarted.version == made.version and restarted.skins.all[0].upstreams.api == "http://api-2.test"
    entries = await restarted.versions.page(10, None)
    assert [(e.action, e.who, e.reason) for e in entries] == [
        ("change", "ann", "moving the wallet"),
        ("start", "system", None),
    ]
    assert await restarted.versions.page(10, entries[0].id) == entries[1:]
    kept.write_bytes(kept.read_bytes() + b'{"version": "cut sh')  # a crash mid-line
    assert len(FileVersions(kept).entries) == 2


async def test_a_file_reload_is_a_version_with_its_diff(tmp_path: Path) -> None:
    skins_file = tmp_path / "skins.toml"
    skins_file.write_text(SKIN)
    config = LiveConfig(skins_file, lambda: skins.builtin(UPSTREAM), probe=answers, allowed=ALLOWED)
    await config.start()
    skins_file.write_text(SKIN.replace("http://capi.test", "http://capi-2.test"))
    assert (await config.reload("SIGHUP")).result == "applied"
    newest = (await config.versions.page(1, None))[0]
    assert (newest.action, newest.via, newest.reason) == ("file", "file", "SIGHUP")
    assert newest.changes == [Change("aurora", "capi", "http://capi.test", "http://capi-2.test")]


@pytest.fixture
async def redis(redis_server: RedisServer) -> AsyncIterator[Redis]:
    client = connect(SharedRedis(url=redis_server.url))
    await client.flushdb()
    yield client
    await client.aclose()


@pytest.mark.redis
async def test_two_instances_changing_from_one_version_make_one_version(redis: Redis) -> None:
    def instance() -> LiveConfig:
        return LiveConfig(
            None, lambda: skins.builtin(UPSTREAM), redis=redis, versions=RedisVersions(redis), allowed=ALLOWED
        )

    one, two = instance(), instance()
    await one.start()
    await two.start()
    base = one.version
    made = await asyncio.gather(
        one.commit(wallet("http://api-a.test"), base=base, author=ANN),
        two.commit(wallet("http://api-b.test"), base=base, author=ANN),
    )
    assert sorted(m.result for m in made) == ["applied", "conflict"]
    won = next(m for m in made if m.result == "applied")
    loser = two if made[1].result == "conflict" else one
    assert loser.version == won.version, "the loser took the winner's overrides up"
    blamed = await conflicts.since(loser, base, next(m for m in made if m.result == "conflict"))
    assert [(c.skin, c.upstream, c.after, c.who) for c in blamed or []] == [
        (ch.skin, ch.upstream, ch.after, "ann") for ch in won.changes
    ]
    newest = await loser.versions.find(won.version)
    assert newest is not None and newest.previous == base and newest.who == "ann"
    assert [e.action for e in await loser.versions.page(10, None)] == ["change", "start"], "one start for both"


# --- the charts' figures --------------------------------------------------------------


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


async def test_figures_per_step_from_what_the_access_path_counted() -> None:
    clock = Clock()
    series = Series(None, lambda work: None, clock)
    for n in range(100):
        seconds = 0.010 if n < 90 else (0.100 if n < 95 else 1.0)
        series.add("aurora", 502 if n >= 95 else 200, seconds, ("HIT" if n % 4 else "MISS") if n < 40 else None)
    clock.now += 10
    series.add("aurora", 200, 0.002, "STALE")
    clock.now += 12  # 2 s into the step after
    figures = msgspec.to_builtins(await series.read(["aurora", "pampa"], 1))["skins"]
    aurora = figures["aurora"]
    assert aurora["requests"][-3:] == [100, 1, 0] and aurora["rps"][-3:] == [10.0, 0.1, 0.0]
    assert aurora["errorRate"][-3] == 0.05 and aurora["cacheHitRatio"][-3] == 0.75
    assert abs(aurora["p95Ms"][-3] - 100) < 25, "the 95th of 100 answers took 100 ms: within a bucket's quarter"
    assert aurora["cacheHitRatio"][-2] == 1.0 and aurora["p95Ms"][-1] is None and aurora["errorRate"][-1] is None
    assert figures["pampa"]["requests"] == [0] * 6 and len(aurora["t"]) == 6
    clock.now += 3600
    series.add("aurora", 200, 0.01, None)
    assert sum(msgspec.to_builtins(await series.read(["aurora"], 60))["skins"]["aurora"]["requests"]) == 1, (
        "an hour is kept, no more"
    )


async def test_the_step_under_way_has_its_rate_so_far() -> None:
    clock = Clock()
    series = Series(None, lambda work: None, clock)
    clock.now += 4  # 4 s into a step
    for _ in range(8):
        series.add("aurora", 200, 0.01, None)
    assert msgspec.to_builtins(await series.read(["aurora"], 1))["skins"]["aurora"]["rps"][-1] == 2.0


def test_a_p95_is_read_within_its_bucket() -> None:
    from gateway.monitoring.figures import BOUNDS_S

    buckets = [0] * (len(BOUNDS_S) + 1)
    buckets[20] = 100  # all between BOUNDS_S[19] and BOUNDS_S[20]
    assert BOUNDS_S[19] * 1000 < p95_ms(buckets) <= BOUNDS_S[20] * 1000
    buckets[-1] = 100
    assert p95_ms(buckets) == round(BOUNDS_S[-1] * 1000, 1), "beyond the last bound: that bound"


@pytest.mark.redis
async def test_instances_add_their_counts_in_redis_only_when_they_counted_something(redis: Redis) -> None:
    lifecycle = Lifecycle()
    mid_hour = (time.time() // 3600) * 3600 + 1800  # one hour key, whenever the test runs

    def clock() -> float:
        return mid_hour

    one, two = Series(redis, lifecycle.spawn, clock), Series(redis, lifecycle.spawn, clock)
    for n in range(30):
        (one if n % 3 else two).add("aurora", 200, 0.01, "HIT")
    for _ in range(100):  # both writes are due a quarter of a second after their first count
        if sum(msgspec.to_builtins(await one.read(["aurora"], 1))["skins"]["aurora"]["requests"]) == 30:
            break
        await asyncio.sleep(0.05)
    written = await redis.dbsize()
    await asyncio.sleep(1.0)
    assert await redis.dbsize() == written == 2, "one hour key, one day key, nothing more while nothing is counted"
    figures = msgspec.to_builtins(await one.read(["aurora"], 1))["skins"]["aurora"]
    assert sum(figures["requests"]) == 30 and figures["cacheHitRatio"][-1] == 1.0


# --- the probe of a new upstream ------------------------------------------------------


@pytest.fixture(scope="module")
def authority() -> trustme.CA:
    return trustme.CA(organization_name="Probe Test CA")


@pytest.fixture
def https_upstream(authority: trustme.CA) -> Iterator[str]:
    expires = datetime.datetime.now(datetime.UTC) + datetime.timedelta(days=81, hours=1)
    cert = authority.issue_cert("localhost", common_name="wallet.test", not_after=expires)
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    cert.configure_cert(context)
    port = free_port()

    async def answer(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await reader.readuntil(b"\r\n\r\n")
        writer.write(b"HTTP/1.1 204 No Content\r\nconnection: close\r\n\r\n")
        await writer.drain()
        writer.close()

    loop = asyncio.new_event_loop()
    server = loop.run_until_complete(asyncio.start_server(answer, "127.0.0.1", port, ssl=context))
    import threading

    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()
    yield f"https://localhost:{port}"
    loop.call_soon_threadsafe(server.close)
    loop.call_soon_threadsafe(loop.stop)
    thread.join(5)


async def test_the_probe_of_an_https_upstream_shows_its_certificate(https_upstream: str, authority: trustme.CA) -> None:
    trusting = ssl.create_default_context()
    authority.configure_trust(trusting)
    probed = await probe(https_upstream + "/base", context=trusting)
    assert probed.ok and probed.status == 204 and probed.latency_ms is not None and probed.error is None
    assert probed.tls is not None and probed.tls.subject.endswith("CN=wallet.test")
    assert probed.tls.issuer.startswith("O=Probe Test CA") and probed.tls.days_left == 81
    assert probed.tls.not_after.startswith(f"{datetime.date.today() + datetime.timedelta(days=81):%Y-%m}")
    untrusted = await probe(https_upstream)
    assert not untrusted.ok and "certificate" in (untrusted.error or "") and untrusted.tls is None
    assert untrusted.code == "TLS_UNTRUSTED", "a code the console words in the operator's language"
    refused = await probe(f"http://127.0.0.1:{free_port()}", within_s=1)
    assert not refused.ok and refused.status is None and refused.error and refused.code == "REFUSED"
    nowhere = await probe("http://nowhere.invalid", within_s=1)
    assert nowhere.code == "DNS" and probed.code is None


# --- which instances run which version ------------------------------------------------


class Running:
    def __init__(self, version: str) -> None:
        self.version = version


@pytest.mark.redis
async def test_live_instances_are_the_subscribed_ones_and_one_that_did_not_take_a_version_is_named(
    redis: Redis,
) -> None:
    lifecycle = Lifecycle()
    one, two = Instances("one1", redis, lifecycle), Instances("two2", redis, lifecycle)
    versions = {"one1": Running("v1"), "two2": Running("v1")}
    for instances in (one, two):
        instances.follow(versions[instances.instance], Breakers(BreakerConfig()))  # type: ignore[arg-type]
    await redis.hset("bff:instances", "dead", b'{"id": "dead", "configVersion": "v0", "writtenAt": 1.0}')
    tasks = [await Presence(redis, i.instance, [i]).start() for i in (one, two)]
    try:
        await asyncio.sleep(0.2)  # each writes its record once its presence is confirmed
        assert [r.id for r in await one.live()] == ["one1", "two2"], "the dead one's record is not an instance"
        assert not await redis.hexists("bff:instances", "dead"), "and is forgotten"
        versions["one1"].version = "v2"
        one.on_change()
        missing = msgspec.to_builtins(await one.wait_for_version("v2", within_s=0.5))
        assert (
            missing
            == {
                "acknowledged": 1,
                "total": 2,
                "missing": [{"id": "two2", "host": two.record().host}],
                "waitedS": missing["waitedS"],
            }
            and missing["waitedS"] >= 0.5
        )
        versions["two2"].version = "v2"
        two.on_change()
        taken = msgspec.to_builtins(await one.wait_for_version("v2", within_s=2))
        assert (taken["acknowledged"], taken["total"], taken["missing"]) == (2, 2, []) and taken["waitedS"] < 1
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


# --- the admin routes -----------------------------------------------------------------

TOKEN = "console-changes-admin-token"
VIEWER = "console-changes-viewer-token"


@pytest.fixture
async def admin(upstream: respx.Router, tmp_path: Path) -> AsyncIterator[tuple[AsyncBrowser, httpx.AsyncClient]]:
    operators = tmp_path / "operators.toml"
    operators.write_text(f'[[tokens]]\nname = "vic"\nrole = "viewer"\ntoken_sha256 = "{token_digest(VIEWER)}"\n')
    async with admin_on(upstream, TOKEN, operators_file=operators, breaker=BreakerConfig(failures=2)) as (browser, ops):
        yield browser, ops


def test_every_write_of_the_console_needs_the_operator_role() -> None:
    handlers = [*changes.route_handlers, *history.route_handlers, *overview.route_handlers]
    writes = [h for h in handlers if h.http_methods - {"GET", "HEAD"}]
    assert len(writes) == 6 and all(h.opt.get("role") == "operator" for h in writes)
    assert all(h.opt.get("role") == "viewer" for h in handlers if h not in writes)


async def test_a_viewer_previews_nothing(admin: tuple[AsyncBrowser, httpx.AsyncClient]) -> None:
    _, ops = admin
    body = {"skin": "aurora", "upstream": "api", "url": None, "baseVersion": "x"}
    refused = await ops.post("/admin/api/changes/preview", json=body, headers={"authorization": f"Bearer {VIEWER}"})
    assert refused.status_code == 403 and refused.json()["needs"] == "operator"


async def test_the_overview_shows_health_breakers_and_overrides(
    admin: tuple[AsyncBrowser, httpx.AsyncClient], upstream: respx.Router
) -> None:
    browser, ops = admin
    upstream.post("/api/agentAccount/getProviders").mock(return_value=httpx.Response(500, json={}))
    for _ in range(2):
        await browser.post("/api/agentAccount/getProviders")
    seen = (await ops.get("/admin/api/overview")).json()
    aurora = next(s for s in seen["skins"] if s["id"] == "aurora")
    api = next(u for u in aurora["upstreams"] if u["name"] == "api")
    assert api["breaker"]["state"] == "open" and api["breaker"]["since"] is not None
    health = api["health"]
    assert health["status"] == "up" and health["detail"] == "HTTP 200 (getCountries)" and health["latencyMs"] > 0
    assert api["overridden"] is False and api["url"] == api["fileUrl"] == browser.platform
    assert seen["store"] == {"kind": "memory", "status": "ok"} and seen["operatorsFile"]["error"] is None
    figures = (await ops.get("/admin/api/series?minutes=1")).json()
    aurora_figures = figures["skins"]["aurora"]
    assert figures["scope"] == "instance" and sum(aurora_figures["requests"]) == 2
    assert {rate for rate in aurora_figures["errorRate"] if rate is not None} == {1.0}, "two 502s"
    assert (await ops.get("/admin/api/series?minutes=1441")).json()["errors"][0]["field"] == "minutes"


async def test_the_metrics_behind_the_alerts(admin: tuple[AsyncBrowser, httpx.AsyncClient]) -> None:
    _, ops = admin
    version = (await ops.get("/admin/api/instances")).json()["current"]
    text = (await ops.get("/metrics")).text
    assert 'bff_upstream_up{skin="aurora",upstream="api"} 1.0' in text
    assert 'bff_upstream_probe_seconds{skin="aurora",upstream="capi"}' in text
    assert f'bff_instances{{config_version="{version}"}} 1.0' in text and "bff_config_error 0.0" in text

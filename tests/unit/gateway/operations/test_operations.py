"""Operations in process: retries, deadlines and breakers as a player sees them, the admin
API, metrics, live configuration and tracing."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import respx
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

from contracts.catalogue import retries_of
from gateway.app import create_app
from gateway.config import skins
from gateway.config.live import LiveConfig
from gateway.config.timings import BreakerConfig, parse_timings
from gateway.operations.cli import _sandbox_server
from gateway.upstream.resilience import Breaker, may_retry
from sandbox.state import Wire
from tests.support.browser import AsyncBrowser
from tests.support.cms import banners
from tests.support.gateway import ONE_SKIN, UPSTREAM, admin_on, browser_on, gateway_app
from tests.support.gateway import test_settings as settings_for_tests
from tests.support.respx_platform import RespxPlatform
from tests.unit.gateway.conftest import calls

pytestmark = pytest.mark.anyio

TOKEN = "admin-test-token"
AUTH = {"authorization": f"Bearer {TOKEN}"}
PROVIDERS = "/api/agentAccount/getProviders"


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


# --- the breaker and the retry rules --------------------------------------------------


def test_a_breaker_opens_after_consecutive_failures_and_a_probe_closes_it() -> None:
    clock = Clock()
    breaker = Breaker("aurora", "api", BreakerConfig(failures=3, open_s=5), clock)
    for _ in range(3):
        assert breaker.allow()
        breaker.failure("timeout")
    assert breaker.state == "open" and not breaker.allow()
    clock.now += 5
    assert breaker.allow(), "one probe after open_s"
    assert not breaker.allow(), "only one probe at a time"
    breaker.failure("timeout")
    assert breaker.state == "open" and not breaker.allow(), "a failed probe opens it again"
    clock.now += 5
    assert breaker.allow()
    breaker.success()
    assert breaker.state == "closed" and breaker.allow()


def test_a_breaker_opens_on_a_failure_rate_without_consecutive_failures() -> None:
    clock = Clock()
    breaker = Breaker("aurora", "api", BreakerConfig(failures=100, failure_rate=0.5, min_calls=20), clock)
    for n in range(19):
        breaker.success() if n % 2 else breaker.failure("status 502")
    assert breaker.state == "closed", "too few calls to judge"
    breaker.failure("status 502")
    assert breaker.state == "open"


def test_old_failures_leave_the_window() -> None:
    clock = Clock()
    breaker = Breaker("aurora", "api", BreakerConfig(failures=100, min_calls=4, window_s=10), clock)
    for _ in range(3):
        breaker.failure("timeout")
        breaker.success()
    clock.now += 11
    breaker.success()
    breaker.success()
    breaker.success()
    breaker.failure("timeout")
    assert breaker.state == "closed", "1 failure in 4 calls within the window"


@pytest.mark.parametrize(
    ("policy", "method", "failure", "allowed"),
    [
        ("content", "GET", "timeout", True),
        ("read", "GET", "status", True),
        ("read", "POST", "unreachable", True),
        ("read", "POST", "timeout", False),
        ("read", "POST", "broken", False),
        ("read", "POST", "status", False),
        ("exclusive", "POST", "unreachable", False),
    ],
)
def test_what_may_be_sent_again(policy: Any, method: str, failure: str, allowed: bool) -> None:
    assert may_retry(retries_of(policy, method), failure) is allowed


def test_timeouts_and_breaker_settings_are_checked() -> None:
    assert parse_timings("read=0.5/2/3")["read"].deadline_s == 3
    for bad in ("reads=1/2/3", "read=1/2", "read=1/x/3", "read=5/2/1"):
        with pytest.raises(ValueError, match="UPSTREAM_TIMEOUTS"):
            parse_timings(bad)
    assert BreakerConfig.parse("failures=3,open=1.5").open_s == 1.5
    with pytest.raises(ValueError, match="BREAKER"):
        BreakerConfig.parse("failure=3")


# --- through the proxy ----------------------------------------------------------------


async def test_a_content_get_is_retried_past_a_502(visitor: AsyncBrowser, upstream: respx.Router) -> None:
    banner_calls = upstream.get("/capi/home-banners").mock(
        side_effect=[httpx.Response(502), httpx.Response(200, json=banners(1))]
    )
    answer = await visitor.get("/capi/home-banners")
    assert answer.status_code == 200 and answer.json() == banners(1) and calls(banner_calls) == 2


async def test_a_read_post_is_sent_again_only_when_nothing_was_sent(
    visitor: AsyncBrowser, upstream: respx.Router
) -> None:
    ok = httpx.Response(200, json=[])
    providers = upstream.post(PROVIDERS).mock(side_effect=[ok, httpx.ConnectError("dropped idle"), ok])
    assert (await visitor.post(PROVIDERS)).status_code == 200, "a connection the pool keeps alive"
    again = await visitor.post(PROVIDERS)  # the platform drops that connection as the call goes out
    assert again.status_code == 200 and calls(providers) == 3, "never read by the platform: sent again"
    async with visitor.refusing():
        down = await visitor.post(PROVIDERS)
    assert down.status_code == 502 and down.json()["code"] == "UPSTREAM_UNREACHABLE" and calls(providers) == 3
    providers.side_effect = httpx.ReadError("connection reset")
    lost = await visitor.post(PROVIDERS)
    assert lost.status_code == 502 and lost.json()["code"] == "UPSTREAM_FAILED" and calls(providers) == 4


async def test_a_money_call_is_never_retried_and_a_lost_answer_is_not_sent_twice(
    visitor: AsyncBrowser, upstream: respx.Router
) -> None:
    cashout = upstream.post("/api/cashier/cashout12").mock(side_effect=httpx.ReadError("connection reset"))
    await visitor.login()
    key = {"Idempotency-Key": "withdraw-lost-0001"}
    first = await visitor.post("/api/cashier/cashout12", {"amount": 1000}, headers=key)
    assert first.status_code == 502 and calls(cashout) == 1
    again = await visitor.post("/api/cashier/cashout12", {"amount": 1000}, headers=key)
    assert again.headers["idempotent-replayed"] == "true" and calls(cashout) == 1, "the platform may have paid"
    key = {"Idempotency-Key": "withdraw-unsent-01"}
    async with visitor.refusing():
        refused = await visitor.post("/api/cashier/cashout12", {"amount": 1000}, headers=key)
    assert refused.json()["code"] == "UPSTREAM_UNREACHABLE"
    cashout.side_effect = None
    cashout.return_value = httpx.Response(200, json={"success": True})
    retried = await visitor.post("/api/cashier/cashout12", {"amount": 1000}, headers=key)
    assert retried.json() == {"success": True} and calls(cashout) == 2, "nothing was sent: the key is free again"


async def test_the_deadline_covers_a_hanging_platform(upstream: respx.Router) -> None:
    async def hang(_: httpx.Request) -> httpx.Response:
        await asyncio.sleep(5)
        return httpx.Response(200)

    upstream.post(PROVIDERS).mock(side_effect=hang)
    app = gateway_app(upstream, timings=parse_timings("read=0.1/0.2/0.3"))
    async with browser_on(app) as browser:
        await browser.start()
        started = asyncio.get_running_loop().time()
        answer = await browser.post(PROVIDERS)
        took = asyncio.get_running_loop().time() - started
    assert answer.status_code == 504 and answer.json()["code"] == "UPSTREAM_TIMEOUT" and took < 1


async def test_an_open_breaker_answers_at_once_without_calling(upstream: respx.Router) -> None:
    providers = upstream.post(PROVIDERS).mock(return_value=httpx.Response(500, json={"success": False}))
    app = gateway_app(upstream, breaker=BreakerConfig(failures=3, open_s=30))
    async with browser_on(app) as browser:
        await browser.start()
        failed = [await browser.post(PROVIDERS) for _ in range(3)]
        refused = await browser.post(PROVIDERS)
    assert [(a.status_code, a.json()["code"]) for a in failed] == [(502, "UPSTREAM_ERROR")] * 3 and calls(
        providers
    ) == 3
    assert refused.status_code == 503 and refused.json()["code"] == "UPSTREAM_UNAVAILABLE"
    assert int(refused.headers["retry-after"]) > 0


# --- the admin listener ---------------------------------------------------------------


@pytest.fixture
async def admin(upstream: respx.Router, tmp_path: Path) -> AsyncIterator[tuple[AsyncBrowser, httpx.AsyncClient]]:
    settings = {"probe_upstreams": False, "audit_file": tmp_path / "audit.jsonl"}
    async with admin_on(upstream, TOKEN, bearer=False, **settings) as (browser, ops):
        yield browser, ops


async def test_the_admin_api_wants_the_token(admin: tuple[AsyncBrowser, httpx.AsyncClient]) -> None:
    _, ops = admin
    assert (await ops.get("/admin/status")).status_code == 401
    assert (await ops.get("/metrics", headers={"authorization": "Bearer nope"})).status_code == 401
    status = await ops.get("/admin/status", headers=AUTH)
    assert status.status_code == 200 and status.json()["config"]["source"] == "built-in"


async def test_an_upstream_swap_is_validated_and_takes_the_next_request(
    admin: tuple[AsyncBrowser, httpx.AsyncClient], upstream: respx.Router, caplog: pytest.LogCaptureFixture
) -> None:
    browser, ops = admin
    bad = await ops.put("/admin/skins/aurora/upstreams/api", json={"url": "ftp://nowhere"}, headers=AUTH)
    assert bad.status_code == 422 and [e["code"] for e in bad.json()["errors"]] == ["URL_SCHEME"]
    unknown = await ops.put("/admin/skins/nope/upstreams/api", json={"url": "http://x.test"}, headers=AUTH)
    assert unknown.status_code == 404
    wrong_name = await ops.put("/admin/skins/aurora/upstreams/wallet", json={"url": "http://x.test"}, headers=AUTH)
    assert wrong_name.status_code == 404
    version = (await ops.get("/admin/status", headers=AUTH)).json()["config"]["version"]
    before = upstream.post(PROVIDERS).mock(return_value=httpx.Response(200, json=[]))
    after = upstream.route(url="http://10.1.2.3:9000" + PROVIDERS).mock(return_value=httpx.Response(200, json=[]))
    async with RespxPlatform(upstream, base_url="http://10.1.2.3:9000") as wallet_2:
        changed = await ops.put("/admin/skins/aurora/upstreams/api", json={"url": wallet_2.url}, headers=AUTH)
        assert changed.status_code == 200 and changed.json()["version"] != version
        assert changed.json()["previous"] == version and changed.json()["live"]["acknowledged"] == 1
        await browser.post(PROVIDERS)
    assert calls(before) == 0 and calls(after) == 1
    back = await ops.delete("/admin/skins/aurora/upstreams/api", headers=AUTH)
    assert back.json()["version"] == version, "back to the file's value: the first version again"


async def test_revoking_a_player_ends_the_session_server_side(
    admin: tuple[AsyncBrowser, httpx.AsyncClient], upstream: respx.Router
) -> None:
    browser, ops = admin
    balance = upstream.post("/api/cashier/balance").mock(return_value=httpx.Response(200, json={"cash": "10"}))
    await browser.login()
    assert (await browser.post("/api/cashier/balance")).json() == {"cash": "10"}
    revoked = await ops.post("/admin/skins/aurora/players/demo1/revoke", headers=AUTH)
    assert revoked.json()["sessionsEnded"] == 1 and revoked.json()["found"] is True
    after = await browser.post("/api/cashier/balance")
    assert after.json()["code"] == "SESSION_EXPIRED" and calls(balance) == 1
    logins = calls(upstream.routes[0])
    again = await browser.login(login="DEMO1")
    assert again.status_code == 403 and again.json()["code"] == "SIGN_IN_BLOCKED"
    assert 880 <= int(again.headers["retry-after"]) <= 900 and revoked.json()["blockedUntil"].endswith("Z")
    assert calls(upstream.routes[0]) == logins, "a blocked sign-in never reaches the platform"
    assert (await browser.login(login="demo2")).status_code == 200, "only that login is blocked"


async def test_revoking_a_mistyped_login_says_no_session_was_found(
    admin: tuple[AsyncBrowser, httpx.AsyncClient],
) -> None:
    _, ops = admin
    revoked = await ops.post("/admin/skins/aurora/players/demo-typo/revoke", headers=AUTH)
    assert revoked.status_code == 200
    assert (revoked.json()["sessionsEnded"], revoked.json()["found"]) == (0, False)


async def test_purging_a_skins_cache_makes_the_next_read_a_miss(
    admin: tuple[AsyncBrowser, httpx.AsyncClient], upstream: respx.Router
) -> None:
    browser, ops = admin
    banner_calls = upstream.get("/capi/home-banners").mock(return_value=httpx.Response(200, json=banners()))
    assert (await browser.get("/capi/home-banners")).headers["x-cache"] == "MISS"
    assert (await browser.get("/capi/home-banners")).headers["x-cache"] == "HIT"
    purged = await ops.post("/admin/skins/aurora/cache/purge", headers=AUTH)
    assert purged.json()["purged"]["local"] == 1
    assert (await browser.get("/capi/home-banners")).headers["x-cache"] == "MISS" and calls(banner_calls) == 2


async def test_metrics_count_what_the_gateway_did(
    admin: tuple[AsyncBrowser, httpx.AsyncClient], upstream: respx.Router
) -> None:
    browser, ops = admin

    async def slow(_: httpx.Request) -> httpx.Response:
        await asyncio.sleep(0.05)
        return httpx.Response(200, json=[])

    upstream.get("/capi/home-banners").mock(return_value=httpx.Response(200, json=banners()))
    upstream.post(PROVIDERS).mock(side_effect=slow)
    await browser.get("/capi/home-banners")
    await browser.get("/capi/home-banners")
    await asyncio.gather(*(browser.post(PROVIDERS) for _ in range(3)))
    text = (await ops.get("/metrics", headers=AUTH)).text
    assert 'bff_requests_total{route_class="content",skin="aurora",status="200"} 2.0' in text
    assert 'bff_cache_total{skin="aurora",state="MISS"} 1.0' in text
    assert 'bff_cache_total{skin="aurora",state="HIT"} 1.0' in text
    assert 'bff_dedup_total{role="follower"} 2.0' in text, "three identical reads: one leader, two followers"
    assert 'bff_upstream_duration_seconds_count{route_class="read",skin="aurora"}' in text
    assert "bff_config_info{version=" in text


# --- live configuration ---------------------------------------------------------------


async def test_a_reload_applies_a_good_file_and_keeps_the_last_good_one_otherwise(tmp_path: Path) -> None:
    path = tmp_path / "skins.toml"
    path.write_text(ONE_SKIN.format(api="http://api-1.test"))
    answers = {"http://api-2.test": (True, 200), "http://api-3.test": (False, "ConnectError")}

    async def probe(origin: str) -> tuple[bool, Any]:
        return answers[origin]

    config = LiveConfig(path, lambda: skins.builtin(UPSTREAM), probe=probe)
    first = config.version
    path.write_text(ONE_SKIN.format(api="http://api-2.test"))
    assert (await config.reload("test")).result == "applied"
    assert config.skins.all[0].upstreams.api == "http://api-2.test" and config.version != first
    assert (await config.reload("test")).result == "unchanged"
    path.write_text(ONE_SKIN.format(api="http://api-3.test"))
    refused = await config.reload("test")
    assert refused.result == "rejected" and "skins[aurora].upstreams.api: http://api-3.test" in (refused.error or "")
    path.write_text("[[skins]]\nid = ")
    assert (await config.reload("test")).result == "rejected"
    assert config.skins.all[0].upstreams.api == "http://api-2.test" and config.error is not None


# --- tracing --------------------------------------------------------------------------


async def test_spans_carry_the_request_id_and_the_upstream_gets_traceparent(upstream: respx.Router) -> None:
    exporter = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    banner_calls = upstream.get("/capi/home-banners").mock(return_value=httpx.Response(200, json=banners()))
    app = gateway_app(upstream, otel=True, tracer_provider=provider)
    async with browser_on(app) as browser:
        answer = await browser.get("/capi/home-banners", headers={"x-request-id": "trace-me-123"})
    assert answer.status_code == 200
    sent = banner_calls.calls.last.request.headers
    assert sent["traceparent"].startswith("00-")
    spans = {span.name: span for span in exporter.get_finished_spans()}
    client = spans["upstream homeBanners"]
    assert client.attributes is not None and client.attributes["bff.request_id"] == "trace-me-123"
    server = next(s for s in spans.values() if s.parent is None)
    assert server.attributes is not None and server.attributes["bff.route"] == "homeBanners"
    assert format(client.context.trace_id, "032x") in sent["traceparent"]


def test_the_cli_serves_on_uvloop_as_uvicorn_run_would() -> None:
    """Serving several servers in one loop, the CLI picks the loop itself; on asyncio's own
    loop the gateway answered fewer balance reads (docs/decisions.md, "uvloop")."""
    import uvloop

    from gateway.operations.cli import _loop_factory

    assert _loop_factory() is uvloop.new_event_loop


async def test_the_startup_heap_is_frozen_out_of_the_collectors_sight() -> None:
    """Found by `make bench`: full collections walked the whole heap (modules, app, routes),
    several a second under load, and were the gateway's p99 (docs/decisions.md)."""
    import gc

    from litestar.testing import AsyncTestClient

    gc.unfreeze()
    try:
        async with AsyncTestClient(app=create_app(settings_for_tests())):
            assert gc.get_freeze_count() > 10_000
    finally:
        gc.unfreeze()


def test_the_sandbox_beside_the_gateway_closes_idle_connections_as_its_wire_says() -> None:
    served = _sandbox_server("127.0.0.1", 8001, "http://127.0.0.1:8001")
    assert served.config.timeout_keep_alive == Wire().keepalive_timeout_s

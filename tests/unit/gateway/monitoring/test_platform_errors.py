"""The platform's own refusals (HTTP 200 `{"success": false, "code": ...}`) count: in /metrics by
skin, route class and a bounded code label, in the sign-ins' outcomes, in the console's figures
(their share, and `SESSION_EXPIRED`'s), in the overview, and in the storm the status line reads."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import httpx
import msgspec
import pytest
import respx
from prometheus_client.parser import text_string_to_metric_families

from gateway.edge.entry import FrontDoor
from gateway.monitoring.series import STORM_MIN_ANSWERS, Series
from gateway.pipeline.observe import refusal
from tests.support.browser import AsyncBrowser
from tests.support.gateway import browser_on, gateway_app, operator_on
from tests.support.healthy import healthy

pytestmark = pytest.mark.anyio

TOKEN = "platform-errors-admin-token"
EXPIRED = {"success": False, "code": "SESSION_EXPIRED", "description": "Session expired"}


@pytest.fixture
async def gateway(upstream: respx.Router) -> AsyncIterator[tuple[FrontDoor, AsyncBrowser, httpx.AsyncClient]]:
    upstream.get("/").mock(return_value=httpx.Response(404))
    healthy(upstream)
    app = gateway_app(upstream, admin_token=TOKEN)
    async with browser_on(app) as browser, operator_on(app, TOKEN) as ops:
        await browser.start()
        yield app, browser, ops


def sample(text: str, name: str, **labels: str) -> float:
    """The value of one sample in Prometheus text (0 when it is not there)."""
    for family in text_string_to_metric_families(text):
        for found in family.samples:
            if found.name == name and found.labels == labels:
                return float(found.value)
    return 0.0


async def test_a_session_expired_answer_counts_by_skin_route_class_and_code(
    upstream: respx.Router, gateway: tuple[FrontDoor, AsyncBrowser, httpx.AsyncClient]
) -> None:
    _, browser, ops = gateway
    assert (await browser.login()).status_code == 200
    upstream.post("/api/cashier/balance").mock(return_value=httpx.Response(200, json=EXPIRED))
    upstream.post("/api/player/getProfile").mock(
        side_effect=[
            httpx.Response(200, json={"success": False, "code": "EVIL-" + "x" * 300}),
            httpx.Response(200, json={"success": False, "code": "ANOTHER_ONE"}),
        ]
    )
    assert (await browser.post("/api/cashier/balance")).json()["code"] == "SESSION_EXPIRED"
    assert (await browser.login()).status_code == 200
    for _ in range(2):
        assert (await browser.post("/api/player/getProfile")).status_code == 200
    text = (await ops.get("/metrics")).text
    assert sample(text, "bff_platform_errors_total", skin="aurora", route_class="read", code="SESSION_EXPIRED") == 1
    assert sample(text, "bff_platform_errors_total", skin="aurora", route_class="read", code="other") == 2
    assert "EVIL" not in text and "ANOTHER_ONE" not in text, "a code the contracts do not know is `other`"
    assert sample(text, "bff_sign_ins_total", skin="aurora", outcome="accepted") == 2
    figures = (await ops.get("/admin/api/series?minutes=1")).json()["skins"]["aurora"]
    shares = [share for share in figures["platformErrorRate"] if share is not None]
    expired = [share for share in figures["sessionExpiredRate"] if share is not None]
    assert sum(figures["requests"]) == 5 and sum(shares) == pytest.approx(3 / 5, abs=0.01)
    assert sum(expired) == pytest.approx(1 / 5, abs=0.01) and set(figures["errorRate"]) <= {0.0, None}
    aurora = next(s for s in (await ops.get("/admin/api/overview")).json()["skins"] if s["id"] == "aurora")
    assert aurora["platformErrors"] == [
        {"routeClass": "read", "code": "other", "count": 2},
        {"routeClass": "read", "code": "SESSION_EXPIRED", "count": 1},
    ]


async def test_a_refused_sign_in_counts_as_refused_with_no_code(
    upstream: respx.Router, gateway: tuple[FrontDoor, AsyncBrowser, httpx.AsyncClient]
) -> None:
    _, browser, ops = gateway
    refused = {"success": False, "description": "Invalid login or password"}
    upstream.post("/api/player/login").mock(return_value=httpx.Response(200, json=refused))
    assert (await browser.login(password="wrong")).json()["success"] is False
    text = (await ops.get("/metrics")).text
    assert sample(text, "bff_sign_ins_total", skin="aurora", outcome="refused") == 1
    assert sample(text, "bff_sign_ins_total", skin="aurora", outcome="accepted") == 0
    assert sample(text, "bff_platform_errors_total", skin="aurora", route_class="exclusive", code="none") == 1


async def test_answers_that_succeed_or_fail_otherwise_count_nothing(
    upstream: respx.Router, gateway: tuple[FrontDoor, AsyncBrowser, httpx.AsyncClient]
) -> None:
    _, browser, ops = gateway
    await browser.login()
    upstream.post("/api/cashier/balance").mock(
        side_effect=[
            httpx.Response(200, json={"success": True, "values": [{"success": False}]}),
            httpx.Response(503, json=EXPIRED),  # a 5xx counts as a 5xx, once
        ]
    )
    await browser.post("/api/cashier/balance")
    await browser.post("/api/cashier/balance")
    text = (await ops.get("/metrics")).text
    assert "bff_platform_errors_total{" not in text


@pytest.mark.parametrize(
    ("body", "label"),
    [
        (b'{"success":false,"code":"SESSION_EXPIRED"}', "SESSION_EXPIRED"),
        (b'{ "success" :  false, "code": "VALIDATION", "errors": {"a": "b"}}', "VALIDATION"),
        (b'{"success": false, "code": 42}', "none"),
        (b'{"success": false, "code": "NOT_OURS"}', "other"),
        (b'{"success": true, "code": "SESSION_EXPIRED"}', None),
        (b'[{"success": false}]', None),
        (b'{"success": false, "code": "SESSION_EXPIRED"', None),
        (b'{"name": "success"}', None),
        (b"", None),
    ],
)
def test_the_refusal_label_of_an_answer(body: bytes, label: str | None) -> None:
    assert refusal(body) == label


async def test_a_storm_is_a_fifth_refused_over_two_minutes_with_enough_answers() -> None:
    now = [1_000_000.0]
    series = Series(None, lambda work: None, lambda: now[0])
    for _ in range(STORM_MIN_ANSWERS - 20):
        series.add("aurora", 200, 0.01, None, "SESSION_EXPIRED")
    assert await series.storm_share("aurora") is None, "every answer refused, but too few of them"
    now[0] += 300
    for n in range(200):
        now[0] += 0.5
        series.add("aurora", 200, 0.01, None, "SESSION_EXPIRED" if n % 4 == 0 else None)
    recent = await series.recent("aurora")
    assert recent.answers == 200 and recent.expired_share == pytest.approx(0.25, abs=0.05)
    assert await series.storm_share("aurora") == pytest.approx(0.25, abs=0.05)
    assert await series.storm_share("pampa") == 0, "no answers of pampa's here: nothing asked of the store"
    for _ in range(300):
        now[0] += 0.5
        series.add("aurora", 200, 0.01, None, None)
    assert await series.storm_share("aurora") == 0, "two minutes later, over"


async def test_a_day_of_coarse_steps_keeps_what_the_hour_let_go() -> None:
    now = [1_000_000.0]
    series = Series(None, lambda work: None, lambda: now[0])
    series.add("aurora", 200, 2.0, None, "SESSION_EXPIRED")
    series.add("aurora", 200, 0.01, None)
    now[0] += 3 * 3600  # three hours on: gone from the hour, in the day
    series.add("aurora", 200, 0.01, None)
    hour: dict[str, Any] = msgspec.to_builtins(await series.read(["aurora"], 60))["skins"]["aurora"]
    day = msgspec.to_builtins(await series.read(["aurora"], 24 * 60))
    figures = day["skins"]["aurora"]
    assert sum(hour["requests"]) == 1 and day["stepS"] == 120 and len(figures["t"]) == 720
    assert sum(figures["requests"]) == 3, "the step under way included"
    old = next(i for i, n in enumerate(figures["requests"]) if n)
    assert figures["platformErrorRate"][old] == 0.5 and figures["p95Ms"][old] > 1000

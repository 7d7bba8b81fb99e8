"""The platform's transport rules, which the gateway must satisfy: siteid, XSRF echo,
sessions that expire, and fault injection switchable at run time."""

from __future__ import annotations

import time
from typing import Any

from litestar.testing import TestClient

from tests.support.platform import PlatformClient


def test_every_call_needs_a_known_siteid(sandbox: TestClient[Any]) -> None:
    missing = sandbox.get("/capi/header-links")
    assert missing.status_code == 400
    assert missing.json()["code"] == "INVALID_SITE_ID"
    unknown = sandbox.get("/capi/header-links", headers={"siteid": "nowhere"})
    assert unknown.status_code == 400 and unknown.json()["success"] is False
    assert sandbox.get("/capi/header-links", headers={"siteid": "aurora"}).status_code == 200


def test_unsafe_calls_must_echo_the_xsrf_cookie(sandbox: TestClient[Any]) -> None:
    body = b'{"login": "demo1", "password": "demo123"}'
    first = sandbox.post("/api/player/login", content=body, headers={"siteid": "aurora"})
    assert first.status_code == 403
    assert first.json()["code"] == "INVALID_XSRF_TOKEN"
    token = sandbox.cookies.get("XSRF-TOKEN")
    assert token, "a rejected call still issues the cookie"
    wrong = sandbox.post("/api/player/login", content=body, headers={"siteid": "aurora", "X-XSRF-TOKEN": "guess"})
    assert wrong.status_code == 403
    echoed = sandbox.post("/api/player/login", content=body, headers={"siteid": "aurora", "X-XSRF-TOKEN": token})
    assert echoed.status_code == 200 and echoed.json()["success"] is True


def test_authenticated_calls_without_a_live_session_expire(platform: PlatformClient) -> None:
    body = platform.post("/api/cashier/balance").json()
    assert body == {**body, "success": False, "code": "SESSION_EXPIRED"}
    platform.session = "made-up"
    assert platform.post("/api/player/getProfile").json()["code"] == "SESSION_EXPIRED"


def test_sessions_expire_after_the_idle_timeout(player: PlatformClient) -> None:
    assert player.post("/api/cashier/balance").json()["success"] is True
    player.client.put("/_sandbox/config", json={"idleTimeoutS": 0.05})
    time.sleep(0.1)
    assert player.post("/api/cashier/balance").json()["code"] == "SESSION_EXPIRED"


def test_sessions_belong_to_their_site(player: PlatformClient) -> None:
    player.site = "pampa"
    assert player.post("/api/cashier/balance").json()["code"] == "SESSION_EXPIRED"


def test_forced_expiry_ends_a_players_sessions(player: PlatformClient) -> None:
    answer = player.client.post("/_sandbox/sites/aurora/sessions/expire", json={"login": "demo1"})
    assert answer.json() == {"expired": 1}
    assert player.post("/api/player/getProfile").json()["code"] == "SESSION_EXPIRED"


def test_faults_are_switched_per_route_at_run_time(player: PlatformClient) -> None:
    control = player.client
    control.put("/_sandbox/faults/balance", json={"errorRate": 1.0, "errorStatus": 503})
    assert player.post("/api/cashier/balance").status_code == 503
    assert player.post("/api/player/getProfile").status_code == 200, "other routes are untouched"
    control.put("/_sandbox/faults/balance", json={"sessionExpired": True})
    assert player.post("/api/cashier/balance").json()["code"] == "SESSION_EXPIRED"
    control.delete("/_sandbox/faults/balance")
    assert player.post("/api/cashier/balance").json()["success"] is True


def test_latency_and_counted_faults(player: PlatformClient) -> None:
    player.client.put("/_sandbox/faults/*", json={"latencyMs": 150, "count": 1})
    started = time.monotonic()
    player.post("/api/cashier/balance")
    assert time.monotonic() - started >= 0.15
    started = time.monotonic()
    player.post("/api/cashier/balance")
    assert time.monotonic() - started < 0.15, "a counted fault stops after its count"


def test_calls_are_counted_per_site_and_route(player: PlatformClient) -> None:
    player.client.delete("/_sandbox/calls")
    player.post("/api/cashier/balance")
    player.post("/api/cashier/balance")
    counts = player.client.get("/_sandbox/calls").json()
    assert counts["balance"] == 2 and counts["aurora balance"] == 2

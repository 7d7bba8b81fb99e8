"""A platform answering `SESSION_EXPIRED` (HTTP 200) to most balance calls, as after a restart that
lost its sessions: the product and its sandbox as they run, players signing in and reading their
balance; the storm shows in the console's figures, its overview and /metrics, and the 5xx rate stays 0."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest
from prometheus_client.parser import text_string_to_metric_families

from tests.support.browser import Browser
from tests.support.fixtures import sandbox_url_fixture, upstream_calls
from tests.support.stack import Stack, free_port, start_stack

TOKEN = "platform-errors-admin-token-0123456789"
PLAYERS = 8
PASSWORD = "storm12345"


@pytest.fixture(scope="module")
def running(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Stack, httpx.Client]]:
    admin_port = free_port()
    stack = start_stack(
        tmp_path_factory.mktemp("platform-errors"), {"ADMIN_PORT": str(admin_port), "ADMIN_TOKEN": TOKEN}
    )
    headers = {"authorization": f"Bearer {TOKEN}"}
    with httpx.Client(base_url=f"http://127.0.0.1:{admin_port}", headers=headers, timeout=20) as admin:
        yield stack, admin
    assert stack.stop() == 0


sandbox_url = sandbox_url_fixture("running")


def test_a_session_expired_storm_shows_in_the_figures_and_the_metrics(
    running: tuple[Stack, httpx.Client], control: httpx.Client
) -> None:
    stack, admin = running
    logins = [f"storm{n}" for n in range(PLAYERS)]
    for login in logins:
        control.post(
            "/_sandbox/sites/aurora/players", json={"login": login, "password": "storm12345"}
        ).raise_for_status()
    control.put("/_sandbox/faults/balance", json={"errorRate": 0.9, "errorStatus": 200, "code": "SESSION_EXPIRED"})
    sent = 0
    for login in logins:
        player = Browser(stack.url)
        player.login(login, PASSWORD)
        for _ in range(3):  # the platform's expiry ends the gateway's session: what follows is the gateway's own
            answer = player.post("/api/cashier/balance").json()
            if answer.get("code") == "SESSION_EXPIRED":
                sent += 1
                break
        player.close()
    assert sent >= PLAYERS // 2, "most balance calls were refused"
    expired = _sample(admin.get("/metrics").text, skin="aurora", route_class="read", code="SESSION_EXPIRED")
    platform_sent = upstream_calls(control, "aurora balance")
    assert 0 < expired <= platform_sent and expired == sent, "each the platform's, none the gateway's own"

    figures = admin.get("/admin/api/series", params={"minutes": 5}).json()["skins"]["aurora"]
    steps = [i for i, n in enumerate(figures["requests"]) if n]
    expired_share = sum(figures["sessionExpiredRate"][i] * figures["requests"][i] for i in steps)
    refused_share = sum(figures["platformErrorRate"][i] * figures["requests"][i] for i in steps)
    assert round(expired_share) == sent and round(refused_share) == sent
    assert all(figures["errorRate"][i] == 0 for i in steps), "none of it a 5xx"
    aurora = next(s for s in admin.get("/admin/api/overview").json()["skins"] if s["id"] == "aurora")
    assert {"routeClass": "read", "code": "SESSION_EXPIRED", "count": sent} in aurora["platformErrors"]
    day = admin.get("/admin/api/series", params={"minutes": 1440}).json()
    assert day["stepS"] == 120 and sum(day["skins"]["aurora"]["requests"]) >= sum(figures["requests"])


def _sample(text: str, **labels: str) -> float:
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            if sample.name == "bff_platform_errors_total" and sample.labels == labels:
                return float(sample.value)
    return 0.0

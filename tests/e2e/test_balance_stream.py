"""The balance stream in Chromium (issue 31), on two gateway instances sharing one Redis: three
tabs of one player, two on one instance and one on the other (each origin's tabs share one
stream, so two streams): a deposit in one tab shows in all three within a second; the platform
sees at most one balance call per interval; logout in one tab ends the session in all; with
the stream refused, the header still updates by polling."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from tests.e2e.conftest import ARTIFACTS, SPA_DIST
from tests.support.cluster import Cluster
from tests.support.fixtures import cluster_running, upstream_calls

pytestmark = pytest.mark.redis

INTERVAL_S = 2.0
LOGIN, PASSWORD = "streamer1", "stream-123"
DEPOSIT_JS = """async () => {
  const xsrf = decodeURIComponent((document.cookie.match(/XSRF-TOKEN=([^;]+)/) || [])[1] || "");
  const answer = await fetch("/api/cashier/buy", {method: "POST", credentials: "include",
    headers: {"content-type": "application/json", "x-xsrf-token": xsrf, "idempotency-key": crypto.randomUUID()},
    body: JSON.stringify({paymentMethod: 300, paymentType: "deposit", currency: "INR", amount: 1000})});
  return (await answer.json()).success;
}"""


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    env = {"SPA_DIST": str(SPA_DIST), "EVENTS_INTERVAL_S": str(INTERVAL_S), "EVENTS_CONNECTS_PER_MINUTE": "1000"}
    with cluster_running(tmp_path_factory.mktemp("stream"), instances=2, env=env, never=None) as running:
        yield running
    ARTIFACTS.mkdir(exist_ok=True)
    for gateway in running.gateways:
        (ARTIFACTS / f"stream-{gateway.name}.log").write_text(gateway.log.read_text())
    running.assert_clean_logs()


@pytest.fixture
def context(browser: Browser, browser_context_args: dict[str, Any], cluster: Cluster) -> Iterator[BrowserContext]:
    with httpx.Client(base_url=cluster.sandbox.url) as control:
        control.post("/_sandbox/reset").raise_for_status()
        control.put("/_sandbox/config", json={"depositApprovalDelayS": 0.2})
        control.post("/_sandbox/sites/aurora/players", json={"login": LOGIN, "password": PASSWORD, "cash": "500"})
    opened = browser.new_context(**browser_context_args)
    opened.set_default_timeout(15_000)
    yield opened
    opened.close()


def tabs(context: BrowserContext, cluster: Cluster) -> list[Page]:
    """Logged in in the first tab; then two more, the third on the other instance."""
    first = context.new_page()
    first.goto(cluster.gateways[0].url + "/home")
    first.get_by_test_id("header-login").click()
    popup = first.get_by_test_id("auth-popup")
    popup.locator("input[name=login]").fill(LOGIN)
    popup.locator("input[name=password]").fill(PASSWORD)
    popup.get_by_test_id("login-submit").click()
    expect(first.get_by_test_id("profile-name")).to_have_text(LOGIN)
    pages = [first]
    for url in (cluster.gateways[0].url, cluster.gateways[1].url):
        page = context.new_page()
        page.goto(url + "/home")
        pages.append(page)
    for page in pages:
        expect(page.get_by_test_id("balance-cash")).to_contain_text("500")
    return pages


def balance_calls(cluster: Cluster) -> int:
    return upstream_calls(cluster.sandbox.url, "balance")


def test_a_deposit_in_one_tab_shows_in_all_three_within_a_second_for_one_poll_an_interval(
    context: BrowserContext, cluster: Cluster
) -> None:
    pages = tabs(context, cluster)
    time.sleep(INTERVAL_S)
    before = balance_calls(cluster)
    time.sleep(5 * INTERVAL_S)
    polls = balance_calls(cluster) - before
    assert polls <= 6, f"{polls} platform balance calls in 5 intervals for three tabs"

    assert pages[2].evaluate(DEPOSIT_JS) is True  # in the tab on the other instance
    sent = time.monotonic()
    for page in pages:
        expect(page.get_by_test_id("balance-cash")).to_contain_text("1.500", timeout=3000)
    assert time.monotonic() - sent < 1.5, "every tab shows the deposit within a second (plus the test's own checks)"
    pages[0].screenshot(path=str(ARTIFACTS / "balance_stream_after_deposit.png"))


def test_logout_in_one_tab_ends_the_session_in_all(context: BrowserContext, cluster: Cluster) -> None:
    pages = tabs(context, cluster)
    time.sleep(1)
    pages[1].get_by_test_id("header-logout").click()
    for page in (pages[0], pages[2]):
        expect(page.get_by_test_id("notice-popup")).to_be_visible(timeout=3000)
    pages[2].screenshot(path=str(ARTIFACTS / "balance_stream_logout_elsewhere.png"))


def test_with_the_stream_refused_the_header_still_updates_by_polling(context: BrowserContext, cluster: Cluster) -> None:
    refused = {
        "status": 503,
        "content_type": "application/json",
        "body": '{"message":"No room","code":"STREAMS_FULL","requestId":"x"}',
    }
    context.route("**/bff/events", lambda route: route.fulfill(**refused))
    pages = tabs(context, cluster)
    assert pages[0].evaluate(DEPOSIT_JS) is True
    for page in pages:
        expect(page.get_by_test_id("balance-cash")).to_contain_text("1.500", timeout=25_000)

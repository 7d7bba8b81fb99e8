"""The overview's charts in Chromium with a slow platform that also refuses sessions: the p95 over a
second reads in seconds, the platform's refusals beside the 5xx rate and by code in the skin's row,
the values under the cursor,
a longer range picked; at 390, 768 and 1366 px nothing overflows or is cut off (screenshots in the
test artifacts: console-charts-<width>.png)."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor

import httpx
import pytest
from playwright.sync_api import expect

from tests.e2e.console.conftest import CONSOLE_KEYS, ConsoleTab, artifacts
from tests.e2e.layout import describe, run_checks
from tests.support.browser import Browser
from tests.support.cluster import Cluster

pytestmark = pytest.mark.redis
Tabs = Callable[..., ConsoleTab]
SLOW_MS = 1600


@pytest.fixture(scope="module")
def slow_and_refusing(cluster: Cluster) -> Iterator[None]:
    """Countries answered in 1.6 s and every balance call refused as SESSION_EXPIRED (HTTP 200) after
    as long, while visitors and players call them: the charts' latest step has a p95 over a second
    and refusals. The charts read their latest 10 s step, so the traffic ends with the players'
    slow refusals, together (visitors first): a visitor's call ending after them, alone in the next
    step, made the errors chart read 0 %."""
    control = httpx.Client(base_url=cluster.sandbox.url, timeout=30)
    control.put("/_sandbox/faults/getCountries", json={"latencyMs": SLOW_MS}).raise_for_status()
    control.put("/_sandbox/faults/balance", json={"sessionExpired": True, "latencyMs": SLOW_MS}).raise_for_status()
    try:

        def visit(n: int) -> None:
            visitor = Browser(cluster.gateways[n % 3].url, source=f"127.0.0.{10 + n}")
            visitor.post("/api/player/getCountries")
            visitor.close()

        def play(n: int) -> None:
            player = Browser(cluster.gateways[n % 3].url, source=f"127.0.0.{40 + n}")
            player.login()
            player.post("/api/cashier/balance")
            player.close()

        with ThreadPoolExecutor(8) as pool:
            list(pool.map(visit, range(16)))
            list(pool.map(play, range(3)))
        yield
    finally:
        control.delete("/_sandbox/faults/getCountries")
        control.delete("/_sandbox/faults/balance")
        control.close()


@pytest.mark.parametrize("width", [390, 768, 1366])
def test_the_charts_read_at_every_width(tabs: Tabs, slow_and_refusing: None, width: int) -> None:
    tab = tabs(0, viewport={"width": width, "height": 900}).signed_in("vera")
    page = tab.page
    p95 = page.get_by_test_id("chart-aurora-p95-latest")
    expect(p95).to_have_text(re.compile(r"^\d+(,\d)? s$"))  # "1,6 s": es, the console's default
    errors = page.get_by_test_id("chart-aurora-errors")
    expect(errors).to_contain_text("plataforma")
    expect(errors.get_by_test_id("chart-aurora-errors-value-1")).not_to_have_text("0 %")
    expect(page.get_by_test_id("platform-errors-aurora")).to_contain_text("SESSION_EXPIRED (lecturas)")
    upstreams = page.get_by_test_id("upstreams-aurora")  # its breakers were cut off at 390 px, behind a scroll
    fits = upstreams.evaluate("table => table.parentElement.scrollWidth <= table.parentElement.clientWidth")
    assert fits, "a skin's upstreams fit without scrolling sideways (a card each on a phone)"

    plot = page.get_by_test_id("chart-aurora-p95").locator(".u-over")  # uPlot's plotting area
    plot.scroll_into_view_if_needed()
    box = plot.bounding_box()
    assert box is not None
    page.mouse.move(box["x"] + box["width"] - 2, box["y"] + box["height"] / 2)  # over the latest step
    # The step under the cursor, in the one time format of the console (24-hour, its zone named).
    expect(page.get_by_test_id("chart-aurora-p95-at")).to_have_text(re.compile(r"^\d\d:\d\d:\d\d UTC$"))
    page.get_by_test_id("chart-aurora-p95").screenshot(path=str(artifacts(f"console-charts-p95-{width}.png")))
    page.mouse.move(0, 0)

    problems = [describe(p) for p in run_checks(page, CONSOLE_KEYS)]
    page.screenshot(path=str(artifacts(f"console-charts-{width}.png")), full_page=True)
    assert problems == []
    assert page.evaluate("document.documentElement.scrollWidth") <= width, "no horizontal scroll"

    with page.expect_response(lambda answer: "/admin/api/series?minutes=1440" in answer.url) as asked:
        page.get_by_test_id("range-1440").click()
    assert asked.value.json()["stepS"] == 120, "a day, in 2-minute steps"
    expect(page.get_by_test_id("range-1440")).to_have_attribute("aria-pressed", "true")

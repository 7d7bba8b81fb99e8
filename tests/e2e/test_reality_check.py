"""Issue 40: the session's clock and the reality check, on two gateway instances sharing one Redis.

A skin with `reality_check_minutes = 0.25` (15 s, the setting's least): three tabs of one player
(two on one instance, one on the other) read the same clock, open one reality check at the same
moment with the session's figures (a deposit made in the session, the balance's change since
sign-in), and answering it in one tab closes it in all three; at 390 px in es, pt and en nothing of
the check or the header is cut off."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from tests.e2e.conftest import ARTIFACTS, SPA_DIST
from tests.e2e.layout import SWEEP_CHECKS, describe, run_checks
from tests.e2e.test_balance_stream import DEPOSIT_JS
from tests.support.cluster import Cluster, extra_skin
from tests.support.fixtures import cluster_running

pytestmark = pytest.mark.redis

LOGIN, PASSWORD = "reality1", "reality-123"
PERIOD_S = 15
SKIN = extra_skin("checked", "Checked", 'currency_symbol = "Bs."', "features = { reality_check_minutes = 0.25 }")
TITLES = {"es": "Control de realidad", "pt": "Verificação de realidade", "en": "Reality check"}


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    env = {"SPA_DIST": str(SPA_DIST), "EVENTS_CONNECTS_PER_MINUTE": "1000"}
    with cluster_running(tmp_path_factory.mktemp("reality"), instances=2, env=env, extra_skins=SKIN) as running:
        yield running


def site(cluster: Cluster, instance: int) -> str:
    return cluster.gateways[instance].url.replace("127.0.0.1", "checked.localhost")


@pytest.fixture
def fresh_player(cluster: Cluster) -> None:
    with httpx.Client(base_url=cluster.sandbox.url) as control:
        control.post("/_sandbox/reset").raise_for_status()
        control.put("/_sandbox/config", json={"depositApprovalDelayS": 0.2})
        control.post("/_sandbox/sites/aurora/players", json={"login": LOGIN, "password": PASSWORD, "cash": "500"})


def new_context(browser: Browser, args: dict[str, Any], width: int, locale: str) -> BrowserContext:
    context = browser.new_context(**{**args, "viewport": {"width": width, "height": 844}})
    context.set_default_timeout(15_000)
    context.add_init_script(f"localStorage.setItem('locale', '{locale}')")
    return context


def log_in(page: Page, base: str) -> None:
    page.goto(base + "/home")
    page.get_by_test_id("header-login").click()
    popup = page.get_by_test_id("auth-popup")
    popup.locator("input[name=login]").fill(LOGIN)
    popup.locator("input[name=password]").fill(PASSWORD)
    popup.get_by_test_id("login-submit").click()
    expect(page.get_by_test_id("balance-cash")).to_contain_text("500")


def clocks(pages: list[Page]) -> list[str]:
    """The three clocks read as close together as can be (retried across a second's turn)."""
    for _ in range(5):
        read = [page.get_by_test_id("session-clock").inner_text() for page in pages]
        if len(set(read)) == 1:
            return read
    return read


def test_three_tabs_share_one_clock_and_one_reality_check_answered_once_for_all(
    browser: Browser, browser_context_args: dict[str, Any], cluster: Cluster, fresh_player: None
) -> None:
    context = new_context(browser, browser_context_args, 1366, "es")
    first = context.new_page()
    log_in(first, site(cluster, 0))
    signed_in = time.monotonic()
    assert first.evaluate(DEPOSIT_JS) is True
    time.sleep(4)  # the third tab opens well after the sign-in: its clock must not start at 0
    pages = [first]
    for instance in (0, 1):
        page = context.new_page()
        page.goto(site(cluster, instance) + "/home")
        pages.append(page)
    for page in pages:
        expect(page.get_by_test_id("session-clock")).to_be_visible()
    read = clocks(pages)
    assert len(set(read)) == 1, f"the tabs' clocks differ: {read}"
    assert read[0] >= "0:00:04", f"the clock counts from the tab, not from the sign-in: {read}"

    expect(pages[0].get_by_test_id("reality-check")).to_be_visible(timeout=(PERIOD_S + 10) * 1000)
    opened = time.monotonic()
    for page in pages[1:]:
        expect(page.get_by_test_id("reality-check")).to_be_visible(timeout=2_000)
    assert time.monotonic() - opened < 2.5, "the tabs did not open the check at the same time"
    assert opened - signed_in < PERIOD_S + 3
    for page in pages:
        expect(page.get_by_test_id("reality-time")).to_contain_text("0:00:15")
        expect(page.get_by_test_id("reality-deposits")).to_contain_text("Bs. 1.000,00")
        expect(page.get_by_test_id("reality-withdrawals")).to_contain_text("Bs. 0,00")
        expect(page.get_by_test_id("reality-change")).to_contain_text("+Bs. 1.000,00")
        assert page.locator("[data-testid=reality-check]").count() == 1  # never two
    ARTIFACTS.mkdir(exist_ok=True)
    for number, page in enumerate(pages):
        page.screenshot(path=str(ARTIFACTS / f"reality-tab{number + 1}.png"))

    pages[1].get_by_test_id("reality-continue").click()
    for page in pages:
        expect(page.get_by_test_id("reality-check")).to_be_hidden(timeout=3_000)
    late = context.new_page()
    late.goto(site(cluster, 1) + "/home")
    expect(late.get_by_test_id("session-clock")).to_be_visible()
    late.wait_for_timeout(1_500)
    assert late.get_by_test_id("reality-check").count() == 0, "a tab opened after the answer shows the check"
    context.close()


@pytest.mark.parametrize("locale", ["es", "pt", "en"])
def test_the_check_and_the_clock_fit_a_phone(
    browser: Browser, browser_context_args: dict[str, Any], cluster: Cluster, fresh_player: None, locale: str
) -> None:
    context = new_context(browser, browser_context_args, 390, locale)
    page = context.new_page()
    log_in(page, site(cluster, 0))
    page.goto(site(cluster, 0) + "/mybalance")  # an account page: the home's carousels scroll by design
    expect(page.get_by_test_id("session-clock")).to_be_visible()
    page.wait_for_load_state("networkidle")
    header = [describe(p) for p in run_checks(page, checks=(*SWEEP_CHECKS, "hidden"))]
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"reality-clock-390-{locale}.png"))
    dialog = page.get_by_test_id("reality-check")
    expect(dialog).to_be_visible(timeout=(PERIOD_S + 10) * 1000)
    expect(dialog).to_contain_text(TITLES[locale])
    page.wait_for_timeout(300)
    page.screenshot(path=str(ARTIFACTS / f"reality-390-{locale}.png"))
    problems = header + [describe(p) for p in run_checks(page, checks=(*SWEEP_CHECKS, "hidden"))]
    context.close()
    assert not problems, "\n".join(problems)

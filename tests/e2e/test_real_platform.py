"""The product against a platform served as a real one is (issue 35, item 3): the sandbox behind
Debian's nginx with gzip, keep-alive connections closed early (`keepalive_requests 3;
keepalive_timeout 1s`) and a sticky cookie that changes with every connection, then the same over
TLS on a CA this test makes, which the gateway trusts through `UPSTREAM_CA_FILE`.

One gateway serves both profiles, a skin each (`127.0.0.1` -> the plain nginx, `localhost` -> the
TLS one); the sandbox is reached only through them, except by the payment window, which goes to
the provider's page the sandbox serves at its public URL. In Chromium the player logs in, opens a
second tab, deposits, withdraws, cancels the withdrawal and logs out; both tabs' headers show
each new balance within 2 s of the money call."""

from __future__ import annotations

import itertools
import os
import re
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from tests.e2e.conftest import ARTIFACTS, SPA_DIST, Site
from tests.support.browser import Browser as Player
from tests.support.cluster import Process, gateway_process
from tests.support.fixtures import sandbox_url_fixture
from tests.support.nginx import Nginx, ServerCertificate, require_nginx, start_nginx
from tests.support.stack import free_port

pytestmark = [pytest.mark.e2e, pytest.mark.nginx]

PROFILES = {"gzip": "127.0.0.1", "gzip-tls": "localhost"}
"""Each profile's skin host: the name the browser (and the test's players) use for the gateway."""
SHOWN_WITHIN_S = 2.0
"""How soon after a money call every open tab's header shows the new balance."""


@dataclass
class RealPlatform:
    sandbox: Process
    fronts: dict[str, Nginx]
    """The nginx in front of the sandbox, by profile."""
    gateway: Process

    def site(self, profile: str) -> str:
        return self.gateway.url.replace("127.0.0.1", PROFILES[profile])

    def stop(self) -> None:
        for process in (self.gateway, self.sandbox):
            process.interrupt()
        for process in (self.gateway, self.sandbox):
            process.settle()
        for front in self.fronts.values():
            front.stop()


def skin(skin_id: str, host: str, upstream: str, provider: str) -> str:
    return f"""
[[skins]]
id = "{skin_id}"
site_id = "aurora"
name = "Aurora Casino"
hosts = ["{host}"]
currency = "INR"
currency_symbol = "Bs."
frame_hosts = ["{provider}"]
payment_hosts = ["{provider}"]
[skins.upstreams]
api = "{upstream}"
capi = "{upstream}"
sbapi = "{upstream}"
rest = "{upstream}"
"""


def start_sandbox(workdir: Path) -> Process:
    """The platform, whose payment pages are at its own (public) address."""
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    argv = [sys.executable, "-m", "sandbox", "--port", str(port), "--public-url", url, "--deposit-delay", "0.2"]
    sandbox = Process("sandbox", argv, {**os.environ}, url, workdir / "sandbox.log")
    sandbox.start("/_sandbox/health")
    return sandbox


def start_gateway(workdir: Path, skins: str, ca_file: Path) -> Process:
    (workdir / "skins.toml").write_text(skins)
    port = free_port()
    env = {
        **os.environ,
        "SKINS_FILE": str(workdir / "skins.toml"),
        "UPSTREAM_CA_FILE": str(ca_file),
        "SPA_DIST": str(SPA_DIST),
        "GATEWAY_ENV": "development",
        "LOG_FORMAT": "json",
        "CONFIG_HISTORY_FILE": str(workdir / "history.jsonl"),
        "EVENTS_INTERVAL_S": "2",
        "EVENTS_CONNECTS_PER_MINUTE": "1000",
    }
    gateway = gateway_process(workdir, env, port=port)
    gateway.start("/bff/health")
    return gateway


# Session-scoped though only this module uses it: pytest runs the browser-parametrized tests
# apart from the others, and a module fixture would start everything twice (15 s on this machine).
@pytest.fixture(scope="session")
def platform(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RealPlatform]:
    require_nginx()
    workdir = tmp_path_factory.mktemp("real-platform")
    sandbox = start_sandbox(workdir)
    certificate = ServerCertificate.issue(workdir)
    fronts = {"gzip": start_nginx(sandbox.url), "gzip-tls": start_nginx(sandbox.url, certificate)}
    skins = "".join(
        skin(f"aurora-{profile}", PROFILES[profile], front.url, sandbox.url) for profile, front in fronts.items()
    )
    running = RealPlatform(sandbox, fronts, start_gateway(workdir, skins, certificate.ca_file))
    yield running
    running.stop()
    ARTIFACTS.mkdir(exist_ok=True)
    (ARTIFACTS / "real-platform-gateway.log").write_text(running.gateway.log.read_text())
    for profile, front in running.fronts.items():
        (ARTIFACTS / f"real-platform-nginx-{profile}.log").write_text(front.errors()[-20_000:])


sandbox_url = sandbox_url_fixture("platform")
"""Where `control` (tests/conftest.py) reaches the sandbox: directly, not through nginx."""


@pytest.fixture
def context(browser: Browser, browser_context_args: dict[str, Any], control: httpx.Client) -> Iterator[BrowserContext]:
    opened = browser.new_context(**browser_context_args)
    opened.set_default_timeout(15_000)
    yield opened
    opened.close()


def logged_in_tabs(context: BrowserContext, site: str) -> list[Page]:
    """demo1 logged in in the first tab; a second tab of the same session beside it."""
    tab = Site(site, context.new_page())
    first = tab.open("/home")
    tab.log_in()
    expect(first.get_by_test_id("profile-name")).to_have_text("demo1")
    second = context.new_page()
    second.goto(site + "/home")
    return [first, second]


def shown_in_every_tab(pages: list[Page], balance: str, since: float) -> None:
    """Every tab's header shows `balance` within `SHOWN_WITHIN_S` of `since` (the money call)."""
    deadline = since + SHOWN_WITHIN_S
    for n, page in enumerate(pages, 1):
        left_ms = max(50.0, (deadline - time.monotonic()) * 1000)
        header = expect(page.get_by_test_id("balance-cash"), f"tab {n} shows {balance} within {SHOWN_WITHIN_S:g} s")
        header.to_have_text(balance, timeout=left_ms)


def deposit(page: Page, site: str, profile: str) -> float:
    """500 by PhonePe (method 328): the provider's page opens in a new window. When it was asked."""
    page.goto(site + "/deposit")
    page.get_by_test_id("deposit-method-328").click()
    page.get_by_test_id("pay-method-phone_pe").click()
    form = page.get_by_test_id("deposit-form-328")
    form.locator("[name=amount]").fill("500")
    with page.expect_popup() as opened:
        form.get_by_test_id("deposit-submit").click()
    asked = time.monotonic()
    payment = opened.value
    expect(payment).to_have_url(re.compile(r"/_sandbox/pay/"), timeout=10_000)  # not left on /bff/pay
    expect(payment.locator(".amount")).to_contain_text("500")  # the provider's page, for this deposit
    payment.screenshot(path=artifact(profile, "provider_page"))
    return asked


def withdraw(page: Page, site: str) -> float:
    """3500 to Mercado Pago (form B). When it was asked."""
    page.goto(site + "/withdraw")
    page.get_by_test_id("withdraw-method-mercado").click()
    form = page.get_by_test_id("withdraw-form-formB")
    fields = {"name": "Demo", "cbu": "0000003100012345678901", "alias": "demo.mp", "phone": "1155550000"}
    for name, value in {**fields, "amount": "3500"}.items():
        form.locator(f"[name={name}]").fill(value)
    form.get_by_test_id("withdraw-submit").click()
    asked = time.monotonic()
    page.get_by_test_id("notice-ok").click()
    expect(page.get_by_test_id("open-withdrawals")).to_contain_text("Bs. 3.500,00")
    return asked


def cancel_withdrawal(page: Page) -> float:
    page.get_by_test_id("open-withdrawals").get_by_test_id("withdraw-cancel").last.click()
    return time.monotonic()


def artifact(profile: str, step: str) -> str:
    ARTIFACTS.mkdir(exist_ok=True)
    return str(ARTIFACTS / f"real_platform_{profile}_{step}.png")


@pytest.mark.parametrize("profile", list(PROFILES))
def test_the_cashier_journey_and_the_balance_in_every_tab_hold_behind_nginx(
    platform: RealPlatform, context: BrowserContext, profile: str
) -> None:
    site, front = platform.site(profile), platform.fronts[profile]
    pages = logged_in_tabs(context, site)
    shown_in_every_tab(pages, "Bs. 5.000,00", time.monotonic())

    shown_in_every_tab(pages, "Bs. 5.500,00", deposit(pages[0], site, profile))
    pages[0].screenshot(path=artifact(profile, "deposit"))
    shown_in_every_tab(pages, "Bs. 2.000,00", withdraw(pages[0], site))
    shown_in_every_tab(pages, "Bs. 5.500,00", cancel_withdrawal(pages[0]))
    expect(pages[0].get_by_test_id("open-withdrawals").filter(has_text="Bs. 3.500,00")).to_have_count(0)
    pages[1].screenshot(path=artifact(profile, "second_tab"))

    pages[1].get_by_test_id("header-logout").click()
    expect(pages[1].get_by_test_id("header-login")).to_be_visible()
    expect(pages[0].get_by_test_id("notice-popup")).to_be_visible(timeout=5000)  # the session ended everywhere
    pages[0].screenshot(path=artifact(profile, "logged_out"))
    went_through(front)
    log = platform.gateway.log.read_text()
    assert '"status":50' not in log, "no call failed behind nginx (its keep-alive closes included)"


def went_through(front: Nginx) -> None:
    """What the journey met at nginx: compressed answers, connections closed every 3 requests,
    the upstream's host name in every TLS hello, and the balancer's cookie, changing, sent back on the
    player's calls."""
    seen = front.requests()
    if front.url.startswith("https:"):
        assert {r["sni"] for r in seen} == {"localhost"}, "SNI by the upstream's host name"
    assert any(r["uri"] == "/api/player/logout" and r["status"] == "200" for r in seen), "logout reached the platform"
    assert any(r["uri"] == "/api/cashier/balance" and r["encoding"] == "gzip" for r in seen), "balances came gzipped"
    assert max(int(r["request"]) for r in seen) <= 3 and len({r["connection"] for r in seen}) > 3
    player = [r for r in seen if r["player"] == "yes"]
    set_before = {r["setSticky"] for r in seen}
    assert all(r["sticky"] in set_before for r in player), "every player call carried a cookie the balancer set"
    assert len({r["sticky"] for r in player}) > 1, "the cookie changed mid-session and its new value went back"


def test_the_balancers_cookie_is_kept_per_player_session_and_follows_its_changes(
    platform: RealPlatform, control: httpx.Client
) -> None:
    """Two players' calls interleaved through nginx, which sets a new `SERVERID` on every
    connection: each call carries the value the player's own previous answer set."""
    control.post("/_sandbox/sites/aurora/players", json={"login": "sticky2", "password": "sticky-123", "cash": "10"})
    site, front = platform.site("gzip"), platform.fronts["gzip"]
    players = {"demo1": Player(site), "sticky2": Player(site)}
    try:
        players["demo1"].login()
        players["sticky2"].login("sticky2", "sticky-123")
        for n in range(6):
            for name, player in players.items():
                asked = player.post("/api/cashier/balance", headers={"x-request-id": f"sticky-{name}-{n}"})
                assert asked.status_code == 200, asked.text
    finally:
        for player in players.values():
            player.close()
    for name in players:
        calls = [r for r in front.requests() if r["requestId"].startswith(f"sticky-{name}-")]
        assert len(calls) == 6
        for before, after in itertools.pairwise(calls):
            assert after["sticky"] == before["setSticky"], (name, before, after)
        assert len({r["sticky"] for r in calls}) > 1, "nginx changed the cookie mid-session"

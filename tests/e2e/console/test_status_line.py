"""The console's status line and event timeline in Chromium, on the cluster of three instances
sharing one Redis: every skin healthy, then the platform stopped: the line, the page's title and
its icon say so within 10 s on every screen; at 390, 768 and 1366 px in es, pt and en it fits;
once the platform is back, the timeline keeps when it went down and when it came back."""

from __future__ import annotations

import signal
import time
from collections.abc import Callable, Iterator

import pytest
from playwright.sync_api import expect

from tests.e2e.console.conftest import ConsoleTab, admin_api
from tests.e2e.console.test_console_layout import Sweep
from tests.support.cluster import Cluster

pytestmark = pytest.mark.redis
WITHIN_S = 10.0
HEADLINE = {"es": "aurora caída", "pt": "aurora fora do ar", "en": "aurora down"}
EVENTS = {"es": "Eventos", "pt": "Eventos", "en": "Events"}


class Outage:
    """The platform (the sandbox) stopped, and started again on the same port."""

    def __init__(self, cluster: Cluster) -> None:
        self.cluster = cluster
        self.stopped_at: float | None = None
        self.since = 0
        """When it last stopped, epoch seconds (the timeline's filter: this outage's entries)."""

    def stop(self) -> None:
        self.cluster.sandbox.kill()
        self.stopped_at, self.since = time.monotonic(), int(time.time()) - 1

    def end(self) -> None:
        if self.stopped_at is not None:
            self.cluster.sandbox.start("/_sandbox/health")
            self.stopped_at = None

    def left_s(self) -> float:
        """What is left of the 10 s the console has to say so."""
        assert self.stopped_at is not None
        return max(0.5, WITHIN_S - (time.monotonic() - self.stopped_at))


@pytest.fixture(scope="module")
def outage(cluster: Cluster) -> Iterator[Outage]:
    stopped = Outage(cluster)
    yield stopped
    stopped.end()  # the package's next tests get their platform back


def test_every_skin_healthy_is_said_with_a_green_icon(tabs: Callable[..., ConsoleTab], cluster: Cluster) -> None:
    tab = tabs(1).signed_in("vera")
    line = tab.page.get_by_test_id("status-line")
    expect(line).to_have_attribute("data-level", "ok", timeout=WITHIN_S * 1000)
    expect(line.get_by_test_id("status-headline")).to_have_text("Todas las marcas funcionan")
    expect(line.get_by_test_id("status-store")).to_have_text("Almacén Redis: responde")
    expect(tab.page).to_have_title("Consola de operadores")
    expect(tab.page.locator("link[rel~='icon']")).to_have_attribute("data-level", "ok")


def test_an_instance_frozen_with_sigstop_is_named_stale_within_10_s(
    tabs: Callable[..., ConsoleTab], cluster: Cluster
) -> None:
    frozen = cluster.gateways[2]
    assert frozen.process is not None
    own = admin_api(cluster, 2, "GET", "/admin/api/instances").json()["instances"][0]["id"]
    tab = tabs(0, viewport={"width": 390, "height": 844}).signed_in("vera", "instances")
    frozen.process.send_signal(signal.SIGSTOP)
    try:
        line = tab.page.get_by_test_id("status-line")
        expect(line.get_by_test_id("status-headline")).to_have_text(
            f"instancia {own} sin latido", timeout=WITHIN_S * 1000
        )
        expect(tab.page).to_have_title(f"⚠ instancia {own} sin latido · Consola de operadores")
        expect(tab.page.locator("link[rel~='icon']")).to_have_attribute("data-level", "degraded")
        row = tab.page.locator("[data-testid=instance][data-state=stale]")
        expect(row).to_contain_text(own, timeout=WITHIN_S * 1000)
        tab.screenshot("status-instance-stale-390")
    finally:
        frozen.process.send_signal(signal.SIGCONT)
    expect(tab.page.get_by_test_id("status-line")).to_have_attribute("data-level", "ok", timeout=WITHIN_S * 1000)
    expect(tab.page.locator("[data-testid=instance][data-state=stale]")).to_have_count(0)


def test_the_platform_stopped_is_on_the_status_line_and_in_the_title_within_10_s(
    tabs: Callable[..., ConsoleTab], outage: Outage
) -> None:
    tab = tabs(0).signed_in("vera", "history")  # any screen: the line is on every one
    expect(tab.page.get_by_test_id("status-line")).to_have_attribute("data-level", "ok")
    outage.stop()
    line = tab.page.get_by_test_id("status-line")
    expect(line).to_have_attribute("data-level", "down", timeout=outage.left_s() * 1000)
    expect(line.get_by_test_id("status-headline")).to_have_text("aurora caída")
    expect(line.get_by_test_id("status-problem").first).to_contain_text("aurora: api, capi, sbapi, rest caído desde")
    expect(tab.page).to_have_title("⛔ aurora caída · Consola de operadores", timeout=outage.left_s() * 1000)
    expect(tab.page.locator("link[rel~='icon']")).to_have_attribute("data-level", "down")
    tab.screenshot("status-line-down")


@pytest.mark.parametrize("language", ["es", "pt", "en"])
@pytest.mark.parametrize("width", [390, 768, 1366])
def test_the_status_line_and_the_timeline_fit_every_width_in_every_language(
    tabs: Callable[..., ConsoleTab], outage: Outage, width: int, language: str
) -> None:
    if outage.stopped_at is None:
        outage.stop()
    tab = tabs(2, viewport={"width": width, "height": 800})
    tab.page.add_init_script(f"localStorage.setItem('console-locale', '{language}')")
    sweep = Sweep(tab, width, language)
    tab.signed_in("ada")
    line = tab.page.get_by_test_id("status-line")
    expect(line.get_by_test_id("status-headline")).to_have_text(HEADLINE[language], timeout=WITHIN_S * 1000)
    sweep.check("overview with the platform down")
    tab.screenshot(f"status-overview-{width}-{language}")
    tab.page.get_by_test_id("events-aurora").click()  # the link beside aurora's charts
    expect(tab.page.get_by_test_id("event").first).to_be_visible()
    expect(tab.page.get_by_role("heading", level=1)).to_have_text(EVENTS[language])
    sweep.check("events with the platform down")
    tab.screenshot(f"status-events-{width}-{language}")
    tab.go("instances")
    sweep.check("instances")
    assert not sweep.problems, "\n".join(sweep.problems)


def test_once_the_platform_is_back_the_timeline_keeps_down_at_and_back_at(
    tabs: Callable[..., ConsoleTab], cluster: Cluster, outage: Outage
) -> None:
    if outage.stopped_at is None:
        outage.stop()
        time.sleep(WITHIN_S)
    tab = tabs(1).signed_in("vera", f"events?skin=aurora&since={outage.since}")
    expect(tab.page.locator("[data-testid=event][data-kind='upstream.down']")).to_have_count(4)
    outage.end()
    line = tab.page.get_by_test_id("status-line")
    expect(line).to_have_attribute("data-level", "ok", timeout=WITHIN_S * 1000)
    expect(tab.page).to_have_title("Consola de operadores")
    back = tab.page.locator("[data-testid=event][data-kind='upstream.back']")
    expect(back).to_have_count(4, timeout=WITHIN_S * 1000)
    expect(back.first).to_contain_text("de vuelta; caído desde")
    expect(back.first).to_contain_text(", de vuelta a las")
    expect(tab.page.locator("[data-testid=event][data-kind='upstream.down']")).to_have_count(4)
    downs = admin_api(cluster, 2, "GET", f"/admin/api/events?skin=aurora&since={outage.since}").json()["entries"]
    assert sum(1 for e in downs if e["kind"] == "upstream.down") == 4, "once each, though three instances saw it"
    tab.screenshot("status-events-back")

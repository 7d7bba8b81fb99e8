"""A skin's reality check changed in the console, in Chromium, at 1366 and 390 px: the overview
shows it off, the dialog previews and applies a new period with a reason, the overview shows the
new version and period, the history and the audit trail name it; nothing overflows or is cut off
(tests/e2e/layout_checks.js), and the screenshots are kept to look at."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

import pytest
from playwright.sync_api import expect

from tests.e2e.console.conftest import CONSOLE_KEYS, ConsoleTab, admin_api
from tests.e2e.layout import describe, run_checks
from tests.support.cluster import Cluster

pytestmark = pytest.mark.redis


def config_version(cluster: Cluster) -> str:
    return str(admin_api(cluster, 0, "GET", "/admin/api/overview").json()["config"]["version"])


@pytest.fixture
def reality_off(cluster: Cluster) -> Iterator[None]:
    """aurora's reality check back off after the test (the other tests know it so)."""
    yield
    body = {"skin": "aurora", "setting": "reality_check_minutes", "value": None, "reason": "back off"}
    answer = admin_api(cluster, 0, "POST", "/admin/api/settings", {**body, "baseVersion": config_version(cluster)})
    assert answer.status_code in (200, 422), answer.text  # 422: it already was


def fits(tab: ConsoleTab, width: int, where: str) -> list[str]:
    problems = [f"{where}: {describe(p)}" for p in run_checks(tab.page, CONSOLE_KEYS)]
    if tab.page.evaluate("document.documentElement.scrollWidth") > width:
        problems.append(f"{where}: the page scrolls sideways")
    return problems


@pytest.mark.parametrize("width", [1366, 390])
def test_an_operator_sets_auroras_reality_check_and_sees_the_version_and_the_audit_entry(
    tabs: Callable[..., ConsoleTab], cluster: Cluster, width: int, reality_off: None
) -> None:
    tab = tabs(0, viewport={"width": width, "height": 900}).signed_in("otto")
    page, problems = tab.page, []
    line = page.get_by_test_id("reality-aurora")
    expect(line).to_contain_text("Control de realidad: desactivado")
    before = config_version(cluster)

    line.get_by_test_id("reality-open").click()
    dialog = page.get_by_test_id("reality-dialog")
    dialog.get_by_label("Cada cuántos minutos de sesión").fill("5000")
    dialog.get_by_test_id("reality-preview").click()
    expect(dialog.get_by_test_id("value-error")).to_have_text("De 0,25 a 1440 minutos, o vacío o 0 para desactivarlo.")
    tab.screenshot(f"reality-refused-{width}")
    problems += fits(tab, width, "the refused minutes")

    dialog.get_by_label("Cada cuántos minutos de sesión").fill("60")
    dialog.get_by_test_id("reality-preview").click()
    diff = dialog.get_by_test_id("write-preview").get_by_test_id("changes-diff")
    expect(diff).to_contain_text("Control de realidad")
    expect(diff).to_contain_text("cada 60 minutos")
    tab.screenshot(f"reality-preview-{width}")
    problems += fits(tab, width, "the preview")
    tab.apply(dialog, "responsible gaming pilot")
    expect(dialog.get_by_test_id("live-count")).to_contain_text("3/3")
    tab.screenshot(f"reality-applied-{width}")
    dialog.get_by_test_id("write-done").click()

    made = config_version(cluster)
    assert made != before
    expect(line.get_by_test_id("reality-value")).to_have_text("cada 60 minutos")
    expect(page.get_by_test_id("config-version")).to_contain_text(made[:9])
    tab.screenshot(f"reality-overview-{width}")
    problems += fits(tab, width, "the overview")

    tab.go("history")
    newest = page.get_by_test_id("history-version").first
    expect(newest).to_have_attribute("data-version", made)
    expect(newest).to_contain_text("Control de realidad")
    expect(newest).to_contain_text("responsible gaming pilot")
    tab.screenshot(f"reality-history-{width}")
    problems += fits(tab, width, "the history")

    tab.go("audit")
    entry = page.get_by_test_id("audit-entry").filter(has_text="responsible gaming pilot").first
    expect(entry).to_have_attribute("data-action", "change")
    expect(entry).to_have_attribute("data-who", "otto")
    expect(entry).to_contain_text(re.compile(r"off.*60"))
    entry.scroll_into_view_if_needed()
    tab.screenshot(f"reality-audit-{width}")
    problems += fits(tab, width, "the audit trail")
    assert problems == []

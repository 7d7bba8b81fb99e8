"""Every screen and dialog of the console at 1366, 768 and 390 px, in es, pt and en: no overflow, no
overlap, no control cut at the edge, no untranslated key (tests/e2e/layout_checks.js), and no
serious or critical axe-core violation (labels, contrast, roles). `CONSOLE_TOUR=1` also writes the
screenshots of docs/operations.md (English, 1366 px) to docs/console/; `CONSOLE_SHOTS=<dir>` writes every screen of
the sweep there, to look at."""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterator

import httpx
import pytest
from playwright.sync_api import Page, expect

from tests.e2e.conftest import axe_violations
from tests.e2e.console.conftest import CONSOLE_KEYS, ConsoleTab, admin_api, back_to_file, other_url
from tests.e2e.layout import Network, describe, run_checks
from tests.support.cluster import Cluster
from tests.support.stack import ROOT

pytestmark = pytest.mark.redis
TOUR = ROOT / "docs" / "console"
URL_LABEL = {"es": "Nueva URL base", "pt": "Nova URL base", "en": "New base URL"}
REASON = {"es": "^Motivo", "pt": "^Motivo", "en": "^Reason"}


@pytest.fixture(scope="module")
def two_versions(cluster: Cluster) -> Iterator[None]:
    """A change made through the API, so the history has a version to roll back to; and some
    players' traffic, so the charts have figures to draw."""
    answer = admin_api(cluster, 0, "PUT", "/admin/skins/aurora/upstreams/capi", {"url": other_url(cluster)})
    assert answer.status_code == 200, answer.text
    with httpx.Client(timeout=10) as http:
        for n in range(150):
            http.get(cluster.gateways[n % 3].url + ("/home" if n % 2 else "/capi/home-banners"))
    yield
    back_to_file(cluster, "capi")


class Sweep:
    """One width and language: each screen checked once it has settled; problems collected."""

    def __init__(self, tab: ConsoleTab, width: int, language: str) -> None:
        self.tab, self.page, self.width, self.language = tab, tab.page, width, language
        self.network = Network(tab.page)
        self.problems: list[str] = []

    def check(self, screen: str, tour: str | None = None) -> None:
        self.network.settle(quiet=0.3)
        where = f"{screen} at {self.width}px in {self.language}"
        self.problems += [f"{where}: {describe(p)}" for p in run_checks(self.page, CONSOLE_KEYS)]
        violations = axe_violations(self.page)
        self.problems += [f"{where}: axe {v['id']}: {v['help']} ({len(v['nodes'])}x)" for v in violations]
        if shots := os.environ.get("CONSOLE_SHOTS"):  # every screen of the sweep, to look at
            name = f"{self.width}-{self.language}-{re.sub(r'[^a-z0-9]+', '-', screen)}.png"
            self.page.screenshot(path=f"{shots}/{name}", full_page=True)
        if tour and os.environ.get("CONSOLE_TOUR") == "1" and self.language == "en" and self.width == 1366:
            TOUR.mkdir(parents=True, exist_ok=True)
            self.page.screenshot(path=str(TOUR / f"{tour}.png"))

    def close_dialog(self) -> None:
        self.page.keyboard.press("Escape")
        expect(self.page.get_by_role("dialog")).to_have_count(0)


def walk(sweep: Sweep, cluster: Cluster) -> None:
    tab, page, lng = sweep.tab, sweep.page, sweep.language
    tab.open()
    expect(page.get_by_test_id("signin-screen")).to_be_visible()
    sweep.check("sign-in", "01-sign-in")
    tab.sign_in("ada")
    expect(tab.upstream("api")).to_be_visible()
    sweep.check("overview", "02-overview")

    dialog = tab.change_dialog("api")
    dialog.get_by_label(URL_LABEL[lng]).fill(other_url(cluster))
    dialog.get_by_test_id("change-preview").click()
    dialog.get_by_test_id("write-preview").wait_for()
    dialog.get_by_label(re.compile(REASON[lng])).fill("wallet moves to the new host")
    sweep.check("change preview", "03-change-preview")
    # The same change as a canary: its steps and its thresholds unfolded; then back to Apply.
    dialog.get_by_test_id("write-canary").click()
    dialog.get_by_test_id("canary-thresholds").locator("summary").click()
    sweep.check("canary start", "03b-canary-start")
    dialog.get_by_test_id("canary-back").click()
    # Someone else's change lands meanwhile: the 409 and its diff, then again from the current version.
    moved = {"url": other_url(cluster, "/v9"), "override": {"reason": "the sandbox under a path fails the check"}}
    theirs = admin_api(cluster, 1, "PUT", "/admin/skins/aurora/upstreams/api", moved)
    assert theirs.status_code == 200, theirs.text
    dialog.get_by_test_id("write-apply").click()
    dialog.get_by_test_id("write-conflict").wait_for()
    sweep.check("conflict", "04-conflict")
    dialog.get_by_test_id("write-restart").click()
    dialog.get_by_test_id("change-preview").click()
    dialog.get_by_test_id("write-preview").wait_for()
    dialog.get_by_test_id("write-apply").click()
    expect(dialog.get_by_test_id("live-count")).to_contain_text("3/3")
    sweep.check("live", "05-live")
    dialog.get_by_test_id("write-done").click()
    back_to_file(cluster, "api")
    for opener in ("purge-open", "revoke-open"):
        page.get_by_test_id(opener).first.click()
        sweep.check(opener)
        sweep.close_dialog()
    # A mistyped login: the answer is an amber "no session found", and it fits too.
    page.get_by_test_id("revoke-open").first.click()
    revoke = page.get_by_test_id("revoke-dialog")
    revoke.locator("input[name=login]").fill(f"nobody-{sweep.width}-{lng}")
    revoke.get_by_label(re.compile(REASON[lng])).fill("checking a login before ending it")
    revoke.get_by_test_id("action-confirm").click()
    expect(revoke.get_by_test_id("action-done")).to_have_attribute("data-tone", "warn")
    sweep.check("revoke, no session found")
    sweep.close_dialog()

    tab.go("instances")
    sweep.check("instances", "06-instances")
    tab.go("history")
    sweep.check("history", "07-history")
    page.get_by_test_id("rollback-open").first.click()
    page.get_by_test_id("rollback-dialog").get_by_test_id("write-preview").wait_for()
    sweep.check("rollback preview", "08-rollback-preview")
    sweep.close_dialog()
    tab.go("audit")
    expect(page.get_by_test_id("audit-entry").first).to_be_visible()
    sweep.check("audit", "09-audit")
    tab.go("plans")
    expect(page.get_by_test_id("maintenance-aurora")).to_be_visible()
    sweep.check("planned", "12-planned")
    walk_canary(sweep, cluster)


def walk_canary(sweep: Sweep, cluster: Cluster) -> None:
    """A canary started through the API (its checks find too few answers: nobody plays): the status
    line naming it, the list, its view, the abort's dialog, and the view once it has ended."""
    tab, page = sweep.tab, sweep.page
    version = admin_api(cluster, 0, "GET", "/admin/api/overview").json()["config"]["version"]
    body = {"skin": "aurora", "upstream": "api", "url": other_url(cluster), "baseVersion": version,
            "reason": "the layout sweep's canary", "thresholds": {"checkEveryS": 1}}  # fmt: skip
    started = admin_api(cluster, 0, "POST", "/admin/api/canaries", body)
    assert started.status_code == 201, started.text
    link = page.locator(f"a[href$='/canaries/{started.json()['canary']['id']}']")
    tab.go("canaries")
    expect(page.get_by_test_id("status-canary")).to_be_visible()
    expect(page.get_by_test_id("canary-row").filter(has=link)).to_have_attribute("data-state", "running")
    sweep.check("canaries", "10-canaries")
    page.get_by_test_id("canary-row").filter(has=link).get_by_role("link").click()
    expect(page.get_by_test_id("canary-verdict").first).to_be_visible(timeout=20_000)
    sweep.check("canary", "11-canary")
    page.get_by_test_id("canary-abort").click()
    sweep.check("canary abort")
    dialog = page.get_by_test_id("canary-action-dialog")
    dialog.get_by_label(re.compile(REASON[sweep.language])).fill("the sweep is done with it")
    dialog.get_by_test_id("canary-action-confirm").click()
    expect(page.get_by_test_id("canary-end")).to_be_visible()
    sweep.check("canary ended")


@pytest.mark.parametrize("language", ["es", "pt", "en"])
@pytest.mark.parametrize("width", [1366, 768, 390])
def test_every_screen_fits_and_is_accessible(
    tabs: Callable[..., ConsoleTab], cluster: Cluster, two_versions: None, width: int, language: str
) -> None:
    tab = tabs(0, viewport={"width": width, "height": 800})
    tab.page.add_init_script(f"localStorage.setItem('console-locale', '{language}')")
    sweep = Sweep(tab, width, language)
    walk(sweep, cluster)
    assert not sweep.problems, "\n".join(sweep.problems)


def test_the_language_is_the_operators_choice(tabs: Callable[..., ConsoleTab]) -> None:
    tab = tabs(1).signed_in("vera")
    page: Page = tab.page
    page.get_by_test_id("language").select_option("pt")
    expect(page.get_by_test_id("nav-overview")).to_have_text("Resumo")
    expect(page.locator("html")).to_have_attribute("lang", "pt")
    page.reload()
    expect(page.get_by_test_id("nav-instances")).to_have_text("Instâncias")


def test_a_failed_platform_check_and_its_override_fit_a_phone(
    tabs: Callable[..., ConsoleTab], cluster: Cluster
) -> None:
    """At 390 px: the check's summary, the failing calls and their reasons, the override and its reason."""
    tab = tabs(0, viewport={"width": 390, "height": 844})
    sweep = Sweep(tab, 390, "es")
    tab.signed_in("ada")
    dialog = tab.change_dialog("capi")
    preview = tab.preview(dialog, other_url(cluster, "/v2"))
    expect(preview.get_by_test_id("contract-summary")).to_have_text(
        "No habla la plataforma: 0/9 llamadas documentadas válidas"
    )
    expect(preview.get_by_test_id("contract-failures")).to_contain_text("homeBanners")
    dialog.get_by_test_id("override-check").check()
    dialog.get_by_label(re.compile("^Por qué se aplica igualmente")).fill("the CMS moves under /v2 tonight")
    dialog.get_by_label(re.compile("^Motivo")).fill("capi under its new path")
    sweep.check("failed check with override")
    tab.screenshot("contract-override-390")
    assert not sweep.problems, "\n".join(sweep.problems)

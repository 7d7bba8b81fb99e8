"""A canary in the operators' console, in Chromium, on the cluster of three instances sharing one
Redis, to a second sandbox while visitors read on every instance: an operator starts the change
of aurora's `api` as a canary from its preview (two steps: half the visitors for three seconds,
then all of them), watches both platforms' figures and the step move by itself, pauses, resumes and
aborts it, each with a reason; the status line names it while it is live; the trail shows the
start, the step, the pause, the resume and the abort, and the configuration never changed."""

from __future__ import annotations

import contextlib
import itertools
import re
import threading
from collections.abc import Callable, Iterator

import httpx
import pytest
from playwright.sync_api import Locator, expect

from tests.e2e.console.conftest import ConsoleTab, admin_api, artifacts, upstream_urls
from tests.support.browser import Browser
from tests.support.cluster import Cluster, Process, another_sandbox

pytestmark = pytest.mark.redis
PROVIDERS = "/api/agentAccount/getProviders"
STEP_MOVES_S = 45
"""Three seconds held, then a passed check of whole 5 s figure slots written by every instance."""


@pytest.fixture(scope="module")
def new_platform(cluster: Cluster, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Process]:
    """The canary's new platform: a second sandbox, with its own players and call counts."""
    sandbox = another_sandbox(tmp_path_factory.mktemp("canary-new"))
    yield sandbox
    for canary in admin_api(cluster, 0, "GET", "/admin/api/canaries").json()["canaries"]:
        if canary["state"] in ("running", "paused"):  # a failed test's canary ends here, not in the next test
            admin_api(cluster, 0, "POST", f"/admin/api/canaries/{canary['id']}/abort", {"reason": "test teardown"})
    sandbox.stop()


@contextlib.contextmanager
def visitors(cluster: Cluster, count: int = 20) -> Iterator[None]:
    """Visitors (each its own cookie, so each its own side) asking for the payment providers on
    every instance in turn, until the block ends: the figures both sides are judged on."""
    stopped = threading.Event()

    def read() -> None:
        browsers = [Browser(*(g.url for g in cluster.gateways)) for _ in range(count)]
        for n in itertools.count():
            if stopped.wait(0.02):
                break
            with contextlib.suppress(httpx.HTTPError):
                browsers[n % count].post(PROVIDERS, on=n % len(cluster.gateways))
        for browser in browsers:
            browser.close()

    reader = threading.Thread(target=read)
    reader.start()
    try:
        yield
    finally:
        stopped.set()
        reader.join(10)


def start_from_the_preview(tab: ConsoleTab, url: str) -> None:
    """The api change previewed, started as a canary: 50 % for 3 s, then 100 %; judged every second."""
    dialog = tab.change_dialog("api")
    tab.preview(dialog, url)
    dialog.get_by_test_id("write-canary").click()
    form = dialog.get_by_test_id("canary-start")
    expect(form.get_by_label("Parte de jugadores (%)")).to_have_count(4)
    for _ in range(2):  # 1 % and 10 % out: 50 % and 100 % left
        form.get_by_test_id("canary-step-remove").first.click()
    form.get_by_label("Durante (minutos)").first.fill("0,05")
    form.get_by_text(re.compile("^Avanzado")).click()
    form.get_by_label("Una comprobación cada (segundos)").fill("1")
    form.get_by_label("Mínimo de respuestas para juzgar").fill("3")
    form.get_by_label(re.compile("^Motivo")).fill("the new wallet platform, half the visitors first")
    shot(tab, "canary-start-form")
    form.get_by_test_id("canary-submit").click()
    started = dialog.get_by_test_id("canary-started")
    expect(started).to_contain_text("Canario iniciado: 50 % de los jugadores nuevos")
    started.get_by_test_id("canary-watch").click()


def act(tab: ConsoleTab, action: str, reason: str) -> None:
    tab.page.get_by_test_id(f"canary-{action}").click()
    dialog = tab.page.get_by_test_id("canary-action-dialog")
    dialog.get_by_label(re.compile("^Motivo")).fill(reason)
    dialog.get_by_test_id("canary-action-confirm").click()
    expect(dialog).to_have_count(0)


def shot(tab: ConsoleTab, name: str) -> None:
    """The whole page (the view is longer than the window), to look at."""
    tab.page.screenshot(path=str(artifacts(f"console-{name}.png")), full_page=True)


def count(cell: Locator) -> int:
    """A count as the console writes it (es: "1234", "12 345")."""
    return int(re.sub(r"\D", "", cell.inner_text()))


def trail_row(tab: ConsoleTab, action: str) -> Locator:
    return tab.page.locator(f"[data-testid=audit-entry][data-action={action}]")


def test_an_operator_starts_watches_pauses_resumes_and_aborts_a_canary(
    tabs: Callable[..., ConsoleTab], cluster: Cluster, new_platform: Process
) -> None:
    before = upstream_urls(cluster, "api")
    tab = tabs(0).signed_in("otto")
    page = tab.page
    with visitors(cluster):
        start_from_the_preview(tab, new_platform.url)
        view = page.get_by_test_id("canary")
        expect(view.get_by_test_id("canary-state")).to_have_text("en curso")
        expect(view.get_by_test_id("canary-target-new")).to_contain_text(new_platform.url)
        expect(view.get_by_test_id("canary-step-now")).to_have_text("1 de 2: 50 % al nuevo upstream")
        # It moves by itself: a passed check of both sides' figures, then the last step.
        expect(view.get_by_test_id("canary-step-now")).to_have_text(
            "2 de 2: 100 % al nuevo upstream", timeout=STEP_MOVES_S * 1000
        )
        checks = view.get_by_test_id("canary-history-step").first
        expect(checks).to_have_attribute("data-state", "done")
        checks.locator("summary").click()
        passed = checks.locator("[data-testid=canary-verdict][data-outcome=passed]").first
        answers = passed.get_by_test_id("figure-answers")
        assert count(answers.get_by_test_id("figure-new")) >= 3, "judged on the new platform's answers"
        assert count(answers.get_by_test_id("figure-old")) > 0, "beside the old one's"
        expect(page.get_by_test_id("status-canary")).to_have_text("canario de aurora api al 100 %")
        shot(tab, "canary-watched")

        act(tab, "pause", "the wallet team looks at the new platform's logs")
        expect(view.get_by_test_id("canary-state")).to_have_text("en pausa")
        expect(view.get_by_test_id("canary-left")).to_have_text("detenido mientras está en pausa")
        expect(page.get_by_test_id("status-canary")).to_have_text("canario de aurora api en pausa al 100 %")
        expect(view.get_by_test_id("canary-pause")).to_be_disabled()
        shot(tab, "canary-paused")
        act(tab, "resume", "nothing wrong in the logs")
        expect(view.get_by_test_id("canary-state")).to_have_text("en curso")
        act(tab, "abort", "the payments team asked for tomorrow")
    end = view.get_by_test_id("canary-end")
    expect(end).to_have_text(re.compile(r"^Abortado por otto el .+ \d{2}:\d{2}:\d{2} UTC: the payments team asked"))
    for action in ("pause", "resume", "promote", "abort"):
        expect(view.get_by_test_id(f"canary-{action}")).to_be_disabled()
    expect(page.get_by_test_id("status-canary")).to_have_count(0)
    shot(tab, "canary-aborted")

    canary_id = page.url.rsplit("/", 1)[-1]
    record = admin_api(cluster, 0, "GET", f"/admin/api/canaries/{canary_id}").json()["canary"]
    assert (record["state"], record["endedBy"], record["step"]) == ("aborted", "otto", 1)
    assert upstream_urls(cluster, "api") == before, "an aborted canary leaves the configuration as it was"

    tab.go("audit")
    said = {
        "canary-start": "the new wallet platform, half the visitors first",
        "canary-pause": "the wallet team looks at the new platform's logs",
        "canary-resume": "nothing wrong in the logs",
        "canary-abort": "the payments team asked for tomorrow",
    }
    for action, reason in said.items():
        expect(trail_row(tab, action).first).to_contain_text(reason)
        expect(trail_row(tab, action).first).to_have_attribute("data-who", "otto")
    expect(trail_row(tab, "canary-step").first).to_have_attribute("data-who", "system")
    newest_first = page.locator("[data-testid=audit-entry][data-action^=canary-]").evaluate_all(
        "rows => rows.map(row => row.dataset.action)"
    )
    assert newest_first[:5] == ["canary-abort", "canary-resume", "canary-pause", "canary-step", "canary-start"]
    shot(tab, "canary-trail")

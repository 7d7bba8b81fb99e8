"""The operators' console walked in Chromium on three gateway instances sharing one Redis: each
role signs in and sees what it may; an upstream is changed, confirmed live on 3/3 and rolled
back; two operators changing one upstream get one success and one 409 with the other's diff; a
viewer changes nothing; the charts move under load; an ended session keeps the form; every step
is in the audit trail under the right name."""

from __future__ import annotations

import re
import threading
from collections.abc import Callable

import httpx
import pytest
from playwright.sync_api import expect

from tests.e2e.console.conftest import (
    OPERATORS,
    PASSWORD,
    ROLE_WORDS,
    ConsoleTab,
    admin_api,
    back_to_file,
    other_url,
    upstream_urls,
)
from tests.support.cluster import Cluster

pytestmark = pytest.mark.redis
Tabs = Callable[..., ConsoleTab]


@pytest.mark.parametrize("name", ["vera", "otto", "ada"])
def test_each_role_signs_in_and_walks_the_console(tabs: Tabs, name: str) -> None:
    role = OPERATORS[name]
    tab = tabs(["vera", "otto", "ada"].index(name))
    page = tab.open().page
    expect(page.get_by_test_id("signin-screen")).to_be_visible()
    tab.sign_in(name)
    expect(page.get_by_test_id("operator-role")).to_have_text(ROLE_WORDS[role])

    expect(tab.upstream("api")).to_contain_text("en línea")
    expect(page.get_by_test_id("charts-aurora").get_by_role("figure")).to_have_count(4)
    expect(page.get_by_test_id("change-upstream")).to_have_count(0 if role == "viewer" else 4)  # one skin, 4 upstreams
    expect(page.get_by_test_id("purge-open")).to_have_count(0 if role == "viewer" else 1)

    tab.go("instances")
    expect(page.get_by_test_id("instance")).to_have_count(3)
    expect(page.get_by_test_id("instance-other-version")).to_have_count(0)
    tab.go("history")
    expect(page.get_by_test_id("history-version").first).to_be_visible()
    if role == "viewer":
        expect(page.get_by_test_id("rollback-open")).to_have_count(0)
    tab.go("audit")
    expect(page.get_by_test_id("audit-export-csv")).to_have_count(1 if role == "admin" else 0)
    if role == "admin":  # sign-ins are the admins' to see
        expect(page.locator(f"[data-action=sign-in][data-who={name}]").first).to_be_visible()

    # The session is an HttpOnly cookie: nothing a script can read holds a secret.
    cookies = {c["name"]: c for c in page.context.cookies()}
    assert cookies["console"]["httpOnly"] and cookies["console"]["sameSite"] == "Strict"
    readable = tab.storage()
    assert PASSWORD[name] not in readable and cookies["console"]["value"] not in readable


def test_the_overview_figures_move_under_load(tabs: Tabs, cluster: Cluster) -> None:
    tab = tabs(1).signed_in("vera")
    latest = tab.page.get_by_test_id("chart-aurora-rps-latest")
    expect(latest).to_be_visible()
    stop = threading.Event()

    def load() -> None:  # players' pages and banners on every instance: the cluster's figures
        with httpx.Client(timeout=10) as http:
            while not stop.is_set():
                for gateway in cluster.gateways:
                    http.get(gateway.url + "/home")
                    http.get(gateway.url + "/capi/home-banners")

    workers = [threading.Thread(target=load) for _ in range(3)]
    for worker in workers:
        worker.start()
    try:
        expect(latest).to_have_text(re.compile(r"^(?!0/s$)[\d.,]+/s$"), timeout=30_000)
        first = latest.inner_text()
        expect(tab.page.get_by_test_id("chart-aurora-p95-latest")).to_have_text(re.compile(r"ms$"))
        expect(tab.page.get_by_test_id("chart-aurora-cache-latest")).to_have_text(re.compile(r"%$"))
        expect(latest).not_to_have_text(first, timeout=30_000)  # refreshed every 5 s, moving
    finally:
        stop.set()
        for worker in workers:
            worker.join()
    expect(tab.page.get_by_test_id("config-version")).to_contain_text("cifras de todo el clúster")


def test_an_operator_applies_and_rolls_back_a_change_live_on_3_of_3(tabs: Tabs, cluster: Cluster) -> None:
    tab = tabs(1).signed_in("otto")
    before = upstream_urls(cluster, "capi")[0]
    dialog = tab.change_dialog("capi")
    preview = tab.preview(dialog, other_url(cluster))
    expect(preview.get_by_test_id("changes-diff")).to_contain_text(before)
    expect(preview.get_by_test_id("changes-diff")).to_contain_text(other_url(cluster))
    expect(preview.get_by_test_id("probe-report")).to_contain_text("Responde")
    assert upstream_urls(cluster, "capi") == [before] * 3, "a preview changes nothing"

    tab.apply(dialog, "capi moves to the new CMS host")
    expect(dialog.get_by_test_id("live-count")).to_have_text("Activa en 3/3 instancias")
    assert upstream_urls(cluster, "capi") == [other_url(cluster)] * 3
    dialog.get_by_test_id("write-done").click()
    expect(tab.upstream("capi")).to_contain_text("cambiado")

    tab.go("history")
    newest = tab.page.get_by_test_id("history-version").first
    expect(newest).to_contain_text("por otto (consola)")
    expect(newest).to_contain_text("capi moves to the new CMS host")
    tab.page.get_by_test_id("history-version").nth(1).get_by_test_id("rollback-open").click()
    rollback = tab.page.get_by_test_id("rollback-dialog")
    expect(rollback.get_by_test_id("changes-diff")).to_contain_text(other_url(cluster))
    expect(rollback.get_by_test_id("probe-report")).to_contain_text("Responde")
    tab.apply(rollback, "the new CMS host is not ready")
    expect(rollback.get_by_test_id("live-count")).to_have_text("Activa en 3/3 instancias")
    assert upstream_urls(cluster, "capi") == [before] * 3
    rollback.get_by_test_id("write-done").click()
    expect(tab.page.get_by_test_id("history-version").first).to_contain_text("vuelta atrás")


def test_two_operators_on_one_upstream_get_one_success_and_one_conflict(tabs: Tabs, cluster: Cluster) -> None:
    otto, olga = tabs(0).signed_in("otto"), tabs(2).signed_in("olga")
    ottos_url, olgas_url = other_url(cluster), other_url(cluster, "/v2")
    try:
        ottos = otto.change_dialog("rest")
        olgas = olga.change_dialog("rest")
        otto.preview(ottos, ottos_url)
        olga.preview(olgas, olgas_url)
        otto.apply(ottos, "rest to the new host")
        expect(ottos.get_by_test_id("live-count")).to_have_text("Activa en 3/3 instancias")

        # The sandbox under /v2 answers 404: olga sees which call failed, and overrides with a reason.
        expect(olgas.get_by_test_id("contract-summary")).to_have_text(
            "No habla la plataforma: 0/1 llamadas documentadas válidas"
        )
        expect(olgas.get_by_test_id("contract-failures")).to_contain_text("vivoLaunch")
        expect(olgas.get_by_test_id("write-apply")).to_be_disabled()
        olgas.get_by_test_id("override-check").check()
        olgas.get_by_label(re.compile("^Por qué se aplica igualmente")).fill("rest v2 is deployed tonight")
        olga.apply(olgas, "rest to the v2 path")
        conflict = olgas.get_by_test_id("write-conflict")
        expect(conflict).to_contain_text("Alguien cambió aurora mientras usted editaba")
        expect(conflict.get_by_test_id("conflict-diff-who")).to_contain_text("otto (consola) cambió rest de aurora a")
        expect(conflict.get_by_test_id("conflict-diff")).to_contain_text(ottos_url)
        assert upstream_urls(cluster, "rest") == [ottos_url] * 3, "the conflict changed nothing"

        conflict.get_by_test_id("write-restart").click()
        expect(olgas.get_by_label("Nueva URL base")).to_have_value(olgas_url)
        olgas.get_by_test_id("change-preview").click()
        expect(olgas.get_by_test_id("changes-diff")).to_contain_text(ottos_url)
        olgas.get_by_test_id("write-apply").click()
        expect(olgas.get_by_test_id("live-count")).to_have_text("Activa en 3/3 instancias")
        assert upstream_urls(cluster, "rest") == [olgas_url] * 3
        entry = admin_api(cluster, 0, "GET", "/admin/api/audit?action=change").json()["entries"][0]
        assert entry["who"] == "olga" and entry["detail"]["contract"]["overridden"] == "rest v2 is deployed tonight"
    finally:
        back_to_file(cluster, "rest")


def test_a_viewer_cannot_change_anything(tabs: Tabs, cluster: Cluster) -> None:
    tab = tabs(2).signed_in("vera")
    page = tab.page
    expect(tab.upstream("api")).to_be_visible()
    for control in ("change-upstream", "purge-open", "revoke-open"):
        expect(page.get_by_test_id(control)).to_have_count(0)
    tab.go("history")
    expect(page.get_by_test_id("history-version").first).to_be_visible()
    expect(page.get_by_test_id("rollback-open")).to_have_count(0)

    # Nor by calling the API from the console's own page, CSRF token and all.
    version = page.evaluate("() => fetch('/admin/api/overview').then((a) => a.json()).then((o) => o.config.version)")
    answer = page.evaluate(
        """async (body) => {
          const csrf = document.cookie.split('; ').find((c) => c.startsWith('console-csrf=')).split('=')[1];
          const sent = await fetch('/admin/api/changes', { method: 'POST', body: JSON.stringify(body),
            headers: { 'content-type': 'application/json', 'x-csrf-token': csrf } });
          return { status: sent.status, body: await sent.json() };
        }""",
        {"skin": "aurora", "upstream": "api", "url": other_url(cluster), "baseVersion": version, "reason": "try"},
    )
    assert answer["status"] == 403 and answer["body"]["code"] == "FORBIDDEN"
    assert answer["body"]["needs"] == "operator"
    assert other_url(cluster) not in upstream_urls(cluster, "api")


def test_an_ended_session_reopens_sign_in_over_the_form_and_keeps_it(tabs: Tabs, cluster: Cluster) -> None:
    tab = tabs(0).signed_in("otto")
    try:
        dialog = tab.change_dialog("sbapi")
        tab.preview(dialog, other_url(cluster))
        dialog.get_by_label(re.compile("^Motivo")).fill("sportsbook moves")
        tab.page.context.clear_cookies(name="console")  # the session is gone (signed out elsewhere, expired)
        dialog.get_by_test_id("write-apply").click()

        signin = tab.page.get_by_test_id("signin-dialog")
        expect(signin).to_be_visible()
        expect(signin.get_by_label("Nombre")).to_have_value("otto")
        tab.sign_in("otto", within=signin)
        expect(signin).to_be_hidden()
        expect(dialog.get_by_label("Nueva URL base")).to_have_value(other_url(cluster))
        expect(dialog.get_by_label(re.compile("^Motivo"))).to_have_value("sportsbook moves")
        dialog.get_by_test_id("write-apply").click()
        expect(dialog.get_by_test_id("live-count")).to_have_text("Activa en 3/3 instancias")
    finally:
        back_to_file(cluster, "sbapi")


def test_every_step_is_in_the_audit_trail_under_its_operators_name(tabs: Tabs, cluster: Cluster) -> None:
    otto = tabs(0).signed_in("otto")
    otto.page.get_by_test_id("purge-open").first.click()
    purge = otto.page.get_by_test_id("purge-dialog")
    purge.get_by_label(re.compile("^Motivo")).fill("stale banners after the deploy")
    purge.get_by_test_id("action-confirm").click()
    expect(purge.get_by_test_id("action-done")).to_contain_text("Caché vaciada")
    purge.get_by_role("button", name="Listo").click()
    otto.page.get_by_test_id("revoke-open").first.click()
    revoke = otto.page.get_by_test_id("revoke-dialog")
    revoke.get_by_label("Usuario del jugador").fill("demo1")
    revoke.get_by_label(re.compile("^Motivo")).fill("account taken over")
    revoke.get_by_test_id("action-confirm").click()
    expect(revoke.get_by_test_id("action-done")).to_contain_text("demo1")

    ada = tabs(1).signed_in("ada", "audit")
    page = ada.page
    filters = page.get_by_test_id("audit-filters")
    filters.get_by_label("Quién").fill("otto")
    filters.get_by_test_id("audit-filter").click()
    for action, reason in (("purge", "stale banners after the deploy"), ("revoke", "account taken over")):
        entry = page.locator(f"[data-action={action}][data-who=otto]").first
        expect(entry).to_contain_text(reason)
        expect(entry).to_contain_text("127.0.0.1")  # admins see the address
    expect(page.locator("[data-action=sign-in][data-who=otto]").first).to_be_visible()
    expect(page.locator("[data-testid=audit-entry]:not([data-who=otto])")).to_have_count(0)

    with page.expect_download() as download:
        page.get_by_test_id("audit-export-csv").click()
    exported = download.value.path().read_text()
    assert download.value.suggested_filename.startswith("audit-")
    rows = exported.strip().splitlines()[1:]
    assert any("stale banners after the deploy" in row for row in rows)
    assert rows and all("otto" in row for row in rows), "the export has the filters of the screen"

    vera = tabs(2).signed_in("vera", "audit")  # a viewer sees the changes, never the sign-ins
    expect(vera.page.locator("[data-action=purge][data-who=otto]").first).to_be_visible()
    expect(vera.page.locator("[data-action=sign-in]")).to_have_count(0)

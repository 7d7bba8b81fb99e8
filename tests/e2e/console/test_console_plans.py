"""Maintenance, scheduled changes and approvals in real browsers, on a cluster of its own (one of
its skins, `vault`, needs a second operator): a player sees the maintenance page in Spanish and in
English with the expected end, and it goes away by itself at that end; an operator schedules a
change from the change dialog and finds it on the Planned view; another operator approves a
change the first one asked for on `vault`, and the asker may not."""

from __future__ import annotations

import datetime
import re
import time
from collections.abc import Callable, Iterator

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.e2e.console.conftest import PASSWORD, ConsoleTab, admin_api, artifacts, other_url
from tests.support.cluster import Cluster, extra_skin
from tests.support.console import OPERATORS, hashes, write_operators
from tests.support.fixtures import cluster_running

pytestmark = pytest.mark.redis
VAULT = extra_skin("vault", "Vault", "approval = true")


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    workdir = tmp_path_factory.mktemp("console-plans")
    operators = write_operators(workdir / "operators.toml", {**OPERATORS, "olga": "operator"}, PASSWORD)
    env = {"OPERATORS_FILE": str(operators), "AUDIT_FILE": str(workdir / "audit")}
    with cluster_running(
        workdir, instances=2, env=env, extra_skins=VAULT, never=lambda: [*PASSWORD.values(), *hashes()]
    ) as running:
        yield running


def player_page(browser: Browser, cluster: Cluster, language: str) -> Page:
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.add_init_script(f"localStorage.setItem('locale', '{language}')")
    page.goto(cluster.gateways[1].url + "/games/slots")
    return page


def test_a_player_sees_the_maintenance_page_in_their_language_until_it_ends(browser: Browser, cluster: Cluster) -> None:
    until = time.time() + 12
    body = {"until": until, "reason": "wallet migration", "message": {"en": "Back after the wallet move"}}
    assert admin_api(cluster, 0, "PUT", "/admin/api/skins/aurora/maintenance", body).status_code == 200
    spanish, english = player_page(browser, cluster, "es"), player_page(browser, cluster, "en")
    expect(spanish.get_by_test_id("maintenance")).to_contain_text("Estamos en mantenimiento")
    expect(english.get_by_test_id("maintenance")).to_contain_text("Back after the wallet move")
    expect(english.get_by_test_id("maintenance").locator("time")).to_have_attribute(
        "datetime", re.compile(datetime.datetime.fromtimestamp(int(until), datetime.UTC).strftime("%Y-%m-%dT%H:%M"))
    )
    spanish.screenshot(path=str(artifacts("maintenance-es-390.png")))
    english.get_by_role("link", name="Terms and Conditions").click()
    expect(english.get_by_test_id("maintenance")).to_have_count(0)  # the legal pages stay readable
    expect(spanish.get_by_test_id("maintenance")).to_have_count(0, timeout=max(1, until - time.time() + 8) * 1000)
    for page in (spanish, english):
        page.context.close()


def test_an_operator_schedules_a_change_and_cancels_it_on_the_planned_view(
    tabs: Callable[..., ConsoleTab], cluster: Cluster
) -> None:
    tab = tabs(0, viewport={"width": 768, "height": 900}).signed_in("otto")
    dialog = tab.change_dialog("api")
    at = datetime.datetime.now(datetime.UTC) + datetime.timedelta(hours=2)
    dialog.locator("input[name=at]").fill(at.strftime("%d/%m/%Y %H:%M"))
    tab.preview(dialog, other_url(cluster))
    tab.apply(dialog, "the wallet moves tonight")
    expect(dialog.get_by_test_id("write-deferred")).to_contain_text("Programado para")
    dialog.get_by_test_id("write-done").click()
    tab.go("plans")
    row = tab.page.get_by_test_id("scheduled-list").locator("li").first
    expect(row.get_by_test_id("planned-state")).to_have_text("pendiente")
    row.get_by_label(re.compile("^Motivo")).fill("not tonight after all")
    row.get_by_test_id("planned-cancel").click()
    expect(row.get_by_test_id("planned-state")).to_have_text("cancelado")
    tab.screenshot("plans-scheduled-768")


def test_a_second_operator_approves_a_change_on_an_approval_skin(
    tabs: Callable[..., ConsoleTab], cluster: Cluster
) -> None:
    version = admin_api(cluster, 0, "GET", "/admin/api/instances").json()["current"]
    asked = {"skin": "vault", "upstream": "api", "url": other_url(cluster), "baseVersion": version}
    otto = tabs(0).signed_in("otto")
    dialog = otto.page.get_by_test_id("upstream-vault-api").get_by_test_id("change-upstream")
    dialog.click()
    change = otto.page.get_by_test_id("change-dialog")
    expect(change.get_by_test_id("change-needs-approval")).to_be_visible()
    otto.preview(change, asked["url"])
    otto.apply(change, "vault's wallet moves")
    expect(change.get_by_test_id("write-deferred")).to_be_visible()
    change.get_by_test_id("write-done").click()
    otto.go("plans")
    own = otto.page.get_by_test_id("approval-list").locator("li").first
    own.get_by_label(re.compile("^Motivo")).fill("my own looks right")
    own.get_by_test_id("planned-approve").click()
    expect(own).to_contain_text("otro operador")  # SELF_APPROVAL, in Spanish
    olga = tabs(1, viewport={"width": 390, "height": 844}).signed_in("olga")
    olga.go("plans")
    theirs = olga.page.get_by_test_id("approval-list").locator("li").first
    theirs.get_by_label(re.compile("^Motivo")).fill("checked with the platform")
    theirs.get_by_test_id("planned-approve").click()
    expect(theirs.get_by_test_id("planned-state")).to_have_text("aprobado")
    # the gateway's "applied <version>", in Spanish
    expect(theirs.get_by_test_id("planned-outcome")).to_contain_text("creó la versión")
    olga.screenshot("plans-approved-390")
    skins = admin_api(cluster, 0, "GET", "/admin/api/overview").json()["skins"]
    vault = next(s for s in skins if s["id"] == "vault")
    assert next(u["url"] for u in vault["upstreams"] if u["name"] == "api") == asked["url"]

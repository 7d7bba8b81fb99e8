"""Operators managed in the console, in Chromium, on two gateway instances sharing one Redis and
one operators file: an admin adds an operator limited to pampa; that operator opens the one-time
link on the other instance, chooses a password and is signed in; aurora's controls are left out
for them with the reason said, and aurora refuses them through the API as well. The operators
screen and the link's page at 390, 768 and 1366 px: no overflow, nothing cut, no raw key."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.console.conftest import CONSOLE_DIST, CONSOLE_KEYS, OPERATORS, PASSWORD, ConsoleTab, artifacts
from tests.e2e.layout import describe, run_checks
from tests.support.cluster import PAMPA_SKIN, Cluster, given_redis
from tests.support.console import SECRETS, write_operators
from tests.support.fixtures import cluster_running

pytestmark = pytest.mark.redis
PIA_PASSWORD = "a harbour at dawn 7"
WIDTHS = (390, 768, 1366)


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    """This module's own cluster: two instances, skins aurora and pampa."""
    if not (CONSOLE_DIST / "index.html").is_file():
        pytest.skip("the console is not built (make spa)")
    workdir = tmp_path_factory.mktemp("console-operators-e2e")
    operators = write_operators(workdir / "operators.toml", OPERATORS, PASSWORD)  # type: ignore[arg-type]
    env = {"OPERATORS_FILE": str(operators), "SKINS_POLL_S": "30"}
    redis = given_redis(workdir)
    with cluster_running(
        workdir, instances=2, env=env, extra_skins=PAMPA_SKIN, redis=redis, never=[*SECRETS, PIA_PASSWORD]
    ) as running:
        yield running


def layout_problems(page: Page, where: str) -> list[str]:
    page.wait_for_timeout(300)
    overflow = page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth")
    problems = [f"{where}: {describe(p)}" for p in run_checks(page, CONSOLE_KEYS)]
    return problems + ([f"{where}: {overflow}px wider than the window"] if overflow > 0 else [])


def at_widths(tab: ConsoleTab, name: str) -> list[str]:
    problems = []
    for width in WIDTHS:
        tab.page.set_viewport_size({"width": width, "height": 900})
        problems += layout_problems(tab.page, f"{name} at {width}px")
        tab.page.screenshot(path=str(artifacts(f"console-operators-{name}-{width}.png")), full_page=True)
    tab.page.set_viewport_size({"width": 1366, "height": 900})
    return problems


def test_an_admin_adds_a_pampa_operator_who_cannot_touch_aurora(
    tabs: Callable[..., ConsoleTab], cluster: Cluster
) -> None:
    ada = tabs(0).signed_in("ada")
    ada.go("operators")
    form = ada.page.get_by_test_id("add-operator")
    form.get_by_label("Nombre").fill("Pia!")
    form.get_by_test_id("add-operator-submit").click()
    expect(form.get_by_test_id("name-error")).to_contain_text("Un nombre tiene de 1 a 64 caracteres")
    form.get_by_label("Nombre").fill("pia")
    form.get_by_test_id("skin-choice-pampa").check()
    form.get_by_test_id("add-operator-submit").click()
    link = form.get_by_test_id("link-url").input_value()
    assert re.fullmatch(r"http://127\.0\.0\.1:\d+/admin/welcome#[\w-]{40,}", link), link
    expect(ada.page.get_by_test_id("operator-pia")).to_contain_text("pampa")
    problems = []
    for language in ("pt", "en", "es"):  # Spanish last: the walk below reads it
        ada.page.get_by_test_id("language").select_option(language)
        problems += at_widths(ada, f"screen-{language}")
    ada.page.get_by_test_id("edit-pia").click()
    problems += at_widths(ada, "edit-dialog")
    ada.page.keyboard.press("Escape")

    pia = tabs(1)
    pia.page.goto(link.replace(urlsplit(link).netloc, urlsplit(cluster.admin_urls[1]).netloc))
    page = pia.page.get_by_test_id("welcome-screen")
    expect(page).to_be_visible()
    assert "#" not in pia.page.url, "the token leaves the address bar at once"
    problems += at_widths(pia, "welcome")
    page.get_by_label("Contraseña nueva").fill(PIA_PASSWORD)
    page.get_by_label("La misma contraseña otra vez").fill(PIA_PASSWORD)
    page.get_by_test_id("welcome-submit").click()
    expect(pia.page.get_by_test_id("operator-name")).to_have_text("pia")

    aurora, pampa = pia.page.get_by_test_id("skin-aurora"), pia.page.get_by_test_id("skin-pampa")
    expect(aurora.get_by_test_id("skin-limited-aurora")).to_have_text(
        "Su cuenta solo puede cambiar pampa: los controles de esta skin no se muestran."
    )
    expect(aurora.get_by_test_id("purge-open")).to_have_count(0)
    expect(aurora.get_by_test_id("change-upstream")).to_have_count(0)
    expect(pampa.get_by_test_id("purge-open")).to_be_visible()
    problems += at_widths(pia, "limited-overview")

    csrf = next(c["value"] for c in pia.page.context.cookies() if c["name"] == "console-csrf")
    for skin, status in (("aurora", 403), ("pampa", 200)):
        answer = pia.page.request.post(
            f"{cluster.admin_urls[1]}/admin/api/skins/{skin}/cache/purge",
            data={"reason": "straight to the API"},
            headers={"x-csrf-token": csrf},
        )
        assert answer.status == status, (skin, answer.text())
    assert (
        "SKIN_FORBIDDEN"
        in pia.page.request.post(
            f"{cluster.admin_urls[0]}/admin/api/skins/aurora/cache/purge",
            data={"reason": "the other instance"},
            headers={"x-csrf-token": csrf},
        ).text()
    )
    assert problems == []

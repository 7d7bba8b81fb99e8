"""The operators' console in Chromium against three gateway instances sharing one Redis: the
cluster (an operators file with one operator of each role, and a second operator), and one
operator's tab on the console of the instance a test picks."""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, BrowserContext, Locator, Page, expect

from tests.e2e.conftest import ARTIFACTS
from tests.e2e.layout import translation_keys
from tests.support.cluster import ADMIN_TOKEN, Cluster
from tests.support.console import PASSWORDS, SECRETS, hashes, write_operators
from tests.support.fixtures import cluster_running
from tests.support.stack import ROOT

CONSOLE_DIST = ROOT / "spa" / "dist-console"
OPERATORS = {"ada": "admin", "otto": "operator", "olga": "operator", "vera": "viewer"}
PASSWORD = {**PASSWORDS, "olga": "olga-operator-pass-1"}
CONSOLE_KEYS = translation_keys(ROOT / "spa" / "src" / "console" / "locales" / "es")
ROLE_WORDS = {"viewer": "lector", "operator": "operador", "admin": "administrador"}


@pytest.fixture(scope="package")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    if not (CONSOLE_DIST / "index.html").is_file():
        reason = "the console is not built (make spa)"
        pytest.fail(reason) if os.environ.get("REQUIRE_BROWSER") == "1" else pytest.skip(reason)
    workdir = tmp_path_factory.mktemp("console-e2e")
    operators = write_operators(workdir / "operators.toml", OPERATORS, PASSWORD)  # type: ignore[arg-type]
    env = {"OPERATORS_FILE": str(operators), "AUDIT_FILE": str(workdir / "audit")}
    with cluster_running(workdir, env=env, never=lambda: [*SECRETS, PASSWORD["olga"], *hashes()]) as running:
        yield running


class ConsoleTab:
    """One operator's browser tab on one instance's console (its own cookies)."""

    def __init__(self, page: Page, admin_url: str) -> None:
        self.page = page
        self.url = admin_url
        page.set_default_timeout(15_000)

    def open(self, view: str = "") -> ConsoleTab:
        self.page.goto(f"{self.url}/admin/{view}")
        return self

    def sign_in(self, name: str, password: str | None = None, within: Page | Locator | None = None) -> None:
        form = within or self.page
        form.locator("input[name=name]").fill(name)
        form.locator("input[name=password]").fill(password or PASSWORD[name])
        form.get_by_test_id("signin-submit").click()

    def signed_in(self, name: str, view: str = "") -> ConsoleTab:
        self.open(view)
        self.sign_in(name)
        expect(self.page.get_by_test_id("operator-name")).to_have_text(name)
        return self

    def go(self, view: str) -> None:
        """A view through the top bar (client-side, as an operator clicks)."""
        self.page.get_by_test_id(f"nav-{view}").click()
        self.page.get_by_test_id(view).wait_for()

    def upstream(self, name: str, skin: str = "aurora") -> Locator:
        return self.page.get_by_test_id(f"upstream-{skin}-{name}")

    def change_dialog(self, upstream: str) -> Locator:
        self.upstream(upstream).get_by_test_id("change-upstream").click()
        return self.page.get_by_test_id("change-dialog")

    def preview(self, dialog: Locator, url: str) -> Locator:
        dialog.get_by_label("Nueva URL base").fill(url)
        dialog.get_by_test_id("change-preview").click()
        preview = dialog.get_by_test_id("write-preview")
        preview.wait_for()
        return preview

    def apply(self, dialog: Locator, reason: str) -> None:
        dialog.get_by_label(re.compile("^Motivo")).fill(reason)
        dialog.get_by_test_id("write-apply").click()

    def storage(self) -> str:
        """Everything this tab's scripts could read: both storages and the readable cookies."""
        return str(
            self.page.evaluate("() => JSON.stringify([{...localStorage}, {...sessionStorage}, document.cookie])")
        )

    def screenshot(self, name: str) -> None:
        ARTIFACTS.mkdir(exist_ok=True)
        self.page.screenshot(path=str(ARTIFACTS / f"console-{name}.png"))


@pytest.fixture
def tabs(
    browser: Browser, browser_context_args: dict[str, Any], cluster: Cluster, request: pytest.FixtureRequest
) -> Iterator[Callable[..., ConsoleTab]]:
    """`tabs(instance)`: a new browser (its own cookie jar) on that instance's console."""
    contexts: list[tuple[BrowserContext, ConsoleTab]] = []

    def open_tab(instance: int = 0, **context_args: Any) -> ConsoleTab:
        context = browser.new_context(**{**browser_context_args, **context_args})
        tab = ConsoleTab(context.new_page(), cluster.admin_urls[instance])
        contexts.append((context, tab))
        return tab

    yield open_tab
    for n, (context, tab) in enumerate(contexts):
        tab.screenshot(re.sub(r"[^A-Za-z0-9_.-]+", "_", request.node.name) + f"-{n}")
        context.close()


def admin_api(cluster: Cluster, instance: int, method: str, path: str, body: Any = None) -> httpx.Response:
    """The bearer API (`ADMIN_TOKEN`), to look at what the console did from outside it."""
    headers = {"authorization": f"Bearer {ADMIN_TOKEN}"}
    return httpx.request(method, cluster.admin_urls[instance] + path, json=body, headers=headers, timeout=20)


def upstream_urls(cluster: Cluster, name: str, skin: str = "aurora") -> list[str]:
    """What each instance's overview says `skin`'s `name` upstream is now."""
    urls = []
    for instance in range(len(cluster.gateways)):
        skins = admin_api(cluster, instance, "GET", "/admin/api/overview").json()["skins"]
        upstreams = next(s for s in skins if s["id"] == skin)["upstreams"]
        urls.append(next(u["url"] for u in upstreams if u["name"] == name))
    return urls


def back_to_file(cluster: Cluster, name: str) -> None:
    """The upstream back to the skins file's value (a test's change undone for the next test)."""
    answer = admin_api(cluster, 0, "DELETE", f"/admin/skins/aurora/upstreams/{name}")
    assert answer.status_code in (200, 422), answer.text  # 422: it already was


def other_url(cluster: Cluster, path: str = "") -> str:
    """The sandbox under another name: a base URL that answers and differs from the file's."""
    return cluster.sandbox.url.replace("127.0.0.1", "localhost") + path


def artifacts(name: str) -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS / name

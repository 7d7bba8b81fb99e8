"""The browser suite: Debian's Chromium, driven by Playwright, against the real product
(gateway + sandbox + built SPA) started once for the session on free ports.

Without /usr/bin/chromium or a built SPA the suite is skipped, unless REQUIRE_BROWSER=1
(CI), where it fails instead."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Page

from tests.support.chromium import CHROMIUM_ARGS, browser_binary
from tests.support.fixtures import sandbox_url_fixture
from tests.support.stack import ROOT, Stack, free_port, start_stack

SPA_DIST = ROOT / "spa" / "dist"
ARTIFACTS = Path(__file__).resolve().parent / "artifacts"
AXE = ROOT / "spa" / "node_modules" / "axe-core" / "axe.min.js"


def _missing() -> str | None:
    if not browser_binary().exists():
        return "Chromium is not installed (apt-get install -y chromium)"
    if not (SPA_DIST / "index.html").exists():
        return "the SPA is not built (make spa)"
    if not AXE.exists():
        return "spa/node_modules is not installed (npm ci)"
    return None


@pytest.fixture(scope="session", autouse=True)
def _require_browser() -> None:
    reason = _missing()
    if reason is None:
        return
    if os.environ.get("REQUIRE_BROWSER") == "1":
        pytest.fail(f"the browser suite is required (REQUIRE_BROWSER=1): {reason}")
    pytest.skip(reason)


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    return {
        **browser_type_launch_args,
        "executable_path": str(browser_binary()),
        "args": list(CHROMIUM_ARGS),
    }


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args: dict[str, Any]) -> dict[str, Any]:
    # Reduced motion: no fade-ins half-way through an assertion or an axe colour check.
    return {
        **browser_context_args,
        "viewport": {"width": 1366, "height": 800},
        "locale": "es-AR",
        "reduced_motion": "reduce",
    }


ADMIN_TOKEN = "e2e-admin-token"
"""The product's bearer token for the admin API (an `admin` client), on its own listener."""


@pytest.fixture(scope="session")
def admin_url() -> str:
    """The product's admin listener, chosen before it starts."""
    return f"http://127.0.0.1:{free_port()}"


@pytest.fixture(scope="session")
def product(tmp_path_factory: pytest.TempPathFactory, _require_browser: None, admin_url: str) -> Iterator[Stack]:
    env = {"SPA_DIST": str(SPA_DIST), "ADMIN_PORT": admin_url.rsplit(":", 1)[1], "ADMIN_TOKEN": ADMIN_TOKEN}
    stack = start_stack(tmp_path_factory.mktemp("e2e"), env=env)
    yield stack
    stack.stop()
    ARTIFACTS.mkdir(exist_ok=True)
    (ARTIFACTS / "stack.log").write_text(stack.logs())


sandbox_url = sandbox_url_fixture("product")


@pytest.fixture
def admin(product: Stack, admin_url: str) -> Iterator[httpx.Client]:
    """The product's admin API, as an operator's automation calls it."""
    with httpx.Client(base_url=admin_url, headers={"Authorization": f"Bearer {ADMIN_TOKEN}"}, timeout=10) as client:
        yield client


@pytest.fixture
def site(product: Stack, control: httpx.Client, page: Page, request: pytest.FixtureRequest) -> Iterator[Site]:
    page.set_default_timeout(10_000)
    yield Site(product.url, page)
    ARTIFACTS.mkdir(exist_ok=True)
    name = re.sub(r"[^A-Za-z0-9_.-]+", "_", request.node.name)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=False)
    if product.process.poll() is not None:
        tail = "\n".join(product.logs().splitlines()[-40:])
        pytest.fail(f"the product exited with {product.process.returncode} during this test:\n{tail}")


class Site:
    """The player site in one browser tab."""

    def __init__(self, url: str, page: Page) -> None:
        self.url = url
        self.page = page

    def open(self, path: str = "/home") -> Page:
        self.page.goto(self.url + path)
        return self.page

    def log_in(self, login: str = "demo1", password: str = "demo123") -> None:
        page = self.page
        page.get_by_test_id("header-login").click()
        popup = page.get_by_test_id("auth-popup")
        popup.locator("input[name=login]").fill(login)
        popup.locator("input[name=password]").fill(password)
        popup.get_by_test_id("login-submit").click()

    def axe_violations(self, context: str | None = None) -> list[dict[str, Any]]:
        return axe_violations(self.page, context)


def axe_violations(page: Page, context: str | None = None) -> list[dict[str, Any]]:
    """axe-core's serious and critical violations on the page (or inside `context`)."""
    # Evaluated through the DevTools protocol: the page's CSP (script-src 'self') stays on.
    page.evaluate(AXE.read_text())
    result: dict[str, Any] = page.evaluate(
        "async (context) => await axe.run(context ? document.querySelector(context) : document)", context
    )
    return [v for v in result["violations"] if v["impact"] in {"serious", "critical"}]

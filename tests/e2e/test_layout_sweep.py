"""The layout sweep: every route of the SPA's route table at a phone's, a tablet's and a laptop's
width, in every language, logged out and (guarded routes) logged in. On each screen: no sideways
scrolling, no control cut by the screen's edge, no two controls of the header, the side menu, a
dialog or a form on top of each other, no untranslated key.

One browser context per width and language; the routes are reached by client-side navigation
(as a player following links), each checked once its requests have finished."""

from __future__ import annotations

import os
import re
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect

from tests.e2e.conftest import ARTIFACTS
from tests.e2e.layout import (
    Network,
    Route,
    artifact_name,
    artifacts_dir,
    describe,
    raw_keys,
    route_table,
    run_checks,
)
from tests.support.stack import Stack

pytestmark = pytest.mark.e2e

WIDTHS = (390, 768, 1366)
LANGUAGES = ("es", "pt", "en")
HEIGHTS = {390: 844, 768: 1024, 1366: 800}
SIDE_MENU_BELOW = 991
# Narrower laptops: the header (and its dropdowns) is checked there too, from the 1366 context,
# down to the narrowest width that still shows it instead of the side menu.
LAPTOPS = (1280, 1024, SIDE_MENU_BELOW)
ROUTES = route_table()
# /register opens the registration popup 1 s after a visitor arrives; the
# sweep waits for it (the login popup is checked on the way to logging in).
POPUP_AFTER_A_SECOND = {"/register"}
# SWEEP_SCREENSHOTS=1 keeps a full-page screenshot of every screen, not only of the failing ones.
EVERY_SCREENSHOT = os.environ.get("SWEEP_SCREENSHOTS") == "1"


def test_the_route_table_is_read_whole() -> None:
    urls = {route.url for route in ROUTES}
    assert {"/", "/home", "/games/slots", "/deposit", "/opentab", "/lobby/lobbyflash", "/no-such-page"} <= urls
    guarded = {route.url for route in ROUTES if route.guarded}
    assert {"/mybalance", "/profile", "/deposit", "/withdraw", "/opentab"} <= guarded
    assert "/home" not in guarded and "/promotions" not in guarded


def test_untranslated_keys_are_told_from_text() -> None:
    text = "Menú menu.events\nshell:menu.events · aurora.localhost · Bs. 5.000,00 · 10:15 a. m."
    assert raw_keys(text) == ["menu.events", "shell:menu.events"]


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("width", WIDTHS)
def test_every_screen_fits_at_this_width_in_this_language(
    browser: Browser, product: Stack, control: httpx.Client, width: int, language: str
) -> None:
    context = browser.new_context(viewport={"width": width, "height": HEIGHTS[width]}, reduced_motion="reduce")
    # The language as the site keeps it: the `locale` and `localS` browser storage keys.
    context.add_init_script(
        f"localStorage.setItem('locale', '{language}'); localStorage.setItem('localS', '{language}');"
    )
    page = context.new_page()
    page.set_default_timeout(10_000)
    sweep = Sweep(page, product.url, width, language)
    try:
        sweep.start()
        for route in ROUTES:
            sweep.visit(route, "logged out")
        sweep.menus("logged out")
        sweep.log_in()
        for route in ROUTES:
            if route.guarded:
                sweep.visit(route, "logged in")
        sweep.menus("logged in")
    finally:
        context.close()
    if sweep.failures:
        pytest.fail(f"{len(sweep.failures)} screens do not fit:\n\n" + "\n\n".join(sweep.failures), pytrace=False)


class Sweep:
    """One width and language: visits screens, checks them and keeps what failed."""

    def __init__(self, page: Page, url: str, width: int, language: str) -> None:
        self.page, self.url, self.width, self.language = page, url, width, language
        self.network = Network(page)
        self.failures: list[str] = []
        self.shots = artifacts_dir(ARTIFACTS)

    def start(self) -> None:
        self.page.goto(self.url + "/home")
        self.network.settle()
        expect(self.page.locator("html")).to_have_attribute("lang", self.language)

    def visit(self, route: Route, state: str) -> None:
        self.close_dialogs()
        self.go(route.url)
        if state == "logged out" and route.url in POPUP_AFTER_A_SECOND:
            expect(self.page.get_by_test_id("auth-popup")).to_be_visible(timeout=5_000)
            self.network.settle()
        where = f"{route.url} at {self.width} px, {self.language}, {state}"
        if state == "logged out" and route.guarded:
            expect(self.page, f"{where}: a guarded route sends a visitor home").to_have_url(re.compile(r"/home$"))
        self.check(where, self.width, state, route.url)
        if not self.page.evaluate("!!document.getElementById('root')"):
            # A redirect to a static page (the flash lobbies) left the SPA: come back.
            self.page.goto(self.url + "/home")
            self.network.settle()

    def menus(self, state: str) -> None:
        """The side menu opened (phones, tablets; My Profile unfolded when logged in), or the
        header's dropdowns opened (laptops, also at the narrower LAPTOPS widths)."""
        self.close_dialogs()
        self.go("/home")
        if self.width < SIDE_MENU_BELOW:
            self.side_menu(state)
            return
        for width in (self.width, *LAPTOPS):
            self.page.set_viewport_size({"width": width, "height": HEIGHTS[self.width]})
            self.network.settle()
            if width != self.width:
                self.check(f"/home at {width} px, {self.language}, {state}", width, state, "home")
            for dropdown in ("nav-events", "account-menu") if state == "logged in" else ("nav-events",):
                self.page.get_by_test_id(dropdown).click()
                self.network.settle()
                self.check(f"the {dropdown} dropdown at {width} px, {self.language}, {state}", width, state, dropdown)
                self.page.keyboard.press("Escape")
        self.page.set_viewport_size({"width": self.width, "height": HEIGHTS[self.width]})

    def side_menu(self, state: str) -> None:
        page = self.page
        page.get_by_test_id("menu-toggle").click()
        menu = page.get_by_test_id("side-menu")
        expect(menu).to_be_visible()
        if state == "logged in":
            menu.get_by_test_id("side-myprofile").click()
        self.network.settle()
        self.check(f"the side menu at {self.width} px, {self.language}, {state}", self.width, state, "side-menu")
        page.keyboard.press("Escape")

    def go(self, url: str) -> None:
        """Client-side navigation, as a link in the SPA does."""
        self.page.evaluate(
            "(url) => { history.pushState(null, '', url); dispatchEvent(new PopStateEvent('popstate')); }", url
        )
        self.network.settle()

    def log_in(self) -> None:
        page = self.page
        page.get_by_test_id("header-login").click()
        popup = page.get_by_test_id("auth-popup")
        expect(popup).to_be_visible()
        self.network.settle()
        self.check(f"the login popup at {self.width} px, {self.language}", self.width, "logged out", "login-popup")
        popup.locator("input[name=login]").fill("demo1")
        popup.locator("input[name=password]").fill("demo123")
        popup.get_by_test_id("login-submit").click()
        expect(page.get_by_test_id("balance-cash")).to_have_attribute("data-loaded", "true")
        self.network.settle()

    def close_dialogs(self) -> None:
        dialogs = self.page.locator("[role=dialog], [role=alertdialog]")
        for _ in range(3):
            if dialogs.count() == 0:
                return
            self.page.keyboard.press("Escape")
        expect(dialogs).to_have_count(0)

    def check(self, where: str, width: int, state: str, name: str) -> None:
        problems: list[dict[str, Any]] = run_checks(self.page)
        shot = self.shots / artifact_name(str(width), self.language, state, name)
        if problems or EVERY_SCREENSHOT:
            self.page.screenshot(path=str(shot), full_page=EVERY_SCREENSHOT)
        if problems:
            lines = "\n".join(f"  - {describe(problem)}" for problem in problems)
            self.failures.append(
                f"{where} ({self.page.url}):\n{lines}\n  screenshot: {shot.relative_to(ARTIFACTS.parent)}"
            )

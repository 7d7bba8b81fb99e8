"""On a phone (390 px), every account page reads whole in every language: no value cut, nothing
behind a sideways scroll inside the page, no text past the screen's edge (issue 29). The player
has rows of every kind: deposits, cashouts, game rounds, an open withdrawal, a bank account.

The account pages are the route table's guarded screens (the full-page game frame aside), the
profile's dialogs (details, password, bank accounts) and each deposit method's form."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, BrowserContext, Page, ViewportSize, expect

from tests.e2e.conftest import ARTIFACTS
from tests.e2e.layout import SWEEP_CHECKS, Network, artifact_name, artifacts_dir, describe, route_table, run_checks
from tests.support.stack import Stack

pytestmark = pytest.mark.e2e

PHONE: ViewportSize = {"width": 390, "height": 844}
LANGUAGES = ("es", "pt", "en")
CHECKS = (*SWEEP_CHECKS, "hidden")
NOT_ACCOUNT_PAGES = {"/opentab"}  # a launched game on the whole page: the provider's frame
ACCOUNT_PAGES = [r.url for r in route_table() if r.guarded and r.url not in NOT_ACCOUNT_PAGES]
DEPOSIT_METHODS = ("328", "326", "329", "332", "300")

# Sent from the page, as the SPA sends them: the XSRF cookie echoed, one key per money call.
PLATFORM_CALL = """
async ([path, body]) => {
  const cookie = document.cookie.split('; ').find((c) => c.startsWith('XSRF-TOKEN=')) ?? '=';
  const token = decodeURIComponent(cookie.split('=')[1]);
  const response = await fetch(path, { method: 'POST', credentials: 'include', body: JSON.stringify(body),
    headers: { 'content-type': 'application/json', 'X-XSRF-TOKEN': token, 'Idempotency-Key': crypto.randomUUID() } });
  return await response.json();
}
"""
SHOWN_LABEL = "(cell) => getComputedStyle(cell, '::before').content"


def test_the_account_pages_are_the_guarded_routes() -> None:
    assert {"/mybalance", "/profile", "/deposit", "/withdraw", "/transactionhistory", "/casinogamehistory"} <= set(
        ACCOUNT_PAGES
    )


@pytest.fixture
def phone(browser: Browser, product: Stack, control: httpx.Client) -> Iterator[BrowserContext]:
    context = browser.new_context(viewport=PHONE, reduced_motion="reduce")
    yield context
    context.close()


def call(page: Page, path: str, body: dict[str, Any], already: str | None = None) -> dict[str, Any]:
    """A platform call that must succeed; `already` names the refusal that means it was done
    before (the player is the same for every language)."""
    reply: dict[str, Any] = page.evaluate(PLATFORM_CALL, [path, body])
    assert reply.get("success") is not False or reply.get("code") == already, f"{path}: {reply}"
    return reply


def give_rows_of_every_kind(page: Page) -> None:
    """The seeded deposits, cashouts and game rounds, plus an open withdrawal, a bank account and
    an e-mail address as long as a real one can be."""
    call(
        page,
        "/api/player/updateProfile",
        {
            "nickname": "demo1",
            "email": "maria.fernanda.gonzalez.rodriguez@correo-ejemplo.com.ar",
            "firstName": "Maria",
            "lastName": "Gonzalez",
            "address": {"city": "La Rioja", "phone": "3804123456", "country": "AR"},
        },
    )
    call(
        page,
        "/api/cashier/addBankAccount",
        {
            "bankAccountNumber": "123456789012345678",
            "bankName": "State Bank of India",
            "accountBranchName": "Connaught Place New Delhi",
            "nameOnAccount": "Demo Player Longname",
            "accountType": "Savings",
            "personalNumber": "SBIN0001234",
        },
        already="DUPLICATE",
    )
    call(
        page,
        "/api/cashier/mercadoCashout",
        {
            "firstName": "Demo",
            "alias": "demo.player",
            "cbu": "0110599520000001234567",
            "mobileNumber": "1123456789",
            "amount": 3500,
        },
    )


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_account_page_reads_whole_on_a_phone(phone: BrowserContext, product: Stack, language: str) -> None:
    phone.add_init_script(f"localStorage.setItem('locale', '{language}'); localStorage.setItem('localS', '{language}')")
    page = phone.new_page()
    page.set_default_timeout(10_000)
    phone_check = PhoneCheck(page, product.url, language)
    phone_check.log_in()
    give_rows_of_every_kind(page)
    page.reload()
    phone_check.network.settle()

    for url in ACCOUNT_PAGES:
        phone_check.visit(url)
        if url == "/transactionhistory":
            expect(page.get_by_test_id("history-deposits-table").locator("tbody tr")).not_to_have_count(0)
            expect(page.get_by_test_id("history-cashouts-table").locator("tbody tr")).not_to_have_count(0)
        if url == "/casinogamehistory":
            expect(page.get_by_test_id("history-games-table").locator("tbody tr")).not_to_have_count(0)
        if url == "/withdraw":
            expect(page.get_by_test_id("open-withdrawals").locator("tbody tr")).not_to_have_count(0)
        if url == "/mybalance":
            expect(page.get_by_test_id("player-stats")).to_be_visible()
        phone_check.check(url)
        if url == "/casinogamehistory":
            page.get_by_test_id("history-tab-remote").click()
            expect(page.get_by_test_id("history-remote-table").locator("tbody tr")).not_to_have_count(0)
            phone_check.network.settle()
            phone_check.check(f"{url}, the remote games tab")
    phone_check.visit("/deposit")
    for method in DEPOSIT_METHODS:
        page.get_by_test_id(f"deposit-method-{method}").click()
        phone_check.network.settle()
        phone_check.check(f"/deposit, method {method}")
    phone_check.visit("/profile")
    for opener, name in (("profile-edit", "profile"), ("profile-password", "password"), ("profile-bank", "bank")):
        page.get_by_test_id(opener).click()
        expect(page.get_by_role("dialog")).to_be_visible()
        phone_check.network.settle()
        if name == "bank":
            expect(page.get_by_role("dialog")).to_contain_text("State Bank of India")
        phone_check.check(f"/profile, the {name} dialog")
        page.keyboard.press("Escape")
        expect(page.get_by_role("dialog")).to_have_count(0)

    if phone_check.failures:
        pytest.fail(
            f"{len(phone_check.failures)} account screens at 390 px, {language}, do not read whole:\n\n"
            + "\n\n".join(phone_check.failures),
            pytrace=False,
        )


def test_a_history_row_on_a_phone_shows_its_status_and_amount_first_with_their_labels(
    phone: BrowserContext, product: Stack
) -> None:
    phone.add_init_script("localStorage.setItem('locale', 'en'); localStorage.setItem('localS', 'en');")
    page = phone.new_page()
    check = PhoneCheck(page, product.url, "en")
    check.log_in()
    check.visit("/transactionhistory")
    row = page.get_by_test_id("history-deposits-table").locator("tbody tr").first
    cells = row.locator("td")
    # What the player reads in each cell: the label drawn before it (its ::before), then its value.
    placed = [(cell.bounding_box(), cell.evaluate(SHOWN_LABEL), cell.inner_text()) for cell in cells.all()]
    reading = sorted((box["y"], box["x"], label, text) for box, label, text in placed if box)
    (_, _, label1, value1), (_, _, label2, value2) = reading[:2]
    assert (label1, value1 in {"Approved", "Pending", "Failed"}) == ('"Status"', True)
    assert (label2, value2.startswith("Bs.")) == ('"Amount"', True)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


class PhoneCheck:
    """One phone and language: screens visited by client-side navigation, checked, failures kept."""

    def __init__(self, page: Page, url: str, language: str) -> None:
        self.page, self.url, self.language = page, url, language
        self.network = Network(page)
        self.failures: list[str] = []
        self.shots = artifacts_dir(ARTIFACTS)

    def log_in(self) -> None:
        page = self.page
        page.goto(self.url + "/home")
        self.network.settle()
        page.get_by_test_id("header-login").click()
        popup = page.get_by_test_id("auth-popup")
        popup.locator("input[name=login]").fill("demo1")
        popup.locator("input[name=password]").fill("demo123")
        popup.get_by_test_id("login-submit").click()
        expect(page.get_by_test_id("balance-cash")).to_have_attribute("data-loaded", "true")
        self.network.settle()

    def visit(self, url: str) -> None:
        self.page.evaluate(
            "(url) => { history.pushState(null, '', url); dispatchEvent(new PopStateEvent('popstate')); }", url
        )
        self.network.settle()
        expect(self.page).to_have_url(self.url + url)

    def check(self, where: str) -> None:
        problems = run_checks(self.page, checks=CHECKS)
        shot = self.shots / artifact_name("phone", self.language, where)
        self.page.screenshot(path=str(shot), full_page=True)
        if problems:
            lines = "\n".join(f"  - {describe(problem)}" for problem in problems)
            self.failures.append(f"{where}:\n{lines}\n  screenshot: {shot.relative_to(ARTIFACTS.parent)}")

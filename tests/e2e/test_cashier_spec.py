"""Issue 40's cashier and contact items, as a player meets them in a real browser: the spec's state
cycles (a request for another method clears the last one's figures: a loader, not the old limits)
and the contact form's small loader while it sends."""

from __future__ import annotations

import httpx
from playwright.sync_api import expect

from tests.e2e.conftest import Site
from tests.e2e.test_account import open_logged_in
from tests.e2e.test_shell_and_auth import site_artifact

SLOW = {"latencyMs": 2500}
PHONE = {"width": 390, "height": 844}


def test_another_withdraw_method_shows_a_loader_not_the_last_methods_cash_and_limits(
    site: Site, control: httpx.Client
) -> None:
    open_logged_in(site, "/withdraw")
    page = site.page
    expect(page.get_by_test_id("withdraw-form-formA")).to_be_visible()
    expect(page.get_by_test_id("withdraw-cash")).to_contain_text("1.000,00")
    control.put("/_sandbox/faults/getCashOutInfo", json=SLOW).raise_for_status()
    page.get_by_test_id("withdraw-method-mercado").click()
    # Before: form B at once, its cash line without the player's cash until the answer came.
    expect(page.get_by_test_id("withdraw-cash")).to_have_count(0)
    expect(page.get_by_test_id("cashier-method-loading")).to_have_text("Cargando…")
    page.screenshot(path=str(site_artifact("withdraw_method_loading.png")))
    expect(page.get_by_test_id("withdraw-form-formB")).to_be_visible(timeout=10_000)
    expect(page.get_by_test_id("withdraw-cash")).to_contain_text("3.000,00")


def test_another_deposit_method_shows_a_loader_until_its_own_limits_are_in(site: Site, control: httpx.Client) -> None:
    open_logged_in(site, "/deposit")
    page = site.page
    expect(page.get_by_test_id("deposit-form-328")).to_be_visible()
    control.put("/_sandbox/faults/depositSystems", json=SLOW).raise_for_status()
    page.get_by_test_id("deposit-method-332").click()
    expect(page.get_by_test_id("cashier-method-loading")).to_have_text("Cargando…")
    expect(page.locator("[data-testid^=deposit-form-]")).to_have_count(0)
    page.screenshot(path=str(site_artifact("deposit_method_loading.png")))
    form = page.get_by_test_id("deposit-form-332")
    expect(form).to_be_visible(timeout=10_000)
    expect(form).to_contain_text("VES")


def test_the_contact_form_shows_a_small_loader_while_it_sends(site: Site, control: httpx.Client) -> None:
    page = site.page
    page.set_viewport_size(PHONE)
    site.open("/contactus")
    control.put("/_sandbox/faults/contactUs", json=SLOW).raise_for_status()
    form = page.locator("form.contact-form")
    form.locator("[name=firstName]").fill("visitor1")
    form.locator("[name=email]").fill("visitor1@example.com")
    form.locator("[name=subject]").fill("Depósito")
    form.locator("[name=userQuestion]").fill("¿Dónde está mi depósito?")
    send = page.get_by_test_id("contact-send")
    send.click()
    expect(send.locator(".spinner")).to_be_visible()
    expect(send).to_have_text("Enviando…")
    expect(send).to_be_disabled()
    send.screenshot(path=str(site_artifact("contact_sending_390.png")))
    page.screenshot(path=str(site_artifact("contact_sending_390_page.png")))
    expect(page.get_by_test_id("contact-outcome")).to_be_visible(timeout=10_000)
    expect(send.locator(".spinner")).to_have_count(0)

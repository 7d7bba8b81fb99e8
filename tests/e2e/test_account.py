"""The account area in a real browser against the sandbox (issue 6)."""

from __future__ import annotations

import re

import httpx
from playwright.sync_api import expect

from tests.e2e.conftest import Site
from tests.e2e.test_shell_and_auth import describe, site_artifact


def open_logged_in(site: Site, path: str) -> None:
    page = site.open("/home")
    site.log_in()
    expect(page.get_by_test_id("profile-name")).to_have_text("demo1")
    page.goto(site.url + path)


def test_my_balance_shows_the_vip_level_balances_and_exchanges_points(site: Site) -> None:
    open_logged_in(site, "/mybalance")
    page = site.page
    expect(page.get_by_test_id("balance-available")).to_have_text("Bs. 5.000,00")
    expect(page.get_by_test_id("balance-total")).to_have_text("Bs. 5.250,00")
    expect(page.get_by_test_id("vip-level")).to_have_text("Silver")
    expect(page.get_by_test_id("vip-targets")).to_contain_text("(IST)")
    page.get_by_test_id("vip-exchange-points").fill("1000")
    page.get_by_test_id("vip-exchange").click()
    expect(page.get_by_role("status").filter(has_text="Bs. 10,00")).to_be_visible()
    page.get_by_test_id("vip-exchange").click()
    expect(page.get_by_role("alertdialog").or_(page.get_by_role("dialog"))).to_contain_text("Bs. 10,00")
    page.screenshot(path=str(site_artifact("my_balance.png")), full_page=True)
    page.keyboard.press("Escape")
    expect(page.get_by_test_id("balance-available")).to_have_text("Bs. 5.010,00")
    expect(page.get_by_test_id("vip-points")).to_contain_text("200")


def test_transaction_history_lists_the_seeded_movements_with_locked_as_failed(site: Site) -> None:
    open_logged_in(site, "/transactionhistory")
    page = site.page
    page.get_by_test_id("history-start").fill("2025-01-01")
    page.get_by_test_id("history-show").click()
    deposits = page.get_by_test_id("history-deposits-table")
    expect(deposits).to_be_visible()
    expect(page.get_by_test_id("history-cashouts-table")).to_be_visible()
    page.get_by_test_id("history-cashout").uncheck()
    page.get_by_test_id("history-deposits").uncheck()
    expect(page.get_by_text("Por favor selecciona alguna de las opciones de arriba")).to_be_visible()
    expect(page.get_by_test_id("history-show")).to_be_disabled()
    page.screenshot(path=str(site_artifact("transaction_history.png")), full_page=True)
    assert describe(site.axe_violations()) == []


def test_game_history_shows_rounds_or_the_no_history_message(site: Site) -> None:
    open_logged_in(site, "/casinogamehistory")
    page = site.page
    table = page.get_by_test_id("history-games-table").or_(page.get_by_test_id("history-empty"))
    expect(table).to_be_visible()
    page.get_by_test_id("history-start").fill("2025-01-01")
    page.get_by_test_id("history-show").click()
    expect(page.get_by_test_id("history-games-table")).to_be_visible()
    expect(page.get_by_test_id("history-games-table").locator("td").nth(3)).to_have_text(
        re.compile(r"^Bs\. [\d.]+,\d\d$")
    )


def test_a_visitor_sends_a_message_to_support(site: Site, control: object) -> None:
    page = site.open("/contactus")
    page.locator("[name=firstName]").fill("visitor1")
    page.locator("[name=email]").fill("visitor1@example.com")
    page.locator("[name=subject]").fill("Bonus")
    page.locator("[name=userQuestion]").fill("How does the welcome bonus work?")
    page.get_by_test_id("contact-send").click()
    expect(page.get_by_test_id("contact-outcome")).to_have_text(
        "Enviado con éxito. Nuestro equipo de soporte te responderá pronto."
    )
    assert describe(site.axe_violations()) == []


LEGAL_PAGES = {
    "/privacypolicy": "Política de privacidad",
    "/termsandconditions": "Términos y condiciones",
    "/taxation": "Política de retiros",
    "/resposiblegaming": "Juego responsable",
}


def test_the_legal_pages_open_at_the_top_with_a_way_home(site: Site) -> None:
    for path, heading in LEGAL_PAGES.items():
        page = site.open(path)
        expect(page.get_by_role("heading", level=1)).to_have_text(heading)
        assert page.evaluate("window.scrollY") == 0
    page.get_by_role("link", name="Volver al inicio").first.click()
    expect(page).to_have_url(re.compile(r"/home$"))


def test_profile_password_bank_accounts_and_documents(site: Site, tmp_path: object) -> None:
    open_logged_in(site, "/profile")
    page = site.page
    expect(page.get_by_test_id("profile-email")).to_have_text("demo1@example.com")

    page.get_by_test_id("profile-password").click()
    modal = page.get_by_test_id("profile-modal")
    modal.locator("[name=oldPassword]").fill("wrong123")
    modal.locator("[name=newPassword]").fill("better123")
    modal.get_by_test_id("password-save").click()
    expect(modal.get_by_test_id("password-error")).to_have_text("Contraseña actual incorrecta")
    expect(modal.get_by_test_id("password-error")).to_have_count(0, timeout=6000)  # clears after 3 s
    page.keyboard.press("Escape")

    page.get_by_test_id("profile-bank").click()
    bank = page.get_by_test_id("bank-modal")
    values = {
        "bankAccountNumber": "123456789012",
        "bankName": "Banco Nacion",
        "accountBranchName": "Centro",
        "nameOnAccount": "Demo Player",
        "accountType": "Savings",
        "personalNumber": "abcd0123456",
    }
    for name, value in values.items():
        bank.locator(f"[name={name}]").fill(value)
    expect(bank.locator("[name=personalNumber]")).to_have_value("ABCD0123456")
    bank.get_by_test_id("bank-add").click()
    page.get_by_test_id("notice-ok").click()
    expect(bank.get_by_test_id("bank-list")).to_contain_text("****9012")
    bank.get_by_test_id("bank-list").get_by_role("button").last.click()
    expect(bank.get_by_test_id("bank-list").filter(has_text="****9012")).to_have_count(0)
    page.keyboard.press("Escape")
    page.keyboard.press("Escape")

    card = page.get_by_test_id("document-idProof")
    # A page calling itself a PNG never reaches the platform: the player is told why, in Spanish.
    card.get_by_test_id("document-file-idProof").set_input_files(
        files=[{"name": "dni.png", "mimeType": "image/png", "buffer": b"<html><script>alert(1)</script></html>"}]
    )
    expect(card.get_by_role("alert")).to_contain_text("Sube un documento JPEG, PNG o PDF")
    card.get_by_test_id("document-file-idProof").set_input_files(
        files=[{"name": "dni.png", "mimeType": "image/png", "buffer": b"\x89PNG\r\n\x1a\n" + b"0" * 2048}]
    )
    expect(card.get_by_role("status")).to_contain_text("Documento subido")
    expect(card.locator(".document__list")).to_contain_text("dni.png")
    page.screenshot(path=str(site_artifact("profile.png")), full_page=True)
    assert describe(site.axe_violations()) == []


def test_a_withdrawal_is_held_listed_and_cancelled(site: Site, control: object) -> None:
    open_logged_in(site, "/withdraw")
    page = site.page
    page.get_by_test_id("withdraw-method-mercado").click()
    form = page.get_by_test_id("withdraw-form-formB")
    expect(form.get_by_test_id("withdraw-cash")).to_contain_text("Bs. 5.000,00")
    for name, value in {
        "name": "Demo",
        "cbu": "0000003100012345678901",
        "alias": "demo.mp",
        "phone": "1155550000",
    }.items():
        form.locator(f"[name={name}]").fill(value)
    form.locator("[name=amount]").fill("6000")
    expect(form.get_by_test_id("withdraw-balance-note")).to_have_text("No tienes saldo suficiente")
    expect(form.get_by_test_id("withdraw-submit")).to_be_disabled()
    form.locator("[name=amount]").fill("3500")
    form.get_by_test_id("withdraw-submit").click()
    page.get_by_test_id("notice-ok").click()
    expect(page.get_by_test_id("balance-cash")).to_have_text("Bs. 1.500,00")
    expect(page.get_by_test_id("open-withdrawals")).to_contain_text("Bs. 3.500,00")
    page.screenshot(path=str(site_artifact("withdraw.png")), full_page=True)
    assert describe(site.axe_violations()) == []
    page.get_by_test_id("open-withdrawals").get_by_test_id("withdraw-cancel").last.click()
    expect(page.get_by_test_id("open-withdrawals").filter(has_text="Bs. 3.500,00")).to_have_count(0)
    expect(page.get_by_test_id("balance-cash")).to_have_text("Bs. 5.000,00")


def test_a_deposit_opens_the_payment_page_and_is_followed_until_approved(site: Site, control: httpx.Client) -> None:
    control.put("/_sandbox/config", json={"depositApprovalDelayS": 2}).raise_for_status()
    open_logged_in(site, "/deposit")
    page = site.page
    page.get_by_test_id("deposit-method-328").click()
    page.get_by_test_id("pay-method-phone_pe").click()
    form = page.get_by_test_id("deposit-form-328")
    form.locator("[name=amount]").fill("200")
    form.locator("[name=amount]").press("Tab")
    expect(form.get_by_text("Mínimo 300")).to_be_visible()
    form.locator("[name=amount]").fill("500")
    with page.expect_popup() as opened:
        form.get_by_test_id("deposit-submit").click()
    payment = opened.value
    payment.wait_for_url(re.compile(r"/_sandbox/pay/"))
    assert "wsession" not in payment.url and "sid=" not in payment.url
    expect(page.get_by_test_id("deposit-pending")).to_be_visible()
    expect(page.get_by_test_id("deposit-approved")).to_be_visible(timeout=20_000)
    expect(page.get_by_test_id("balance-cash")).to_have_text("Bs. 5.500,00", timeout=15_000)
    page.screenshot(path=str(site_artifact("deposit.png")), full_page=True)


def test_the_deposit_result_pages(site: Site) -> None:
    page = site.open("/depositresponse?result=success")
    expect(page.get_by_test_id("deposit-response")).to_contain_text("Tu depósito fue acreditado.")
    page.get_by_test_id("deposit-response").get_by_role("button").click()
    expect(page).to_have_url(re.compile(r"/home$"))  # /profile is guarded: a visitor lands home
    page = site.open("/deposit-failed")
    expect(page.get_by_role("heading", level=1)).to_have_text("Pago fallido")
    page.get_by_test_id("deposit-result-ok").click()
    expect(page).to_have_url(re.compile(r"/home$"))


def test_the_cashier_journey_in_english(site: Site, control: httpx.Client) -> None:
    """Issue 6's journey: deposit by 326, bank account, withdraw, cancel, histories."""
    control.put("/_sandbox/config", json={"depositApprovalDelayS": 2}).raise_for_status()
    page = site.open("/home")
    page.get_by_test_id("language-en").click()
    expect(page.locator("html")).to_have_attribute("lang", "en")
    site.log_in()
    cash = page.get_by_test_id("balance-cash")
    expect(cash).to_have_text("Bs. 5.000,00")

    # deposit 1000 by method 326: the provider's form opens in a new window, the page follows it
    page.get_by_test_id("header-deposit").click()
    page.get_by_test_id("deposit-method-326").click()
    form = page.get_by_test_id("deposit-form-326")
    fields = {
        "amount": "1000",
        "mobileNumber": "9876543210",
        "email": "demo1@example.com",
        "city": "Mumbai",
        "street": "Marine Drive 1",
        "postal_code": "400001",
    }
    for name, value in fields.items():
        form.locator(f"[name={name}]").fill(value)
    with page.expect_popup() as opened:
        form.get_by_test_id("deposit-submit").click()
    opened.value.wait_for_url(re.compile(r"/_sandbox/pay/"))
    expect(page.get_by_test_id("deposit-pending")).to_contain_text("Deposit Status: Pending")
    expect(page.get_by_test_id("deposit-approved")).to_be_visible(timeout=20_000)
    expect(cash).to_have_text("Bs. 6.000,00", timeout=15_000)

    # a bank account: an invalid IFSC first
    page.goto(site.url + "/profile")
    page.get_by_test_id("profile-bank").click()
    bank = page.get_by_test_id("bank-modal")
    bank.locator("[name=personalNumber]").fill("12AB")
    bank.locator("[name=personalNumber]").press("Tab")
    expect(bank.get_by_text("Enter Valid IFSC Code")).to_be_visible()
    values = {
        "bankAccountNumber": "123456789012",
        "bankName": "State Bank",
        "accountBranchName": "Fort",
        "nameOnAccount": "Demo Player",
        "accountType": "Savings",
        "personalNumber": "SBIN0001234",
    }
    for name, value in values.items():
        bank.locator(f"[name={name}]").fill(value)
    bank.get_by_test_id("bank-add").click()
    page.get_by_test_id("notice-ok").click()
    expect(bank.get_by_test_id("bank-list")).to_contain_text("****9012")
    page.keyboard.press("Escape")

    # a wrong old password
    page.get_by_test_id("profile-password").click()
    modal = page.get_by_test_id("profile-modal")
    modal.locator("[name=oldPassword]").fill("wrong123")
    modal.locator("[name=newPassword]").fill("better123")
    modal.get_by_test_id("password-save").click()
    expect(modal.get_by_test_id("password-error")).to_have_text("Invalid Old Password")
    page.keyboard.press("Escape")

    # withdraw 1000 by UPI (form A), double-clicked: the platform sees it once
    control.delete("/_sandbox/calls")
    page.goto(site.url + "/withdraw")
    page.get_by_test_id("withdraw-method-paykassma").click()
    withdraw = page.get_by_test_id("withdraw-form-formA")
    withdraw.locator("[name=amount]").fill("1000")
    withdraw.locator("[name=personalNumber]").fill("demo@upi")
    withdraw.get_by_test_id("withdraw-submit").dblclick()
    page.get_by_test_id("notice-ok").click()
    expect(cash).to_have_text("Bs. 5.000,00")
    assert control.get("/_sandbox/calls").json().get("cashout12") == 1
    opened_requests = page.get_by_test_id("open-withdrawals")
    expect(opened_requests).to_contain_text("Bs. 1.000,00")
    opened_requests.get_by_test_id("withdraw-cancel").last.click()
    expect(cash).to_have_text("Bs. 6.000,00")

    # the histories
    page.goto(site.url + "/transactionhistory")
    expect(page.get_by_test_id("history-deposits-table").locator("tbody tr").first).to_contain_text("Bs. 1.000,00")
    expect(page.get_by_test_id("history-cashouts-table").locator("tbody tr").first).to_contain_text("Bs. 1.000,00")
    page.goto(site.url + "/casinogamehistory")
    page.get_by_test_id("history-start").fill("2025-01-01")
    page.get_by_test_id("history-show").click()
    rows = page.get_by_test_id("history-games-table").locator("tbody tr")
    expect(rows.first).to_be_visible()
    starts = rows.evaluate_all("(rows) => rows.map((row) => row.cells[0].textContent)")
    assert len(starts) >= 2
    page.screenshot(path=str(site_artifact("cashier_journey_history.png")), full_page=True)

"""The registration form's extras on a phone (390 px): each field's own message, nothing cut off,
and the sign-up sends what the player typed and nothing they left empty."""

from __future__ import annotations

import secrets

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import ARTIFACTS, Site

pytestmark = pytest.mark.e2e

OVERFLOW = "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"


def test_a_phone_registers_with_the_extras_each_checked_on_its_own_field(site: Site) -> None:
    page = site.page
    page.set_viewport_size({"width": 390, "height": 844})
    site.open("/home")
    page.get_by_test_id("header-join").click()
    popup = page.get_by_test_id("auth-popup")
    login = f"e2e{secrets.token_hex(4)}"
    for name, value in (("login", login), ("password", "secret123"), ("email", f"{login}@example.com")):
        popup.locator(f"input[name={name}]").fill(value)
    popup.locator("input[name=firstName]").fill("T")
    popup.locator("input[name=ssn]").fill("123")
    popup.locator("input[name=address]").fill("Av. 1")
    popup.locator("input[name=phone]").press_sequentially("38-04a12")
    popup.locator("input[name=phone]").blur()
    expect(popup).to_contain_text("El teléfono debe tener entre 7 y 12 dígitos")  # its message moved the box
    popup.locator("input[name=acceptTerms]").check()

    expect(popup).to_contain_text("El nombre debe tener entre 2 y 16 caracteres")
    expect(popup).to_contain_text("El SSN debe tener exactamente 10 caracteres")
    expect(popup.locator("input[name=phone]")).to_have_value("380412")
    expect(popup.get_by_test_id("register-submit")).to_be_disabled()
    ARTIFACTS.mkdir(exist_ok=True)
    popup.screenshot(path=str(ARTIFACTS / "registration-extras-390.png"))
    assert page.evaluate(OVERFLOW) <= 0

    popup.locator("input[name=firstName]").fill("Thomas")
    popup.locator("input[name=ssn]").fill("")
    popup.locator("input[name=phone]").fill("3804123456")
    with page.expect_request("**/api/player/register") as asked:
        popup.get_by_test_id("register-submit").click()
    body = asked.value.post_data_json
    assert body["firstName"] == "Thomas" and body["nickname"] == login
    assert "ssn" not in body and "lastName" not in body
    assert body["address"] == {"address": "Av. 1", "phone": "3804123456", "state": "LA RIOJA"}
    expect(page.get_by_test_id("notice-popup")).to_contain_text("Tu cuenta ha sido creada con éxito")

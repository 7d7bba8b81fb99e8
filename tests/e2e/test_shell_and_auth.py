"""What a player sees of the shell, signing in and out, languages and the session's life."""

from __future__ import annotations

import re
import secrets
from typing import Any

import httpx
import pytest
from playwright.sync_api import Page, expect

from tests.e2e.conftest import Site

pytestmark = pytest.mark.e2e


def test_a_new_player_registers_and_is_logged_in_with_name_and_balance(site: Site) -> None:
    page = site.open("/home")
    login = f"e2e{secrets.token_hex(4)}"
    page.get_by_test_id("header-join").click()
    popup = page.get_by_test_id("auth-popup")
    popup.locator("input[name=login]").fill(login)
    popup.locator("input[name=password]").fill("secret123")
    popup.locator("input[name=email]").fill(f"{login.upper()}@Example.com")
    popup.locator("input[name=address]").fill("Calle Falsa 123")
    popup.locator("input[name=phone]").fill("3804123456")
    submit = popup.get_by_test_id("register-submit")
    expect(submit).to_be_disabled()  # terms not accepted yet
    popup.locator("input[name=acceptTerms]").check()
    submit.click()

    notice = page.get_by_test_id("notice-popup")
    expect(notice).to_contain_text("Tu cuenta ha sido creada con éxito")
    notice.get_by_test_id("notice-ok").click()
    expect(page.get_by_test_id("profile-name")).to_have_text(login)
    expect(page.get_by_test_id("balance-cash")).to_have_text("Bs. 0,00")
    expect(page.get_by_test_id("header-login")).to_have_count(0)


def test_login_shows_name_and_formatted_balance_and_logout_returns_home(site: Site) -> None:
    page = site.open("/promotions")
    site.log_in()
    expect(page).to_have_url(re.compile(r"/home$"))
    expect(page.get_by_test_id("profile-name")).to_have_text("demo1")
    expect(page.get_by_test_id("balance-cash")).to_have_text("Bs. 5.000,00")
    expect(page.get_by_test_id("balance-bonus")).to_have_text("Bs. 250,00")

    page.get_by_test_id("header-logout").click()
    expect(page.get_by_test_id("header-login")).to_be_visible()
    expect(page).to_have_url(re.compile(r"/home$"))
    page.wait_for_load_state("load")  # the reload 1 s after logout
    expect(page.get_by_test_id("profile-block")).to_have_count(0)


def test_a_wrong_password_shows_the_translated_error(site: Site) -> None:
    page = site.open("/home")
    site.log_in(password="wrong123")
    expect(page.get_by_test_id("auth-error")).to_have_text("Usuario o contraseña inválidos")
    # Focusing a field clears the message, as the spec's login popup does.
    page.get_by_test_id("auth-popup").locator("input[name=password]").focus()
    expect(page.get_by_test_id("auth-error")).to_have_count(0)


def test_the_login_popup_validates_and_closes_on_escape(site: Site) -> None:
    page = site.open("/home")
    page.get_by_test_id("header-login").click()
    popup = page.get_by_test_id("auth-popup")
    popup.locator("input[name=login]").fill("ab")
    popup.locator("input[name=password]").press("Enter")
    expect(popup).to_contain_text("El nombre de usuario debe tener entre 4 y 15 caracteres")
    page.keyboard.press("Escape")
    expect(popup).to_have_count(0)


def test_portuguese_survives_a_reload(site: Site) -> None:
    page = site.open("/home")
    page.get_by_test_id("language-pt").click()
    expect(page.locator("html")).to_have_attribute("lang", "pt")
    page.reload()
    expect(page.locator("html")).to_have_attribute("lang", "pt")
    expect(page.get_by_test_id("header-login")).to_have_text("Entrar")
    expect(page.get_by_test_id("language-pt")).to_have_attribute("aria-pressed", "true")


def test_a_forced_expiry_shows_the_popup_and_logs_out(site: Site, control: httpx.Client) -> None:
    page = site.open("/home")
    site.log_in()
    expect(page.get_by_test_id("balance-cash")).to_have_text("Bs. 5.000,00")
    control.post("/_sandbox/sites/aurora/sessions/expire", json={"login": "demo1"}).raise_for_status()

    # The next 10-second balance poll meets SESSION_EXPIRED.
    notice = page.get_by_test_id("notice-popup")
    expect(notice).to_have_attribute("data-kind", "sessionExpired", timeout=15_000)
    expect(notice).to_contain_text("Tu sesión ha expirado")
    notice.get_by_test_id("notice-ok").click()
    expect(page.get_by_test_id("header-login")).to_be_visible()
    expect(page.get_by_test_id("profile-block")).to_have_count(0)


def test_a_provider_switched_off_hides_its_menu_entry(site: Site, control: httpx.Client) -> None:
    page = site.open("/home")
    expect(page.get_by_test_id("nav-sports")).to_be_visible()
    control.put("/_sandbox/sites/aurora/providers/bti", json={"enabled": False}).raise_for_status()
    page.reload()
    expect(page.get_by_test_id("nav-horseracing")).to_be_visible()
    expect(page.get_by_test_id("nav-sports")).to_have_count(0)


def test_a_guarded_url_sends_a_visitor_home(site: Site) -> None:
    page = site.open("/mybalance")
    expect(page).to_have_url(re.compile(r"/home$"))


def test_an_unknown_url_shows_the_404_screen_whose_image_leads_home(site: Site) -> None:
    page = site.open("/no/such/page")
    not_found = page.get_by_test_id("not-found")
    expect(not_found).to_be_visible()
    not_found.get_by_role("link").click()
    expect(page).to_have_url(re.compile(r"/home$"))


def test_the_side_menu_at_390px(site: Site) -> None:
    page = site.page
    page.set_viewport_size({"width": 390, "height": 844})
    site.open("/home")
    expect(page.get_by_test_id("nav-slots")).to_be_hidden()
    page.get_by_test_id("menu-toggle").click()
    menu = page.get_by_test_id("side-menu")
    expect(menu).to_be_visible()
    for entry in ("side-slots", "side-livedealer", "side-promotions", "side-contactus"):
        expect(menu.get_by_test_id(entry)).to_be_visible()
    page.screenshot(path=str(site_artifact("side_menu_open_390.png")))
    menu.get_by_test_id("side-slots").click()
    expect(menu).to_have_count(0)
    expect(page).to_have_url(re.compile(r"/games/slots$"))


def test_no_serious_accessibility_violations_on_home_and_the_login_popup(site: Site) -> None:
    page = site.open("/home")
    expect(page.get_by_test_id("header-login")).to_be_visible()
    assert describe(site.axe_violations()) == []
    page.get_by_test_id("header-login").click()
    expect(page.get_by_test_id("auth-popup")).to_be_visible()
    assert describe(site.axe_violations("[data-testid=auth-popup]")) == []


def describe(violations: list[dict[str, Any]]) -> list[str]:
    """One line per offending element, so that a failure says what to fix."""
    return [f"{v['id']}: {node['target']} {node.get('failureSummary', '')}" for v in violations for node in v["nodes"]]


def site_artifact(name: str) -> object:
    from tests.e2e.conftest import ARTIFACTS

    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS / name


def test_two_skins_from_one_build_look_different(site: Site) -> None:
    """One build, two sites: name, colours and the operator line come from the host's skin."""

    def brand(page: Page) -> tuple[str, str, str]:
        primary = page.evaluate("getComputedStyle(document.documentElement).getPropertyValue('--color-primary')")
        name = page.locator(".brand").get_attribute("aria-label") or ""
        return name, primary.strip(), page.locator(".site-footer__operator").inner_text()

    aurora = site.open("/home")
    expect(aurora.locator(".site-footer__operator")).to_contain_text("Aurora")
    expect(aurora.locator(".site-footer__operator")).to_contain_text("Juega con responsabilidad")  # in Spanish
    aurora_brand = brand(aurora)

    pampa = site.page
    pampa.goto(site.url.replace("127.0.0.1", "pampa.localhost") + "/home")
    expect(pampa.locator(".site-footer__operator")).to_contain_text("Pampa")
    # The mobile theme (990px and less): a phone's browser bar in the skin's header colour.
    expect(pampa.locator('meta[name=theme-color][media="(max-width: 990px)"]')).to_have_attribute("content", "#0f252b")
    pampa.screenshot(path=str(site_artifact("pampa_home.png")))
    pampa_brand = brand(pampa)

    assert aurora_brand[0] == "Aurora Casino" and pampa_brand[0] == "Pampa Bet"
    assert pampa_brand[1] == "#2dd4a7" and aurora_brand[1] != pampa_brand[1]


def test_the_flash_lobby_links_land_on_the_static_lobby_page_in_the_players_language(site: Site) -> None:
    page = site.open("/home")
    page.get_by_test_id("language-en").click()
    expect(page.locator("html")).to_have_attribute("lang", "en")
    page.goto(site.url + "/lobby/tableflash")
    expect(page).to_have_url(re.compile(r"/lobby/tableflash\.html$"))
    expect(page.get_by_role("heading")).to_have_text("The desktop poker lobby no longer uses Flash")
    page.get_by_role("link", name="Play HTML5 poker").click()
    expect(page).to_have_url(re.compile(r"/Evenbetpoker$"))

"""Issue 21's cashier screens and the spec's last gaps, as a player meets them in a real browser:
the deposit screen's logos and presets, the failures of section 8, form B's CUIT, the top menu's
paths, the lottery frame, F12, the live casino's image tiles and the Events title."""

from __future__ import annotations

import re

import httpx
import pytest
from playwright.sync_api import Page, expect

from tests.e2e.conftest import Site
from tests.e2e.test_account import open_logged_in
from tests.e2e.test_shell_and_auth import describe, site_artifact

REFUSE_ONCE = {"errorRate": 1, "errorStatus": 200, "code": None, "description": "Provider busy", "count": 1}


def loaded_images(page: Page, selector: str) -> list[str]:
    """The path of each image under `selector` that the browser has drawn (empty string if not)."""
    paths: list[str] = page.locator(selector).evaluate_all(
        "(images) => images.map((i) => (i.complete && i.naturalWidth > 0 ? new URL(i.src).pathname : ''))"
    )
    return paths


def test_the_deposit_screen_shows_each_methods_logo_and_name_and_amounts_to_tap(site: Site) -> None:
    open_logged_in(site, "/deposit")
    page = site.page
    methods = page.get_by_role("tablist", name="Métodos de depósito")
    expect(methods.get_by_role("tab")).to_have_count(5)
    expect(methods).to_contain_text("Perfect Money")
    expect(methods).not_to_contain_text("Pasarela")
    expect(page.get_by_role("radiogroup", name="Cómo pagar").get_by_role("radio")).to_have_count(5)
    expect(page.locator(".pay-method img")).to_have_count(10)
    page.wait_for_load_state("networkidle")
    logos = loaded_images(page, ".pay-method img")
    assert all(path.startswith("/capi/uploads/pay-") for path in logos), logos
    assert len(set(logos)) == 10, "each method has its own logo"
    form = page.get_by_test_id("deposit-form-328")
    presets = form.get_by_test_id("deposit-presets").get_by_role("button")
    expect(presets).to_have_text(
        ["Bs. 300,00", "Bs. 500,00", "Bs. 2.000,00", "Bs. 5.000,00", "Bs. 20.000,00", "Bs. 50.000,00"]
    )
    presets.nth(2).click()
    expect(form.locator("[name=amount]")).to_have_value("2000")
    page.screenshot(path=str(site_artifact("deposit_logos_presets.png")), full_page=True)
    assert describe(site.axe_violations("main")) == []


def test_a_refused_perfect_money_deposit_asks_to_try_again_in_15_minutes(site: Site, sandbox: httpx.Client) -> None:
    sandbox.put("/_sandbox/faults/buy", json=REFUSE_ONCE).raise_for_status()
    open_logged_in(site, "/deposit")
    page = site.page
    page.get_by_test_id("deposit-method-300").click()
    form = page.get_by_test_id("deposit-form-300")
    form.get_by_test_id("deposit-presets").get_by_role("button").first.click()
    form.get_by_test_id("deposit-submit").click()
    expect(page.get_by_test_id("notice-popup")).to_contain_text("Por favor, inténtalo de nuevo en 15 minutos")
    expect(form.get_by_role("alert")).to_have_text("Por favor, inténtalo de nuevo en 15 minutos")
    expect(page.get_by_test_id("notice-popup")).not_to_contain_text("Provider busy")
    page.screenshot(path=str(site_artifact("deposit_perfect_money_refused.png")))


@pytest.mark.parametrize(("code", "shown"), [("LEVELS_DOWN", "LEVELS_DOWN"), (None, "Error desconocido")])
def test_a_player_level_failure_shows_its_code_or_unknown_error(
    site: Site, sandbox: httpx.Client, code: str | None, shown: str
) -> None:
    fault = {"errorRate": 1, "errorStatus": 200, "code": code, "description": "levels unavailable"}
    sandbox.put("/_sandbox/faults/playerLevels", json=fault).raise_for_status()
    open_logged_in(site, "/mybalance")
    page = site.page
    expect(page.get_by_test_id("vip-level-error")).to_have_text(f"No pudimos leer tu nivel VIP: {shown}")
    expect(page.get_by_test_id("balance-available")).to_have_text("Bs. 5.000,00")


def test_form_b_takes_the_cuit_beside_its_prefix_and_refuses_a_short_one(site: Site, sandbox: httpx.Client) -> None:
    open_logged_in(site, "/withdraw")
    page = site.page
    page.get_by_test_id("withdraw-method-mercado").click()
    form = page.get_by_test_id("withdraw-form-formB")
    prefix = form.get_by_role("combobox", name="Prefijo CUIT")
    cuit = form.get_by_role("textbox", name="CUIT")
    prefix_box, cuit_box = prefix.bounding_box(), cuit.bounding_box()
    assert prefix_box and cuit_box and abs(prefix_box["y"] - cuit_box["y"]) < 4, "the prefix sits on the CUIT's line"
    for name, value in {
        "name": "Demo",
        "cbu": "0000003100012345678901",
        "alias": "demo.mp",
        "phone": "1155550000",
        "amount": "3500",
    }.items():
        form.locator(f"[name={name}]").fill(value)
    cuit.fill("1234567")
    cuit.press("Tab")
    expect(form.get_by_text("El CUIT debe tener 9 dígitos (sin el prefijo)")).to_be_visible()
    expect(form.get_by_test_id("withdraw-submit")).to_be_disabled()
    prefix.select_option("27")
    cuit.fill("123456789")
    form.get_by_test_id("withdraw-submit").click()
    page.get_by_test_id("notice-ok").click()
    expect(page.get_by_test_id("open-withdrawals")).to_contain_text("Bs. 3.500,00")
    title, form_box = page.get_by_role("heading", name="Solicitudes de retiro abiertas"), form.bounding_box()
    title_box = title.bounding_box()
    assert title_box and form_box and title_box["y"] - (form_box["y"] + form_box["height"]) >= 24, "space above"
    page.screenshot(path=str(site_artifact("withdraw_form_b_cuit.png")), full_page=True)


@pytest.mark.parametrize(
    ("path", "heading"),
    [
        ("/slots", "Tragamonedas"),
        ("/sports", "Deportes"),
        ("/horseracing", "Caballos"),
        ("/livedealer", "Casino en vivo"),
    ],
)
def test_the_top_menus_paths_show_their_screens(site: Site, path: str, heading: str) -> None:
    page = site.open(path)
    expect(page.get_by_role("heading", level=1)).to_have_text(heading)
    expect(page).to_have_url(re.compile(re.escape(path) + "$"))
    expect(page.get_by_test_id("not-found")).to_have_count(0)


def test_the_lottery_opens_in_the_frame_page_in_the_players_language(site: Site) -> None:
    open_logged_in(site, "/Evenbetpoker")
    page = site.page
    with page.expect_popup() as opened:
        page.get_by_test_id("lottery-fullpage").click()
    tab = opened.value
    expect(tab).to_have_url(re.compile(r"/opentab$"))
    expect(tab.get_by_test_id("opentab-lottery")).to_be_visible()
    expect(tab.get_by_role("heading", level=1)).to_have_text("Lotería")
    expect(tab.get_by_test_id("opentab-frame")).to_have_attribute("src", re.compile(r"[?&]lang=es(&|$)"))
    expect(tab.get_by_test_id("opentab-player")).to_have_text("demo1")
    tab.screenshot(path=str(site_artifact("opentab_lottery.png")))


def test_a_slots_game_chosen_after_the_lottery_opens_as_a_slots_frame(site: Site) -> None:
    open_logged_in(site, "/Evenbetpoker")
    page = site.page
    page.evaluate("localStorage.setItem('lottery', 'true')")
    page.goto(site.url + "/home")
    page.get_by_test_id("games-row-rubyplay").get_by_test_id("game-card").first.click()
    with page.expect_popup() as opened:
        page.get_by_test_id("game-frame-fullpage").click()
    tab = opened.value
    expect(tab.get_by_test_id("opentab-slots")).to_be_visible()
    expect(tab.get_by_test_id("opentab-lottery")).to_have_count(0)


def test_f12_is_blocked(site: Site) -> None:
    page = site.open("/home")
    page.evaluate("window.addEventListener('keydown', (e) => { window.lastKey = [e.key, e.defaultPrevented]; }, true)")
    page.keyboard.press("F12")
    assert page.evaluate("window.lastKey") == ["F12", True]
    page.keyboard.press("F11")
    assert page.evaluate("window.lastKey") == ["F11", False]


def test_live_casino_shows_two_image_tiles_and_the_road_to_the_cup_follows_its_provider(
    site: Site, sandbox: httpx.Client
) -> None:
    page = site.open("/livedealer")
    expect(page.get_by_test_id("tile-evolution").get_by_role("img", name="Evolution")).to_be_visible()
    expect(page.get_by_test_id("tile-ezugi").get_by_role("img", name="Ezugi")).to_be_visible()
    page.wait_for_load_state("networkidle")
    assert loaded_images(page, ".live-tile img") == ["/capi/uploads/live-evolution.svg", "/capi/uploads/live-ezugi.svg"]
    expect(page.get_by_test_id("road-to-the-cup")).to_be_visible()
    page.screenshot(path=str(site_artifact("live_casino.png")), full_page=True)
    page.get_by_test_id("road-to-the-cup").click()
    expect(page).to_have_url(re.compile(r"/blackjackleague$"))
    sandbox.put("/_sandbox/sites/aurora/providers/pragmaticplaylivecasino", json={"enabled": False})
    page = site.open("/livedealer")
    expect(page.get_by_test_id("tile-evolution")).to_be_visible()
    page.wait_for_load_state("networkidle")
    expect(page.get_by_test_id("road-to-the-cup")).to_have_count(0)


def test_the_events_screen_is_titled_with_the_events_name(site: Site) -> None:
    page = site.open("/Events")
    expect(page.get_by_role("heading", level=1)).to_have_text("Aurora Casino: Torneo navideño de blackjack")
    page.get_by_test_id("language-en").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Aurora Casino: Blackjack holiday tournament")

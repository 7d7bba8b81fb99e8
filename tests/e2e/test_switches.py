"""Issue 29: the operator's switches and the skin's languages honoured everywhere; the timed
checks decided on the platform's answers however late they come; one SESSION_EXPIRED path.

The skins of this module run on a stack of their own, from a skins file: one with withdrawals
off, one with deposits off, one whose default language is English (offering English and
Portuguese), all on the sandbox's `aurora` site (the same players)."""

from __future__ import annotations

import re
from collections.abc import Iterator

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect

from tests.e2e.conftest import ARTIFACTS, SPA_DIST, Site
from tests.support.stack import Stack, free_port, start_stack

WIDTHS = (390, 768, 1366)
FLOW_LINKS = {
    "withdrawals": ["/withdraw"],
    "deposits": ["/deposit", "/deposit-success", "/deposit-failed", "/deposit-pending", "/depositresponse"],
}
# Every h1 the page shows, however briefly (a screen shown for a moment before going home counts).
RECORD_HEADINGS = """
window.__headings = [];
new MutationObserver(() => {
  for (const h of document.querySelectorAll("h1")) {
    const text = h.textContent.trim();
    if (text && !window.__headings.includes(text)) window.__headings.push(text);
  }
}).observe(document, { childList: true, subtree: true, characterData: true });
"""
# How many session-expired popups opened.
COUNT_EXPIRY_POPUPS = """
window.__expiryPopups = 0;
const EXPIRY = '[data-kind="sessionExpired"]';
new MutationObserver((records) => {
  for (const record of records)
    for (const node of record.addedNodes)
      if (node.nodeType === 1 && (node.matches(EXPIRY) || node.querySelector(EXPIRY))) window.__expiryPopups += 1;
}).observe(document, { childList: true, subtree: true });
"""


def skin_toml(skin_id: str, hosts: list[str], sandbox: str, extra: str) -> str:
    return f"""
[[skins]]
id = "{skin_id}"
site_id = "aurora"
name = "Switches {skin_id}"
hosts = {hosts!r}
currency = "INR"
currency_symbol = "Bs."
frame_hosts = ["{sandbox}"]
payment_hosts = ["{sandbox}"]
{extra}

[skins.upstreams]
api = "{sandbox}"
capi = "{sandbox}"
sbapi = "{sandbox}"
rest = "{sandbox}"
""".replace("'", '"')


@pytest.fixture(scope="module")
def skins_stack(tmp_path_factory: pytest.TempPathFactory, _require_browser: None) -> Iterator[Stack]:
    workdir = tmp_path_factory.mktemp("switches")
    sandbox_port = free_port()
    sandbox = f"http://127.0.0.1:{sandbox_port}"
    skins = workdir / "skins.toml"
    skins.write_text(
        skin_toml("nowithdraw", ["nowithdraw.localhost"], sandbox, "features = { withdrawals = false }")
        + skin_toml("nodeposit", ["nodeposit.localhost"], sandbox, "features = { deposits = false }")
        + skin_toml("english", ["english.localhost"], sandbox, 'default_locale = "en"\nlocales = ["en", "pt"]')
        + skin_toml("plain", ["127.0.0.1"], sandbox, "")
    )
    stack = start_stack(
        workdir,
        env={"SPA_DIST": str(SPA_DIST), "SKINS_FILE": str(skins), "PROBE_UPSTREAMS": "false"},
        sandbox_port=sandbox_port,
    )
    yield stack
    stack.stop()


def on_host(stack: Stack, host: str) -> str:
    return stack.url.replace("127.0.0.1", host)


def log_in(page: Page, base: str, login: str = "demo1", password: str = "demo123") -> None:
    page.goto(base + "/home")
    Site(base, page).log_in(login, password)
    expect(page.get_by_test_id("profile-block")).to_be_visible()


def links_in_page(page: Page) -> list[str]:
    paths: list[str] = page.eval_on_selector_all("a[href]", "links => links.map(a => new URL(a.href).pathname)")
    return paths


def open_every_menu(page: Page, width: int) -> None:
    """The menus that hold account links at this width: the account dropdown, or the side menu's
    My Profile submenu."""
    if width >= 991:
        page.get_by_test_id("account-menu").click()
        expect(page.get_by_test_id("account-profile")).to_be_visible()
    else:
        page.get_by_test_id("menu-toggle").click()
        page.get_by_test_id("side-myprofile").click()
        expect(page.get_by_test_id("side-menu").get_by_role("link", name=re.compile("Perfil|Profile"))).to_be_visible()


SWITCHED = [("nowithdraw", "withdrawals", "/deposit"), ("nodeposit", "deposits", "/withdraw")]


@pytest.mark.parametrize(("skin", "off", "on"), SWITCHED)
def test_a_flow_switched_off_has_no_link_at_any_width_and_its_screens_send_home(
    skins_stack: Stack, browser: Browser, skin: str, off: str, on: str
) -> None:
    base = on_host(skins_stack, f"{skin}.localhost")
    context = browser.new_context(viewport={"width": 1366, "height": 800}, reduced_motion="reduce")
    page = context.new_page()
    page.set_default_timeout(10_000)
    log_in(page, base)
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 800})
        page.goto(base + "/profile")
        expect(page.get_by_test_id("profile-block")).to_be_attached()
        page.wait_for_load_state("networkidle")
        open_every_menu(page, width)
        links = links_in_page(page)
        page.screenshot(path=str(ARTIFACTS / f"switch_{skin}_{width}.png"))
        assert on in links, f"{skin} at {width}px: the other flow's link should show ({links})"
        assert not set(FLOW_LINKS[off]) & set(links), f"{skin} at {width}px links to a switched-off screen: {links}"
    page.add_init_script(RECORD_HEADINGS)
    for path in FLOW_LINKS[off]:
        page.goto(base + path)
        expect(page).to_have_url(re.compile(r"/home$"))
        shown = page.evaluate("window.__headings")
        assert not {"Retirar", "Depositar", "Withdraw", "Deposit"} & set(shown), f"{path} showed {shown}"
    context.close()


def test_a_skin_whose_default_is_english_greets_a_first_visitor_in_it(skins_stack: Stack, browser: Browser) -> None:
    base = on_host(skins_stack, "english.localhost")
    context = browser.new_context(viewport={"width": 1366, "height": 800}, locale="es-AR", reduced_motion="reduce")
    page = context.new_page()
    page.goto(base + "/home")
    expect(page.locator("html")).to_have_attribute("lang", "en")
    expect(page.get_by_test_id("header-login")).to_have_text("Login")
    switcher = page.get_by_role("group", name="Language")
    expect(switcher.get_by_role("button")).to_have_count(2)
    expect(page.get_by_test_id("language-en")).to_have_attribute("aria-pressed", "true")
    expect(page.get_by_test_id("language-pt")).to_be_visible()
    expect(page.get_by_test_id("language-es")).to_have_count(0)
    page.screenshot(path=str(ARTIFACTS / "switch_english_first_visit.png"))
    # A language stored on another skin that this one does not offer: its default.
    page.evaluate("localStorage.setItem('locale', 'es')")
    page.reload()
    expect(page.locator("html")).to_have_attribute("lang", "en")
    expect(page.get_by_test_id("header-login")).to_have_text("Login")
    # Its other language, chosen: kept.
    page.get_by_test_id("language-pt").click()
    expect(page.locator("html")).to_have_attribute("lang", "pt")
    expect(page.get_by_test_id("language-es")).to_have_count(0)
    context.close()


def delay_answers(control: httpx.Client, *routes: str, ms: int = 3000) -> None:
    for route in routes:
        control.put(f"/_sandbox/faults/{route}", json={"latencyMs": ms}).raise_for_status()


def test_an_entitled_player_stays_on_events_when_the_platform_answers_late(site: Site, control: httpx.Client) -> None:
    page = site.open("/home")
    site.log_in()
    expect(page.get_by_test_id("profile-block")).to_be_visible()
    delay_answers(control, "getPlayerProviderList", "getProfile")
    fresh = page.context.new_page()  # a fresh tab: no session flag written yet
    fresh.goto(site.url + "/Events")
    fresh.wait_for_timeout(5000)
    expect(fresh).to_have_url(re.compile(r"/Events$"))
    expect(fresh.get_by_test_id("screen-title")).to_be_visible()
    fresh.screenshot(path=str(ARTIFACTS / "switch_events_late_answers.png"))
    fresh.close()


def test_an_unentitled_player_never_sees_deposit_when_answers_are_late(site: Site, control: httpx.Client) -> None:
    page = site.open("/home")
    site.log_in("nocash", "nocash123")
    expect(page.get_by_test_id("profile-block")).to_be_visible()
    delay_answers(control, "getPlayerProviderList", "getProfile")
    fresh = page.context.new_page()
    fresh.add_init_script(RECORD_HEADINGS)
    fresh.goto(site.url + "/deposit")
    expect(fresh).to_have_url(re.compile(r"/home$"), timeout=10_000)
    shown = fresh.evaluate("window.__headings")
    assert "Depositar" not in shown, f"/deposit showed to a player with deposits off: {shown}"
    fresh.close()


def test_a_session_expiring_during_an_upload_shows_one_popup(site: Site, control: httpx.Client) -> None:
    page = site.page
    page.add_init_script(COUNT_EXPIRY_POPUPS)
    site.open("/home")
    site.log_in()
    expect(page.get_by_test_id("profile-block")).to_be_visible()
    page.get_by_test_id("account-menu").click()
    page.get_by_test_id("account-profile").click()
    card = page.get_by_test_id("document-idProof")
    # The profile shown first: expired before its reads answered, the page's own reads would meet
    # the expiry (a popup and home) before any upload (CI's fresh clone, under load).
    expect(card.get_by_test_id("document-file-idProof")).to_be_attached()
    control.post("/_sandbox/sites/aurora/sessions/expire", json={"login": "demo1"}).raise_for_status()
    card.get_by_test_id("document-file-idProof").set_input_files(
        files=[{"name": "dni.png", "mimeType": "image/png", "buffer": b"\x89PNG\r\n\x1a\n" + b"0" * 2048}]
    )
    notice = page.get_by_test_id("notice-popup")
    expect(notice).to_have_attribute("data-kind", "sessionExpired")
    # The one path: logged out with the popup, not at the next balance poll (which would show it again).
    expect(page.get_by_test_id("profile-block")).to_have_count(0, timeout=1000)
    notice.get_by_test_id("notice-ok").click()
    expect(page.get_by_test_id("header-login")).to_be_visible()
    page.screenshot(path=str(ARTIFACTS / "switch_upload_expiry.png"))
    page.wait_for_timeout(12_000)  # past the next 10-second balance poll
    assert page.evaluate("window.__expiryPopups") == 1
    expect(page.get_by_test_id("notice-popup")).to_have_count(0)

"""The spec's last screens (issue 29): frequent questions, the menus' links, provider chips, the
sports carousel's bet, the flash poker lobby and the calls the spec leaves without a screen."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.conftest import Site
from tests.e2e.test_shell_and_auth import describe, site_artifact

FAQ_TITLES = {"es": "Preguntas frecuentes", "pt": "Perguntas frequentes", "en": "Frequent Questions"}
# The sandbox CMS's first question in each language (sandbox/faqs.py).
CMS_QUESTIONS = {
    "es": "¿Cómo deposito en mi cuenta?",
    "pt": "Como faço um depósito na minha conta?",
    "en": "How do I deposit into my account?",
}


def choose_language(page: Page, language: str) -> None:
    if language != "es":
        page.get_by_test_id(f"language-{language}").click()
        expect(page.locator("html")).to_have_attribute("lang", language)


def in_view(page: Page, test_id: str) -> bool:
    """Whether the element's top is inside the window, below the sticky header."""
    top: float = page.get_by_test_id(test_id).evaluate("(el) => el.getBoundingClientRect().top")
    header: float = page.get_by_test_id("site-header").evaluate("(el) => el.getBoundingClientRect().bottom")
    height: int = page.evaluate("window.innerHeight")
    return header - 1 <= top < height


@pytest.mark.parametrize("language", ["es", "pt", "en"])
def test_the_footers_frequent_questions_land_on_the_answers(site: Site, language: str) -> None:
    page = site.open("/home")
    choose_language(page, language)
    page.get_by_test_id("site-footer").get_by_role("link", name=FAQ_TITLES[language]).click()
    expect(page).to_have_url(f"{site.url}/contactus#faq")
    faq = page.get_by_test_id("faq")
    expect(faq.get_by_role("heading", level=2)).to_have_text(FAQ_TITLES[language])
    expect(faq.get_by_text(CMS_QUESTIONS[language])).to_be_visible()
    expect(faq).to_have_attribute("data-source", "cms")
    page.wait_for_function("() => document.getElementById('faq').getBoundingClientRect().top < innerHeight / 2")
    assert in_view(page, "faq")
    page.screenshot(path=str(site_artifact(f"faq_footer_{language}.png")))
    assert describe(site.axe_violations("#faq")) == []


@pytest.mark.parametrize("language", ["es", "pt", "en"])
def test_the_side_menus_frequent_questions_land_on_the_answers_on_a_phone(site: Site, language: str) -> None:
    page = site.page
    page.set_viewport_size({"width": 390, "height": 844})
    site.open("/home")
    if language != "es":  # the header's switcher gives way on phones: the side menu's
        page.get_by_test_id("menu-toggle").click()
        page.get_by_test_id(f"side-language-{language}").click()
        expect(page.locator("html")).to_have_attribute("lang", language)
    page.get_by_test_id("menu-toggle").click()
    page.get_by_test_id("side-faq").click()
    expect(page).to_have_url(f"{site.url}/contactus#faq")
    expect(page.get_by_test_id("faq").get_by_text(CMS_QUESTIONS[language])).to_be_visible()
    page.wait_for_function("() => document.getElementById('faq').getBoundingClientRect().top < innerHeight / 2")
    assert in_view(page, "faq")
    page.screenshot(path=str(site_artifact(f"faq_side_{language}.png")))


def test_the_frequent_questions_fall_back_to_the_built_in_answers(site: Site) -> None:
    # In the browser: the gateway may hold the CMS's answer from an earlier test (stale-if-error).
    site.page.route("**/capi/faqs?*", lambda route: route.fulfill(status=502, json={"message": "down"}))
    page = site.open("/contactus#faq")
    faq = page.get_by_test_id("faq")
    expect(faq).to_have_attribute("data-source", "built-in")
    for topic in ("deposits", "withdrawals", "verification", "bonuses", "responsibleGaming", "account"):
        expect(faq.get_by_test_id(f"faq-{topic}").locator("dd")).not_to_be_empty()
    page.screenshot(path=str(site_artifact("faq_built_in.png")), full_page=True)


def reloads_on_click(page: Page, click: object) -> bool:
    """Whether clicking (a callable) reloads the document: a mark left on `window` goes away."""
    page.evaluate("window.__before_click = true")
    with page.expect_event("load"):
        click()  # type: ignore[operator]
    return bool(page.evaluate("window.__before_click !== true"))


def test_internal_links_to_the_page_shown_reload_it(site: Site) -> None:
    page = site.open("/home")
    expect(page.get_by_test_id("quick-lobby")).to_be_visible()
    assert reloads_on_click(page, page.get_by_test_id("quick-lobby").click)
    site.open("/promotions")
    footer_link = page.get_by_test_id("site-footer").get_by_role("link", name="Promociones")
    expect(footer_link).to_be_visible()
    assert reloads_on_click(page, footer_link.click)
    expect(page).to_have_url(f"{site.url}/promotions")


def test_a_visitors_top_menu_and_the_blackjack_league_in_the_menus(site: Site) -> None:
    page = site.open("/home")
    nav = page.get_by_role("navigation", name="Menú principal")
    for test_id, path in (("nav-slots", "/slots"), ("nav-promotions", "/promotions"), ("nav-contactus", "/contactus")):
        expect(nav.get_by_test_id(test_id)).to_have_attribute("href", path)
    nav.get_by_test_id("nav-contactus").click()
    expect(page).to_have_url(f"{site.url}/contactus")
    page.get_by_test_id("nav-events").click()
    page.get_by_test_id("nav-blackjackleague").click()
    expect(page).to_have_url(f"{site.url}/blackjackleague")
    page.set_viewport_size({"width": 390, "height": 844})
    page.get_by_test_id("menu-toggle").click()
    side = page.get_by_test_id("side-menu")
    expect(side.get_by_test_id("side-blackjackleague")).to_have_attribute("href", "/blackjackleague")
    # The CMS's header links name the entries and give them their icons.
    expect(side.get_by_test_id("side-slots").locator("img")).to_have_attribute("src", "/capi/uploads/icon-slots.svg")
    page.screenshot(path=str(site_artifact("side_menu_header_links.png")))


@pytest.mark.parametrize("provider", ["habanero", "evolution"])
def test_every_provider_chip_filters_the_slots_to_its_games(site: Site, provider: str) -> None:
    page = site.open("/home")
    page.get_by_test_id("providers-see-all").click()
    page.get_by_test_id("providers-popup").get_by_test_id(f"provider-{provider}").click()
    expect(page).to_have_url(f"{site.url}/games/slots")
    expect(page.get_by_test_id(f"slots-provider-{provider}")).to_have_attribute("aria-pressed", "true")
    cards = page.get_by_test_id("game-grid").get_by_test_id("game-card")
    expect(cards.first).to_be_visible()
    images = cards.locator("img").evaluate_all("(images) => images.map((image) => image.getAttribute('src'))")
    assert images and all(f"-{provider}-" in src for src in images), images
    expect(page.get_by_test_id("games-row-newpragmatic")).to_have_count(0)
    page.get_by_test_id("slots-provider-pragmaticplay").click()
    expect(page.get_by_test_id("games-row-newpragmatic").get_by_test_id("game-card").first).to_be_visible()
    page.screenshot(path=str(site_artifact(f"slots_{provider}.png")), full_page=True)

"""Issue 36: links from the platform are read as URLs. A CMS that serves hostile entries beside the
real ones (written into the sandbox as an editor would, `sandbox/hostile.py`): no menu entry,
banner or tile leads off the site or the skin's allowed hosts, every legitimate item still shows,
and nothing a `javascript:` or `data:` link or CMS markup would run ever runs.

The skin runs on a stack of its own, from a skins file that allows one external host
(`https://sports.example`); its entries are written before any page asks (the gateway caches
content)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlsplit

import httpx
import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from tests.e2e.conftest import ARTIFACTS, SPA_DIST, Site
from tests.support.stack import Stack, free_port, start_stack

ALLOWED = "https://sports.example"
MARK = "window.__pwned=1"
HOSTILE = [
    f"javascript:{MARK}",
    f"JAVASCRIPT:{MARK}",
    f"data:text/html,<script>opener.{MARK}</script>",
    "vbscript:msgbox(1)",
    "//evil.example/promo",
    "/\\evil.example",
    "\\\\evil.example",
    "/\t/evil.example",
    "/%2F%2Fevil.example",
    "https://evil.example/",
    "http://sports.example/",
    "https://sports.example@evil.example/",
    "https://s\u0440\u043erts.example/",  # Cyrillic р and о
    "https://sports.example:8443/",
]
LEGITIMATE = {  # as sent -> the href the page gives it
    "/games/slots": "/games/slots",
    "promotions?from=cms#top": "/promotions?from=cms#top",
    f"{ALLOWED}/promo": f"{ALLOWED}/promo",
}
# Header links by id: a hostile url keeps the menu's built-in path; the last two are followed.
HEADER_LINKS = {
    14: ("/\\evil.example", "/poker"),
    15: ("/\t/evil.example", "/games/Blackjack"),
    16: (f"javascript:{MARK}", "/DropWin"),
    2: ("//evil.example/slots", "/games/slots"),
    4: ("https://s\u0440\u043erts.example/", "/games/livedealer"),
    5: (f"data:text/html,<script>opener.{MARK}</script>", "/games/horseracing"),
    6: ("/%2F%2Fevil.example", "/promotions"),
    18: ("https://sports.example@evil.example/", "/blackjackleague"),
    19: ("HTTPS://EVIL.EXAMPLE/", "/home"),
    3: (f"{ALLOWED}/book", f"{ALLOWED}/book"),
    7: ("/contactus?from=cms", "/contactus?from=cms"),
}
MARKUP = f'<img src=x onerror="{MARK}"><a href="javascript:{MARK}">aquí</a>'
BANNERS = {  # collection -> (its gateway path, its image field, the pages that show it)
    "homeBanners": ("/capi/home-banners", "heroBanner"),
    "lobbyBanners": ("/capi/lobby-slot-images", "LobbyImage"),
    "footerBanners": ("/capi/footer-slot-images", "FooterImage"),
    "pokerBanners": ("/capi/poker-banners", "pokerBanner"),
    "eventBanners": ("/capi/event-banners", "eventBanner"),
}
# Every link a page holds (the skip link and the footer's built-in social pages are not the platform's).
LINKS = """() => [...document.querySelectorAll("a[href]")]
  .filter((a) => !a.closest(".site-footer__social") && !a.getAttribute("href").startsWith("#"))
  .map((a) => ({ raw: a.getAttribute("href"), href: a.href, target: a.target, rel: a.rel }))"""


def skins_file(sandbox: str) -> str:
    upstreams = "\n".join(f'{name} = "{sandbox}"' for name in ("api", "capi", "sbapi", "rest"))
    return f"""
[[skins]]
id = "links"
site_id = "aurora"
name = "Aurora Casino"
hosts = ["127.0.0.1"]
currency = "INR"
currency_symbol = "Bs."
frame_hosts = ["{sandbox}"]
payment_hosts = ["{sandbox}"]
link_hosts = ["{ALLOWED}"]

[skins.upstreams]
{upstreams}
"""


def seeded(sandbox: httpx.Client, path: str, **filters: str) -> list[dict[str, Any]]:
    params = {f"filters[{k}][$eq]": v for k, v in {"locale": "es", **filters}.items()}
    data: list[dict[str, Any]] = sandbox.get(path, params=params, headers={"siteid": "aurora"}).json()["data"]
    return data


def write(sandbox: httpx.Client, collection: str, entries: list[dict[str, Any]]) -> None:
    sandbox.put(f"/_sandbox/sites/aurora/content/{collection}", json=entries).raise_for_status()


def write_banners(sandbox: httpx.Client) -> None:
    """Each banner collection: a legitimate banner per LEGITIMATE link and a hostile one per HOSTILE
    link, on the seeded art (event banners lead to /Events, the screen that shows them)."""
    for collection, (path, image) in BANNERS.items():
        art = [entry[image] for entry in seeded(sandbox, path)]
        links = [*(("legit", link) for link in LEGITIMATE), *(("hostile", link) for link in HOSTILE)]
        entries = []
        for n, (kind, link) in enumerate(links):
            title = f"{kind}-{collection}-{n}"
            event_link = "/Events" if kind == "legit" else link
            entries.append(
                {
                    "id": 900 + n,
                    "title": title,
                    "eventName": title,
                    "routerLink": event_link if collection == "eventBanners" else link,
                    "status": "active",
                    "locale": "es",
                    image: {**art[n % len(art)], "alternativeText": title},
                }
            )
        write(sandbox, collection, entries)


def write_content(sandbox: httpx.Client) -> None:
    write_banners(sandbox)
    links = {
        link["id"]: link for link in sandbox.get("/capi/header-links", headers={"siteid": "aurora"}).json()["data"]
    }
    write(sandbox, "headerLinks", [{**links[i], "url": url} for i, (url, _) in HEADER_LINKS.items()])
    ruby = seeded(sandbox, "/capi/games-lists", gameProviderName="rubyplay")[0]
    first = {**ruby["gamesList"][0], "gameName": MARKUP, "name": MARKUP, "gameId": f"javascript:{MARK}"}
    write(sandbox, "gamesLists", [{**ruby, "gamesList": [first, *ruby["gamesList"][1:]]}])
    faq = seeded(sandbox, "/capi/faqs")[0]
    write(sandbox, "faqs", [{**faq, "question": "<b>¿Markup?</b>", "answer": MARKUP}])


@pytest.fixture(scope="module")
def links_stack(tmp_path_factory: pytest.TempPathFactory, _require_browser: None) -> Iterator[Stack]:
    workdir = tmp_path_factory.mktemp("links")
    sandbox_port = free_port()
    skins = workdir / "skins.toml"
    skins.write_text(skins_file(f"http://127.0.0.1:{sandbox_port}"))
    env = {"SPA_DIST": str(SPA_DIST), "SKINS_FILE": str(skins), "PROBE_UPSTREAMS": "false"}
    stack = start_stack(workdir, env=env, sandbox_port=sandbox_port)
    with httpx.Client(base_url=stack.sandbox_url, timeout=30) as sandbox:
        write_content(sandbox)
    yield stack
    stack.stop()


class Visit:
    """A browser context on the stack that records every request leaving the site and every tab opened."""

    def __init__(self, browser: Browser, stack: Stack, width: int) -> None:
        self.base = stack.url
        self.sandbox = stack.sandbox_url
        self.context: BrowserContext = browser.new_context(
            viewport={"width": width, "height": 900}, locale="es-AR", reduced_motion="reduce"
        )
        self.offsite: list[str] = []
        self.tabs: list[Page] = []
        local = {urlsplit(stack.url).netloc, urlsplit(stack.sandbox_url).netloc}
        self.context.on("request", lambda r: None if urlsplit(r.url).netloc in local else self.offsite.append(r.url))
        self.context.route(
            f"{ALLOWED}/**", lambda route: route.fulfill(body="the sportsbook", content_type="text/plain")
        )
        self.page = self.context.new_page()
        self.page.set_default_timeout(15_000)
        self.context.on("page", lambda tab: self.tabs.append(tab) if tab != self.page else None)

    def open(self, path: str) -> Page:
        self.page.goto(self.base + path)
        self.page.wait_for_load_state("networkidle")
        return self.page

    def log_in(self) -> None:
        self.open("/home")
        Site(self.base, self.page).log_in()
        expect(self.page.get_by_test_id("profile-block")).to_be_visible()

    def close(self) -> None:
        self.context.close()


@pytest.fixture
def desktop(links_stack: Stack, browser: Browser) -> Iterator[Visit]:
    visit = Visit(browser, links_stack, 1366)
    yield visit
    visit.close()


@pytest.fixture
def phone(links_stack: Stack, browser: Browser) -> Iterator[Visit]:
    visit = Visit(browser, links_stack, 390)
    yield visit
    visit.close()


def assert_only_allowed_links(visit: Visit) -> list[dict[str, str]]:
    """Every link on the page: a path of the site, or the allowed host in a new tab without an opener."""
    links: list[dict[str, str]] = visit.page.evaluate(LINKS)
    assert links
    for link in links:
        assert link["raw"] not in HOSTILE, link
        parts = urlsplit(link["href"])
        if f"{parts.scheme}://{parts.netloc}" == ALLOWED:
            assert (link["target"], link["rel"]) == ("_blank", "noopener noreferrer"), link
        else:
            assert link["href"].startswith(visit.base + "/") and not link["raw"].startswith("//"), link
    return links


def banner_links(page: Page, collection: str) -> dict[str, str | None]:
    """Each injected banner's art by its alt text, and the href it is linked to (None: unlinked)."""
    found: dict[str, str | None] = page.eval_on_selector_all(
        f"img[alt*='-{collection}-']",
        "images => Object.fromEntries(images.map((i) => [i.alt, i.closest('a')?.getAttribute('href') ?? null]))",
    )
    return found


def assert_banners(page: Page, collection: str, *, hostile_shown: bool = True) -> None:
    expect(page.locator(f"a:has(img[alt='legit-{collection}-0'])")).to_be_attached()  # shown, and linked
    found = banner_links(page, collection)
    legit = {f"legit-{collection}-{n}": href for n, href in enumerate(LEGITIMATE.values())}
    if collection == "eventBanners":
        legit = dict.fromkeys(legit, "/Events")
    assert {alt: found.get(alt) for alt in legit} == legit, found
    hostile = {alt: href for alt, href in found.items() if alt.startswith("hostile-")}
    assert all(href is None for href in hostile.values()), hostile
    if hostile_shown:
        assert len(hostile) == len(HOSTILE), found


def click_every_unlinked_banner(visit: Visit, collection: str) -> None:
    """A click on each hostile banner's art (hidden slides too) leads nowhere."""
    before = visit.page.url
    visit.page.eval_on_selector_all(f"img[alt^='hostile-{collection}-']", "images => images.forEach((i) => i.click())")
    visit.page.wait_for_timeout(300)
    assert visit.page.url == before


def assert_nothing_ran(visit: Visit) -> None:
    for page in [visit.page, *visit.tabs]:
        if not page.is_closed():
            assert page.evaluate("window.__pwned") is None, page.url
    assert all(urlsplit(tab.url).netloc in ("", "sports.example") for tab in visit.tabs), [t.url for t in visit.tabs]
    assert all(url.startswith(ALLOWED + "/") for url in visit.offsite), visit.offsite


def test_the_home_page_keeps_every_banner_and_links_only_to_the_site_or_the_allowed_host(desktop: Visit) -> None:
    page = desktop.open("/home")
    expect(page.get_by_test_id("footer-banners")).to_be_attached()
    for collection in ("homeBanners", "lobbyBanners", "footerBanners"):
        assert_banners(page, collection)
        click_every_unlinked_banner(desktop, collection)
    links = assert_only_allowed_links(desktop)
    assert {"/games/slots", "/promotions?from=cms#top", f"{ALLOWED}/promo"} <= {link["raw"] for link in links}
    row = page.get_by_test_id("games-row-rubyplay")
    expect(row.get_by_test_id("game-card")).to_have_count(8)
    expect(row.get_by_test_id("game-card").first).to_contain_text(MARKUP)  # the name as text, never as markup
    page.screenshot(path=str(ARTIFACTS / "links_home_1366.png"), full_page=True)
    with desktop.context.expect_page() as opened:
        page.get_by_alt_text("legit-lobbyBanners-2").click()  # the allowed host, in a tab of its own
    opened.value.wait_for_load_state()
    assert opened.value.url == f"{ALLOWED}/promo"
    assert opened.value.evaluate("window.opener") is None
    expect(page).to_have_url(desktop.base + "/home")
    assert_nothing_ran(desktop)


TOP_BAR = {  # a player's top bar and Events dropdown: test id -> where it leads
    "nav-home": "/home",
    "nav-slots": "/games/slots",
    "nav-livedealer": "/games/livedealer",
    "nav-horseracing": "/games/horseracing",
    "nav-poker": "/poker",
    "nav-blackjack": "/games/Blackjack",
    "nav-dropwin": "/DropWin",
    "nav-blackjackleague": "/blackjackleague",
}


def test_a_players_menus_keep_their_paths_when_the_cms_sends_hostile_links(desktop: Visit) -> None:
    desktop.log_in()
    page = desktop.page
    page.get_by_test_id("nav-events").click()
    for test_id, path in TOP_BAR.items():
        expect(page.get_by_test_id(test_id)).to_have_attribute("href", path)
    assert_only_allowed_links(desktop)
    sports = page.get_by_test_id("nav-sports")
    expect(sports).to_have_attribute("href", f"{ALLOWED}/book")
    expect(sports).to_have_attribute("rel", "noopener noreferrer")
    page.screenshot(path=str(ARTIFACTS / "links_player_menu_1366.png"))
    page.keyboard.press("Escape")
    tile = page.get_by_test_id("games-row-rubyplay").get_by_test_id("game-card").first
    expect(tile).to_contain_text(MARKUP)
    tile.click()  # the game opens on the frame host, its name as text in the frame too
    frame = page.get_by_test_id("game-frame")
    expect(frame.locator("iframe")).to_have_attribute(
        "src", re.compile("^" + re.escape(desktop.sandbox) + "/_sandbox/game/")
    )
    expect(page.frame_locator("[data-testid=game-frame] iframe").locator("h1")).to_have_text(MARKUP)
    assert page.frames[-1].evaluate("window.__pwned") is None
    page.get_by_test_id("game-frame-close").click()
    page.get_by_test_id("nav-poker").click()
    expect(page).to_have_url(desktop.base + "/poker")
    expect(page.get_by_test_id("poker-banners")).to_be_visible()
    assert_banners(page, "pokerBanners")
    click_every_unlinked_banner(desktop, "pokerBanners")
    assert_only_allowed_links(desktop)
    assert_nothing_ran(desktop)


def test_promotions_events_and_questions_show_every_legitimate_item(desktop: Visit) -> None:
    page = desktop.open("/promotions")
    assert_banners(page, "lobbyBanners")
    assert_banners(page, "footerBanners")
    assert_only_allowed_links(desktop)
    page.screenshot(path=str(ARTIFACTS / "links_promotions_1366.png"), full_page=True)
    desktop.log_in()
    page = desktop.open("/Events")
    expect(page.get_by_test_id("event-banners")).to_be_visible()
    assert_banners(page, "eventBanners", hostile_shown=False)  # their links are no screen's: not shown there
    page = desktop.open("/contactus#faq")
    faq = page.get_by_test_id("faq-deposits")
    expect(faq).to_contain_text(MARKUP)
    expect(faq).to_contain_text("<b>¿Markup?</b>")
    assert faq.locator("img, a, b").count() == 0
    assert_only_allowed_links(desktop)
    page.screenshot(path=str(ARTIFACTS / "links_faq_1366.png"))
    assert_nothing_ran(desktop)


def test_on_a_phone_the_side_menu_and_banners_keep_to_the_site(phone: Visit) -> None:
    page = phone.open("/home")
    assert_banners(page, "homeBanners")
    page.screenshot(path=str(ARTIFACTS / "links_home_390.png"), full_page=True)
    page.get_by_test_id("menu-toggle").click()
    menu = page.get_by_test_id("side-menu")
    expect(menu).to_be_visible()
    for test_id, path in [("side-poker", "/poker"), ("side-slots", "/games/slots"), ("side-home", "/home")]:
        expect(menu.get_by_test_id(test_id)).to_have_attribute("href", path)
    expect(menu.get_by_test_id("side-sports")).to_have_attribute("href", f"{ALLOWED}/book")
    assert_only_allowed_links(phone)
    page.screenshot(path=str(ARTIFACTS / "links_side_menu_390.png"))
    menu.get_by_test_id("side-poker").click()
    expect(page).to_have_url(phone.base + "/poker")
    assert_nothing_ran(phone)

"""What a phone on a slow network pays for the player site: the page and its scripts arrive
brotli-compressed, every JSON answer over 1 kB compressed, and a player coming back downloads
nothing unchanged again: the build's files from Chromium's own cache, the page, its config and
the content revalidated for 304s (read through the DevTools protocol)."""

from __future__ import annotations

import httpx
import pytest
from playwright.sync_api import Browser, BrowserContext

from tests.e2e.conftest import Site
from tests.support.wire import Visit, visit

pytestmark = pytest.mark.e2e


def test_a_returning_player_revalidates_the_page_and_config_and_reuses_the_scripts(
    site: Site, context: BrowserContext
) -> None:
    first = {answer.path: answer for answer in visit(context, site.url + "/home", settle_ms=500).crossed()}
    assert first["/home"].status == 200 and first["/home"].encoding == "br"
    scripts = [answer for path, answer in first.items() if path.startswith("/assets/") and path.endswith(".js")]
    assert scripts and all(answer.encoding == "br" for answer in scripts), [(a.path, a.encoding) for a in scripts]

    again = {answer.path: answer for answer in visit(context, site.url + "/home", settle_ms=500).crossed()}
    assert again["/home"].status == 304, "the page is revalidated, not downloaded again"
    assert again["/bff/config"].status == 304
    assert again["/home"].wire < 1500 and again["/bff/config"].wire < 500, "a 304 is a head alone"
    assert not [path for path in again if path.startswith("/assets/")], "the build's files come from the cache"


PHONE = {"width": 390, "height": 844}
CONTENT = ("/capi/", "/sbapi/sports/")


def revalidated(seen: Visit, page: str, known: set[str]) -> list[str]:
    """What this browser already had (`known`: its earlier visits' answers) of the page, its
    config and content that crossed the wire on a repeat visit and was not a 304. An image the
    page had not loaded before (lazily, below the fold) is new to it, not revalidated."""
    return [
        f"{answer.path} {answer.status} {answer.wire}"
        for answer in seen.crossed()
        if answer.status != 304
        and answer.path in known
        and (answer.path.startswith(CONTENT) or answer.path in {"/bff/config", page})
    ]


def test_a_phone_pays_200_kb_for_the_first_home_and_15_kb_after(
    site: Site, browser: Browser, admin: httpx.Client
) -> None:
    # The gateway's copies may predate the sandbox's reset for this test (its sports events are
    # seeded from the time of the reset): the skin's cache is purged, as an operator would, so
    # that the visits below see the platform's content as it now is (a copy whose content changed
    # between two visits is rightly a 200, not a 304).
    purged = admin.post("/admin/api/skins/aurora/cache/purge", json={"reason": "test_bytes starts afresh"})
    assert purged.status_code == 200, purged.text
    primer = browser.new_context(viewport=PHONE, locale="es-AR")
    visit(primer, site.url + "/home", settle_ms=1000)
    visit(primer, site.url + "/games/slots", settle_ms=1000)
    primer.close()
    phone = browser.new_context(viewport=PHONE, locale="es-AR", reduced_motion="reduce")
    try:
        first = visit(phone, site.url + "/home", settle_ms=1000)
        known = {answer.path for answer in first.answers.values() if answer.finished}
        figures = first.figures()
        assert figures["bytes"] <= 200_000, figures["largest"]
        assert figures["uncompressed_json_over_1kb"] == [], "every JSON answer over 1 kB arrives compressed"
        # again and again; /games/slots once first (its own games lists are new to this browser)
        for page, later_visit in (("/home", True), ("/home", True), ("/games/slots", False), ("/games/slots", True)):
            again = visit(phone, site.url + page, settle_ms=1000)
            later = again.figures()
            assert later["uncompressed_json_over_1kb"] == []
            if later_visit:
                assert later["bytes"] <= 15_000, (page, later["largest"])
                assert revalidated(again, page, known) == [], "unchanged content, config and page are answered 304"
                statuses = {answer.path: answer.status for answer in again.crossed()}
                assert statuses.get(page) == 304 and statuses.get("/bff/config") == 304, (page, later)
                assert any(path.startswith(CONTENT) and status == 304 for path, status in statuses.items()), later
            known |= {answer.path for answer in again.answers.values() if answer.finished}
    finally:
        phone.close()

"""What a phone on a slow network pays for the player site: the page and its scripts arrive
brotli-compressed, and a player coming back downloads neither again (Chromium's own cache, read
through the DevTools protocol)."""

from __future__ import annotations

import pytest
from playwright.sync_api import BrowserContext

from tests.e2e.conftest import Site
from tests.support.wire import visit

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

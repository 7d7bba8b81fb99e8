"""The rule for links that come from the platform (`contracts/links.py`), on a table of hostile and
legitimate values; the SPA's `lib/links.ts` holds the same table against the browser's parser."""

from __future__ import annotations

import pytest

from contracts.catalogue import ROUTES_BY_NAME
from contracts.links import allowed_link, blank_refused, link_paths

SITE = {"aurora.example", "www.aurora.example", "127.0.0.1:8000"}
ALLOWED = {"https://sports.aurora.example", "https://games.provider.example", "https://live.example:8443"}

HOSTILE = [
    "javascript:alert(1)",
    "JAVASCRIPT:alert(1)",
    "JavaScript:alert(document.cookie)",
    " javascript:alert(1)",
    "java\tscript:alert(1)",
    "java\nscript:alert(1)",
    "java\rscript:alert(1)",
    "\x00javascript:alert(1)",
    "javascript&colon;alert(1)",
    "data:text/html,<script>alert(1)</script>",
    "DATA:text/html;base64,PHNjcmlwdD4=",
    "vbscript:msgbox(1)",
    "blob:https://aurora.example/1",
    "file:///etc/passwd",
    "ftp://evil.example/",
    "mailto:a@evil.example",
    "tel:+10000",
    "//evil.example",
    "//evil.example/promotions",
    "///evil.example",
    "/\\evil.example",
    "\\\\evil.example",
    "\\/evil.example",
    "/\t/evil.example",
    "/\n/evil.example",
    "/%2F%2Fevil.example",
    "/%2f/evil.example",
    "/%5Cevil.example",
    "/%09/evil.example",
    "https://evil.example/",
    "http://evil.example/",
    "HTTPS://EVIL.EXAMPLE/",
    "https://aurora.example@evil.example/",
    "https://user:pass@aurora.example/",
    "https://aurora.example.evil.example/",
    "https://evil.example#@aurora.example",
    "https://xn--urora-5ve.example/",
    "https://аurora.example/",
    "https://sports.aurora.example.evil/",
    "http://sports.aurora.example/",
    "https://sports.aurora.example:444/",
    "https://live.example/",
    "https://aurora.example:99999/",
    "https://[::1]/",
    "http://127.0.0.1/",
    "",
    " ",
    "/promotions\x7f",
]
LEGITIMATE = [
    "/",
    "/promotions",
    "/promotions?tab=weekly",
    "/games/slots#top",
    "/casino/live?provider=evolution&sort=new",
    "/poker",
    "promotions",
    "games/slots",
    "?tab=sports",
    "#faq",
    "/%C3%B1andu",
    "/games/pragmaticplay/vs20olympgate",
    "https://aurora.example/promotions",
    "http://aurora.example/promotions",
    "https://www.aurora.example/",
    "https://AURORA.example/x",
    "http://127.0.0.1:8000/games",
    "https://sports.aurora.example/",
    "https://sports.aurora.example/events?id=7",
    "https://SPORTS.aurora.example/live",
    "https://games.provider.example/lobby",
    "https://games.provider.example:443/lobby",
    "https://live.example:8443/table/1",
]


@pytest.mark.parametrize("raw", HOSTILE)
def test_a_hostile_link_is_refused(raw: str) -> None:
    assert not allowed_link(raw, SITE, ALLOWED), repr(raw)


@pytest.mark.parametrize("raw", LEGITIMATE)
def test_a_legitimate_link_is_kept(raw: str) -> None:
    assert allowed_link(raw, SITE, ALLOWED), repr(raw)


def test_the_tables_are_as_large_as_the_rule_deserves() -> None:
    assert len(HOSTILE) >= 40 and len(LEGITIMATE) >= 20


def test_the_link_fields_are_found_in_the_contract_types_and_refused_ones_blanked() -> None:
    paths = link_paths(ROUTES_BY_NAME["homeBanners"].response)
    assert paths == [("data", -1, "routerLink")]
    data = {"data": [{"id": 1, "routerLink": "/promotions"}, {"id": 2, "routerLink": "//evil.example"}, {"id": 3}]}
    blanked = blank_refused(data, paths, lambda raw: allowed_link(raw, SITE, ALLOWED))
    assert blanked == [("data.1.routerLink", "//evil.example")]
    assert [entry.get("routerLink") for entry in data["data"]] == ["/promotions", "", None]
    assert link_paths(ROUTES_BY_NAME["headerLinks"].response) == [("data", -1, "url")]

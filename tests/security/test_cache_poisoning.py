"""The content cache is keyed by skin, path and query: no header, host or encoding trick can
put one skin's or one language's content into another's entry."""

from __future__ import annotations

from typing import Any

import httpx

from tests.support.rawhttp import raw, request
from tests.support.stack import Stack

BANNERS = "/capi/home-banners"
LOCALE = "filters%5Blocale%5D%5B%24eq%5D="
HOSTS = {"aurora": "127.0.0.1", "pampa": "pampa.localhost"}


def truth(stack: Stack, site: str, lang: str) -> Any:
    """What the platform itself holds for that site and language."""
    return httpx.get(f"{stack.sandbox_url}{BANNERS}?{LOCALE}{lang}", headers={"siteid": site}).json()


def through_gateway(stack: Stack, site: str, lang: str) -> Any:
    port = httpx.URL(stack.url).port
    return httpx.get(f"{stack.url}{BANNERS}?{LOCALE}{lang}", headers={"host": f"{HOSTS[site]}:{port}"}).json()


def test_host_locale_and_header_tricks_cannot_poison_the_content_cache(stack: Stack, control: httpx.Client) -> None:
    port = httpx.URL(stack.url).port
    aurora, pampa = f"127.0.0.1:{port}", f"pampa.localhost:{port}"
    es, pt = f"{BANNERS}?{LOCALE}es", f"{BANNERS}?{LOCALE}pt"
    tricks = [
        request("GET", es, aurora, {"X-Forwarded-Host": pampa}),
        request("GET", es, aurora, {"Forwarded": f"host={pampa}"}),
        request("GET", es, pampa, {"X-Forwarded-Host": aurora}),
        request("GET", es, aurora, {"Accept-Language": "pt-BR,pt;q=0.9"}),
        request("GET", es, aurora, {"X-Original-URL": pt, "X-Rewrite-URL": pt}),
        request("GET", f"{es}&{LOCALE}pt", aurora),
        request("GET", f"{BANNERS}?{LOCALE}pt&x=1#{LOCALE}es", aurora),
        request("GET", f"{BANNERS}?%66ilters%5Blocale%5D%5B%24eq%5D=pt", aurora),
        request("GET", f"{BANNERS}/?{LOCALE}pt", aurora),
        request("GET", f"{BANNERS}?{LOCALE}pt", f"PAMPA.localhost:{port}"),
        request("GET", f"{BANNERS}?{LOCALE}pt", f"pampa.localhost.:{port}"),
        request("GET", f"http://{pampa}{BANNERS}?{LOCALE}es", aurora),
    ]
    for attempt in tricks:
        answer = raw(stack.url, attempt, source="127.0.0.2")
        assert answer.statuses and answer.status != 500, attempt[:100]
    for site in HOSTS:
        for lang in ("es", "pt", "en"):
            cached = through_gateway(stack, site, lang)
            again = through_gateway(stack, site, lang)
            assert cached == again == truth(stack, site, lang), f"{site}/{lang} holds someone else's content"
    assert truth(stack, "aurora", "es") != truth(stack, "pampa", "es") != truth(stack, "pampa", "pt")

"""The content cache obeys the platform's Cache-Control as a shared cache must (RFC 9111).

Found from outside: an answer sent with `Cache-Control: private, no-store` was cached and
served (HIT) to other visitors on other instances."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import httpx
import pytest
import respx

from tests.support.browser import AsyncBrowser
from tests.support.cms import banners, ids
from tests.support.gateway import browser_on, gateway_app

pytestmark = pytest.mark.anyio
BANNERS = "/capi/home-banners"


def platform(upstream: respx.Router, headers: dict[str, str], delay: float = 0.0) -> list[httpx.Request]:
    """The banners answer with `headers`; the calls the platform saw."""
    seen: list[httpx.Request] = []

    async def answer(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        number = len(seen)
        await asyncio.sleep(delay)
        return httpx.Response(200, json=banners(number), headers=headers)

    upstream.get(BANNERS).mock(side_effect=answer)
    return seen


def later(app: object, seconds: float) -> Callable[[], float]:
    cache = app.gateway.cache  # type: ignore[attr-defined]
    now = cache.clock()
    cache.clock = lambda: now + seconds
    return cache.clock  # type: ignore[no-any-return]


@pytest.mark.parametrize("control", ["private, no-store", "no-store", "private", "private, max-age=600"])
async def test_private_and_no_store_answers_are_never_kept_or_shared(upstream: respx.Router, control: str) -> None:
    seen = platform(upstream, {"cache-control": control}, delay=0.05)
    async with browser_on(gateway_app(upstream)) as visitor:
        burst = await asyncio.gather(*(visitor.get(BANNERS) for _ in range(5)))
        again = await visitor.get(BANNERS)
    assert len(seen) == 6, "each visitor's call reached the platform: none was handed another's answer"
    assert {a.headers["x-cache"] for a in [*burst, again]} == {"MISS"}
    assert sorted(ids(a.json())[0] for a in burst) == [1, 2, 3, 4, 5]


async def test_max_age_and_s_maxage_bound_the_lifetime(upstream: respx.Router) -> None:
    seen = platform(upstream, {"cache-control": "public, max-age=600, s-maxage=5"})
    app = gateway_app(upstream)
    async with browser_on(app) as visitor:
        assert (await visitor.get(BANNERS)).headers["x-cache"] == "MISS"
        hit = await visitor.get(BANNERS)
        assert hit.headers["x-cache"] == "HIT" and len(seen) == 1
        later(app, 6)
        # s-maxage (a shared cache's own lifetime) wins over max-age, and forbids serving stale.
        assert (await visitor.get(BANNERS)).headers["x-cache"] == "MISS" and len(seen) == 2


async def test_an_age_from_the_platform_shortens_the_lifetime_and_hits_carry_their_age(upstream: respx.Router) -> None:
    platform(upstream, {"cache-control": "max-age=100", "age": "98"})
    app = gateway_app(upstream)
    async with browser_on(app) as visitor:
        await visitor.get(BANNERS)
        later(app, 3)
        assert (await visitor.get(BANNERS)).headers["x-cache"] != "HIT", "98 of its 100 s were spent upstream"
    platform(upstream, {"cache-control": "max-age=100"})
    app = gateway_app(upstream)
    async with browser_on(app) as visitor:
        await visitor.get(BANNERS)
        later(app, 7)
        hit = await visitor.get(BANNERS)
        assert hit.headers["x-cache"] == "HIT" and hit.headers["age"] == "7"


async def test_no_cache_is_revalidated_with_the_copys_validators(upstream: respx.Router) -> None:
    seen: list[httpx.Request] = []

    def answer(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        if request.headers.get("if-none-match") == '"v1"':
            return httpx.Response(304, headers={"etag": '"v1"', "cache-control": "no-cache"})
        return httpx.Response(200, json=banners(1), headers={"etag": '"v1"', "cache-control": "no-cache"})

    upstream.get(BANNERS).mock(side_effect=answer)
    async with browser_on(gateway_app(upstream)) as visitor:
        first = await visitor.get(BANNERS)
        second = await visitor.get(BANNERS)
    assert first.headers["x-cache"] == "MISS" and second.headers["x-cache"] == "REVALIDATED"
    assert second.json() == banners(1), "the kept copy, confirmed by the platform's 304"
    assert "if-none-match" not in seen[0].headers and seen[1].headers["if-none-match"] == '"v1"'


@pytest.mark.parametrize(("vary", "kept"), [("*", False), ("User-Agent", True), ("Accept-Encoding", True)])
async def test_vary_is_honoured_or_the_answer_is_not_kept(upstream: respx.Router, vary: str, kept: bool) -> None:
    """`Vary: *` is never kept; a `Vary` on `User-Agent` splits nothing, since the platform only
    ever sees the gateway's own (the browser's never reaches it on a content route)."""
    seen = platform(upstream, {"vary": vary})
    async with browser_on(gateway_app(upstream)) as visitor:
        await visitor.get(BANNERS, headers={"user-agent": "phone"})
        again = await visitor.get(BANNERS, headers={"user-agent": "laptop"})
    assert (again.headers["x-cache"] == "HIT") is kept
    assert len(seen) == (1 if kept else 2)
    assert {request.headers["user-agent"] for request in seen} == {"casino-bff"}


async def test_must_revalidate_forbids_a_stale_copy_when_the_platform_fails(upstream: respx.Router) -> None:
    seen = platform(upstream, {"cache-control": "max-age=5, must-revalidate"})
    app = gateway_app(upstream)
    async with browser_on(app) as visitor:
        await visitor.get(BANNERS)
        later(app, 60)
        upstream.get(BANNERS).mock(side_effect=httpx.ConnectError("down"))
        failed = await visitor.get(BANNERS)
    assert failed.status_code == 502 and len(seen) == 1


async def test_the_browsers_own_copy_is_confirmed_without_a_platform_call(upstream: respx.Router) -> None:
    """The browser is given the gateway's ETag of the copy; the platform's stays the copy's own."""
    seen = platform(
        upstream, {"etag": '"b7"', "last-modified": "Tue, 24 Nov 2026 10:00:00 GMT", "cache-control": "max-age=60"}
    )
    async with browser_on(gateway_app(upstream)) as visitor:
        first = await visitor.get(BANNERS)
        tag = first.headers["etag"]
        confirmed = await visitor.get(BANNERS, headers={"if-none-match": tag})
        changed = await visitor.get(BANNERS, headers={"if-none-match": '"a1"'})
        platforms = await visitor.get(BANNERS, headers={"if-none-match": '"b7"'})
    assert first.status_code == 200 and tag != '"b7"' and "last-modified" not in first.headers
    assert confirmed.status_code == 304 and confirmed.content == b"" and confirmed.headers["etag"] == tag
    assert changed.status_code == 200 and platforms.status_code == 200, "the platform's tag is not the browser's"
    assert first.headers["cache-control"] == "max-age=60", "the platform's lifetime, with its Age"
    assert len(seen) == 1 and "if-none-match" not in seen[0].headers


async def test_a_copy_the_platform_stops_allowing_is_dropped(visitor: AsyncBrowser, upstream: respx.Router) -> None:
    kept = platform(upstream, {"cache-control": "max-age=0"})
    await visitor.get(BANNERS)
    refused = platform(upstream, {"cache-control": "no-store"})
    stale = await visitor.get(BANNERS)  # served once more while the refresh learns it may not be kept
    await asyncio.sleep(0.05)
    after = await visitor.get(BANNERS)
    assert stale.headers["x-cache"] == "STALE" and after.headers["x-cache"] == "MISS"
    assert (len(kept), len(refused)) == (1, 2)

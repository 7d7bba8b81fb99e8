"""Content cache, rate limits and idempotency keys, as players and operators see them."""

from __future__ import annotations

import asyncio

import httpx
import pytest
import respx

from gateway.state.cache import CacheConfig
from tests.support.browser import AsyncBrowser
from tests.support.cms import banners, ids
from tests.support.gateway import browser_on, gateway_app

pytestmark = pytest.mark.anyio


def _banners(counter: list[int], status: int = 200) -> respx.Route:
    def answer(request: httpx.Request) -> httpx.Response:
        counter.append(1)
        return httpx.Response(status, json=banners(len(counter)))

    return answer  # type: ignore[return-value]


async def test_content_is_cached_per_skin_path_and_query(visitor: AsyncBrowser, upstream: respx.Router) -> None:
    calls: list[int] = []
    upstream.get("/capi/home-banners").mock(side_effect=_banners(calls))
    first = await visitor.get("/capi/home-banners", params={"filters[locale][$eq]": "es"})
    again = await visitor.get("/capi/home-banners", params={"filters[locale][$eq]": "es"})
    other = await visitor.get("/capi/home-banners", params={"filters[locale][$eq]": "pt"})
    assert [first.headers["x-cache"], again.headers["x-cache"], other.headers["x-cache"]] == ["MISS", "HIT", "MISS"]
    assert again.json() == first.json() and len(calls) == 2


async def test_language_headers_cannot_poison_the_cache(visitor: AsyncBrowser, upstream: respx.Router) -> None:
    seen: list[str | None] = []

    def answer(request: httpx.Request) -> httpx.Response:
        seen.append(request.headers.get("accept-language"))
        return httpx.Response(200, json=banners())

    upstream.get("/capi/home-banners").mock(side_effect=answer)
    await visitor.get("/capi/home-banners", headers={"accept-language": "pt"})
    await visitor.get("/capi/home-banners", headers={"accept-language": "en"})
    assert seen == [None], "the language travels in the query, never in headers the cache ignores"


async def test_stale_content_is_served_while_one_refresh_runs(upstream: respx.Router) -> None:
    calls: list[int] = []

    async def slow(request: httpx.Request) -> httpx.Response:
        calls.append(1)
        await asyncio.sleep(0.05)
        return httpx.Response(200, json=banners(len(calls)))

    upstream.get("/capi/home-banners").mock(side_effect=slow)
    app = gateway_app(upstream)
    gateway = app.gateway
    async with browser_on(app) as visitor:
        await visitor.get("/capi/home-banners")
        now = gateway.cache.clock()
        gateway.cache.clock = lambda: now + gateway.cache.config.ttl_s + 1
        answers = await asyncio.gather(*(visitor.get("/capi/home-banners") for _ in range(20)))
        assert {a.headers["x-cache"] for a in answers} == {"STALE"}
        assert {ids(a.json())[0] for a in answers} == {1}, "the old copy, at once"
        await asyncio.sleep(0.2)
        assert len(calls) == 2, "one background refresh, not a herd"
        assert ids((await visitor.get("/capi/home-banners")).json()) == [2]


async def test_an_upstream_failure_serves_stale_content(upstream: respx.Router) -> None:
    calls: list[int] = []
    route = upstream.get("/capi/home-banners").mock(side_effect=_banners(calls))
    app = gateway_app(upstream)
    gateway = app.gateway
    async with browser_on(app) as visitor:
        await visitor.get("/capi/home-banners")
        later = gateway.cache.clock() + CacheConfig().ttl_s + CacheConfig().stale_while_revalidate_s + 5
        gateway.cache.clock = lambda: later
        route.mock(side_effect=httpx.ConnectError("down"))
        stale = await visitor.get("/capi/home-banners")
        assert stale.status_code == 200 and stale.headers["x-cache"] == "STALE"
        route.mock(return_value=httpx.Response(503, json={"error": "maintenance"}))
        assert (await visitor.get("/capi/home-banners")).headers["x-cache"] == "STALE"


async def test_per_session_answers_are_never_cached(visitor: AsyncBrowser, upstream: respx.Router) -> None:
    balance = upstream.post("/api/cashier/balance").mock(return_value=httpx.Response(200, json={"success": True}))
    await visitor.login()
    first = await visitor.post("/api/cashier/balance")
    await visitor.post("/api/cashier/balance")
    assert "x-cache" not in first.headers and balance.call_count == 2


async def test_login_attempts_are_limited_per_login_name(visitor: AsyncBrowser, upstream: respx.Router) -> None:
    upstream.post("/api/player/login").mock(return_value=httpx.Response(200, json={"success": False}))
    answers = [await visitor.login("victim1", "guess12") for _ in range(9)]
    assert [a.status_code for a in answers[:8]] == [200] * 8
    limited = answers[8]
    assert limited.status_code == 429 and int(limited.headers["retry-after"]) > 0
    assert set(limited.json()) == {"message", "code", "requestId"}
    assert (await visitor.login("someone2", "guess12")).status_code == 200, "other players are not locked out"


async def test_a_player_who_logs_in_often_is_never_locked_out(visitor: AsyncBrowser, upstream: respx.Router) -> None:
    upstream.post("/api/player/logout").mock(return_value=httpx.Response(200, json={"success": True}))
    for _ in range(12):
        assert (await visitor.login()).status_code == 200
        await visitor.post("/api/player/logout", {})


async def test_cashier_calls_are_limited_per_session(visitor: AsyncBrowser, upstream: respx.Router) -> None:
    upstream.post("/api/cashier/addBankAccount").mock(return_value=httpx.Response(200, json={"success": False}))
    await visitor.login()
    statuses = [(await visitor.post("/api/cashier/addBankAccount", {"n": i})).status_code for i in range(31)]
    assert statuses[:30] == [200] * 30 and statuses[30] == 429


async def test_an_idempotent_replay_returns_the_stored_answer(visitor: AsyncBrowser, upstream: respx.Router) -> None:
    cashout = upstream.post("/api/cashier/cashout12").mock(
        return_value=httpx.Response(200, json={"success": True, "cashoutId": "CO-9"})
    )
    await visitor.login()
    body = {"amount": 1000, "accountType": "Paytm", "personalNumber": "a@b"}
    key = {"Idempotency-Key": "withdraw-7f3a9c21"}
    first = await visitor.post("/api/cashier/cashout12", body, headers=key)
    again = await visitor.post("/api/cashier/cashout12", body, headers=key)
    assert cashout.call_count == 1
    assert again.json() == first.json() and again.headers["idempotent-replayed"] == "true"
    assert "idempotent-replayed" not in first.headers
    changed = await visitor.post("/api/cashier/cashout12", {**body, "amount": 2000}, headers=key)
    assert changed.status_code == 422 and cashout.call_count == 1


async def test_an_idempotency_key_belongs_to_one_session(upstream: respx.Router) -> None:
    upstream.post("/api/cashier/cashout12").mock(return_value=httpx.Response(200, json={"success": True}))
    app = gateway_app(upstream)
    key = {"Idempotency-Key": "shared-key-000001"}
    async with browser_on(app) as one, browser_on(app) as two:
        for who in (one, two):
            await who.start()
            await who.login()
        assert (await one.post("/api/cashier/cashout12", {"amount": 1}, headers=key)).status_code == 200
        foreign = await two.post("/api/cashier/cashout12", {"amount": 1}, headers=key)
        assert foreign.status_code == 409 and foreign.json()["code"] == "IDEMPOTENCY_KEY_IN_USE"


async def test_a_repeat_while_the_first_is_in_flight_is_joined(visitor: AsyncBrowser, upstream: respx.Router) -> None:
    async def slow(request: httpx.Request) -> httpx.Response:
        await asyncio.sleep(0.2)
        return httpx.Response(200, json={"success": True, "cashoutId": "CO-1"})

    cashout = upstream.post("/api/cashier/cashout12").mock(side_effect=slow)
    await visitor.login()
    key = {"Idempotency-Key": "withdraw-in-flight-1"}
    first, second = await asyncio.gather(
        visitor.post("/api/cashier/cashout12", {"amount": 1000}, headers=key),
        visitor.post("/api/cashier/cashout12", {"amount": 1000}, headers=key),
    )
    assert cashout.call_count == 1 and first.json() == second.json()


async def test_an_unreachable_platform_does_not_burn_the_key(visitor: AsyncBrowser, upstream: respx.Router) -> None:
    route = upstream.post("/api/cashier/cashout12").mock(return_value=httpx.Response(200, json={"success": True}))
    await visitor.login()
    key = {"Idempotency-Key": "withdraw-retry-after-502"}
    async with visitor.refusing():
        assert (await visitor.post("/api/cashier/cashout12", {"amount": 1}, headers=key)).status_code == 502
    assert route.call_count == 0
    retry = await visitor.post("/api/cashier/cashout12", {"amount": 1}, headers=key)
    assert retry.status_code == 200 and "idempotent-replayed" not in retry.headers

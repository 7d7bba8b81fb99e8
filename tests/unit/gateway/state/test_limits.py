"""Limits on guessing and on visitors, as an attacker and the account's owner meet them.

Found from outside: the per-login failure limit was read before the platform call and counted
after it, so concurrent guesses all passed, and guesses from a logged-in session were not
counted at all; any platform cookie on a visitor's answer made a session kept 24 h."""

from __future__ import annotations

import asyncio
import contextlib

import httpx
import pytest
import respx

from gateway.state.session import ANONYMOUS_PER_ADDRESS, ANONYMOUS_SECONDS
from tests.support.browser import AsyncBrowser
from tests.support.gateway import browser_on, gateway_app

pytestmark = pytest.mark.anyio
LOGIN = "/api/player/login"


def guessed(upstream: respx.Router, owner_password: str = "right-one") -> list[str]:
    """A platform that knows one password for `victim1` and is slow to say no; the logins it saw."""
    seen: list[str] = []

    async def answer(request: httpx.Request) -> httpx.Response:
        body = request.read().decode()
        seen.append(body)
        await asyncio.sleep(0.05)
        if f'"password":"{owner_password}"' in body.replace(" ", ""):
            return httpx.Response(200, json={"success": True, "sessionId": f"SID-{len(seen)}"})
        return httpx.Response(200, json={"success": False, "description": "Invalid login"})

    upstream.post(LOGIN).mock(side_effect=answer)
    return seen


async def test_concurrent_guesses_reach_the_platform_at_most_the_allowance(upstream: respx.Router) -> None:
    seen = guessed(upstream)
    app = gateway_app(upstream)
    async with contextlib.AsyncExitStack() as stack:
        attackers = [await stack.enter_async_context(browser_on(app)) for _ in range(60)]
        for attacker in attackers:
            await attacker.start()

        async def guess(n: int) -> int:
            ip = {"x-forwarded-for": f"203.0.{n // 250}.{n % 250 + 1}"}
            body = {"login": "Victim1", "password": f"guess-{n}"}
            return (await attackers[n % len(attackers)].post(LOGIN, body, headers=ip)).status_code

        statuses = await asyncio.gather(*(guess(n) for n in range(120)))
    assert len(seen) == 8, "120 guesses at once from 120 addresses: the platform saw the allowance, no more"
    assert statuses.count(429) + statuses.count(409) == 112 and statuses.count(429) >= 52


async def test_guesses_from_a_logged_in_session_are_counted_too(upstream: respx.Router) -> None:
    seen = guessed(upstream, owner_password="attacker-own")
    async with browser_on(gateway_app(upstream)) as attacker:
        await attacker.start()
        assert (await attacker.login("attacker1", "attacker-own")).json()["success"] is True
        answers = [await attacker.login("victim1", f"guess-{n}") for n in range(10)]
    assert [a.status_code for a in answers] == [200] * 8 + [429] * 2
    assert len(seen) == 1 + 8


async def test_the_owner_keeps_a_way_in_from_a_browser_that_logged_in_before(upstream: respx.Router) -> None:
    seen = guessed(upstream)
    app = gateway_app(upstream)
    async with browser_on(app) as owner, browser_on(app) as attacker, browser_on(app) as stranger:
        for browser in (owner, attacker, stranger):
            await browser.start()
        assert (await owner.login("victim1", "right-one")).json()["success"] is True
        assert any(name.endswith("bff-device") for name in owner.client.cookies), "a device cookie"
        await owner.post("/api/player/logout", {})
        for n in range(12):
            await attacker.login("victim1", f"guess-{n}")
        locked = await stranger.login("victim1", "right-one")
        back_in = await owner.login("victim1", "right-one")
    assert locked.status_code == 429 and int(locked.headers["retry-after"]) > 0
    assert back_in.status_code == 200 and back_in.json()["success"] is True
    assert len(seen) == 1 + 8 + 1


async def test_a_forged_device_cookie_is_no_way_around_the_limit(upstream: respx.Router) -> None:
    seen = guessed(upstream)
    async with browser_on(gateway_app(upstream)) as attacker:
        await attacker.start()
        for n in range(10):
            attacker.client.cookies.set("bff-device", f"nonce{n}.forged-signature")
            await attacker.login("victim1", f"guess-{n}")
    assert len(seen) == 8


async def test_a_one_call_visitor_costs_no_storage_and_a_returning_one_is_kept_briefly(
    upstream: respx.Router,
) -> None:
    upstream.post("/api/player/getCountries").mock(
        return_value=httpx.Response(200, json={"success": True}, headers={"set-cookie": "XSRF-TOKEN=v; Path=/"})
    )
    app = gateway_app(upstream)
    store = app.gateway.stores.shared

    def kept() -> list[str]:
        return [key for key in store._data if key.startswith("bff:sessions:")]

    async with browser_on(app) as flood:
        for n in range(50):
            flood.client.cookies.clear()
            await flood.client.post("/api/player/getCountries", json={}, headers={"x-forwarded-for": f"198.51.100.{n}"})
        assert kept() == [], "visitors whose browsers never came back keep nothing"
    async with browser_on(app) as visitor:
        await visitor.start()
        await visitor.post("/api/player/getCountries")
        [key] = kept()
        assert 0 < store.expires_in_ms(key) <= ANONYMOUS_SECONDS * 1000, "kept half an hour, not a day"


async def test_visitors_kept_per_address_are_bounded(upstream: respx.Router) -> None:
    upstream.post("/api/player/getCountries").mock(
        return_value=httpx.Response(200, json={"success": True}, headers={"set-cookie": "XSRF-TOKEN=v; Path=/"})
    )
    app = gateway_app(upstream)
    store = app.gateway.stores.shared
    answers = []
    for _ in range(ANONYMOUS_PER_ADDRESS + 10):
        async with browser_on(app) as visitor:
            await visitor.start()
            answers.append(await visitor.post("/api/player/getCountries", headers={"x-forwarded-for": "192.0.2.7"}))
    assert {a.status_code for a in answers} == {200}, "every visitor is served"
    assert len([key for key in store._data if key.startswith("bff:sessions:")]) == ANONYMOUS_PER_ADDRESS


async def test_one_address_flooding_as_a_visitor_is_slowed_and_players_are_not(upstream: respx.Router) -> None:
    upstream.post("/api/player/getCountries").mock(return_value=httpx.Response(200, json={"success": True}))
    upstream.post("/api/cashier/balance").mock(return_value=httpx.Response(200, json={"success": True}))
    app = gateway_app(upstream, visitor_rate=5.0, visitor_burst=20)
    async with browser_on(app) as flood, browser_on(app) as player:
        await flood.start()
        await player.start()
        await player.login()
        same_address = {"x-forwarded-for": "192.0.2.9"}
        flooded = [(await flood.post("/api/player/getCountries", headers=same_address)).status_code for _ in range(40)]
        polled = [(await player.post("/api/cashier/balance", headers=same_address)).status_code for _ in range(40)]
    assert flooded[:20] == [200] * 20 and flooded.count(429) >= 15
    assert polled == [200] * 40, "a logged-in player is never counted as a visitor"


async def test_adopting_a_session_is_limited(visitor: AsyncBrowser, upstream: respx.Router) -> None:
    profile = upstream.post("/api/player/getProfile").mock(
        return_value=httpx.Response(200, json={"success": False, "code": "SESSION_EXPIRED"})
    )
    adopt = "/bff/session/adopt"
    statuses = [(await visitor.post(adopt, {"sid": f"guessed-sid-{n:04d}"})).status_code for n in range(8)]
    assert statuses == [401] * 5 + [429] * 3
    assert profile.call_count == 5

"""Building a gateway for tests, and a browser on it (tests/support/browser.py's `AsyncBrowser`)."""

from __future__ import annotations

import weakref
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any

import httpx
import respx

from gateway.app import admin_app, create_app
from gateway.config.allowed_hosts import AllowedHosts
from gateway.config.settings import Settings
from gateway.edge.entry import FrontDoor
from tests.support.browser import AsyncBrowser
from tests.support.healthy import healthy
from tests.support.respx_platform import RespxPlatform
from tests.support.stack import TEST_ALLOWED_HOSTS, free_port

UPSTREAM = "http://127.0.0.1:8001"
"""What the respx routers mock: the platform's origin as the tests write it."""
SITE = "http://testserver.local"
ONE_SKIN = """
[[skins]]
id = "aurora"
site_id = "aurora"
name = "Aurora Casino"
hosts = ["aurora.test"]
currency = "INR"
[skins.upstreams]
api = "{api}"
capi = "http://capi.test"
sbapi = "http://sbapi.test"
rest = "http://rest.test"
"""
"""A skins file of one skin, its wallet (`api`) where the test says."""
ALLOWED = AllowedHosts.parse(TEST_ALLOWED_HOSTS)
"""The tests' allowed upstream hosts (`TEST_ALLOWED_HOSTS`) for a gateway or a `LiveConfig` built in code."""
_platforms: weakref.WeakKeyDictionary[FrontDoor, RespxPlatform] = weakref.WeakKeyDictionary()
_browsers: weakref.WeakKeyDictionary[FrontDoor, int] = weakref.WeakKeyDictionary()


def test_settings(**overrides: Any) -> Settings:
    values: dict[str, Any] = {
        "production": False,
        "secret_key": "test-secret",
        "sandbox_url": UPSTREAM,
        "allowed_hosts": ALLOWED,
    }
    return Settings(**{**values, **overrides})


def gateway_app(router: respx.Router | None = None, *, tracer_provider: Any = None, **settings: Any) -> FrontDoor:
    """A gateway whose platform is `router`, served over real sockets on a free port
    (`RespxPlatform`), so every call goes through the production connection pool. The platform
    listens while a `browser_on` the app is open."""
    if router is None:
        return create_app(test_settings(**settings), tracer_provider=tracer_provider)
    platform = RespxPlatform(router, base_url=UPSTREAM)
    platform.port = free_port()
    app = create_app(test_settings(**{"sandbox_url": platform.url, **settings}), tracer_provider=tracer_provider)
    _platforms[app] = platform
    return app


def platform_of(app: FrontDoor) -> RespxPlatform:
    """The mocked platform behind `app` (for `refusing()`, its `errors`, its connections)."""
    return _platforms[app]


@asynccontextmanager
async def browser_on(app: FrontDoor) -> AsyncIterator[AsyncBrowser]:
    """A browser on the app through httpx's ASGI transport, which (unlike Litestar's test
    client) lets concurrent requests really overlap. Upstream connections open lazily."""
    platform = _platforms.get(app)
    first = _browsers.get(app, 0) == 0
    _browsers[app] = _browsers.get(app, 0) + 1
    if platform is not None and first and not platform.listening:
        await platform.start()
    transport = httpx.ASGITransport(app=app, client=("127.0.0.1", 40000))
    try:
        async with httpx.AsyncClient(transport=transport, base_url=SITE) as client:
            yield AsyncBrowser(client, platform, UPSTREAM)
    finally:
        _browsers[app] -= 1
        if _browsers[app] == 0:
            await app.gateway.clients.aclose()
            if platform is not None:
                await platform.aclose()


def operator_on(app: FrontDoor, token: str | None) -> httpx.AsyncClient:
    """A client of the app's admin listener with a bearer token (from an operator's address); with
    None, one that sends none (each call says its own)."""
    transport = httpx.ASGITransport(app=admin_app(app), client=("10.0.0.9", 50000))
    headers = {} if token is None else {"authorization": f"Bearer {token}"}
    return httpx.AsyncClient(transport=transport, base_url="http://admin", headers=headers)


@asynccontextmanager
async def admin_on(
    upstream: respx.Router, token: str, *, bearer: bool = True, **settings: Any
) -> AsyncIterator[tuple[AsyncBrowser, httpx.AsyncClient]]:
    """A gateway on `upstream` whose admin token is `token`, with `settings`: a started browser on
    it and a client of its admin listener (`operator_on`, sending the token unless not `bearer`).
    Its platform answers the overview's and `/metrics`' health checks, and `/` with a 404 (the
    status page asks each upstream for any answer)."""
    upstream.get("/").mock(return_value=httpx.Response(404))
    healthy(upstream)
    app = gateway_app(upstream, admin_token=token, **settings)
    async with browser_on(app) as browser, operator_on(app, token if bearer else None) as ops:
        await browser.start()
        yield browser, ops


Handler = Callable[[httpx.Request], httpx.Response]


def signed_in_as(session: dict[str, Any]) -> tuple[bool, str | None]:
    """`/bff/session`'s answer as (logged in, login), after checking its clock: the gateway's `now`
    always, and `signedInAt` (epoch ms, not after `now`) exactly when logged in."""
    assert isinstance(session["now"], int), session
    signed_in = session["signedInAt"]
    assert (signed_in is not None) == session["loggedIn"], session
    assert signed_in is None or signed_in <= session["now"], session
    return session["loggedIn"], session["login"]

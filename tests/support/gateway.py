"""Building a gateway for tests, and a browser-like client for it."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any

import httpx
import respx
from litestar import Litestar

from gateway.app import create_app
from gateway.settings import Settings
from gateway.upstream import TransportFactory

UPSTREAM = "http://127.0.0.1:8001"
SITE = "http://testserver.local"


def test_settings(**overrides: Any) -> Settings:
    values: dict[str, Any] = {"production": False, "secret_key": "test-secret", "sandbox_url": UPSTREAM}
    return Settings(**{**values, **overrides})


def mock_transport(router: respx.Router) -> TransportFactory:
    def factory(_: httpx.Limits) -> httpx.AsyncBaseTransport:
        return httpx.MockTransport(router.async_handler)

    return factory


def gateway_app(router: respx.Router | None = None, **settings: Any) -> Litestar:
    transport = mock_transport(router) if router is not None else None
    return create_app(test_settings(**settings), transport=transport)


@asynccontextmanager
async def browser_on(app: Litestar) -> AsyncIterator[Browser]:
    """A browser on the app through httpx's ASGI transport, which (unlike Litestar's test
    client) lets concurrent requests really overlap. Upstream clients open lazily."""
    transport = httpx.ASGITransport(app=app, client=("127.0.0.1", 40000))
    async with httpx.AsyncClient(transport=transport, base_url=SITE) as client:
        yield Browser(client)
    await app.state.gateway.clients.aclose()


class Browser:
    """Talks to the gateway as the SPA does: cookies kept, X-XSRF-TOKEN echoed on unsafe calls."""

    def __init__(self, client: httpx.AsyncClient) -> None:
        self.client = client

    async def start(self) -> dict[str, Any]:
        response = await self.client.get("/bff/session")
        assert response.status_code == 200
        return dict(response.json())

    def xsrf(self) -> dict[str, str]:
        token = self.client.cookies.get("XSRF-TOKEN")
        return {"X-XSRF-TOKEN": token} if token else {}

    async def post(
        self, path: str, body: Any = None, headers: dict[str, str] | None = None, **kw: Any
    ) -> httpx.Response:
        return await self.client.post(
            path, json={} if body is None else body, headers={**self.xsrf(), **(headers or {})}, **kw
        )

    async def get(self, path: str, **kw: Any) -> httpx.Response:
        return await self.client.get(path, **kw)

    async def login(self, login: str = "demo1", password: str = "demo123", **extra: Any) -> httpx.Response:
        return await self.post("/api/player/login", {"login": login, "password": password, **extra})


Handler = Callable[[httpx.Request], httpx.Response]

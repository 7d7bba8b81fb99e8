"""The test browser: talks to the gateway as the SPA does. One cookie jar, the `XSRF-TOKEN`
cookie echoed in `X-XSRF-TOKEN` on unsafe calls, a base URL, and where it comes from (its own
source address, or the address a trusted balancer names in `X-Forwarded-For`).

`Browser` talks to running processes over sockets (a stack, a cluster: each call may name the
instance it lands on); `AsyncBrowser` to a gateway built in the test's own process
(tests/support/gateway.py's `browser_on`), where concurrent calls must really overlap.
"""

from __future__ import annotations

from contextlib import AbstractAsyncContextManager
from typing import TYPE_CHECKING, Any, Self

import httpx

if TYPE_CHECKING:
    from tests.support.cluster import Cluster
    from tests.support.respx_platform import RespxPlatform

LOGIN = "/api/player/login"


def xsrf_echo(cookies: httpx.Cookies) -> dict[str, str]:
    """The header the SPA sends on unsafe calls: the `XSRF-TOKEN` cookie, echoed."""
    token = cookies.get("XSRF-TOKEN")
    return {"X-XSRF-TOKEN": token} if token else {}


class Browser:
    """A browser on the running product. `urls`: the gateway instances it may call, the first
    by default (`on=` names another); `source`: its own address on the loopback network
    (127.0.0.0/8), so that many browsers are many clients to the listener; `client_ip`: the
    address a trusted balancer puts in `X-Forwarded-For`, for the same end through the proxy
    headers; `host`: the skin's host name (the port is the gateway's). It starts as the SPA
    does: `GET /bff/session`, which sets the session and XSRF cookies."""

    def __init__(
        self,
        *urls: str,
        source: str | None = None,
        client_ip: str | None = None,
        host: str | None = None,
        timeout: float = 60,
    ) -> None:
        headers = {}
        if host:
            headers["host"] = f"{host}:{httpx.URL(urls[0]).port}"
        if client_ip:
            headers["x-forwarded-for"] = client_ip
        transport = httpx.HTTPTransport(local_address=source) if source else None
        self.urls = list(urls)
        self.http = httpx.Client(base_url=urls[0], timeout=timeout, headers=headers, transport=transport)
        assert self.get("/bff/session").status_code == 200

    @classmethod
    def on(cls, cluster: Cluster, source: str | None = None) -> Self:
        """A browser whose calls land on whichever of the cluster's instances they name."""
        return cls(*(gateway.url for gateway in cluster.gateways), source=source)

    def xsrf(self) -> dict[str, str]:
        return xsrf_echo(self.http.cookies)

    def post(
        self, path: str, body: object = None, headers: dict[str, str] | None = None, *, on: int = 0, **kw: Any
    ) -> httpx.Response:
        """An unsafe call with a JSON body (`{}` when none), the XSRF token echoed."""
        sent = {**self.xsrf(), **(headers or {})}
        return self.http.post(self.urls[on] + path, json={} if body is None else body, headers=sent, **kw)

    def get(self, path: str, *, on: int = 0, **kw: Any) -> httpx.Response:
        return self.http.get(self.urls[on] + path, **kw)

    def attempt_login(self, login: str = "demo1", password: str = "demo123", *, on: int = 0) -> httpx.Response:
        """The login call, whatever it answers."""
        return self.post(LOGIN, {"login": login, "password": password}, on=on)

    def login(self, login: str = "demo1", password: str = "demo123", *, on: int = 0) -> dict[str, object]:
        """Logs in, asserting the platform said yes; its answer's body."""
        answer = self.attempt_login(login, password, on=on)
        assert answer.status_code == 200, answer.text
        body: dict[str, object] = answer.json()
        assert body["success"] is True, body
        return body

    @property
    def cookie(self) -> str:
        """The gateway's session cookie (its name differs in production)."""
        return next(value for name, value in self.http.cookies.items() if name.endswith("bff"))

    def close(self) -> None:
        self.http.close()


class AsyncBrowser:
    """A browser on a gateway in the test's process (`client` on httpx's ASGI transport), with
    the mocked platform behind it when there is one."""

    def __init__(self, client: httpx.AsyncClient, platform: RespxPlatform | None = None, upstream: str = "") -> None:
        self.client = client
        self._platform = platform
        self.platform = platform.url if platform is not None else upstream
        """Where the mocked platform really listens: the built-in skins' upstream, frame and payment host."""

    def refusing(self) -> AbstractAsyncContextManager[None]:
        """The platform down for real while the block runs: every connection to it is refused."""
        assert self._platform is not None, "a gateway_app(router) has a platform to take down"
        return self._platform.refusing()

    async def start(self) -> dict[str, Any]:
        response = await self.client.get("/bff/session")
        assert response.status_code == 200
        return dict(response.json())

    def xsrf(self) -> dict[str, str]:
        return xsrf_echo(self.client.cookies)

    async def post(
        self, path: str, body: Any = None, headers: dict[str, str] | None = None, **kw: Any
    ) -> httpx.Response:
        return await self.client.post(
            path, json={} if body is None else body, headers={**self.xsrf(), **(headers or {})}, **kw
        )

    async def get(self, path: str, **kw: Any) -> httpx.Response:
        return await self.client.get(path, **kw)

    async def login(self, login: str = "demo1", password: str = "demo123", **extra: Any) -> httpx.Response:
        return await self.post(LOGIN, {"login": login, "password": password, **extra})

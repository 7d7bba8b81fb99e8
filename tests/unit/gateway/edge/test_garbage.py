"""A request leaves nothing for the garbage collector: under load, objects held in a cycle live
until a collection walks them, and those walks cost a cached answer a good part of its CPU (found
with bench/compare.py, figures in docs/decisions.md: the scope kept the request object, which kept
the server's request cycle through `receive`, which kept the scope)."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
import respx

from gateway.edge.entry import FrontDoor
from gateway.http.asgi import Incoming, RequestContext
from tests.support.cms import banners
from tests.support.gateway import UPSTREAM, browser_on, gateway_app

BANNERS = banners(1)


class ServerCycle:
    """One request as uvicorn serves it: the cycle object holds the scope, and the app gets
    the cycle's bound methods as `receive` and `send`."""

    def __init__(self, scope: dict[str, Any], body: bytes) -> None:
        self.scope = scope
        self.body = body
        self.sent: list[dict[str, Any]] = []

    async def receive(self) -> dict[str, Any]:
        body, self.body = self.body, b""
        return {"type": "http.request", "body": body, "more_body": False}

    async def send(self, message: dict[str, Any]) -> None:
        self.sent.append(message)

    async def run(self, app: FrontDoor) -> int:
        await app(self.scope, self.receive, self.send)
        status: int = self.sent[0]["status"]
        return status


def _scope(method: str, path: str, headers: dict[str, str]) -> dict[str, Any]:
    raw = [(b"host", b"testserver.local"), *((k.lower().encode(), v.encode()) for k, v in headers.items())]
    return {
        "type": "http",
        "method": method,
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "headers": raw,
        "client": ("127.0.0.1", 40000),
        "scheme": "http",
        "http_version": "1.1",
        "root_path": "",
        "server": ("127.0.0.1", 8000),
    }


@contextmanager
def _garbage() -> Iterator[list[Any]]:
    """What the block leaves that only the collector would free."""
    gc.collect()
    gc.disable()
    gc.set_debug(gc.DEBUG_SAVEALL)
    left: list[Any] = []
    try:
        yield left
        gc.collect()
        left.extend(gc.garbage)
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        gc.enable()


def _requests_in(objects: list[Any]) -> list[Any]:
    return [o for o in objects if isinstance(o, (Incoming, RequestContext, ServerCycle))]


@pytest.mark.anyio
async def test_proxied_and_site_requests_leave_no_cycles() -> None:
    router = respx.Router(base_url=UPSTREAM, assert_all_called=False)
    router.get("/capi/home-banners").respond(200, json=BANNERS, headers={"cache-control": "max-age=60"})
    router.post("/api/player/login").respond(200, json={"success": True, "sessionId": "S-1"})
    router.post("/api/cashier/balance").respond(200, json={"success": True, "values": []})
    app = gateway_app(router)
    async with browser_on(app) as player:
        await player.start()
        assert (await player.login()).status_code == 200
        cookies = "; ".join(f"{name}={value}" for name, value in player.client.cookies.items())
        logged_in = {"cookie": cookies, **player.xsrf(), "content-type": "application/json"}
        assert await ServerCycle(_scope("GET", "/capi/home-banners", {}), b"").run(app) == 200  # cached now
        with _garbage() as left:
            for _ in range(20):
                assert await ServerCycle(_scope("GET", "/capi/home-banners", {}), b"").run(app) == 200
                balance = ServerCycle(_scope("POST", "/api/cashier/balance", logged_in), b"{}")
                assert await balance.run(app) == 200
                assert await ServerCycle(_scope("GET", "/bff/session", {"cookie": cookies}), b"").run(app) == 200
        assert _requests_in(left) == [], f"{len(left)} objects left to the collector"


def test_the_check_sees_a_cycle() -> None:
    """The check above would see a request kept in its own scope."""
    with _garbage() as left:
        cycle = ServerCycle(_scope("GET", "/", {}), b"")
        cycle.scope["state"] = {"cycle": cycle}
        del cycle
    assert len(_requests_in(left)) == 1

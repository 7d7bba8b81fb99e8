"""The upstream transport against a real local server (aiohttp), as the gateway uses it."""

from __future__ import annotations

import asyncio
import socket
from collections.abc import AsyncIterator

import httpx
import pytest
from aiohttp import web

from gateway.upstream import UpstreamClients

pytestmark = pytest.mark.anyio


@pytest.fixture
async def server() -> AsyncIterator[str]:
    async def echo(request: web.Request) -> web.StreamResponse:
        if request.query.get("hangup"):
            assert request.transport is not None
            request.transport.close()  # the platform drops the connection after reading the call
            await asyncio.sleep(0.1)
        answer = web.json_response({"cookie": request.headers.get("cookie"), "body": (await request.read()).decode()})
        if "set" in request.query:
            answer.set_cookie("JSESSIONID", request.query["set"], path="/")
        return answer

    app = web.Application()
    app.router.add_route("*", "/{tail:.*}", echo)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
    # A host name, not an IP: aiohttp's cookie jar refuses cookies from IP addresses,
    # which hid the leak this file guards against.
    yield f"http://localhost:{port}"
    await runner.cleanup()


async def _send(clients: UpstreamClients, url: str, cookie: str, body: bytes = b"") -> httpx.Response:
    origin = "/".join(url.split("/")[:3])
    return await clients.client(origin).post(url, headers={"cookie": cookie}, content=body)


async def test_one_players_upstream_cookies_never_ride_on_anothers_call(server: str) -> None:
    clients = UpstreamClients()
    try:
        first = await _send(clients, server + "/login?set=player-a-secret", "XSRF-TOKEN=a")
        assert "JSESSIONID=player-a-secret" in first.headers["set-cookie"], "the gateway still sees Set-Cookie"
        second = await _send(clients, server + "/balance", "XSRF-TOKEN=b", b"{}")
    finally:
        await clients.aclose()
    assert second.json() == {"cookie": "XSRF-TOKEN=b", "body": "{}"}


async def test_failures_say_whether_the_call_went_out(server: str) -> None:
    clients = UpstreamClients()
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        closed = f"http://127.0.0.1:{s.getsockname()[1]}"
    try:
        with pytest.raises(httpx.ConnectError):
            await _send(clients, closed + "/balance", "")
        with pytest.raises(httpx.ReadError):
            await _send(clients, server + "/cashout?hangup=1", "", b"{}")
    finally:
        await clients.aclose()

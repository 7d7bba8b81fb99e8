"""The public listener's protocol (gateway/edge/listener.py) under uvicorn, with short limits."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import httpx
import pytest
import uvicorn

from gateway.edge.listener import ListenerLimits, guarded_protocol
from tests.support.stack import free_port

pytestmark = pytest.mark.anyio

LIMITS = ListenerLimits(max_head_bytes=2048, head_timeout_s=0.4, body_idle_timeout_s=0.4)


async def slow_reader(scope: dict[str, Any], receive: Any, send: Any) -> None:
    """Takes its time before reading the body, as a proxy does while the platform is slow."""
    if scope["type"] != "http":
        return
    await asyncio.sleep(1.0)
    size, more = 0, True
    while more:
        message = await receive()
        size += len(message.get("body", b""))
        more = message.get("more_body", False)
    await send({"type": "http.response.start", "status": 200, "headers": [(b"content-type", b"text/plain")]})
    await send({"type": "http.response.body", "body": str(size).encode()})


@asynccontextmanager
async def serving() -> AsyncIterator[str]:
    port = free_port()
    config = uvicorn.Config(
        slow_reader, host="127.0.0.1", port=port, http=guarded_protocol(LIMITS), log_level="warning", lifespan="off"
    )
    server = uvicorn.Server(config)
    task = asyncio.create_task(server.serve())
    while not server.started:  # noqa: ASYNC110 - uvicorn.Server offers a flag, not an event
        await asyncio.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        await task


async def exchange(url: str, data: bytes, wait: float = 3.0) -> bytes:
    host, port = httpx.URL(url).host, httpx.URL(url).port
    reader, writer = await asyncio.open_connection(host, port)
    writer.write(data)
    await writer.drain()
    try:
        return await asyncio.wait_for(reader.read(1000), wait)
    finally:
        writer.close()


async def test_a_body_held_back_by_the_application_is_not_a_slow_client() -> None:
    """An upload the application reads late (backpressure pauses reading) must not get 408."""
    async with serving() as url, httpx.AsyncClient(timeout=10) as client:
        answer = await client.post(url, content=b"x" * (4 * 1024 * 1024))
    assert answer.status_code == 200 and answer.text == str(4 * 1024 * 1024)


async def test_heads_over_the_cap_get_431_and_slow_ones_408() -> None:
    async with serving() as url:
        big = await exchange(url, b"GET / HTTP/1.1\r\nHost: x\r\nX-F: " + b"a" * 4096 + b"\r\n\r\n")
        assert big.startswith(b"HTTP/1.1 431 ")
        slow = await exchange(url, b"GET / HTTP/1.1\r\nHost: x\r\n")
        assert slow.startswith(b"HTTP/1.1 408 ")
        stalled = await exchange(url, b"POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\n12345")
        assert stalled.startswith(b"HTTP/1.1 408 ")


async def test_a_connection_that_never_sends_a_byte_is_closed_without_an_answer() -> None:
    """Browsers open connections ahead of need; one left unused is closed, not sent a 408."""
    async with serving() as url:
        assert await exchange(url, b"") == b""

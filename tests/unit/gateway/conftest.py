from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from typing import Any

import httpx
import pytest
import respx

from tests.support.browser import AsyncBrowser
from tests.support.cluster import RedisServer, require_redis_server
from tests.support.fixtures import asyncio_backend  # noqa: F401  (the `anyio_backend` of these tests)
from tests.support.gateway import UPSTREAM, browser_on, gateway_app
from tests.support.stack import free_port


@pytest.fixture(scope="module")
def redis_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RedisServer]:
    """A real redis-server for the tests of one module (the session copies', presence's)."""
    server = RedisServer(require_redis_server(), free_port(), tmp_path_factory.mktemp("redis"))
    server.start()
    yield server
    server.stop()


@pytest.fixture
def upstream() -> respx.Router:
    """The mocked platform. Every call lands here; tests count them."""
    router = respx.Router(base_url=UPSTREAM, assert_all_called=False)
    router.post("/api/player/login").mock(
        return_value=httpx.Response(
            200,
            json={"success": True, "sessionId": "UPSTREAM-SID-1", "loginResponse": {"sessionId": "UPSTREAM-SID-1"}},
            headers={"set-cookie": "XSRF-TOKEN=up-token; Path=/"},
        )
    )
    router.post("/api/player/logout").mock(return_value=httpx.Response(200, json={"success": True}))
    return router


@pytest.fixture
async def visitor(upstream: respx.Router) -> AsyncIterator[AsyncBrowser]:
    async with browser_on(gateway_app(upstream)) as b:
        await b.start()
        yield b


def calls(route: Any) -> int:
    return int(route.call_count)

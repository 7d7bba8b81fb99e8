"""The shared store's fail-fast guard: every failure of the Redis client is the common 503, and
a cancellation the client swallows is not lost."""

from __future__ import annotations

import asyncio
import contextlib

import pytest

from gateway.store import StoreUnavailable
from gateway.store.redis import FailFast

pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


async def test_any_error_of_the_redis_client_is_store_unavailable() -> None:
    """Seen when Redis died at the wrong moment: redis-py leaked the event loop's own
    `RuntimeError('handler is closed')`, which escaped the guard and two players got 500."""
    guard = FailFast()

    async def dying() -> None:
        raise RuntimeError("handler is closed")

    with pytest.raises(StoreUnavailable):
        await guard(dying)
    assert not guard.up, "and the store is treated as down for a moment, like any other failure"


async def test_a_cancellation_swallowed_inside_the_client_is_raised_at_the_guard() -> None:
    """On Python 3.11 a cancellation that lands while redis-py waits inside its own timeout can
    be lost; a loop around store calls then never ends (lease renewals ran on for minutes)."""
    guard = FailFast()
    inside = asyncio.Event()

    async def swallowing() -> str:
        inside.set()
        with contextlib.suppress(asyncio.CancelledError):  # what a lost cancellation looks like from outside
            await asyncio.sleep(10)
        return "answer"

    calls = 0

    async def loop_of_store_calls() -> None:
        nonlocal calls
        while True:
            calls += 1
            await guard(swallowing)

    task = asyncio.ensure_future(loop_of_store_calls())
    await inside.wait()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await asyncio.wait_for(task, 1.0)
    assert calls == 1

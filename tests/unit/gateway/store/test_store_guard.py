"""The shared store's fail-fast guard: every failure of the Redis client is the common 503, and
a cancellation the client swallows is not lost."""

from __future__ import annotations

import asyncio
import contextlib

import pytest

from gateway.store import StoreUnavailable, settle
from gateway.store.redis import FailFast

pytestmark = pytest.mark.anyio


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


async def test_a_release_the_store_refused_is_retried_until_it_is_taken() -> None:
    """A withdrawal's record finished while Redis was paused: left alone, its slot stayed held
    and the player's next withdrawal was 409 until the lease expired."""
    refusals = 2
    tries = 0

    async def release() -> None:
        nonlocal tries, refusals
        tries += 1
        if refusals:
            refusals -= 1
            raise StoreUnavailable("paused")

    assert await settle(release, within_s=1.0, every_s=0.05) is True
    assert tries == 3, "once taken it is not sent again"


async def test_a_release_is_given_up_once_the_lease_would_have_expired_anyway() -> None:
    loop = asyncio.get_running_loop()
    tries: list[float] = []

    async def release() -> None:
        tries.append(loop.time())
        raise StoreUnavailable("down")

    started = loop.time()
    assert await settle(release, within_s=0.3, every_s=0.05) is False
    # Tried again while the lease lasted, never once it had expired (on a loaded machine a sleep
    # may overshoot, so fewer tries, never a late one).
    assert len(tries) >= 2 and all(at - started <= 0.3 for at in tries), [round(at - started, 3) for at in tries]

"""The one-process store (gateway/store/memory.py, MemoryShared) stays bounded under a flood."""

from __future__ import annotations

import pytest

from gateway.store.memory import MemoryShared

pytestmark = pytest.mark.anyio


async def test_a_flood_of_distinct_content_urls_is_bounded_and_pushes_out_content_first() -> None:
    """Found while reading the store: every distinct content URL (a random query each time)
    was kept a day for stale-if-error, and past 100,000 entries each new one paid a full scan
    that freed nothing; memory grew with the flood."""
    store = MemoryShared(max_entries=1000)
    await store.set("bff:aurora:idem:key-1", b"a withdrawal's answer", 86_400_000)
    assert await store.set_nx("bff:aurora:lease:balance", b"leader", 10_000)
    for n in range(20_000):
        await store.set(f"bff:aurora:cache:/capi/home-banners?x={n}", b"{}", 86_400_000)
        assert len(store._data) <= 1000
    assert await store.get("bff:aurora:idem:key-1") == b"a withdrawal's answer"
    assert await store.get("bff:aurora:lease:balance") == b"leader"
    assert await store.get("bff:aurora:cache:/capi/home-banners?x=19999") == b"{}", "the newest stay"
    assert await store.get("bff:aurora:cache:/capi/home-banners?x=0") is None, "the oldest went"


async def test_counters_and_leases_are_bounded_too() -> None:
    store = MemoryShared(max_entries=500)
    for n in range(5_000):
        await store.hit(f"bff:aurora:rate:login:ip:10.0.{n // 256}.{n % 256}", 60_000)
    assert len(store._data) <= 500


async def test_sessions_in_one_process_expire_stay_bounded_and_never_wait_on_the_loop() -> None:
    """Litestar's MemoryStore kept every session nobody read again and took an anyio lock (a
    trip through the event loop) on each read; the one-process session store is MemoryShared."""
    import asyncio

    from gateway.store.memory import ProcessStore

    now = [1000.0]
    memory = MemoryShared(clock=lambda: now[0], max_entries=300)
    sessions = ProcessStore(memory, "bff:sessions:")
    await sessions.set("aurora:player", b"logged in", expires_in=60)
    assert await sessions.get("aurora:player") == b"logged in"
    assert await sessions.expires_in("aurora:player") == 60
    loop = asyncio.get_running_loop()
    ran: list[bool] = []
    loop.call_soon(ran.append, True)
    for _ in range(100):
        await sessions.get("aurora:player")
    assert not ran, "a read never yields to the event loop"
    for n in range(2_000):
        await sessions.set(f"aurora:visitor-{n}", b"jar", expires_in=86_400)
    assert len(memory._data) <= 300, "a flood of visitors is bounded"
    now[0] += 61
    assert await sessions.get("aurora:player") is None and not await sessions.exists("aurora:player")
    await sessions.delete_all()
    assert await memory.get("bff:sessions:aurora:visitor-1999") is None

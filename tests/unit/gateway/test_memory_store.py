"""The one-process store (gateway/shared.py MemoryShared) stays bounded under a flood."""

from __future__ import annotations

import pytest

from gateway.shared import MemoryShared

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

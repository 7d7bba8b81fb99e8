"""Server-side sessions: own copies per request, rotation (one Redis read for a burst: test_session_replicas)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from litestar.stores.memory import MemoryStore

from gateway.state.session import Sessions

pytestmark = pytest.mark.anyio


class CountingStore(MemoryStore):
    def __init__(self) -> None:
        super().__init__()
        self.reads = 0

    async def get(self, key: str, renew_for: Any = None) -> bytes | None:
        self.reads += 1
        await asyncio.sleep(0.01)
        return await super().get(key, renew_for)


async def test_a_burst_of_loads_gets_separate_copies() -> None:
    store = CountingStore()
    sessions = Sessions(store)
    first = await sessions.load("aurora", None)
    first.log_in("UP-1", "demo1", remember=False)
    await sessions.save("aurora", first)
    loaded = await asyncio.gather(*(sessions.load("aurora", first.id) for _ in range(50)))
    loaded[0].data.login = "changed"
    assert loaded[1].data.login == "demo1", "a change in one request stays in that request"


async def test_login_rotates_and_forgets_the_old_id() -> None:
    store = MemoryStore()
    sessions = Sessions(store)
    visitor = await sessions.load("aurora", None)
    visitor.data.jars = {"http://up": {"XSRF-TOKEN": "t"}}
    await sessions.save("aurora", visitor)
    old = visitor.id
    visitor.log_in("UP-1", "demo1", remember=True)
    await sessions.save("aurora", visitor)
    assert visitor.id != old
    assert await store.get(f"aurora:{old}") is None
    again = await sessions.load("aurora", visitor.id)
    assert again.data.wsession == "UP-1" and again.data.remember


async def test_visitors_with_nothing_to_keep_cost_no_storage() -> None:
    store = CountingStore()
    sessions = Sessions(store)
    visitor = await sessions.load("aurora", None)
    await sessions.save("aurora", visitor)
    assert await MemoryStore.get(store, f"aurora:{visitor.id}") is None

"""In-flight joins: one call for identical requests, hand-over when the leader goes away."""

from __future__ import annotations

import asyncio

import pytest

from gateway.dedup import Dedup, ExclusiveConflict

pytestmark = pytest.mark.anyio


async def test_identical_requests_share_one_call() -> None:
    dedup: Dedup[int] = Dedup()
    calls = 0

    async def call() -> int:
        nonlocal calls
        calls += 1
        await asyncio.sleep(0.05)
        return 42

    results = await asyncio.gather(*(dedup.run("k", call) for _ in range(20)))
    assert calls == 1
    assert [value for value, _ in results] == [42] * 20
    assert sorted(role for _, role in results).count("leader") == 1
    assert dedup.in_flight() == 0


async def test_a_cancelled_leader_hands_over_to_its_followers() -> None:
    dedup: Dedup[str] = Dedup()
    release = asyncio.Event()

    async def call() -> str:
        await release.wait()
        return "answer"

    leader = asyncio.create_task(dedup.run("k", call))
    await asyncio.sleep(0)
    follower = asyncio.create_task(dedup.run("k", call))
    await asyncio.sleep(0)
    leader.cancel()
    release.set()
    assert await follower == ("answer", "follower")
    assert leader.cancelled()


async def test_a_failure_reaches_every_waiter_and_the_next_call_starts_afresh() -> None:
    dedup: Dedup[str] = Dedup()

    async def broken() -> str:
        await asyncio.sleep(0.01)
        raise ConnectionError("down")

    results = await asyncio.gather(*(dedup.run("k", broken) for _ in range(3)), return_exceptions=True)
    assert all(isinstance(r, ConnectionError) for r in results)

    async def fine() -> str:
        return "up"

    assert await dedup.run("k", fine) == ("up", "leader")


async def test_an_exclusive_slot_refuses_a_different_request_until_it_lands() -> None:
    dedup: Dedup[str] = Dedup()
    release = asyncio.Event()

    async def slow() -> str:
        await release.wait()
        return "first"

    first = asyncio.create_task(dedup.run("withdraw-1000", slow, slot="player:cashout"))
    await asyncio.sleep(0)
    with pytest.raises(ExclusiveConflict):
        await dedup.run("withdraw-2000", slow, slot="player:cashout")
    release.set()
    assert await first == ("first", "leader")

    async def second() -> str:
        return "second"

    assert await dedup.run("withdraw-2000", second, slot="player:cashout") == ("second", "leader")

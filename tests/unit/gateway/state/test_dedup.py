"""In-flight joins: one call for identical requests, hand-over when the leader goes away."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

import pytest

from gateway.state.dedup import Dedup, ExclusiveConflict

pytestmark = pytest.mark.anyio


async def test_identical_requests_share_one_call() -> None:
    dedup: Dedup[int] = Dedup()
    calls = 0

    async def call() -> int:
        nonlocal calls
        calls += 1
        await asyncio.sleep(0.05)
        return 42

    results = await asyncio.gather(*(dedup.join("k", call) for _ in range(20)))
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

    leader = asyncio.create_task(dedup.join("k", call))
    await asyncio.sleep(0)
    follower = asyncio.create_task(dedup.join("k", call))
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

    results = await asyncio.gather(*(dedup.join("k", broken) for _ in range(3)), return_exceptions=True)
    assert all(isinstance(r, ConnectionError) for r in results)

    async def fine() -> str:
        return "up"

    assert await dedup.join("k", fine) == ("up", "leader")


async def test_an_exclusive_slot_refuses_a_different_request_until_it_lands() -> None:
    dedup: Dedup[str] = Dedup()
    release = asyncio.Event()

    async def slow() -> str:
        await release.wait()
        return "first"

    first = asyncio.create_task(dedup.join("withdraw-1000", slow, slot="player:cashout"))
    await asyncio.sleep(0)
    with pytest.raises(ExclusiveConflict):
        await dedup.join("withdraw-2000", slow, slot="player:cashout")
    release.set()
    assert await first == ("first", "leader")

    async def second() -> str:
        return "second"

    assert await dedup.join("withdraw-2000", second, slot="player:cashout") == ("second", "leader")


async def test_a_forgotten_key_starts_a_call_of_its_own_and_the_old_one_lands_without_dropping_it() -> None:
    """What changed while a call was in flight (a session written): later callers must not take
    its answer. Its own waiters still get it, and its landing leaves the new flight joinable."""
    dedup: Dedup[str] = Dedup()
    first_done, second_done = asyncio.Event(), asyncio.Event()
    made: list[str] = []

    def call(answer: str, done: asyncio.Event) -> Callable[[], Awaitable[str]]:
        async def run() -> str:
            made.append(answer)
            await done.wait()
            return answer

        return run

    before = asyncio.create_task(dedup.join("k", call("before", first_done)))
    await asyncio.sleep(0)
    dedup.forget("k")
    after = asyncio.create_task(dedup.join("k", call("after", second_done)))
    await asyncio.sleep(0)
    first_done.set()
    assert (await before)[0] == "before"
    joined = asyncio.create_task(dedup.join("k", call("third", second_done)))
    await asyncio.sleep(0)
    second_done.set()
    assert (await after)[0] == "after" and await joined == ("after", "follower")
    assert made == ["before", "after"]
    assert dedup.in_flight() == 0

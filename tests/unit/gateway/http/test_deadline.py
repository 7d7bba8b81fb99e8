"""One timer per connection, checked against a deadline that moves (gateway/http/deadline.py)."""

from __future__ import annotations

import asyncio

import pytest

from gateway.http.deadline import MovingDeadline

pytestmark = pytest.mark.anyio


async def test_a_deadline_fires_once_after_its_last_move_and_not_when_cleared() -> None:
    loop = asyncio.get_running_loop()
    fired: list[float] = []
    deadline = MovingDeadline(loop, lambda: fired.append(loop.time()))
    started = loop.time()
    deadline.arm(0.05)
    for _ in range(4):  # activity keeps pushing it back
        await asyncio.sleep(0.03)
        deadline.push(0.05)
    await asyncio.sleep(0.1)
    assert len(fired) == 1 and fired[0] - started >= 0.17
    assert not deadline.is_armed
    deadline.push(0.01)  # a cleared deadline is not revived by activity
    deadline.arm(0.02)
    deadline.clear()
    await asyncio.sleep(0.05)
    assert len(fired) == 1


async def test_rearming_many_times_keeps_one_timer() -> None:
    loop = asyncio.get_running_loop()
    created: list[float] = []
    call_at = loop.call_at

    def counting_call_at(when: float, callback: object, *args: object) -> asyncio.TimerHandle:
        created.append(when)
        return call_at(when, callback, *args)  # type: ignore[arg-type]

    loop.call_at = counting_call_at  # type: ignore[method-assign]
    try:
        deadline = MovingDeadline(loop, lambda: None)
        for _ in range(1000):
            deadline.arm(10)
            deadline.clear()
        assert len(created) == 1
        deadline.cancel()
    finally:
        del loop.call_at  # type: ignore[method-assign]

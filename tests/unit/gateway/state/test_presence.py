"""The presence connection's listeners (the session copies) over a real redis-server: they hear
other instances' changes, not their own; they stay hearing while Redis answers; they are deaf
from the moment the connection breaks (even when redis-py reconnects it silently) until Redis
confirms the subscription again."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest
from redis.asyncio import Redis

from gateway.state.presence import Presence
from gateway.store import keys
from gateway.store.address import SharedRedis
from gateway.store.redis import connect
from tests.support.cluster import RedisServer

pytestmark = [pytest.mark.anyio, pytest.mark.redis]


class Ear:
    def __init__(self) -> None:
        self.events: list[str] = []
        self.listening = False

    def heard(self, key: str) -> None:
        self.events.append(f"heard {key}")

    def deaf(self) -> None:
        self.listening = False
        self.events.append("deaf")

    def hearing(self) -> None:
        self.listening = True
        self.events.append("hearing")


@pytest.fixture
async def redis(redis_server: RedisServer) -> AsyncIterator[Redis]:
    client = connect(SharedRedis(url=redis_server.url))
    yield client
    await client.aclose()


async def until(check: object, within_s: float = 3.0) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + within_s
    while not check():  # type: ignore[operator]
        assert loop.time() < deadline, "not within the time"
        await asyncio.sleep(0.01)


async def test_listeners_hear_other_instances_changes_and_stay_hearing_while_redis_answers(redis: Redis) -> None:
    ear = Ear()
    task = await Presence(redis, "me", [ear]).start()
    try:
        await until(lambda: ear.listening)
        await redis.publish(keys.SESSION_CHANGES, b"me|bff:sessions:aurora:mine")
        await redis.publish(keys.SESSION_CHANGES, b"other|bff:sessions:aurora:theirs")
        await until(lambda: "heard bff:sessions:aurora:theirs" in ear.events)
        await asyncio.sleep(2.5)  # longer than the silence that would make it deaf
        assert ear.events == ["hearing", "heard bff:sessions:aurora:theirs"], "not its own; never deaf"
    finally:
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)


async def test_a_silent_reconnect_makes_listeners_deaf_until_the_subscription_is_confirmed(redis: Redis) -> None:
    ear = Ear()
    task = await Presence(redis, "me", [ear]).start()
    try:
        await until(lambda: ear.listening)
        ear.events.clear()
        await redis.client_kill_filter(_type="pubsub")  # redis-py reconnects and re-subscribes by itself
        await until(lambda: ear.events[-1:] == ["hearing"])
        assert ear.events[0] == "deaf", "nothing sent while it was away may be trusted"
    finally:
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)

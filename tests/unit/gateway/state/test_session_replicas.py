"""This instance's copies of sessions (`gateway.state.replicas`) over a real redis-server: a found
session is read from Redis once, a change heard while a read was in flight keeps that read's
answer out of the copies, deafness serves no copy, and the copies are bounded in number, age and
the key's own TTL."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from gateway.state.replicas import SessionReplicas
from gateway.store.address import SharedRedis
from gateway.store.redis import FailFast, connect
from tests.support.cluster import RedisServer, commands_between
from tests.support.stack import free_port

pytestmark = [pytest.mark.anyio, pytest.mark.redis]


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
async def copies(redis_server: RedisServer) -> AsyncIterator[SessionReplicas]:
    redis = connect(SharedRedis(url=redis_server.url))
    await redis.flushall()
    store = SessionReplicas(redis, FailFast(), "me", clock=Clock(), max_replicas=3)
    store.hearing()  # as the presence connection says once subscribed
    yield store
    await redis.aclose()


def gateway_commands(before: dict[str, int], after: dict[str, int]) -> dict[str, int]:
    """What the store sent between two looks (the looks' own connection's HELLO left out)."""
    return {name: n for name, n in commands_between(before, after).items() if name != "hello"}


def held_reads(copies: SessionReplicas) -> tuple[asyncio.Event, asyncio.Event]:
    """Reads of Redis that have their answer but hold it until `release` is set."""
    answered, release = asyncio.Event(), asyncio.Event()
    real: Callable[..., Awaitable[Any]] = copies._read

    async def held(keys: list[str], args: list[int]) -> Any:
        found = await real(keys, args)
        answered.set()
        await release.wait()
        return found

    copies._read = held  # type: ignore[assignment]
    return answered, release


async def until_answered(answered: asyncio.Event, reading: asyncio.Future[bytes | None]) -> None:
    """Waits for Redis to answer the held read; a read that failed instead (a socket timeout under
    load) raises its error here rather than leaving the test waiting for an answer that never comes."""
    waiting = asyncio.ensure_future(answered.wait())
    await asyncio.wait({waiting, reading}, timeout=10, return_when=asyncio.FIRST_COMPLETED)
    waiting.cancel()
    if reading.done():
        reading.result()
    assert answered.is_set(), "Redis answered the read within 10 s"


async def test_a_found_session_is_read_from_redis_once_then_from_the_copy(
    copies: SessionReplicas, redis_server: RedisServer
) -> None:
    await copies.set("aurora:s1", b"v1", expires_in=3600)
    await copies.get("aurora:warm-up")  # the script loaded, a connection open
    before = redis_server.commands()
    loaded = await asyncio.gather(*(copies.get("aurora:s1") for _ in range(50)))
    loaded += [await copies.get("aurora:s1") for _ in range(50)]
    assert set(loaded) == {b"v1"}
    one_read = {"evalsha": 1, "get": 1, "pttl": 1}  # one script: one round trip
    assert gateway_commands(before, redis_server.commands()) == one_read, "one round trip for 100 loads"


async def test_a_miss_is_never_copied(copies: SessionReplicas) -> None:
    assert await copies.get("aurora:new") is None
    await copies.redis.set("bff:sessions:aurora:new", b"made elsewhere", px=60_000)
    assert await copies.get("aurora:new") == b"made elsewhere", "a session made on another instance is seen at once"


async def test_a_change_heard_while_a_read_was_in_flight_keeps_its_answer_out_of_the_copies(
    copies: SessionReplicas,
) -> None:
    await copies.set("aurora:s1", b"before", expires_in=3600)
    answered, release = held_reads(copies)
    reading = asyncio.ensure_future(copies.get("aurora:s1"))
    await until_answered(answered, reading)
    # Another instance changes the session after Redis answered, before the answer is used.
    await copies.redis.set("bff:sessions:aurora:s1", b"after", px=3_600_000)
    copies.heard("bff:sessions:aurora:s1")
    release.set()
    assert await reading == b"before", "the read answers what Redis said when asked"
    assert await copies.get("aurora:s1") == b"after", "but its stale answer was not kept"


async def test_going_deaf_while_a_read_was_in_flight_keeps_its_answer_out_too(copies: SessionReplicas) -> None:
    await copies.set("aurora:s1", b"before", expires_in=3600)
    answered, release = held_reads(copies)
    reading = asyncio.ensure_future(copies.get("aurora:s1"))
    await until_answered(answered, reading)
    copies.deaf()  # Redis went away: a delete meanwhile would never be heard
    await copies.redis.delete("bff:sessions:aurora:s1")
    copies.hearing()
    release.set()
    assert await reading == b"before"
    assert await copies.get("aurora:s1") is None, "deleted while deaf: never served from a copy"


async def test_while_deaf_no_copy_is_served(copies: SessionReplicas) -> None:
    await copies.set("aurora:s1", b"v1", expires_in=3600)
    assert await copies.get("aurora:s1") == b"v1"
    copies.deaf()
    await copies.redis.delete("bff:sessions:aurora:s1")
    assert await copies.get("aurora:s1") is None, "deaf: read from Redis"
    await copies.redis.set("bff:sessions:aurora:s1", b"v2", px=60_000)
    assert await copies.get("aurora:s1") == b"v2", "and nothing read while deaf is kept"
    assert copies.replicas() == 0


async def test_our_own_writes_and_deletes_replace_our_copy(copies: SessionReplicas) -> None:
    await copies.set("aurora:s1", b"v1", expires_in=3600)
    assert await copies.get("aurora:s1") == b"v1"
    await copies.set("aurora:s1", b"v2", expires_in=3600)
    assert await copies.get("aurora:s1") == b"v2"
    await copies.delete("aurora:s1")
    assert await copies.get("aurora:s1") is None


async def test_writes_and_deletes_announce_the_change_in_the_same_round_trip(
    copies: SessionReplicas, redis_server: RedisServer
) -> None:
    other = copies.redis.pubsub()
    await other.subscribe("bff:sessions:changed")
    await copies.set("aurora:s1", b"v1", expires_in=60)
    await copies.delete("aurora:s1")
    await copies.delete("aurora:never-there")
    heard = []
    for _ in range(5):
        message = await other.get_message(ignore_subscribe_messages=True, timeout=0.1)
        if message is not None:
            heard.append(message["data"])
    await other.aclose()
    assert heard == [b"me|bff:sessions:aurora:s1"] * 2, "a write and a delete; nothing for a key that was not there"


async def test_copies_are_bounded_in_number_oldest_first(copies: SessionReplicas, redis_server: RedisServer) -> None:
    for n in range(5):
        await copies.set(f"aurora:s{n}", b"v", expires_in=3600)
        await copies.get(f"aurora:s{n}")
    assert copies.replicas() == 3
    before = redis_server.commands()
    await copies.get("aurora:s4")
    await copies.get("aurora:s0")
    assert gateway_commands(before, redis_server.commands()).get("evalsha") == 1, "only the oldest copy went"


async def test_a_copy_lives_at_most_a_minute(copies: SessionReplicas) -> None:
    clock = copies.clock
    assert isinstance(clock, Clock)
    await copies.set("aurora:s1", b"v1", expires_in=3600)
    await copies.get("aurora:s1")
    await copies.redis.set("bff:sessions:aurora:s1", b"v2", px=3_600_000)  # unannounced, as a lost message
    clock.now += 59
    assert await copies.get("aurora:s1") == b"v1"
    clock.now += 2
    assert await copies.get("aurora:s1") == b"v2"


async def test_a_copy_never_outlives_the_keys_own_ttl(copies: SessionReplicas) -> None:
    clock = copies.clock
    assert isinstance(clock, Clock)
    await copies.set("aurora:s1", b"v1", expires_in=3600)
    await copies.redis.pexpire("bff:sessions:aurora:s1", 2000)
    assert await copies.get("aurora:s1") == b"v1"
    await copies.redis.pexpire("bff:sessions:aurora:s1", 3_600_000)
    await copies.redis.set("bff:sessions:aurora:s1", b"v2", keepttl=True)  # unannounced
    clock.now += 1.9
    assert await copies.get("aurora:s1") == b"v1"
    clock.now += 0.2
    assert await copies.get("aurora:s1") == b"v2", "the copy ended with the TTL it was read with"


async def test_redis_down_is_store_unavailable_fast(tmp_path: Path) -> None:
    from gateway.store import StoreUnavailable

    store = SessionReplicas(connect(SharedRedis(url=f"redis://127.0.0.1:{free_port()}/0")), FailFast(), "me")
    store.hearing()
    with pytest.raises(StoreUnavailable):
        await asyncio.wait_for(store.get("aurora:s1"), 1.0)
    await store.redis.aclose()

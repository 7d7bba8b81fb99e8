"""The content cache's copies in Redis are capped per skin: distinct content URLs are the
client's to choose, and each copy is otherwise kept a day for stale-if-error."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from gateway.state.cache import CacheConfig, CacheEntry, ContentCache
from gateway.state.outcome import Outcome
from gateway.state.replicas import SessionReplicas
from gateway.store.address import SharedRedis
from gateway.store.redis import FailFast, RedisShared, connect
from tests.support.cluster import RedisServer, require_redis_server
from tests.support.stack import free_port

pytestmark = pytest.mark.anyio


@pytest.fixture
def redis_server(tmp_path: Path) -> Iterator[RedisServer]:
    server = RedisServer(require_redis_server(), free_port(), tmp_path)
    server.start()
    yield server
    server.stop()


@pytest.fixture
async def shared(redis_server: RedisServer) -> AsyncIterator[RedisShared]:
    redis = connect(SharedRedis(url=redis_server.url))
    yield RedisShared(redis, FailFast())
    await redis.aclose()


async def test_a_flood_of_distinct_content_urls_keeps_only_the_newest_copies(shared: RedisShared) -> None:
    cache = ContentCache(shared, CacheConfig(shared_entries=50, local_entries=10))
    for n in range(300):
        await cache.put(f"bff:aurora:cache:/capi/home-banners?x={n}", CacheEntry(float(n), Outcome(200, {}, b"{}")))
    await cache.put("bff:pampa:cache:/capi/home-banners?x=0", CacheEntry(0.0, Outcome(200, {}, b"{}")))
    aurora = [key async for key in shared.redis.scan_iter(match="bff:aurora:cache:/*")]
    assert len(aurora) == 50, "the cap holds in Redis"
    assert await shared.get("bff:aurora:cache:/capi/home-banners?x=299") is not None
    assert await shared.get("bff:aurora:cache:/capi/home-banners?x=0") is None, "the oldest went first"
    assert await shared.get("bff:pampa:cache:/capi/home-banners?x=0") is not None, "each skin has its own cap"
    assert await shared.delete_prefix("bff:aurora:cache:") == 51, "a purge takes the index too"


async def test_a_flight_result_and_its_lease_release_are_one_round_trip(shared: RedisShared) -> None:
    """A leader stores its result and gives up its lease together (one command instead of two
    per proxied call), and never releases a lease that has passed to another instance."""
    from gateway.store.memory import MemoryShared

    for store in (shared, MemoryShared()):
        assert await store.set_nx("bff:flight:lease:k", b"mine", 5000)
        await store.set_and_release("bff:flight:result:k:mine", b"answer", 5000, "bff:flight:lease:k", b"mine")
        assert await store.get("bff:flight:result:k:mine") == b"answer"
        assert await store.get("bff:flight:lease:k") is None
        assert await store.set_nx("bff:flight:lease:k", b"theirs", 5000)
        await store.set_and_release("bff:flight:result:k:mine", b"late", 5000, "bff:flight:lease:k", b"mine")
        assert await store.get("bff:flight:lease:k") == b"theirs", "another instance's lease stays"


async def test_visitors_kept_in_redis_are_capped_per_skin(shared: RedisShared, monkeypatch: pytest.MonkeyPatch) -> None:
    """Visitors' states (the platform's cookies for someone not logged in) are a flood's to
    multiply: past the skin's cap the oldest go, and each lives half an hour at most."""
    import gateway.state.session
    from gateway.state.session import ANONYMOUS_SECONDS, Session, SessionData, Sessions

    monkeypatch.setattr(gateway.state.session, "MAX_VISITORS", 25)
    sessions = Sessions(SessionReplicas(shared.redis, shared.guard, "test"), shared)
    for n in range(60):
        visitor = Session(f"visitor-{n:04d}-" + "x" * 30, SessionData(jars={"http://p": {"XSRF-TOKEN": "t"}}), None)
        await sessions.save("aurora", visitor, address=f"10.1.{n}.1")
    kept = [key async for key in shared.redis.scan_iter(match="bff:sessions:aurora:*")]
    assert len(kept) == 25
    ttls = [await shared.redis.ttl(key) for key in kept]
    assert all(0 < ttl <= ANONYMOUS_SECONDS for ttl in ttls)
    assert (await sessions.load("aurora", "visitor-0059-" + "x" * 30)).data.jars, "the newest still serve"

"""The shared stores the composition root (`gateway.app`) builds first: Redis with `REDIS_URL` (or
Sentinel), the sessions' local replicas and the instances' presence beside it; else this process."""

from __future__ import annotations

from gateway.config.settings import Settings
from gateway.parts import Stores
from gateway.pipeline.joining import shared_outcome
from gateway.runtime.lifecycle import Lifecycle
from gateway.state.dedup import SharedFlights
from gateway.state.outcome import decode, encode
from gateway.state.presence import Presence
from gateway.state.replicas import SessionReplicas
from gateway.store import keys
from gateway.store.memory import MemoryShared, ProcessStore
from gateway.store.redis import FailFast, RedisShared, connect
from gateway.store.sentinel import FollowingPool


def open_stores(settings: Settings, instance: str, lifecycle: Lifecycle) -> Stores:
    if settings.shared_redis is None:
        memory = MemoryShared()
        return Stores(memory, ProcessStore(memory, keys.SESSIONS + ":"))
    redis = connect(settings.shared_redis)
    guard = FailFast(on_readonly=redis.connection_pool.disconnect)
    shared = RedisShared(redis, guard, settings.shared_redis.wait_replicas, lifecycle.spawn)
    if isinstance(redis.connection_pool, FollowingPool):
        redis.connection_pool.on_change = lambda: lifecycle.spawn(shared.replay())
    flights = SharedFlights(shared, encode, decode, instance, lifecycle, shareable=shared_outcome)
    sessions = SessionReplicas(redis, guard, instance)
    return Stores(shared, sessions, redis, flights, Presence(redis, instance, [sessions]))

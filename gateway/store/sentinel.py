"""The Redis primary as Redis Sentinel names it, followed across failovers.

redis-py's `SentinelConnectionPool` asks the sentinels for the primary's address whenever it
opens a connection, and a connection to a primary that was demoted (it answers `READONLY`) is
dropped and raised as a connection error; the store turns that into a 503, and the next
connection goes to the new primary. Two things are added here: the pool blocks briefly when
all its connections are busy (like the single-address pool, `gateway.store.redis.connect`),
a connection still open to a former primary is closed when it comes back to the pool instead
of being handed out again (redis-py's synchronous pool does this; its asyncio one does not), and
`follow` asks the sentinels twice a second: on a planned failover the old primary stays up and
takes writes (lost afterwards) until Sentinel converts it, up to 10 s later, so every connection,
pub/sub included, is dropped as soon as the sentinels name another primary.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import structlog
from redis.asyncio import BlockingConnectionPool, Redis, SSLConnection
from redis.asyncio.connection import AbstractConnection, parse_url
from redis.asyncio.sentinel import MasterNotFoundError, Sentinel, SentinelConnectionPool
from redis.exceptions import RedisError

from gateway.store.address import SharedRedis

log = structlog.get_logger("gateway.store")


class FollowingPool(SentinelConnectionPool, BlockingConnectionPool):
    """Connections to whichever server the sentinels call the primary."""

    on_change: Callable[[], None] | None = None
    """Called once when a connection or `follow` finds another primary named (the store makes
    its money records' last writes again there: `gateway.store.journal`)."""

    async def get_master_address(self) -> tuple[str, int]:
        known = self.master_address
        named: tuple[str, int] = await super().get_master_address()  # type: ignore[no-untyped-call]
        if known is not None and tuple(named) != tuple(known) and self.on_change is not None:
            self.on_change()
        return named

    async def release(self, connection: AbstractConnection) -> None:
        host, port = getattr(connection, "host", None), getattr(connection, "port", None)
        if self.master_address is not None and (host, port) != tuple(self.master_address):
            await connection.disconnect()  # opened to a former primary: the next use asks the sentinels
        await super().release(connection)


class Sentinels(Sentinel):
    """Asks every sentinel and believes the newest configuration (the highest config epoch).
    redis-py believes the first that answers; after a failover the others learn of it only from
    the winner's next hello (every 2 s) and name the old primary meanwhile: instances asking
    different sentinels would write to two primaries, and take each other for dead."""

    async def discover_master(self, service_name: str) -> tuple[str, int]:
        answers = await asyncio.gather(*(s.sentinel_masters() for s in self.sentinels), return_exceptions=True)
        states = [answer.get(service_name) for answer in answers if isinstance(answer, dict)]
        valid = [state for state in states if state and self.check_master_state(state, service_name)]
        if not valid:
            raise MasterNotFoundError(f"no sentinel names a primary for {service_name!r}")
        newest = max(valid, key=lambda state: int(state.get("config-epoch", 0)))
        return newest["ip"], int(newest["port"])


def primary(shared: SharedRedis, **pool: Any) -> Redis:
    """A client of the primary named by `shared.sentinels` for `shared.master`; `pool` as for
    any of the store's pools (size, timeouts, retry)."""
    assert shared.master is not None
    timeouts = {name: value for name, value in pool.items() if name.startswith("socket_")}
    sentinel = Sentinels(  # type: ignore[no-untyped-call]
        list(shared.sentinels),
        sentinel_kwargs={**timeouts, "password": shared.sentinel_password},
    )
    return sentinel.master_for(  # type: ignore[no-any-return]
        shared.master, connection_pool_class=FollowingPool, **pool, **_credentials(shared.url)
    )


def _credentials(url: str | None) -> dict[str, Any]:
    """User, password, database and TLS of the data servers, from `REDIS_URL` (its host is the sentinels' to say)."""
    if url is None:
        return {}
    options: dict[str, Any] = dict(parse_url(url))
    for name in ("host", "port", "path"):
        options.pop(name, None)
    if options.pop("connection_class", None) is SSLConnection:
        options["ssl"] = True
    return options


async def close(redis: Redis) -> None:
    """Closes a client and, for the Sentinel's, its connections to the sentinels."""
    pool = redis.connection_pool
    await redis.aclose()
    if isinstance(pool, FollowingPool):
        await pool.sentinel_manager.aclose()


async def follow(redis: Redis, every_s: float = 0.5) -> None:
    """Until cancelled: when the sentinels name a new primary, every connection to the old one goes."""
    pool = redis.connection_pool
    if not isinstance(pool, FollowingPool):
        return
    while True:
        await asyncio.sleep(every_s)
        known = pool.master_address
        try:
            named = await pool.get_master_address()  # drops idle ones on a change
        except (RedisError, OSError):
            continue  # no primary known (a failover under way): the store answers 503 meanwhile
        if known is not None and tuple(named) != tuple(known):
            log.warning("store.primary_changed", was=f"{known[0]}:{known[1]}", now=f"{named[0]}:{named[1]}")
            await pool.disconnect(inuse_connections=True)

"""The Redis primary as Redis Sentinel names it, followed across failovers.

redis-py's `SentinelConnectionPool` asks the sentinels for the primary's address whenever it
opens a connection, and a connection to a primary that was demoted (it answers `READONLY`) is
dropped and raised as a connection error; the store turns that into a 503, and the next
connection goes to the new primary. Two things are added here: the pool blocks briefly when
all its connections are busy (like the single-address pool, `gateway.store.redis.connect`),
and a connection still open to a former primary is closed when it comes back to the pool
instead of being handed out again (redis-py's synchronous pool does this; its asyncio one does not).
"""

from __future__ import annotations

from typing import Any

from redis.asyncio import BlockingConnectionPool, Redis, SSLConnection
from redis.asyncio.connection import AbstractConnection, parse_url
from redis.asyncio.sentinel import Sentinel, SentinelConnectionPool

from gateway.settings import SharedRedis


class FollowingPool(SentinelConnectionPool, BlockingConnectionPool):
    """Connections to whichever server the sentinels call the primary."""

    async def release(self, connection: AbstractConnection) -> None:
        host, port = getattr(connection, "host", None), getattr(connection, "port", None)
        if self.master_address is not None and (host, port) != tuple(self.master_address):
            await connection.disconnect()  # opened to a former primary: the next use asks the sentinels
        await super().release(connection)


def primary(shared: SharedRedis, **pool: Any) -> Redis:
    """A client of the primary named by `shared.sentinels` for `shared.master`; `pool` as for
    any of the store's pools (size, timeouts, retry)."""
    assert shared.master is not None
    timeouts = {name: value for name, value in pool.items() if name.startswith("socket_")}
    sentinel = Sentinel(  # type: ignore[no-untyped-call]
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

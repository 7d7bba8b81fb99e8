"""Records every instance reads from memory and every write reaches within a second: the
maintenance windows, the scheduled changes and the approvals (`gateway.maintenance`).

With Redis each shelf is a hash (`bff:plans:<name>`, id -> JSON), and a write is announced on
`bff:plans` (the shelf's name); every instance then reads that one hash again. Nothing is polled:
an idle gateway asks Redis nothing but to stay subscribed, and reads every hash again when it
(re)subscribes, so an announcement lost while Redis was away is caught up on. Without Redis the
shelves are this process's memory. Reads are from memory, so the player's path never waits on Redis.

Whoever runs, cancels or decides a record claims it first (`SET bff:plans:claim:<id> NX`), so
that of two instances (or two operators) one does it, and never twice.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any, Generic, TypeVar

import msgspec
import structlog
from redis.asyncio import Redis

from gateway.store import keys, or_unavailable

log = structlog.get_logger("gateway.maintenance")
T = TypeVar("T", bound=msgspec.Struct)
CLAIM_S = 7 * 86400
"""A claim outlives its record's use: a done, cancelled or decided record is never taken again."""


class Shelf(Generic[T]):
    """One kind of record, by id: in this process's memory, kept in step with Redis."""

    def __init__(self, name: str, kind: type[T], redis: Redis | None) -> None:
        self.name = name
        self.redis = redis
        self.records: dict[str, T] = {}
        self._decode = msgspec.json.Decoder(kind)
        self._claims: set[str] = set()
        self.changed: Callable[[], None] = lambda: None
        """Called after the records changed (here or announced): the runner's wake-up."""

    @property
    def key(self) -> str:
        return keys.PLANS + self.name

    async def put(self, record_id: str, record: T) -> None:
        """Written for every instance (and announced), then here."""
        if self.redis is not None:
            await or_unavailable(self.redis.hset(self.key, record_id, msgspec.json.encode(record)))
            await or_unavailable(self.redis.publish(keys.PLANS_CHANNEL, self.name))
        self.records[record_id] = record
        self.changed()

    async def drop(self, record_id: str) -> None:
        if self.redis is not None:
            await or_unavailable(self.redis.hdel(self.key, record_id))
            await or_unavailable(self.redis.publish(keys.PLANS_CHANNEL, self.name))
        self.records.pop(record_id, None)
        self.changed()

    async def claim(self, record_id: str, holder: str) -> bool:
        """Whether `holder` is the first to claim the record (and so the one to act on it)."""
        if self.redis is None:
            if record_id in self._claims:
                return False
            self._claims.add(record_id)
            return True
        claimed = self.redis.set(keys.PLANS_CLAIM + record_id, holder, nx=True, ex=CLAIM_S)
        return bool(await or_unavailable(claimed))

    async def read(self) -> None:
        """Every record again from Redis (an announcement, a new subscription)."""
        if self.redis is None:
            return
        raw: dict[Any, Any] = await or_unavailable(self.redis.hgetall(self.key))
        found = {}
        for record_id, data in raw.items():
            try:
                found[record_id.decode()] = self._decode.decode(data)
            except msgspec.DecodeError:  # one bad record must not hide the others
                log.error("plans.record_unreadable", shelf=self.name, id=record_id.decode())
        self.records = found
        self.changed()


async def listen(redis: Redis | None, shelves: list[Shelf[msgspec.Struct]]) -> None:
    """Follows the other instances' writes (Redis pub/sub), reconnecting as needed."""
    if redis is None:
        return
    by_name = {shelf.name: shelf for shelf in shelves}
    while True:
        try:
            pubsub = redis.pubsub(ignore_subscribe_messages=True)
            async with pubsub:
                await pubsub.subscribe(keys.PLANS_CHANNEL)
                for shelf in shelves:  # after subscribing: nothing written meanwhile is missed
                    await shelf.read()
                while True:
                    message = await pubsub.get_message(timeout=1.0)
                    named = by_name.get(bytes(message["data"]).decode()) if message is not None else None
                    if named is not None:
                        await named.read()
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # Redis away: keep what was read, try again
            log.warning("plans.sync_lost", error=type(exc).__name__)
            await asyncio.sleep(1.0)

"""This instance's presence in the shared store.

While the process lives it stays subscribed to its own channel (`bff:instance:<id>`); the
holders of leases and idempotency records are named `<id>:<random>`, and the store's scripts ask
`PUBSUB NUMSUB` whether a holder's instance still listens. A process killed with -9 takes its
connections with it and Redis drops the subscription at once, so a waiter on another instance
notices within one poll, with no heartbeat and no per-flight task: an idle instance sends Redis
only redis-py's health check of this one connection.
"""

from __future__ import annotations

import asyncio
import contextlib

import structlog
from redis.asyncio import Redis

from gateway import keys

log = structlog.get_logger("gateway.presence")


class Presence:
    def __init__(self, redis: Redis, instance: str) -> None:
        self.redis = redis
        self.instance = instance
        self.listening = asyncio.Event()

    @property
    def channel(self) -> str:
        return keys.PRESENCE_CHANNEL + self.instance

    async def run(self) -> None:
        """Subscribed until cancelled; after Redis goes away, subscribed again once it is back."""
        while True:
            try:
                pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
                async with pubsub:
                    await pubsub.subscribe(self.channel)
                    self.listening.set()
                    while True:
                        await pubsub.get_message(timeout=5.0)  # nothing is published here
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # Redis away: the store answers 503 meanwhile
                self.listening.clear()
                log.warning("presence.lost", error=type(exc).__name__)
                await asyncio.sleep(0.5)

    async def start(self, within_s: float = 2.0) -> asyncio.Task[None]:
        """Runs `run` in a task, once subscribed (or `within_s` passed: Redis may be down at start)."""
        task = asyncio.ensure_future(self.run())
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.listening.wait(), within_s)
        return task

"""This instance's presence in the shared store, and what it hears of the others' changes.

While the process lives it stays subscribed to its own channel (`bff:instance:<id>`); the
holders of leases and idempotency records are named `<id>:<random>`, and the store's scripts ask
`PUBSUB NUMSUB` whether a holder's instance still listens. A process killed with -9 takes its
connections with it and Redis drops the subscription at once, so a waiter on another instance
notices within one poll, with no heartbeat and no per-flight task.

The same connection carries `keys.SESSION_CHANGES` for its `Listener`s (the session replicas,
`gateway.state.replicas`). A listener is told `deaf` whenever a change could be missed: before the
subscription is confirmed, when Redis goes away, when redis-py reconnects the connection on its
own (`Subscription.on_connect`: messages sent meanwhile are lost), and when Redis has not
answered a ping for `SILENT_S` (a connection that hangs instead of breaking); and `hearing` once
Redis confirmed the subscription again, or answered again on the same connection.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from typing import Any, Protocol

import structlog
from redis.asyncio import Redis
from redis.asyncio.client import PubSub
from redis.asyncio.connection import Connection

from gateway.store import keys

log = structlog.get_logger("gateway.presence")
PING_S = 0.5
"""How often the connection is pinged when nothing else arrives (one command, per instance)."""
SILENT_S = 1.5
"""Nothing heard from Redis for this long: listeners are deaf until it answers again."""


class Listener(Protocol):
    def heard(self, key: str) -> None:
        """Another instance changed `key`."""

    def deaf(self) -> None:
        """Changes may be missed from now on."""

    def hearing(self) -> None:
        """Every change is heard again."""


class Subscription(PubSub):
    """redis-py's PubSub re-subscribes by itself after a reconnect; its listeners must not
    trust anything until Redis confirms the subscription again."""

    def __init__(self, redis: Redis, lost: Callable[[], None]) -> None:
        super().__init__(redis.connection_pool, ignore_subscribe_messages=False)
        self.lost = lost

    async def on_connect(self, connection: Connection) -> None:
        self.lost()
        await super().on_connect(connection)


class Presence:
    def __init__(self, redis: Redis, instance: str, listeners: list[Listener] | None = None) -> None:
        self.redis = redis
        self.instance = instance
        self.listeners = listeners or []
        self.listening = asyncio.Event()
        self._silent = True

    @property
    def channel(self) -> str:
        return keys.PRESENCE_CHANNEL + self.instance

    async def listen(self) -> None:
        """Subscribed until cancelled; after Redis goes away, subscribed again once it is back."""
        while True:
            try:
                async with Subscription(self.redis, self._lost) as pubsub:
                    await pubsub.subscribe(self.channel, keys.SESSION_CHANGES)
                    await self._receive(pubsub)
            except asyncio.CancelledError:
                self._lost()
                raise
            except Exception as exc:  # Redis away: the store answers 503 meanwhile
                self._lost()
                log.warning("presence.lost", error=type(exc).__name__)
                await asyncio.sleep(0.5)

    async def _receive(self, pubsub: Subscription) -> None:
        loop = asyncio.get_running_loop()
        heard = pinged = loop.time()
        while True:
            message = await pubsub.get_message(timeout=PING_S)
            now = loop.time()
            if message is not None:
                heard = now
                self._on(message)
            elif now - heard > SILENT_S and not self._silent:
                self._silence()  # the connection hangs: changes may be held up anywhere
            if now - pinged >= PING_S:
                pinged = now
                await pubsub.ping()

    def _on(self, message: dict[str, Any]) -> None:
        kind, channel = message["type"], bytes(message["channel"] or b"").decode()
        if kind == "subscribe" and channel == self.channel:
            self.listening.set()
        elif kind == "subscribe" and channel == keys.SESSION_CHANGES:
            self._hearing()
        elif kind == "message" and channel == keys.SESSION_CHANGES:
            instance, _, key = bytes(message["data"]).decode().partition("|")
            if instance != self.instance:  # our own changes dropped our replicas already
                for listener in self.listeners:
                    listener.heard(key)
        elif self._silent and self.listening.is_set():
            self._hearing()  # an answer on the same connection: nothing was lost, only late

    def _hearing(self) -> None:
        self._silent = False
        for listener in self.listeners:
            listener.hearing()

    def _silence(self) -> None:
        """Redis has not answered for a while: the subscription may still stand."""
        self._silent = True
        for listener in self.listeners:
            listener.deaf()

    def _lost(self) -> None:
        """The subscription is gone (or being made again): wait for its confirmation."""
        self.listening.clear()
        self._silence()

    async def start(self, within_s: float = 2.0) -> asyncio.Task[None]:
        """Runs `listen` in a task, once subscribed (or `within_s` passed: Redis may be down at start)."""
        task = asyncio.ensure_future(self.listen())
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.listening.wait(), within_s)
        return task

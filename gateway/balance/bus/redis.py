"""The balance stream's bus across instances (`Bus` over Redis): a player's notes by pub/sub, one
subscription connection per process; the player's lease (which process polls the platform for the
player) and newest balance in keys beside it, kept by three scripts (hold, store, forget)."""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import time
from typing import TYPE_CHECKING

import structlog
from redis.asyncio import Redis

from gateway.state.presence import Subscription
from gateway.store import StoreUnavailable, keys
from gateway.store.redis import FailFast
from gateway.store.scripts import ALIVE

if TYPE_CHECKING:
    from gateway.balance.feed import BalanceFeed
    from gateway.balance.tabs import PlayerFeed

log = structlog.get_logger("gateway.events")


# The lease: ours (renewed), free, or its holder's instance gone (taken). KEYS: lease, last;
# ARGV: token, ttl ms. Returns {1 | 0, the last poll's wall-clock ms or false}.
HOLD = ALIVE + (
    "local holder = redis.call('get', KEYS[1]) local t = redis.call('hget', KEYS[2], 't') "
    "if holder == ARGV[1] then redis.call('pexpire', KEYS[1], ARGV[2]) return {1, t} end "
    "if holder and alive(holder) then return {0, t} end "
    "redis.call('set', KEYS[1], ARGV[1], 'PX', ARGV[2]) return {1, t}"
)
# A balance from the platform: kept and published only when it changed, and only while some
# instance listens on the player's channel. KEYS: last; ARGV: value, ttl ms, new epoch, now ms, channel.
STORE = (
    "if redis.call('pubsub', 'numsub', ARGV[5])[2] == 0 then return false end "
    "redis.call('hset', KEYS[1], 't', ARGV[4]) "
    "if redis.call('hget', KEYS[1], 'v') == ARGV[1] then redis.call('pexpire', KEYS[1], ARGV[2]) return false end "
    "local e = redis.call('hget', KEYS[1], 'e') if not e then e = ARGV[3] end "
    "local n = redis.call('hincrby', KEYS[1], 'n', 1) "
    "redis.call('hset', KEYS[1], 'e', e, 'v', ARGV[1]) redis.call('pexpire', KEYS[1], ARGV[2]) "
    "local id = e .. '.' .. n redis.call('publish', ARGV[5], 'b\\n' .. id .. '\\n' .. ARGV[1]) return id"
)
# The last listener of a player's channel gone: its lease (ours, or anyone's once nobody listens)
# and its newest balance go. KEYS: lease, last; ARGV: token, channel.
FORGET = (
    "if redis.call('get', KEYS[1]) == ARGV[1] then redis.call('del', KEYS[1]) end "
    "if redis.call('pubsub', 'numsub', ARGV[2])[2] == 0 then redis.call('del', KEYS[1], KEYS[2]) end return 1"
)


class RedisBus:
    """Many instances: the player's lease and newest balance in Redis, its notes by pub/sub.

    One subscription connection per process (`run`), to the channels of the players it has tabs
    of. Lost (Redis gone, or redis-py reconnecting it, when notes may have been missed): every
    stream here closes, and the browsers poll until they can stream again."""

    def __init__(self, feed: BalanceFeed, redis: Redis, guard: FailFast, instance: str) -> None:
        self.feed = feed
        self.redis = redis
        self.guard = guard
        self.token = f"{instance}:events"
        self.ttl_ms = int(feed.settings.interval_s * 3000)
        self.pubsub: Subscription | None = None
        self.connected = asyncio.Event()
        self._leaving: dict[str, PlayerFeed] = {}
        self._hold = redis.register_script(HOLD)
        self._store = redis.register_script(STORE)
        self._forget = redis.register_script(FORGET)

    async def start(self, within_s: float = 2.0) -> asyncio.Task[None]:
        """Runs `listen` in a task, once subscribed (or `within_s` passed: Redis may be down at start)."""
        task = asyncio.ensure_future(self.listen())
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.connected.wait(), within_s)
        return task

    async def listen(self) -> None:
        """Subscribed until cancelled; after Redis goes away, again once it is back."""
        while True:
            try:
                async with Subscription(self.redis, self._lost) as pubsub:
                    await pubsub.subscribe(keys.EVENTS_CONTROL)
                    self.pubsub = pubsub
                    await self._receive(pubsub)
            except asyncio.CancelledError:
                self._lost()
                raise
            except Exception as exc:  # Redis away: streams are refused (503) meanwhile
                self._lost()
                log.warning("events.bus_lost", error=type(exc).__name__)
                await asyncio.sleep(0.5)

    async def _receive(self, pubsub: Subscription) -> None:
        while True:
            message = await pubsub.get_message(timeout=1.0)
            if message is None:
                await pubsub.ping()
                continue
            kind, channel = message["type"], bytes(message["channel"] or b"").decode()
            if kind == "subscribe" and channel == keys.EVENTS_CONTROL:
                self.connected.set()
            elif kind == "message":
                skin_id, login = _player_of(channel)
                self.feed.heard(skin_id, login, bytes(message["data"]).decode())
            elif kind == "unsubscribe" and channel in self._leaving:
                player = self._leaving.pop(channel)
                self.feed.later(self._forget_player(player))

    def _lost(self) -> None:
        self.pubsub = None
        self.connected.clear()
        self._leaving.clear()
        self.feed.lost()

    def _subscription(self) -> Subscription:
        if self.pubsub is None or not self.connected.is_set():
            raise StoreUnavailable("the events subscription is down")
        return self.pubsub

    async def join(self, player: PlayerFeed) -> None:
        channel = keys.events_channel(player.skin_id, player.login)
        self._leaving.pop(channel, None)
        pubsub = self._subscription()
        await self.guard(lambda: pubsub.subscribe(channel))

    async def leave(self, player: PlayerFeed) -> None:
        channel = keys.events_channel(player.skin_id, player.login)
        pubsub = self._subscription()
        self._leaving[channel] = player  # its keys go once Redis confirms (`_forget_player`)
        await self.guard(lambda: pubsub.unsubscribe(channel))

    async def _forget_player(self, player: PlayerFeed) -> None:
        if (player.skin_id, player.login) in self.feed.players:
            return  # a tab of the player came back meanwhile
        lease, last = keys.events_lease(player.skin_id, player.login), keys.events_last(player.skin_id, player.login)
        channel = keys.events_channel(player.skin_id, player.login)
        with contextlib.suppress(StoreUnavailable):
            await self.guard(lambda: self._forget([lease, last], [self.token, channel]))

    async def hold(self, player: PlayerFeed) -> tuple[bool, float | None]:
        lease, last = keys.events_lease(player.skin_id, player.login), keys.events_last(player.skin_id, player.login)
        held, polled = await self.guard(lambda: self._hold([lease, last], [self.token, self.ttl_ms]))
        return bool(held), (int(polled) / 1000 if polled else None)

    async def current(self, player: PlayerFeed) -> tuple[str, str] | None:
        last = keys.events_last(player.skin_id, player.login)
        found = await self.guard(lambda: self.redis.hmget(last, ["e", "n", "v"]))
        epoch, count, value = (bytes(part) if isinstance(part, bytes) else None for part in found)
        if epoch is None or count is None or value is None:
            return None
        return f"{epoch.decode()}.{count.decode()}", value.decode()

    async def store(self, skin_id: str, login: str, value: str) -> None:
        last, channel = keys.events_last(skin_id, login), keys.events_channel(skin_id, login)
        now_ms = int(time.time() * 1000)
        argv: list[str | int] = [value, self.ttl_ms, secrets.token_hex(3), now_ms, channel]
        await self.guard(lambda: self._store([last], argv))

    async def publish(self, skin_id: str, login: str, note: str) -> None:
        channel = keys.events_channel(skin_id, login)
        await self.guard(lambda: self.redis.publish(channel, note))


def _player_of(channel: str) -> tuple[str, str]:
    """`bff:<skin>:events:<login>` -> (skin, login)."""
    _, skin_id, _, login = channel.split(":", 3)
    return skin_id, login

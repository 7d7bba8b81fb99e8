"""One platform balance poll per player, pushed to every tab the player has open (`/bff/events`).

Each stream is a `Tab` of its player's `PlayerFeed` in this process. Where a player has tabs, a
poller runs; only the holder of the player's lease asks the platform (once per interval, at once
after the player's money calls and at login), and a balance that changed goes out as a note on
the player's channel, which every process with a tab of that player hears:

- memory mode (`MemoryBus`): the lease is always this process's; notes go straight to the feed;
- Redis mode (`RedisBus`): the lease is a key naming its instance, renewed by the holder and
  taken over by another process with tabs of that player as soon as the holder's instance stops
  listening on its presence channel (a process killed with -9 drops it at once) or its TTL ran
  out; notes go by Redis pub/sub (one subscription connection per process), the newest balance
  and its event id in a hash beside the lease. When the last tab anywhere goes, both keys go.

Session ends (logout, `SESSION_EXPIRED`, an operator's revocation) are notes too: every tab of
that session, on every instance, gets an `end` event and closes.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import secrets
import time
from collections import Counter, deque
from collections.abc import Awaitable, Callable, Coroutine
from typing import TYPE_CHECKING, Any, Literal, NamedTuple, Protocol

import msgspec
import structlog
from redis.asyncio import Redis

from contracts.base import SESSION_EXPIRED
from contracts.catalogue import ROUTES_BY_NAME
from gateway.config.settings import EventsSettings
from gateway.http.asgi import Incoming, RequestContext
from gateway.http.security import request_id
from gateway.shared import keys
from gateway.shared.presence import Subscription
from gateway.shared.session import Session, Sessions
from gateway.shared.store import StoreUnavailable
from gateway.shared.store.redis import FailFast
from gateway.shared.store.scripts import ALIVE

if TYPE_CHECKING:
    from gateway.config.live import LiveConfig
    from gateway.upstream.outcome import Outcome
    from gateway.upstream.platform import Platform

log = structlog.get_logger("gateway.events")

MONEY_ROUTES = frozenset(
    {
        "buy",
        "Mbuy",
        "depositCallBack",
        "cashout",
        "cashout12",
        "mercadoCashout",
        "interKassaCashout",
        "cancelWithdrawRequest",
        "exchange",
        "resetPlayMoneyBalance",
    }
)
"""The player's own money calls: a success asks the platform for the balance at once."""
FOLLOW_UPS_S = (0.5, 2.0)
"""A money call's effect may reach the wallet a moment later (a provider's approval): asked
again this long after it (an event goes out only if the balance changed)."""
BALANCE = ROUTES_BY_NAME["balance"]
SessionEnd = Literal["logout", "expired", "revoked"]
Closing = Literal["draining", "unavailable", "slow", "gone"]
"""Why a stream closes without a session end: the instance drains, Redis went away, the client
does not read, the client left."""


class Event(NamedTuple):
    kind: Literal["balance", "end"]
    id: str
    data: str


def tag_of(session_id: str) -> str:
    """A session as notes name it: never the id itself, which opens the session."""
    return hashlib.sha256(session_id.encode()).hexdigest()[:24]


class Tab:
    """One open stream: its events waiting to be written, at most `limit` of them."""

    __slots__ = ("ended", "events", "incoming", "limit", "player", "session_id", "tag", "wake")

    def __init__(self, player: PlayerFeed, session_id: str, incoming: Incoming, limit: int) -> None:
        self.player = player
        self.session_id = session_id
        self.tag = tag_of(session_id)
        self.incoming = incoming
        self.limit = limit
        self.events: deque[Event] = deque()
        self.wake = asyncio.Event()
        self.ended: str | None = None

    def offer(self, event: Event) -> None:
        """Queued for the writer; a reader that fell `limit` events behind is dropped."""
        if self.ended is not None:
            return
        if len(self.events) >= self.limit:
            self.close("slow")
            return
        self.events.append(event)
        self.wake.set()

    def finish(self, reason: SessionEnd) -> None:
        """The session ended: an `end` event, the last one."""
        if self.ended is None:
            self.events.append(Event("end", "", msgspec.json.encode({"reason": reason}).decode()))
            self.ended = reason
            self.wake.set()

    def close(self, reason: Closing) -> None:
        if self.ended is None:
            self.ended = reason
            self.wake.set()

    async def next(self, within_s: float) -> Event | None:
        """The next event; None when nothing came within `within_s` or the stream ended."""
        if not self.events and self.ended is None:
            self.wake.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.wake.wait(), within_s)
        return self.events.popleft() if self.events else None


class PlayerFeed:
    """One player's feed in this process: its tabs, the sessions they came with, its poller."""

    def __init__(self, skin_id: str, login: str) -> None:
        self.skin_id = skin_id
        self.login = login
        self.tabs: set[Tab] = set()
        self.sessions: Counter[str] = Counter()
        self.last: tuple[str, str] | None = None
        """The newest balance heard: (event id, the platform's answer as JSON)."""
        self.poller: asyncio.Task[None] | None = None
        self.wake = asyncio.Event()
        self.urgent = False
        self.leading = False
        self.next_poll = 0.0
        self.follow_ups: list[float] = []

    def poll_soon(self, follow_ups: tuple[float, ...] = ()) -> None:
        now = time.monotonic()
        self.urgent = True
        self.follow_ups = sorted([*self.follow_ups, *(now + s for s in follow_ups)])
        self.wake.set()


class Bus(Protocol):
    """Where a player's notes travel and its lease and newest balance live."""

    async def join(self, player: PlayerFeed) -> None: ...
    async def leave(self, player: PlayerFeed) -> None: ...
    async def hold(self, player: PlayerFeed) -> tuple[bool, float | None]:
        """(whether this process polls for the player, wall-clock time of the last poll)."""
        ...

    async def current(self, player: PlayerFeed) -> tuple[str, str] | None: ...
    async def store(self, skin_id: str, login: str, value: str) -> None:
        """The platform's balance: an event for every tab when it changed (only while someone listens)."""
        ...

    async def publish(self, skin_id: str, login: str, note: str) -> None: ...


class BalanceFeed:
    def __init__(
        self,
        settings: EventsSettings,
        sessions: Sessions,
        platform: Platform,
        config: LiveConfig,
        bus_of: Callable[[BalanceFeed], Bus],
        later: Callable[[Coroutine[Any, Any, Any]], object],
    ) -> None:
        self.settings = settings
        self.sessions = sessions
        self.platform = platform
        self.config = config
        self.later = later
        self.players: dict[tuple[str, str], PlayerFeed] = {}
        self.streams = 0
        self.per_session: Counter[str] = Counter()
        self.draining = False
        self.bus = bus_of(self)

    # --- streams -----------------------------------------------------------------------------

    def refusal(self, session_id: str) -> tuple[int, str, str] | None:
        """Why one more stream may not open here (status, code, message), or None."""
        if self.draining:
            return 503, "SHUTTING_DOWN", "This server is restarting, please try again"
        if self.streams >= self.settings.per_instance:
            return 503, "STREAMS_FULL", "No room for another stream here, please poll"
        if self.per_session[session_id] >= self.settings.per_session:
            return 429, "TOO_MANY_STREAMS", "This session has as many streams open as it may"
        return None

    async def open(self, skin_id: str, login: str, session_id: str, incoming: Incoming, last_id: str | None) -> Tab:
        """A stream's tab; its first event is the newest balance unless the client has it."""
        key = (skin_id, login.lower())
        player = self.players.get(key)
        if player is None:
            player = self.players[key] = PlayerFeed(skin_id, key[1])
            try:
                await self.bus.join(player)
            except StoreUnavailable:
                if not player.tabs:
                    self.players.pop(key, None)
                raise
            player.poller = asyncio.ensure_future(self._poll_while_watched(player))
        tab = Tab(player, session_id, incoming, self.settings.queue)
        player.tabs.add(tab)
        player.sessions[session_id] += 1
        self.per_session[session_id] += 1
        self.streams += 1
        try:
            current = player.last or await self.bus.current(player)
        except StoreUnavailable:
            current = None
        if current is None:
            player.poll_soon()
        elif current[0] != last_id:
            tab.offer(Event("balance", *current))
        return tab

    async def close(self, tab: Tab) -> None:
        player = tab.player
        if tab not in player.tabs:
            return
        player.tabs.discard(tab)
        self.streams -= 1
        for counter in (player.sessions, self.per_session):
            counter[tab.session_id] -= 1
            if counter[tab.session_id] <= 0:
                del counter[tab.session_id]
        if player.tabs:
            return
        self.players.pop((player.skin_id, player.login), None)
        if player.poller is not None:
            player.poller.cancel()
        with contextlib.suppress(StoreUnavailable):
            await self.bus.leave(player)

    def drain(self) -> None:
        """SIGTERM: every stream closes with its retry hint; browsers reconnect elsewhere."""
        self.draining = True
        self._close_all("draining")

    def lost(self) -> None:
        """Redis went away: notes may be missed, so no stream stays open on this instance."""
        self._close_all("unavailable")

    def _close_all(self, reason: Closing) -> None:
        for player in list(self.players.values()):
            for tab in list(player.tabs):
                tab.close(reason)

    # --- notes (from the bus) ----------------------------------------------------------------

    def heard(self, skin_id: str, login: str, note: str) -> None:
        player = self.players.get((skin_id, login))
        if player is None:
            return
        kind, _, rest = note.partition("\n")
        if kind == "b":
            event_id, _, value = rest.partition("\n")
            player.last = (event_id, value)
            for tab in list(player.tabs):
                tab.offer(Event("balance", event_id, value))
        elif kind == "p":
            player.poll_soon(FOLLOW_UPS_S)
        elif kind == "e":
            tag, _, reason = rest.partition("\n")
            for tab in list(player.tabs):
                if tag in ("*", tab.tag):
                    tab.finish(reason)  # type: ignore[arg-type]

    # --- what the proxied path tells (`gateway.pipeline.observe`) ------------------------------

    def observed(
        self, skin_id: str, route: str, login: str | None, before: str, session: Session, outcome: Outcome
    ) -> None:
        """A proxied call's answer: a session that ended, a login, a money call, a balance read."""
        if login is None:
            if route in ("login", "register") and session.data.logged_in and session.data.login:
                self.later(self._publish(skin_id, session.data.login, "p"))  # at login: the newest balance
            return
        if not session.data.logged_in:
            reason: SessionEnd = "logout" if route == "logout" else "expired"
            self.later(self.session_ended(skin_id, login, before, reason))
        elif route in MONEY_ROUTES and outcome.status == 200 and _succeeded(outcome.body):
            self.later(self._publish(skin_id, login, "p"))
        elif route == "balance" and outcome.status == 200:
            value = _balance(outcome.body)
            if value is not None:
                self.later(self._quietly(self.bus.store(skin_id, login.lower(), value)))

    async def session_ended(self, skin_id: str, login: str, session_id: str, reason: SessionEnd) -> None:
        await self._publish(skin_id, login, f"e\n{tag_of(session_id)}\n{reason}")

    async def revoked(self, skin_id: str, login: str) -> None:
        """An operator ended every session of the player: every stream of theirs ends."""
        await self._publish(skin_id, login, "e\n*\nrevoked")

    async def _publish(self, skin_id: str, login: str, note: str) -> None:
        await self._quietly(self.bus.publish(skin_id, login.lower(), note))

    async def _quietly(self, call: Awaitable[None]) -> None:
        try:
            await call
        except StoreUnavailable:
            log.warning("events.note_lost")  # the streams close with Redis; the tabs poll meanwhile

    # --- the poller ----------------------------------------------------------------------------

    async def _poll_while_watched(self, player: PlayerFeed) -> None:
        interval = self.settings.interval_s
        while player.tabs:
            was_leading = player.leading
            try:
                player.leading, last_poll = await self.bus.hold(player)
            except StoreUnavailable:
                player.leading, last_poll = False, None
            now = time.monotonic()
            if player.leading and not was_leading and not player.urgent:
                since = time.time() - last_poll if last_poll else interval
                player.next_poll = now + max(0.0, interval - since)  # a taken-over lease keeps the pace
            follow_up = bool(player.follow_ups) and player.follow_ups[0] <= now
            if player.leading and (player.urgent or follow_up or now >= player.next_poll):
                if player.urgent or now >= player.next_poll:
                    player.next_poll = now + interval
                player.urgent = False
                player.follow_ups = [t for t in player.follow_ups if t > now]
                await self._poll(player)
            elif not player.leading:
                player.urgent, player.follow_ups = False, []
            wait = player.next_poll - now if player.leading else interval / 2
            if player.follow_ups:
                wait = min(wait, player.follow_ups[0] - now)
            player.wake.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(player.wake.wait(), max(wait, 0.01))

    async def _poll(self, player: PlayerFeed) -> None:
        """Asks the platform with one of the player's sessions (a session found ended ends its tabs)."""
        skin = next((s for s in self.config.skins.all if s.id == player.skin_id), None)
        if skin is None:
            return
        for session_id in list(player.sessions):
            tab = next((t for t in player.tabs if t.session_id == session_id), None)
            if tab is None:
                continue
            try:
                session = await self.sessions.load(skin.id, session_id)
            except StoreUnavailable:
                return
            if not session.data.logged_in:
                await self.session_ended(skin.id, player.login, session_id, "expired")
                continue
            ctx = RequestContext(request_id(None), skin=skin.id, route="balance", route_class="read")
            outcome = await self.platform.ask(tab.incoming, ctx, skin, BALANCE, session, b"{}")
            expired = outcome.failure is None and _code(outcome.body) == SESSION_EXPIRED
            if expired:
                session.log_out()
            with contextlib.suppress(StoreUnavailable):  # the platform's cookies of this call, or the end
                await self.sessions.save(skin.id, session)
            if expired:
                await self.session_ended(skin.id, player.login, session_id, "expired")
                continue
            value = _balance(outcome.body) if outcome.failure is None and outcome.status == 200 else None
            if value is not None:
                await self._quietly(self.bus.store(skin.id, player.login, value))
            return


def _decoded(body: bytes) -> object:
    try:
        return msgspec.json.decode(body)
    except msgspec.DecodeError:
        return None


def _code(body: bytes) -> object:
    data = _decoded(body)
    return data.get("code") if isinstance(data, dict) else None


def _succeeded(body: bytes) -> bool:
    data = _decoded(body)
    return isinstance(data, dict) and data.get("success") is not False and data.get("code") != SESSION_EXPIRED


def _balance(body: bytes) -> str | None:
    """The platform's balance answer as the SPA's balance entry holds it (canonical JSON), or None."""
    data = _decoded(body)
    if not isinstance(data, dict) or not isinstance(data.get("values"), list) or data.get("code"):
        return None
    return msgspec.json.encode(data, order="sorted").decode()


class MemoryBus:
    """One process: the lease is always ours, notes go straight to the feed."""

    def __init__(self, feed: BalanceFeed) -> None:
        self.feed = feed
        self.epoch = secrets.token_hex(3)
        self.counter = 0

    async def join(self, player: PlayerFeed) -> None:
        return None

    async def leave(self, player: PlayerFeed) -> None:
        return None

    async def hold(self, player: PlayerFeed) -> tuple[bool, float | None]:
        return True, None

    async def current(self, player: PlayerFeed) -> tuple[str, str] | None:
        return player.last

    async def store(self, skin_id: str, login: str, value: str) -> None:
        player = self.feed.players.get((skin_id, login))
        if player is None or (player.last is not None and player.last[1] == value):
            return
        self.counter += 1
        self.feed.heard(skin_id, login, f"b\n{self.epoch}.{self.counter}\n{value}")

    async def publish(self, skin_id: str, login: str, note: str) -> None:
        self.feed.heard(skin_id, login, note)


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
        """Runs `run` in a task, once subscribed (or `within_s` passed: Redis may be down at start)."""
        task = asyncio.ensure_future(self.run())
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.connected.wait(), within_s)
        return task

    async def run(self) -> None:
        """Subscribed until cancelled; after Redis goes away, again once it is back."""
        while True:
            try:
                async with Subscription(self.redis, self._lost) as pubsub:
                    await pubsub.subscribe(keys.EVENTS_CONTROL)
                    self.pubsub = pubsub
                    await self._listen(pubsub)
            except asyncio.CancelledError:
                self._lost()
                raise
            except Exception as exc:  # Redis away: streams are refused (503) meanwhile
                self._lost()
                log.warning("events.bus_lost", error=type(exc).__name__)
                await asyncio.sleep(0.5)

    async def _listen(self, pubsub: Subscription) -> None:
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

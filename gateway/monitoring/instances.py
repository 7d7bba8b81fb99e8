"""Every gateway instance and what it runs: the console's instances view, and how a change learns on
how many instances it is live (`gateway.console.overview`, `gateway.console.changes`).

Each instance keeps one record in Redis (`bff:instances`, a hash field per instance: host, pid,
version, start, the configuration version it runs, draining, tripped breakers), written when one of
those changes (and again whenever its presence subscription is confirmed, as after Redis
restarted). Which instances are alive is their presence (`gateway.state.presence`): subscribed to
their channel while they run, dropped by Redis the moment a process dies. A process that is frozen
(SIGSTOP, a stalled VM) keeps its subscription, so each instance also beats every `BEAT_S` (`beat`:
one `HSET bff:instances:seen <id> <time>`, in one round trip with the read of the others', at the
same instants on every instance): one not seen for `STALE_AFTER_S` is stale, and serving again once
it beats again. A change's answer polls the records of the live instances until each runs the new
version, for a few seconds at most, and names those that did not (one paused, or cut off from
Redis). Without Redis the one process is the whole cluster.
"""

from __future__ import annotations

import asyncio
import importlib.metadata
import os
import socket
import time
from typing import TYPE_CHECKING, Literal

import msgspec
import structlog
from redis.asyncio import Redis

from gateway.config.history import iso
from gateway.runtime.lifecycle import Lifecycle
from gateway.store import StoreUnavailable, keys, or_unavailable
from gateway.upstream.resilience import Breaker, Breakers

if TYPE_CHECKING:
    from gateway.config.live import LiveConfig

ACK_WITHIN_S = 5.0
"""How long a change's answer waits for every live instance to run it."""
POLL_S = 0.1
WRITE_AFTER_S = 0.05
"""Changes that come together (a swap resetting breakers) are written once."""
BEAT_S = 2.5
"""How often each instance says it is alive (`beat`), at multiples of it on the wall clock: Redis
hears a steady two beats (two commands each) per instance in any 5 s."""
BEAT_COMMANDS = 2
"""What one beat sends Redis: `HSET` and `HGETALL`, in one round trip."""
STALE_AFTER_S = 6.0
"""An instance that missed two beats is stale (a late one is not): seen so within 10 s of freezing."""
FORGET_AFTER_S = 600.0
"""A dead instance's record is dropped this long after its last write."""

log = structlog.get_logger("gateway.instances")


class Tripped(msgspec.Struct):
    state: str
    since: float


def is_stale(seen: float, now: float) -> bool:
    """Whether an instance last seen at `seen` is stale at `now` (it missed two beats)."""
    return now - seen > STALE_AFTER_S


class InstanceRecord(msgspec.Struct, rename="camel"):
    id: str
    host: str | None = None
    pid: int | None = None
    app_version: str | None = None
    started_at: float | None = None
    config_version: str | None = None
    """None: a live instance that has not written its record (yet)."""
    draining: bool = False
    workers: int | None = None
    breakers: dict[str, Tripped] = {}
    """`<skin>/<upstream>` -> a breaker that is not closed."""
    written_at: float = 0.0
    seen_at: float | None = None
    """Its last beat, as `live` read it (None: not beaten yet); never written."""

    def public(self, current: str, now: float) -> InstanceView:
        seen = self.seen_at
        last_seen = round(max(0.0, now - seen), 1) if seen is not None else None
        stale = seen is not None and is_stale(seen, now)
        return InstanceView(
            id=self.id,
            host=self.host,
            pid=self.pid,
            app_version=self.app_version,
            started_at=iso(self.started_at) if self.started_at else None,
            uptime_s=round(now - self.started_at) if self.started_at else None,
            config_version=self.config_version,
            draining=self.draining,
            workers=self.workers,
            same_version=self.config_version == current,
            last_seen_s=last_seen,
            state="stale" if stale else "draining" if self.draining else "serving",
        )


class InstanceView(msgspec.Struct, rename="camel"):
    """What the console shows of an instance (`InstanceRecord.public`)."""

    id: str
    host: str | None
    pid: int | None
    app_version: str | None
    started_at: str | None
    uptime_s: int | None
    config_version: str | None
    draining: bool
    workers: int | None
    same_version: bool
    last_seen_s: float | None
    """Seconds since its last beat (None: none yet); past `STALE_AFTER_S` it is stale."""
    state: Literal["serving", "draining", "stale"]


class Lagging(msgspec.Struct):
    """A live instance that does not run a version yet."""

    id: str
    host: str | None


class Acknowledged(msgspec.Struct, rename="camel"):
    """On how many live instances a change runs (`Instances.acknowledged`), and which do not yet."""

    acknowledged: int
    total: int
    missing: list[Lagging]
    waited_s: float


_record = msgspec.json.Decoder(InstanceRecord)


def _app_version() -> str:
    try:
        return importlib.metadata.version("casino-bff")
    except importlib.metadata.PackageNotFoundError:
        return "unknown"


class Instances:
    """This instance's record, and every live instance's."""

    def __init__(self, instance: str, redis: Redis | None, lifecycle: Lifecycle) -> None:
        self.instance = instance
        self.redis = redis
        self.lifecycle = lifecycle
        self.started_at = time.time()
        self.workers: int | None = None
        """Set by the supervisor of `--workers N`: how many it runs."""
        self.config: LiveConfig | None = None
        self.breakers: Breakers | None = None
        self._since: dict[tuple[str, str], float] = {}
        self._pending = False
        self._host, self._version = socket.gethostname(), _app_version()

    def follow(self, config: LiveConfig, breakers: Breakers) -> None:
        self.config, self.breakers = config, breakers

    def record(self) -> InstanceRecord:
        tripped = {
            f"{b.skin}/{b.upstream}": Tripped(b.state, self._since.get((b.skin, b.upstream), self.started_at))
            for b in self.breakers or ()
            if b.state != "closed"
        }
        return InstanceRecord(
            id=self.instance,
            host=self._host,
            pid=os.getpid(),
            app_version=self._version,
            started_at=self.started_at,
            config_version=self.config.version if self.config is not None else None,
            draining=self.lifecycle.draining,
            workers=self.workers,
            breakers=tripped,
            written_at=time.time(),
        )

    # --- written when something changes ------------------------------------------------

    def on_breaker_change(self, breaker: Breaker) -> None:
        self._since[(breaker.skin, breaker.upstream)] = time.time()
        self.on_change()

    def on_change(self) -> None:
        """This instance's record is to be written (once, shortly, for changes that come together)."""
        if self.redis is None or self._pending:
            return
        self._pending = True
        self.lifecycle.spawn(self._write_soon())

    async def _write_soon(self) -> None:
        await asyncio.sleep(WRITE_AFTER_S)
        self._pending = False
        try:
            await self.write()
        except StoreUnavailable as exc:  # written again once presence hears Redis again
            log.warning("instances.write_failed", error=str(exc))

    async def write(self) -> None:
        if self.redis is not None:
            await or_unavailable(self.redis.hset(keys.INSTANCES, self.instance, msgspec.json.encode(self.record())))

    # Presence's listener: its subscription confirmed (at start, or after Redis came back).
    def hearing(self) -> None:
        self.on_change()

    def heard(self, key: str) -> None:
        pass

    def deaf(self) -> None:
        pass

    # --- read ----------------------------------------------------------------------

    async def beat(self) -> dict[str, float]:
        """This instance seen now, and when each instance that beats was last seen; one that looks
        stale but no longer listens on its presence channel (killed) is not among them."""
        now = time.time()
        if self.redis is None:
            return {self.instance: now}
        pipe = self.redis.pipeline(transaction=False)
        pipe.hset(keys.INSTANCES_SEEN, self.instance, repr(now))
        pipe.hgetall(keys.INSTANCES_SEEN)
        _, beats = await or_unavailable(pipe.execute())
        seen = {key.decode(): float(value) for key, value in beats.items()} | {self.instance: now}
        quiet = [i for i, at in seen.items() if is_stale(at, now)]
        if quiet:  # frozen (still subscribed) or gone (killed: dropped by Redis)
            channels = [keys.PRESENCE_CHANNEL + i for i in quiet]
            listening: list[tuple[bytes, int]] = await or_unavailable(self.redis.pubsub_numsub(*channels))  # type: ignore[arg-type]
            gone = [i for i, (_, n) in zip(quiet, listening, strict=True) if not n]
            if gone:
                await or_unavailable(self.redis.hdel(keys.INSTANCES_SEEN, *gone))
            seen = {i: at for i, at in seen.items() if i not in gone}
        return seen

    async def leave(self) -> None:
        """This instance's beats end (it stops): it is gone at once, not stale."""
        if self.redis is not None:
            await or_unavailable(self.redis.hdel(keys.INSTANCES_SEEN, self.instance))

    async def live(self) -> list[InstanceRecord]:
        """Every instance alive now (subscribed to its presence channel) with its last beat, this one first."""
        own = msgspec.structs.replace(self.record(), seen_at=time.time())
        if self.redis is None:
            return [own]
        pipe = self.redis.pipeline(transaction=False)
        pipe.pubsub_channels(keys.PRESENCE_CHANNEL + "*")
        pipe.hgetall(keys.INSTANCES)
        pipe.hgetall(keys.INSTANCES_SEEN)
        channels, stored, beats = await or_unavailable(pipe.execute())
        alive = {c.decode().removeprefix(keys.PRESENCE_CHANNEL) for c in channels}
        seen = {i: float(beats[i.encode()]) if i.encode() in beats else None for i in alive}
        records = {key.decode(): _record.decode(value) for key, value in stored.items()}
        forgotten = [i for i, r in records.items() if i not in seen and r.written_at < own.written_at - FORGET_AFTER_S]
        if forgotten and self.instance not in forgotten:
            await or_unavailable(self.redis.hdel(keys.INSTANCES, *forgotten))
            await or_unavailable(self.redis.hdel(keys.INSTANCES_SEEN, *forgotten))
        others = (records.get(i) or InstanceRecord(id=i) for i in seen if i != self.instance)
        beaten = (msgspec.structs.replace(r, seen_at=seen[r.id]) for r in others)
        return [own, *sorted(beaten, key=lambda r: r.started_at or 0)]

    async def wait_for_version(self, version: str, within_s: float = ACK_WITHIN_S) -> Acknowledged:
        """On how many live instances `version` runs, waiting up to `within_s` for all of them."""
        loop = asyncio.get_running_loop()
        started = loop.time()
        while True:
            live = await self.live()
            missing = [r for r in live if r.config_version != version]
            waited = loop.time() - started
            if not missing or waited >= within_s:
                break
            await asyncio.sleep(POLL_S)
        return Acknowledged(
            acknowledged=len(live) - len(missing),
            total=len(live),
            missing=[Lagging(r.id, r.host) for r in missing],
            waited_s=round(waited, 2),
        )

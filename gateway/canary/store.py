"""Canary records: one per skin in the shared store, changed only by compare-and-set, and the
board every instance keeps of them, read by the routing without I/O.

A skin's record (`bff:canary:<skin>`) holds its live canary, or the last one that ended. Every
write names the bytes it read (`Shared.swap`, or `set_nx` for a skin that never had one) and
raises `revision`: two operators starting a canary on one skin from two instances, or an operator
pausing one while the controller moves its step, cannot both win; the loser reads the winner's.
A write is announced on `bff:canary` with the skin's id, and every instance re-reads that record
into its `CanaryBoard` at once (and every record when its subscription starts again after Redis
was away). Without Redis the store is this process's memory and the board is written with it.

Redis lost: the board keeps the last records it saw, so every instance goes on routing by them
(docs/canary.md, "Redis lost mid-canary").
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Iterable

import msgspec
import structlog
from redis.asyncio import Redis

from gateway.canary.model import Canary
from gateway.store import Shared, StoreUnavailable, keys, or_unavailable

log = structlog.get_logger("gateway.canary")

KEEP_MS = 60 * 86400 * 1000
"""A record outlives the drain of a promoted canary (a remembered session's 30 days) with room."""
WRITE_TRIES = 5
"""Compare-and-set rounds while others' writes keep landing first."""

_decode = msgspec.json.Decoder(Canary).decode


class CanaryBoard:
    """The last record of each skin this instance saw: what the routing reads on every request."""

    def __init__(self, clock: Callable[[], float] = time.time) -> None:
        self._latest: dict[str, Canary] = {}
        self._clock = clock

    def current(self, skin: str) -> Canary | None:
        """The skin's live canary, or its promoted one while the old side's sessions drain."""
        canary = self._latest.get(skin)
        if canary is None or canary.live:
            return canary
        draining = canary.state == "promoted" and (canary.drain_until or 0.0) > self._clock()
        return canary if draining else None

    def latest(self, skin: str) -> Canary | None:
        """The skin's record as last seen, ended or not."""
        return self._latest.get(skin)

    def all(self) -> list[Canary]:
        return list(self._latest.values())

    def running(self) -> bool:
        """Whether some canary is being judged (the controller contends for its lease only then)."""
        return any(canary.state == "running" for canary in self._latest.values())

    def saw(self, skin: str, canary: Canary | None) -> None:
        """A record read or written; an older one than the board has (a late reply) is ignored."""
        known = self._latest.get(skin)
        if canary is None:
            self._latest.pop(skin, None)
        elif known is None or canary.revision >= known.revision:
            self._latest[skin] = canary


class CanaryStore:
    """The records, read and written in the shared store; the board follows every write."""

    def __init__(self, shared: Shared, redis: Redis | None, board: CanaryBoard, skins: Callable[[], Iterable[str]]):
        self.shared = shared
        self.redis = redis
        self.board = board
        self.skins = skins
        """The configured skins' ids (whose records `refresh` reads)."""

    async def read(self, skin: str) -> tuple[Canary | None, bytes | None]:
        """The skin's record and its bytes as stored (what a write names as expected)."""
        raw = await self.shared.get(keys.CANARY + skin)
        canary = _decode(raw) if raw is not None else None
        self.board.saw(skin, canary)
        return canary, raw

    async def start(self, canary: Canary) -> tuple[bool, Canary]:
        """Writes a new canary unless its skin has a live one: (whether it was written, the record now)."""
        for _ in range(WRITE_TRIES):
            known, raw = await self.read(canary.skin)
            if known is not None and known.live:
                return False, known
            canary.revision = (known.revision if known is not None else 0) + 1
            if await self._write(raw, canary):
                return True, canary
        raise StoreUnavailable("the canary's record kept changing")

    async def update(self, skin: str, change: Callable[[Canary], Canary | None]) -> Canary | None:
        """`change` applied to the skin's freshest record and written, if it returns one (None:
        nothing to change, or no record); read again and retried when another write came first."""
        for _ in range(WRITE_TRIES):
            known, raw = await self.read(skin)
            changed = change(known) if known is not None else None
            if changed is None or known is None:
                return None
            changed.revision = known.revision + 1
            if await self._write(raw, changed):
                return changed
        raise StoreUnavailable("the canary's record kept changing")

    async def _write(self, expected: bytes | None, canary: Canary) -> bool:
        key, value = keys.CANARY + canary.skin, msgspec.json.encode(canary)
        if expected is None:
            done = await self.shared.set_nx(key, value, KEEP_MS)
        else:
            done = await self.shared.swap(key, expected, value, KEEP_MS)
        if done:
            self.board.saw(canary.skin, canary)
            await self._announce(canary.skin)
        return done

    async def _announce(self, skin: str) -> None:
        if self.redis is None:
            return
        try:
            await or_unavailable(self.redis.publish(keys.CANARY_CHANNEL, skin.encode()))
        except StoreUnavailable as exc:  # written: the others read it when their subscription is back
            log.warning("canary.announce_failed", skin=skin, error=str(exc))

    async def refresh(self) -> None:
        """Every skin's record read again into the board."""
        for skin in self.skins():
            await self.read(skin)

    async def find(self, canary_id: str) -> Canary | None:
        """The record with this id: a skin's live or last one (older ones are not kept)."""
        for skin in self.skins():
            canary, _ = await self.read(skin)
            if canary is not None and canary.id == canary_id:
                return canary
        return None

    async def listen(self) -> None:
        """Follows the other instances' writes (Redis pub/sub), reconnecting as needed."""
        if self.redis is None:
            return
        while True:
            try:
                pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
                async with pubsub:
                    await pubsub.subscribe(keys.CANARY_CHANNEL)
                    await self.refresh()  # what was written while this instance did not listen
                    while True:
                        message = await pubsub.get_message(timeout=1.0)
                        if message is not None:
                            await self.read(bytes(message["data"]).decode())
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # Redis away: the board keeps the last records, try again
                log.warning("canary.sync_lost", error=type(exc).__name__)
                await asyncio.sleep(1.0)

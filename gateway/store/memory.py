"""One process: the shared store's operations over a dict with expiry times, bounded."""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import timedelta

from litestar.stores.base import Store

from gateway.store import Claim, Lead, keys, within_value_cap


class MemoryShared:
    """One process: the same operations over a dict with expiry times."""

    distributed = False

    def __init__(self, clock: Callable[[], float] = time.monotonic, max_entries: int = 200_000) -> None:
        self._data: dict[str, tuple[bytes, float]] = {}
        self._clock = clock
        self._max_entries = max_entries

    def _put(self, key: str, value: bytes, expires: float) -> None:
        self._data[key] = (value, expires)
        if len(self._data) > self._max_entries:
            self._make_room()

    def _live(self, key: str) -> bytes | None:
        entry = self._data.get(key)
        if entry is None:
            return None
        if entry[1] <= self._clock():
            del self._data[key]
            return None
        return entry[0]

    async def get(self, key: str) -> bytes | None:
        return self._live(key)

    async def set(self, key: str, value: bytes, ttl_ms: int) -> None:
        self._put(key, within_value_cap(value), self._clock() + ttl_ms / 1000)

    async def set_capped(self, key: str, value: bytes, ttl_ms: int, index: str, limit: int) -> None:
        await self.set(key, value, ttl_ms)  # the whole store is bounded (_make_room)

    async def set_nx(self, key: str, value: bytes, ttl_ms: int) -> bool:
        if self._live(key) is not None:
            return False
        await self.set(key, value, ttl_ms)
        return True

    async def delete(self, *keys: str) -> None:
        for key in keys:
            self._data.pop(key, None)

    def _release(self, key: str, token: bytes) -> None:
        if self._live(key) == token:
            del self._data[key]

    async def set_and_release(
        self, key: str, value: bytes, ttl_ms: int, lease: str, token: bytes, slot: str | None = None
    ) -> None:
        await self.set(key, value, ttl_ms)
        self._release(lease, token)
        if slot is not None:
            self._release(slot, token + b"|" + key.encode())

    async def swap(self, key: str, expected: bytes, value: bytes, ttl_ms: int) -> bool:
        if self._live(key) != expected:
            return False
        await self.set(key, value, ttl_ms)
        return True

    # One process: every holder is this process, alive while its lease lasts.
    async def lead(
        self, lease: str, token: bytes, ttl_ms: int, slot: str | None, flight: str, takeover: bool
    ) -> tuple[Lead, bytes | None]:
        if slot is not None:
            held = self._live(slot)
            if held is not None and held.partition(b"|")[2] != flight.encode():
                return "conflict", None
        holder = self._live(lease)
        if holder is not None and holder != token:
            return "follow", holder
        await self.set(lease, token, ttl_ms)
        if slot is not None:
            await self.set(slot, token + b"|" + flight.encode(), ttl_ms)
        return "lead", None

    async def poll(self, result: str, lease: str, holder: bytes) -> tuple[bytes | None, bool]:
        found = self._live(result)
        return found, found is None and self._live(lease) == holder

    async def land(
        self, result: str, value: bytes | None, ttl_ms: int, lease: str, token: bytes, slot: str | None, flight: str
    ) -> None:
        if value is not None:
            await self.set(result, value, ttl_ms)
        self._release(lease, token)
        if slot is not None:
            self._release(slot, token + b"|" + flight.encode())

    async def claim(
        self, record: str, value: bytes, ttl_ms: int, lease: str, token: bytes, lease_ms: int, slot: str
    ) -> tuple[Claim, bytes | None, bool]:
        holder = self._live(lease)
        existing = self._live(record)
        if existing is not None:
            return "exists", existing, holder is not None
        held = self._live(slot)
        if held is not None and held.partition(b"|")[2] != record.encode():
            return "conflict", None, True
        await self.set(record, value, ttl_ms)
        await self.set(lease, token, lease_ms)
        await self.set(slot, token + b"|" + record.encode(), lease_ms)
        return "claimed", None, True

    async def release(self, record: str, lease: str, token: bytes, slot: str | None = None) -> None:
        if self._live(lease) == token:
            await self.delete(record, lease)
        if slot is not None:
            self._release(slot, token + b"|" + record.encode())

    async def hit(self, key: str, window_ms: int) -> tuple[int, int]:
        now = self._clock()
        entry = self._data.get(key)
        if entry is None or entry[1] <= now:
            count, expires = 1, now + window_ms / 1000
        else:
            count, expires = int(entry[0]) + 1, entry[1]
        self._put(key, str(count).encode(), expires)
        return count, int((expires - now) * 1000)

    async def reserve(self, key: str, limit: int, window_ms: int) -> tuple[bool, int]:
        now = self._clock()
        entry = self._data.get(key)
        live = entry is not None and entry[1] > now
        if live and entry is not None and int(entry[0]) >= limit:
            return False, int((entry[1] - now) * 1000)
        _, left_ms = await self.hit(key, window_ms)
        return True, left_ms

    async def give_back(self, key: str) -> None:
        entry = self._data.get(key)
        if entry is not None and entry[1] > self._clock() and int(entry[0]) > 0:
            self._data[key] = (str(int(entry[0]) - 1).encode(), entry[1])

    async def ping(self) -> None:
        return None

    async def delete_prefix(self, prefix: str) -> int:
        doomed = [k for k in self._data if k.startswith(prefix)]
        for key in doomed:
            del self._data[key]
        return len(doomed)

    def expires_in_ms(self, key: str) -> int | None:
        entry = self._data.get(key)
        if entry is None or entry[1] <= self._clock():
            return None
        return int((entry[1] - self._clock()) * 1000)

    def _make_room(self) -> None:
        """Down to 90% of the bound, so the scan is paid once per tenth of it: the expired
        first, then the oldest content copies (a flood of distinct content URLs must not push
        out leases, idempotency records or rate-limit counters), then the oldest of anything."""
        now = self._clock()
        for key in [k for k, (_, expires) in self._data.items() if expires <= now]:
            del self._data[key]
        excess = len(self._data) - int(self._max_entries * 0.9)
        for content_only in (True, False):
            if excess <= 0:
                return
            doomed: list[str] = []
            for key in self._data:
                if len(doomed) >= excess:
                    break
                if not content_only or keys.CACHE in key:
                    doomed.append(key)
            for key in doomed:
                del self._data[key]
            excess -= len(doomed)


class ProcessStore(Store):
    """A Litestar store (the sessions') in the one-process `MemoryShared`, under `namespace`.

    Litestar's `MemoryStore` takes an anyio lock on every read (a trip through the event loop,
    a tenth of a proxied call's CPU) and never drops what nobody reads again; here sessions
    share the bounded store with everything else (expired entries go first when it is full).
    """

    def __init__(self, shared: MemoryShared, namespace: str) -> None:
        self._shared = shared
        self._namespace = namespace

    async def set(self, key: str, value: str | bytes, expires_in: int | timedelta | None = None) -> None:
        seconds = expires_in.total_seconds() if isinstance(expires_in, timedelta) else expires_in
        ttl_ms = int(seconds * 1000) if seconds else FOREVER_MS
        await self._shared.set(self._namespace + key, value.encode() if isinstance(value, str) else value, ttl_ms)

    async def get(self, key: str, renew_for: int | timedelta | None = None) -> bytes | None:
        return await self._shared.get(self._namespace + key)

    async def delete(self, key: str) -> None:
        await self._shared.delete(self._namespace + key)

    async def delete_all(self) -> None:
        await self._shared.delete_prefix(self._namespace)

    async def exists(self, key: str) -> bool:
        return await self._shared.get(self._namespace + key) is not None

    async def expires_in(self, key: str) -> int | None:
        left = self._shared.expires_in_ms(self._namespace + key)
        return None if left is None else left // 1000


FOREVER_MS = 10 * 365 * 24 * 3600 * 1000

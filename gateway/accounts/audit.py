"""The audit trail: who did what to the gateway, from where, when, with what result.

Every entry is also a log line (`audit.<action>`). It is kept across restarts: with Redis in a
stream every instance writes to (`bff:audit`, `XADD MAXLEN ~ 100000`: about the newest 100,000
entries), otherwise in an append-only JSON-lines file (`AUDIT_FILE`, fsync'd per entry). Never
a password, hash, token, cookie or session id in an entry: callers pass names, not secrets.
"""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO, Literal, Protocol, cast, runtime_checkable

import msgspec
import structlog
from redis.asyncio import Redis
from redis.exceptions import RedisError

from gateway.store import Later, StoreUnavailable, hand_back, keys

log = structlog.get_logger("gateway.audit")

Action = Literal[
    "sign-in",
    "sign-in-failed",
    "sign-in-limited",
    "sign-out",
    "token-use",
    "change",
    "rollback",
    "reload",
    "purge",
    "revoke",
    "operators-file-rejected",
    # operators managed from the console or the CLI (`via` "console" or "cli"), and skin limits
    "operator-add",
    "operator-role",
    "operator-skins",
    "operator-disable",
    "operator-enable",
    "operator-password",
    "operator-sessions-ended",
    "operator-link",
    "operator-link-used",
    "operator-remove",
    "operator-token",
    "skin-refused",
]
AuditResult = Literal["ok", "refused", "conflict", "failed"]
CHANGES: frozenset[str] = frozenset({"change", "rollback", "reload", "purge", "revoke"})
"""What every role sees of the trail; the rest (sign-ins, token use, the file) only admins."""
MAX_ENTRIES = 100_000
"""The stream's bound (approximate: Redis trims whole nodes)."""
SCAN_LIMIT = 20_000
"""Entries one page may look through for its filters; past it, `next` says where to go on."""
RETRY_S = 60.0
"""How long an entry the store refused is tried again (its log line is written at once)."""


class AuditEntry(msgspec.Struct, frozen=True):
    action: Action
    who: str
    """An operator's or a token's name; `(unknown)` for a name nobody has."""
    via: str
    """`console` (signed in), `token` (bearer), `file` (the operators file itself), `cli` (the
    operators command on the host: `who` is the host's user)."""
    address: str | None
    outcome: AuditResult
    skin: str | None = None
    target: str | None = None
    """What in the skin: an upstream's name, a player's login."""
    reason: str | None = None
    before: Any = None
    after: Any = None
    detail: Any = None
    at: str | None = None
    """Set by `record`: ISO 8601, UTC, milliseconds."""
    id: str | None = None
    """Set by `record`: `<ms>-<n>`, ordered as the entries were kept (a Redis stream id)."""


@runtime_checkable
class Audit(Protocol):
    async def record(self, entry: AuditEntry) -> None:
        """Keeps `entry` (with its `at` and `id`). Never raises: an entry the store refuses is
        tried again for a while, and its log line, written first, is the record of last resort."""
        ...


@dataclass(frozen=True)
class Query:
    """Which entries, newest first; `before` an id (exclusive), times in epoch milliseconds."""

    actions: frozenset[str] | None = None
    who: str | None = None
    skin: str | None = None
    since_ms: int | None = None
    until_ms: int | None = None
    before: str | None = None
    limit: int = 100

    def admits(self, entry: AuditEntry) -> bool:
        return (
            (self.actions is None or entry.action in self.actions)
            and (self.who is None or entry.who == self.who)
            and (self.skin is None or entry.skin == self.skin)
        )

    def newest(self) -> tuple[int, int] | None:
        """The newest position a page may show (exclusive), from `before` and `until_ms`."""
        bounds = [order(self.before)] if self.before else []
        if self.until_ms is not None:
            bounds.append((self.until_ms + 1, 0))
        return min(bounds) if bounds else None


Page = tuple[list[AuditEntry], str | None]
"""Entries, and the id to pass as `before` for the next page (None: no more)."""


@runtime_checkable
class Trail(Audit, Protocol):
    async def page(self, query: Query) -> Page: ...


def order(entry_id: str) -> tuple[int, int]:
    ms, _, n = entry_id.partition("-")
    return int(ms), int(n or 0)


def _iso(ms: int) -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(ms / 1000)) + f".{ms % 1000:03d}Z"


def _logged(entry: AuditEntry) -> None:
    fields = {k: v for k, v in msgspec.structs.asdict(entry).items() if v is not None and k != "action"}
    log.info("audit." + entry.action, **fields)


class StreamTrail:
    """The trail in a Redis stream: every instance's entries in one order, bounded."""

    def __init__(self, redis: Redis, later: Later, max_entries: int = MAX_ENTRIES) -> None:
        self.redis = redis
        self.later = later
        self.max_entries = max_entries

    async def record(self, entry: AuditEntry) -> None:
        entry = msgspec.structs.replace(entry, at=_iso(time.time_ns() // 1_000_000))
        _logged(entry)
        payload = msgspec.json.encode(entry)
        await hand_back(lambda: self._add(payload), RETRY_S, self.later, "audit.record")

    async def _add(self, payload: bytes) -> None:
        try:
            await self.redis.xadd(keys.AUDIT, {"e": payload}, maxlen=self.max_entries, approximate=True)
        except (RedisError, OSError) as exc:
            raise StoreUnavailable(str(exc)) from exc

    async def page(self, query: Query) -> Page:
        newest = query.newest()
        top = f"({newest[0]}-{newest[1]}" if newest else "+"
        bottom = str(query.since_ms) if query.since_ms is not None else "-"
        found: list[AuditEntry] = []
        scanned = 0
        while scanned < SCAN_LIMIT:
            try:
                batch = cast(
                    "list[tuple[bytes, dict[bytes, bytes]]]",
                    await self.redis.xrevrange(keys.AUDIT, max=top, min=bottom, count=500),
                )
            except (RedisError, OSError) as exc:
                raise StoreUnavailable(str(exc)) from exc
            if not batch:
                return found, None
            for raw_id, fields in batch:
                scanned += 1
                entry = msgspec.json.decode(fields[b"e"], type=AuditEntry)
                entry = msgspec.structs.replace(entry, id=raw_id.decode())
                if query.admits(entry):
                    found.append(entry)
                    if len(found) > query.limit:
                        return found[: query.limit], found[query.limit - 1].id
            top = f"({raw_id.decode()}"
        return found, top[1:]


class FileTrail:
    """The trail in an append-only JSON-lines file, one process writing (no Redis: one instance)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._lock = asyncio.Lock()
        self._last: tuple[int, int] | None = None
        """The newest entry's position (read from the file at the first entry: ids go on after a restart)."""

    async def record(self, entry: AuditEntry) -> None:
        async with self._lock:  # ids in the order the lines are written
            if self._last is None:
                self._last = await asyncio.to_thread(self._newest)
            ms = max(time.time_ns() // 1_000_000, self._last[0])
            self._last = (ms, self._last[1] + 1 if ms == self._last[0] else 0)
            entry = msgspec.structs.replace(entry, at=_iso(ms), id=f"{ms}-{self._last[1]}")
            _logged(entry)
            try:
                await asyncio.to_thread(self._append, msgspec.json.encode(entry) + b"\n")
            except OSError as exc:
                log.error("audit.unrecorded", file=str(self.path), error=exc.strerror, id=entry.id)

    def _append(self, line: bytes) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path, os.O_RDWR | os.O_APPEND | os.O_CREAT, 0o600)
        try:
            size = os.fstat(fd).st_size
            if size and os.pread(fd, 1, size - 1) != b"\n":
                line = b"\n" + line  # after a line a crash cut short
            os.write(fd, line)
            os.fsync(fd)
        finally:
            os.close(fd)

    def _newest(self) -> tuple[int, int]:
        try:
            found, _ = self._page(Query(limit=1))
        except OSError:
            return 0, -1  # unreadable: its writing will fail and say so
        return order(found[0].id) if found and found[0].id else (0, -1)

    async def page(self, query: Query) -> Page:
        try:
            return await asyncio.to_thread(self._page, query)
        except OSError as exc:
            raise StoreUnavailable(f"{self.path}: {exc.strerror}") from exc

    def _page(self, query: Query) -> Page:
        newest = query.newest()
        found: list[AuditEntry] = []
        scanned = 0
        try:
            file = self.path.open("rb")
        except FileNotFoundError:
            return [], None
        with file:
            for line in _backwards(file):
                try:
                    entry = msgspec.json.decode(line, type=AuditEntry)
                except msgspec.DecodeError:
                    continue  # a line torn by a crash mid-write
                position = order(entry.id or "0")
                if newest is not None and position >= newest:
                    continue
                if query.since_ms is not None and position[0] < query.since_ms:
                    return found, None
                scanned += 1
                if query.admits(entry):
                    found.append(entry)
                    if len(found) > query.limit:
                        return found[: query.limit], found[query.limit - 1].id
                if scanned >= SCAN_LIMIT:
                    return found, entry.id
        return found, None


def _backwards(file: BinaryIO, block: int = 64 * 1024) -> Iterator[bytes]:
    """The file's lines, last first, read a block at a time from the end."""
    end = file.seek(0, os.SEEK_END)
    tail = b""
    while end > 0:
        start = max(0, end - block)
        file.seek(start)
        lines = (file.read(end - start) + tail).split(b"\n")
        end = start
        tail = lines.pop(0)  # may begin in the block before
        yield from (line for line in reversed(lines) if line)
    if tail:
        yield tail

"""The audit trail: who did what to the gateway, from where, when, with what result.

Every entry is also a log line (`audit.<action>`). It is kept across restarts: with Redis in a
stream every instance writes to (`bff:audit`, `XADD MAXLEN ~ 100000`: about the newest 100,000
entries), otherwise in an append-only JSON-lines file (`AUDIT_FILE`, fsync'd per entry). Never
a password, hash, token, cookie or session id in an entry: callers pass names, not secrets.
Entries are chained by hash (`gateway.accounts.chain`); `verify()` finds the first broken link.
In the stream the chain's head (`bff:audit:head`) moves by compare-and-set: the entry is hashed
here after the head this instance last saw, and a Lua script appends it only if that is still
the head, else answers the new head and the entry is hashed again (SHA-256 is not in Redis's Lua).
"""

from __future__ import annotations

import asyncio
import hashlib
import random
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, Protocol, cast, get_args, runtime_checkable

import msgspec
import structlog
from redis.asyncio import Redis
from redis.exceptions import RedisError

from gateway.accounts.chain import ChainCheck, Verifier, linked
from gateway.store import Later, StoreUnavailable, hand_back, keys

log = structlog.get_logger("gateway.audit")

# planned ahead (`gateway.maintenance`: maintenance windows, scheduled changes, approvals), and canaries
PlannedAction = Literal["maintenance-set", "maintenance-end", "schedule", "schedule-cancel", "schedule-run"]
ApprovalAction = Literal["approval-asked", "approval-approved", "approval-rejected"]
CanaryAction = Literal[
    "canary-start", "canary-step", "canary-pause", "canary-resume", "canary-promote", "canary-rollback", "canary-abort"
]  # fmt: skip  (`gateway.canary`: an operator's, or the controller's: `system` via `canary`)
Action = Literal[
    # Add an action here (and its label in the console's actions.json): filters and exports follow.
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
    "refused",
    "token-limited",
    "export",
    "trail-imported",
    "trail-altered",
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
    CanaryAction,
    PlannedAction,
    ApprovalAction,
]
AuditResult = Literal["ok", "refused", "conflict", "failed"]
PLANNED = (*get_args(CanaryAction), *get_args(PlannedAction), *get_args(ApprovalAction))
CHANGES: frozenset[str] = frozenset({"change", "rollback", "reload", "purge", "revoke", *PLANNED})
"""What every role sees of the trail; the rest (sign-ins, token use, the file) only admins."""
MAX_ENTRIES = 100_000
"""The stream's bound (approximate: Redis trims whole nodes)."""
SCAN_LIMIT = 20_000
"""Entries one page may look through for its filters; past it, `next` says where to go on."""
RETRY_S = 60.0
"""How long an entry the store refused is tried again (its log line is written at once)."""
ONCE_S = 3600
"""How long one event (`record_once`) is claimed for the cluster: past it, the same again is new."""
ATTEMPTS = 20
"""Appends that may lose the head to another instance in a row before the store is called unavailable."""
# Appends an entry if the chain's head is still the one it was hashed after; else answers the head.
# The head key, when missing (a store restored from an older dump), is read from the newest entry.
# KEYS: stream, head; ARGV: expected head ('' : none), entry, maxlen, entry's hash.
APPEND = (
    "local head = redis.call('get', KEYS[2]) "
    "if not head then head = '' "
    "local last = redis.call('xrevrange', KEYS[1], '+', '-', 'COUNT', 1)[1] "
    "if last then local h = cjson.decode(last[2][2]).hash if type(h) == 'string' then head = h end end end "
    "if head ~= ARGV[1] then return {0, head} end "
    "local id = redis.call('xadd', KEYS[1], 'MAXLEN', '~', ARGV[3], '*', 'e', ARGV[2]) "
    "redis.call('set', KEYS[2], ARGV[4]) "
    "return {1, id}"
)


class AuditEntry(msgspec.Struct, frozen=True):
    action: Action
    who: str
    """An operator's or a token's name; `(unknown)` for a name nobody has."""
    via: str
    """`console` (signed in), `token` (bearer), `file` (the operators file itself), `none` (a
    request refused for bringing no credential), `cli` (the operators command on the host: `who`
    is the host's user)."""
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
    prev: str | None = None
    """Set by `record`: the previous entry's `hash` (None: the first entry)."""
    hash: str | None = None
    """Set by `record`: SHA-256 of this entry without it (`gateway.accounts.chain.digest`)."""


@runtime_checkable
class Audit(Protocol):
    async def record(self, entry: AuditEntry) -> None:
        """Keeps `entry` (with its `at` and `id`). Never raises: an entry the store refuses is
        tried again for a while, and its log line, written first, is the record of last resort."""
        ...

    async def record_once(self, entry: AuditEntry, event: str) -> None:
        """`record`, unless another instance recorded the same `event` (a digest of what
        happened, e.g. of a rejected file's bytes) within `ONCE_S`."""
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
        """Actions exactly; a name and a skin as a part of the entry's, whatever the case."""
        return (
            (self.actions is None or entry.action in self.actions)
            and (self.who is None or self.who.casefold() in entry.who.casefold())
            and (self.skin is None or self.skin.casefold() in (entry.skin or "").casefold())
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

    async def verify(self) -> ChainCheck:
        """Every kept entry's link checked, oldest first: the first broken one, if any."""
        ...


Carry = Callable[[], Awaitable[AuditEntry | None]]
"""Carries another trail into the stream once; the entry that says so, if it did."""


def file_event(path: Path | None, error: str) -> str:
    """What names a file's rejection for `record_once`: the digest of its bytes and the error."""
    try:
        content = path.read_bytes() if path is not None else b""
    except OSError:
        content = b""
    return hashlib.sha256(content + b"\0" + error.encode()).hexdigest()


def order(entry_id: str) -> tuple[int, int]:
    ms, _, n = entry_id.partition("-")
    return int(ms), int(n or 0)


def _iso(ms: int) -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(ms / 1000)) + f".{ms % 1000:03d}Z"


def stamped(entry: AuditEntry, ms: int, entry_id: str | None = None) -> AuditEntry:
    """The entry at `ms`; one that changed skins without naming one (a rollback) names those its
    `detail.changes` touched, so that the skin filter finds it."""
    skin = entry.skin
    changes = entry.detail.get("changes") if isinstance(entry.detail, dict) else None
    if skin is None and isinstance(changes, list):
        touched = sorted({c["skin"] for c in changes if isinstance(c, dict) and isinstance(c.get("skin"), str)})
        skin = ", ".join(touched) or None
    return msgspec.structs.replace(entry, at=_iso(ms), id=entry_id, skin=skin)


def log_entry(entry: AuditEntry) -> None:
    """The entry's log line (`audit.<action>`), without its chain's hashes."""
    fields = {
        k: v for k, v in msgspec.structs.asdict(entry).items() if v is not None and k not in ("action", "prev", "hash")
    }
    log.info("audit." + entry.action, **fields)


def _unavailable(exc: Exception) -> StoreUnavailable:
    return StoreUnavailable(str(exc))


class StreamTrail:
    """The trail in a Redis stream: every instance's entries in one order and one chain, bounded."""

    def __init__(self, redis: Redis, later: Later, max_entries: int = MAX_ENTRIES, carry: Carry | None = None) -> None:
        self.redis = redis
        self.later = later
        self.max_entries = max_entries
        self._carry = carry
        self._carrying = asyncio.Lock()
        self._writing = asyncio.Lock()
        self._append = redis.register_script(APPEND)
        self._head: str | None = None
        """The chain's head as this instance last saw it (its own last entry, usually)."""

    async def record(self, entry: AuditEntry) -> None:
        entry = stamped(entry, time.time_ns() // 1_000_000)
        log_entry(entry)
        await hand_back(lambda: self._add(entry), RETRY_S, self.later, "audit.record")

    async def record_once(self, entry: AuditEntry, event: str) -> None:
        try:
            first = await self.redis.set(keys.audit_claim(event), b"1", nx=True, ex=ONCE_S)
        except (RedisError, OSError):
            first = True  # better twice than never
        if first:
            await self.record(entry)

    async def _carry_over(self) -> None:
        """The file mode's trail carried over (`gateway.accounts.carry_over`) before this instance
        reads or adds an entry; tried again while the store is unavailable."""
        if self._carry is None:
            return
        async with self._carrying:
            if self._carry is None:
                return
            notice = await self._carry()
            self._carry = None
        if notice is not None:
            await self.record(notice)

    async def _add(self, entry: AuditEntry) -> None:
        await self._carry_over()
        async with self._writing:  # one append at a time per instance: only other instances move the head
            await self._append_linked(entry)

    async def _append_linked(self, entry: AuditEntry) -> None:
        prev = self._head
        for attempt in range(ATTEMPTS):
            if attempt:  # lost the head to another instance: a jittered pause, so no writer starves
                await asyncio.sleep(random.uniform(0, 0.002 * attempt))
            chained = linked(entry, prev)
            args: list[bytes | str | int] = [
                prev or "",
                msgspec.json.encode(chained),
                self.max_entries,
                chained.hash or "",
            ]
            try:
                won, value = cast("list[Any]", await self._append(keys=[keys.AUDIT, keys.AUDIT_HEAD], args=args))
            except (RedisError, OSError) as exc:
                raise _unavailable(exc) from exc
            if won:
                self._head = chained.hash
                return
            prev = cast("bytes", value).decode() or None
        raise StoreUnavailable(f"the trail's head moved {ATTEMPTS} times in a row")

    async def page(self, query: Query) -> Page:
        await self._carry_over()
        newest = query.newest()
        top = f"({newest[0]}-{newest[1]}" if newest else "+"
        bottom = str(query.since_ms) if query.since_ms is not None else "-"
        found: list[AuditEntry] = []
        scanned = 0
        while scanned < SCAN_LIMIT:
            batch = await self._range(self.redis.xrevrange(keys.AUDIT, max=top, min=bottom, count=500))
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

    async def verify(self) -> ChainCheck:
        """The stream's entries as kept (`e`, the stream id apart), after reading the head."""
        await self._carry_over()
        verifier = Verifier(True, AuditEntry)
        try:
            head = cast("bytes | None", await self.redis.get(keys.AUDIT_HEAD))
            info = await self.redis.xinfo_stream(keys.AUDIT) if await self.redis.exists(keys.AUDIT) else {}
        except (RedisError, OSError) as exc:
            raise _unavailable(exc) from exc
        deleted = info.get("max-deleted-entry-id", b"0-0")
        if deleted not in (b"0-0", "0-0"):
            verifier.on_delete(deleted.decode() if isinstance(deleted, bytes) else str(deleted))
        bottom = "-"
        while verifier.broken is None:
            batch = await self._range(self.redis.xrange(keys.AUDIT, min=bottom, max="+", count=1000))
            await asyncio.to_thread(_check, verifier, batch)  # hashing 100,000 entries takes ~1.5 s: off the loop
            if len(batch) < 1000:
                break
            bottom = f"({batch[-1][0].decode()}"
        verifier.head(head.decode() if head else None)
        return verifier.verdict()

    async def _range(self, call: Any) -> list[tuple[bytes, dict[bytes, bytes]]]:
        try:
            return cast("list[tuple[bytes, dict[bytes, bytes]]]", await call)
        except (RedisError, OSError) as exc:
            raise _unavailable(exc) from exc


def _check(verifier: Verifier, batch: list[tuple[bytes, dict[bytes, bytes]]]) -> None:
    for raw_id, fields in batch:
        verifier.take(fields[b"e"], raw_id.decode())

"""Moving from file mode to Redis: the file's trail carried into the stream, once.

A gateway with `REDIS_URL` that finds entries in `AUDIT_FILE` checks the file's chain and, if it
holds, adds them to the stream under their own ids in one Lua script, which is the cluster-wide
claim: it runs only while the stream does not exist yet (an instance that started on Redis first,
or a second host with a file of its own, finds it taken and leaves the file alone, logging why),
and it sets the chain's head to the file's, so the stream's chain goes on from the file's. At
most the newest `MAX_ENTRIES` are carried (the stream's bound); the oldest carried then anchors.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Literal, cast

import msgspec
import structlog
from redis.asyncio import Redis
from redis.exceptions import RedisError

from gateway.accounts.audit import MAX_ENTRIES, AuditEntry, StreamTrail, Trail
from gateway.accounts.chain import Break, Verifier
from gateway.accounts.trail_file import FileTrail, lines
from gateway.store import Later, StoreUnavailable, keys

log = structlog.get_logger("gateway.audit")

# KEYS: stream, head; ARGV: the file's head hash ('' : none), its newest id, then id, entry pairs.
CARRY = (
    "if redis.call('exists', KEYS[1]) == 1 then "
    "if #redis.call('xrange', KEYS[1], ARGV[2], ARGV[2]) > 0 then return 'present' end return 'taken' end "
    "for i = 3, #ARGV, 2 do redis.call('xadd', KEYS[1], ARGV[i], 'e', ARGV[i + 1]) end "
    "if ARGV[1] ~= '' then redis.call('set', KEYS[2], ARGV[1]) end "
    "return 'carried'"
)
Outcome = Literal["carried", "present", "taken"]


def read(path: Path) -> tuple[list[tuple[str, bytes]], Break | None, str | None]:
    """The file's entries (id, line as stored), the first broken link if any, the newest hash."""
    verifier = Verifier(False, AuditEntry)
    entries: list[tuple[str, bytes]] = []
    for number, line in lines(path):
        if not verifier.take(line, None, number):
            break
        try:
            entry = msgspec.json.decode(line, type=AuditEntry)
        except msgspec.DecodeError:
            continue  # torn by a crash, and linked over
        if entry.id:
            entries.append((entry.id, line))
    head = verifier.last.hash if verifier.last is not None else None
    return entries, verifier.broken, head


async def carry_over(redis: Redis, path: Path) -> AuditEntry | None:
    """Carries the file's trail into the stream if no instance did; the entry that says so, if carried."""
    try:
        entries, broken, head = await asyncio.to_thread(read, path)
    except OSError as exc:  # the trail goes on in the stream; the file stays for whoever can read it
        log.error("audit.carry_over_refused", file=str(path), problem=exc.strerror)
        return None
    if not entries:
        return None
    if broken is not None:
        log.error("audit.carry_over_refused", file=str(path), problem=broken.problem, at=broken.at, line=broken.line)
        return None
    entries = entries[-MAX_ENTRIES:]
    args: list[str | bytes] = [head or "", entries[-1][0]]
    for entry_id, line in entries:
        args += [entry_id, line]
    try:
        outcome = await redis.eval(CARRY, 2, keys.AUDIT, keys.AUDIT_HEAD, *args)
    except (RedisError, OSError) as exc:
        raise StoreUnavailable(str(exc)) from exc
    said = cast("Outcome", outcome.decode() if isinstance(outcome, bytes) else outcome)
    if said == "taken":
        log.warning("audit.carry_over_refused", file=str(path), problem="the stream holds other entries already")
    if said != "carried":
        return None
    detail = {"file": str(path), "entries": len(entries), "first": entries[0][0], "last": entries[-1][0]}
    return AuditEntry("trail-imported", "(gateway)", "file", None, "ok", detail=detail)


def trail(redis: Redis | None, later: Later, path: Path) -> Trail:
    """The cluster's trail in Redis (the file's carried over first), else the file."""
    if redis is None:
        return FileTrail(path)
    return StreamTrail(redis, later, carry=lambda: carry_over(redis, path))

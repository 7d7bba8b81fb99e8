"""The audit trail in an append-only JSON-lines file (`AUDIT_FILE`; no Redis: one instance).

Each line is an entry's canonical JSON, chained to the line before (`gateway.accounts.chain`).
The file is locked (`flock`) while an entry is chained and written, so that processes sharing
it (a supervisor and its workers) chain one after another; each entry is fsync'd.
"""

from __future__ import annotations

import asyncio
import fcntl
import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO

import msgspec
import structlog

from gateway.accounts.audit import SCAN_LIMIT, AuditEntry, Page, Query, log_entry, order, stamped
from gateway.accounts.chain import ChainCheck, Verifier, linked
from gateway.store import StoreUnavailable

log = structlog.get_logger("gateway.audit")


class FileTrail:
    def __init__(self, path: Path) -> None:
        self.path = path
        self._lock = asyncio.Lock()
        self._head: str | None = None
        """The hash of the entry this process wrote last: the file must still hold it."""
        self._once: set[str] = set()

    async def record(self, entry: AuditEntry) -> None:
        async with self._lock:
            try:
                await asyncio.to_thread(self._append, entry)
            except OSError as exc:
                unkept = stamped(entry, time.time_ns() // 1_000_000)
                log_entry(unkept)
                log.error("audit.unrecorded", file=str(self.path), error=exc.strerror, action=entry.action)

    async def record_once(self, entry: AuditEntry, event: str) -> None:
        if event not in self._once:  # one instance: what it saw is all there is to see
            self._once.add(event)
            await self.record(entry)

    def _append(self, entry: AuditEntry) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path, os.O_RDWR | os.O_APPEND | os.O_CREAT, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)  # released by the close
            last = self._newest()
            ms = time.time_ns() // 1_000_000
            n = 0
            if last is not None and last.id:
                last_ms, last_n = order(last.id)
                ms, n = max(ms, last_ms), last_n + 1 if ms <= last_ms else 0
            kept = linked(stamped(entry, ms, f"{ms}-{n}"), last.hash if last is not None else None)
            log_entry(kept)
            line = msgspec.json.encode(kept) + b"\n"
            size = os.fstat(fd).st_size
            if size and os.pread(fd, 1, size - 1) != b"\n":
                line = b"\n" + line  # after a line a crash cut short
            os.write(fd, line)
            os.fsync(fd)
            self._head = kept.hash
        finally:
            os.close(fd)

    def _newest(self) -> AuditEntry | None:
        found, _ = self._page(Query(limit=1))
        return found[0] if found else None

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

    async def verify(self) -> ChainCheck:
        head = self._head  # before reading: an entry written meanwhile is no truncation
        try:
            verifier = await asyncio.to_thread(verify, self.path)
        except OSError as exc:
            raise StoreUnavailable(f"{self.path}: {exc.strerror}") from exc
        verifier.head(head)
        return verifier.verdict()


def lines(path: Path) -> Iterator[tuple[int, bytes]]:
    """The file's non-empty lines with their numbers (from 1), as stored; none when there is no file."""
    try:
        file = path.open("rb")
    except FileNotFoundError:
        return
    with file:
        for number, line in enumerate(file, 1):
            if line.strip():
                yield number, line.rstrip(b"\n")


def verify(path: Path) -> Verifier:
    """Every line of the file checked, oldest first (a file is never trimmed: its first entry starts the chain)."""
    verifier = Verifier(False, AuditEntry)
    for number, line in lines(path):
        if not verifier.take(line, None, number):
            break
    return verifier


def _backwards(file: BinaryIO, block: int = 64 * 1024) -> Iterator[bytes]:
    """The file's lines, last first, read a block at a time from the end."""
    end = file.seek(0, os.SEEK_END)
    tail = b""
    while end > 0:
        start = max(0, end - block)
        file.seek(start)
        chunk = file.read(end - start) + tail
        parts = chunk.split(b"\n")
        end = start
        tail = parts.pop(0)  # may begin in the block before
        yield from (line for line in reversed(parts) if line)
    if tail:
        yield tail

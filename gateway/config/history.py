"""Every configuration version the gateway ran: who made it, when, why, and what it changed.

A version is the hash of the skins file and the operators' overrides (`version_of`), so going back
to earlier overrides gives the earlier version again; each skin has its own (`skin_versions`), kept
in the entry, which is what a change is checked against. Each entry keeps what is needed to show and
undo it: the overrides, the base URLs every skin's upstreams had (`snapshot`), and the hash of the
file alone (a rollback onto a file that changed since says so).

Kept across restarts: with Redis a stream (`bff:config:history`, bounded) beside the overrides
key, written with them by one script that first checks the overrides are still the ones the
writer saw (the compare-and-set: a writer that lost it reads the overrides again and tries once
more, refused only when a skin it touches moved); otherwise an append-only JSON-lines file,
fsynced per entry.
"""

from __future__ import annotations

import asyncio
import copy
import hashlib
import itertools
import os
import time
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, Protocol

import msgspec
import structlog
from redis.asyncio import Redis

from gateway.store import keys, or_unavailable

Overrides = dict[str, dict[str, str]]
"""skin id -> upstream name -> base URL, and setting (`SETTING` + its name) -> its value."""
Snapshot = dict[str, dict[str, str]]
"""skin id -> upstream name -> the base URL in use, and setting -> its value in use."""
SETTING, SETTINGS, OFF = "features.", ("reality_check_minutes",), "off"
"""A skin's settings sit in its overrides beside its upstreams, as `features.<name>` (no upstream's name) -> text."""
Action = Literal["start", "file", "change", "rollback"]
HISTORY_BOUND = 10_000
"""Entries kept in Redis (years of changes made by hand); the file keeps every one."""

log = structlog.get_logger("gateway.config")


class Change(msgspec.Struct, frozen=True):
    skin: str
    upstream: str
    before: str | None
    after: str | None


class HistoryEntry(msgspec.Struct, kw_only=True):
    version: str
    previous: str | None
    at: float
    who: str
    via: str
    reason: str | None
    action: Action
    changes: list[Change]
    overrides: Overrides
    upstreams: Snapshot
    file: str
    """The hash of the skins file's own content (no overrides)."""
    skins: dict[str, str] = {}
    """Each skin's own version in this one (`skin_versions`; empty in entries made before there were any)."""
    id: str = ""
    """Set by the store: the stream entry's id (`<ms>-<n>`), newest last."""


@dataclass(frozen=True)
class Author:
    """Who asks for a version, how (`console`, `token`; `file`, `start` for the gateway's own), and why."""

    who: str
    via: str
    reason: str | None = None


def entry(
    action: Action,
    author: Author,
    version: str,
    before: tuple[str, Snapshot] | None,
    upstreams: Snapshot,
    overrides: Overrides,
    file: str,
    skins: dict[str, str],
) -> HistoryEntry:
    """A new entry; `before`: the version it follows and that version's upstreams, when known."""
    return HistoryEntry(
        version=version,
        previous=before[0] if before else None,
        at=time.time(),
        who=author.who,
        via=author.via,
        reason=author.reason,
        action=action,
        changes=diff(before[1], upstreams) if before else [],
        overrides=overrides,
        upstreams=upstreams,
        file=file,
        skins=skins,
    )


def version_of(data: Any, overrides: Any) -> str:
    digest = hashlib.sha256(msgspec.json.encode([data, overrides], order="sorted"))
    return digest.hexdigest()[:12]


def skin_versions(data: dict[str, Any], overrides: Overrides) -> dict[str, str]:
    """Each skin's own version: the hash of its part of the file (with the file's settings outside
    any skin) and its overrides, so a change to one skin leaves every other skin's version as it was."""
    shared = {key: value for key, value in data.items() if key != "skins"}
    found = [skin for skin in data.get("skins", []) if isinstance(skin, dict) and isinstance(skin.get("id"), str)]
    return {skin["id"]: version_of([shared, skin], overrides.get(skin["id"], {})) for skin in found}


def moved_skins(entry: HistoryEntry, data: dict[str, Any], now: dict[str, str], skins: list[str]) -> list[str]:
    """Which of `skins` have another version in `now` than in `entry` (an entry made before skins had
    versions of their own is read against `data`, the skins file, when that is the file it was made on)."""
    then = entry.skins
    if not then and entry.file == version_of(data, {}):
        then = skin_versions(data, entry.overrides)
    return [skin for skin in skins if then.get(skin) != now.get(skin)]


def touched_skins(before: Overrides, after: Overrides) -> list[str]:
    """The skins whose overrides differ between two sets of them."""
    return sorted(skin for skin in before.keys() | after.keys() if before.get(skin, {}) != after.get(skin, {}))


def diff(before: Snapshot, after: Snapshot) -> list[Change]:
    """Every upstream whose base URL differs between two snapshots, in skin and name order."""
    changes = []
    for skin in sorted(before.keys() | after.keys()):
        old, new = before.get(skin, {}), after.get(skin, {})
        for name in sorted(old.keys() | new.keys()):
            if old.get(name) != new.get(name):
                changes.append(Change(skin, name, old.get(name), new.get(name)))
    return changes


def is_setting(name: str) -> bool:
    """Whether an override (or a change) names a skin's setting, not one of its upstreams."""
    return name.startswith(SETTING)


def merged(data: Mapping[str, Any], overrides: Mapping[str, Mapping[str, str]]) -> dict[str, Any]:
    """The skins file's `data` with `overrides` written into each skin's `upstreams` and `features`."""
    merged = copy.deepcopy(dict(data))
    known = {skin.get("id"): skin for skin in merged.get("skins", []) if isinstance(skin, dict)}
    for skin_id, named in overrides.items():
        skin = known.get(skin_id, {})  # a skin that left the file: its overrides no longer apply
        for name, value in named.items():  # a setting's text: its number (else as it is, for the validation)
            number = None if value == OFF else float(value) if value.replace(".", "", 1).isdigit() else value
            part, key, put = (
                ("features", name[len(SETTING) :], number) if is_setting(name) else ("upstreams", name, value)
            )
            if isinstance(target := skin.setdefault(part, {}), dict):
                target[key] = put
    return merged


def iso(t: float) -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(t))


def encoded(overrides: Overrides) -> bytes:
    """The overrides as stored: one spelling for one content (the compare-and-set compares bytes)."""
    return msgspec.json.encode(overrides, order="sorted")


_entry = msgspec.json.Decoder(HistoryEntry)
_overrides = msgspec.json.Decoder(Overrides)


class Versions(Protocol):
    """Where the versions (and, shared between instances, the overrides) are kept."""

    shared: bool
    """Other instances write here too (their overrides are taken up before a change)."""

    async def overrides(self) -> Overrides | None:
        """The overrides every instance should run (None: nothing kept yet)."""

    async def commit(self, expected: Overrides, entry: HistoryEntry) -> str | None:
        """Stores `entry` and its overrides, if the overrides are still `expected`; its id, else None."""

    async def note(self, entry: HistoryEntry) -> None:
        """Stores `entry` unless the newest one has its version (every instance reads the same file)."""

    async def newest(self) -> HistoryEntry | None: ...

    async def page(self, limit: int, before: str | None) -> list[HistoryEntry]:
        """Up to `limit` entries older than the one with id `before` (or the newest), newest first."""

    async def find(self, version: str) -> HistoryEntry | None:
        """The newest entry of `version`."""


class FileVersions:
    """One process's versions: in memory, and appended to `path` (when given) as JSON lines."""

    shared = False

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self.entries: list[HistoryEntry] = []
        if path is not None and path.exists():
            for number, line in enumerate(path.read_bytes().splitlines(), 1):
                try:
                    self.entries.append(_entry.decode(line))
                except msgspec.DecodeError:  # a line cut short by a crash: the others stand
                    log.warning("config.history_line_skipped", path=str(path), line=number)
        self._serial = itertools.count()

    async def overrides(self) -> Overrides | None:
        return self.entries[-1].overrides if self.entries else None

    async def commit(self, expected: Overrides, entry: HistoryEntry) -> str | None:
        # One process, and its caller holds the configuration's lock: nobody else writes.
        return await self._append(entry)

    async def note(self, entry: HistoryEntry) -> None:
        if not self.entries or self.entries[-1].version != entry.version:
            await self._append(entry)

    async def newest(self) -> HistoryEntry | None:
        return self.entries[-1] if self.entries else None

    async def page(self, limit: int, before: str | None) -> list[HistoryEntry]:
        older = self.entries
        if before is not None:
            older = [e for e in self.entries if _order(e.id) < _order(before)]
        return older[::-1][:limit]

    async def find(self, version: str) -> HistoryEntry | None:
        return next((e for e in reversed(self.entries) if e.version == version), None)

    async def _append(self, entry: HistoryEntry) -> str:
        last = _order(self.entries[-1].id) if self.entries else (0, 0)
        ms = max(int(entry.at * 1000), last[0])
        entry.id = f"{ms}-{last[1] + 1 if ms == last[0] else 0}"
        if self.path is not None:
            await asyncio.to_thread(_append_line, self.path, msgspec.json.encode(entry) + b"\n")
        self.entries.append(entry)
        return entry.id


def _append_line(path: Path, line: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("ab") as out:
        out.write(line)
        out.flush()
        os.fsync(out.fileno())


def _order(entry_id: str) -> tuple[int, int]:
    ms, _, n = entry_id.partition("-")
    return int(ms), int(n or 0)


# KEYS: overrides, history, versions; ARGV: the overrides the writer saw (as stored; '' : none),
# the new overrides, the entry, its version, the bound, the channel the instances follow.
COMMIT = (
    "local current = redis.call('get', KEYS[1]) or '' "
    "if current ~= ARGV[1] then return false end "
    "redis.call('set', KEYS[1], ARGV[2]) "
    "local id = redis.call('xadd', KEYS[2], 'MAXLEN', '~', ARGV[5], '*', 'v', ARGV[4], 'e', ARGV[3]) "
    "redis.call('hset', KEYS[3], ARGV[4], id) "
    "redis.call('publish', ARGV[6], 'overrides') "
    "return id"
)
# KEYS: history, versions; ARGV: the entry, its version, the bound.
NOTE = (
    "local newest = redis.call('xrevrange', KEYS[1], '+', '-', 'COUNT', 1) "
    "if newest[1] and newest[1][2][2] == ARGV[2] then return false end "
    "local id = redis.call('xadd', KEYS[1], 'MAXLEN', '~', ARGV[3], '*', 'v', ARGV[2], 'e', ARGV[1]) "
    "redis.call('hset', KEYS[2], ARGV[2], id) "
    "return id"
)


class RedisVersions:
    """The cluster's versions, beside the overrides every instance follows."""

    shared = True

    def __init__(self, redis: Redis) -> None:
        self.redis = redis
        self._commit = redis.register_script(COMMIT)
        self._note = redis.register_script(NOTE)

    async def overrides(self) -> Overrides | None:
        raw = await or_unavailable(self.redis.get(keys.CONFIG_OVERRIDES))
        return _overrides.decode(raw) if raw else None

    async def commit(self, expected: Overrides, entry: HistoryEntry) -> str | None:
        raw = await or_unavailable(self.redis.get(keys.CONFIG_OVERRIDES))
        if (_overrides.decode(raw) if raw else {}) != expected:
            return None  # changed since the writer looked (by another instance, or by an older gateway)
        args: list[bytes | str | int] = [
            raw or b"",
            encoded(entry.overrides),
            msgspec.json.encode(entry),
            entry.version,
            HISTORY_BOUND,
            keys.CONFIG_CHANNEL,
        ]
        made = await or_unavailable(
            self._commit(keys=[keys.CONFIG_OVERRIDES, keys.CONFIG_HISTORY, keys.CONFIG_VERSIONS], args=args)
        )
        if made is None:
            return None
        entry.id = made.decode()
        return entry.id

    async def note(self, entry: HistoryEntry) -> None:
        args: list[bytes | str | int] = [msgspec.json.encode(entry), entry.version, HISTORY_BOUND]
        await or_unavailable(self._note(keys=[keys.CONFIG_HISTORY, keys.CONFIG_VERSIONS], args=args))

    async def newest(self) -> HistoryEntry | None:
        found = await self.page(1, None)
        return found[0] if found else None

    async def page(self, limit: int, before: str | None) -> list[HistoryEntry]:
        top = f"({before}" if before is not None else "+"
        return _entries(await or_unavailable(self.redis.xrevrange(keys.CONFIG_HISTORY, top, "-", count=limit)))

    async def find(self, version: str) -> HistoryEntry | None:
        entry_id = await or_unavailable(self.redis.hget(keys.CONFIG_VERSIONS, version))
        if entry_id is None:
            return None
        found = _entries(await or_unavailable(self.redis.xrange(keys.CONFIG_HISTORY, entry_id, entry_id)))
        return found[0] if found else None  # None: trimmed off the stream's end


def _entries(rows: Any) -> list[HistoryEntry]:
    """Stream rows `[(id, {b"v": version, b"e": entry}), ...]` as entries."""
    entries = []
    for entry_id, fields in rows or ():
        entry = _entry.decode(fields[b"e"])
        entry.id = entry_id.decode()
        entries.append(entry)
    return entries

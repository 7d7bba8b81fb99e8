"""Moving from file mode to Redis: the configuration history (`CONFIG_HISTORY_FILE`) carried into
the stream once, and the operators' overrides with it, so that the versions, their rollbacks and
the configuration in force are the same after the move. Only a history of this skins file is
carried (its newest entry ran the file the gateway runs now): another deployment's history, or
one left behind by an older skins file, would bring overrides that were never made for it.

One Lua script is the cluster-wide claim: it adds the file's entries under their own ids (and
the version index) only while the history stream does not exist, and sets the overrides only
where none are kept; an instance that finds the stream there leaves its file alone. Every
instance runs it before its first read or write of the history, so none can start the stream
before the file's entries are in. At most the newest `HISTORY_BOUND` are carried.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path

import msgspec
import structlog
from redis.asyncio import Redis

from gateway.config.history import (
    HISTORY_BOUND,
    FileVersions,
    HistoryEntry,
    Overrides,
    RedisVersions,
    Versions,
    encoded,
)
from gateway.store import keys, or_unavailable

log = structlog.get_logger("gateway.config")

# KEYS: history, versions, overrides; ARGV: the newest overrides ('' : none), then id, version, entry triples.
CARRY = (
    "if redis.call('exists', KEYS[1]) == 1 then return 0 end "
    "for i = 2, #ARGV, 3 do "
    "redis.call('xadd', KEYS[1], ARGV[i], 'v', ARGV[i + 1], 'e', ARGV[i + 2]) "
    "redis.call('hset', KEYS[2], ARGV[i + 1], ARGV[i]) end "
    "if ARGV[1] ~= '' and redis.call('exists', KEYS[3]) == 0 then redis.call('set', KEYS[3], ARGV[1]) end "
    "return 1"
)


async def carry_history(redis: Redis, path: Path, file_now: str) -> int:
    """The file's entries carried into the stream if no instance did and they are the history of
    the skins file whose version is `file_now`: how many (0: none, another file's, or already there)."""
    entries = (await asyncio.to_thread(FileVersions, path)).entries[-HISTORY_BOUND:]
    if not entries:
        return 0
    if entries[-1].file != file_now:
        log.warning("config.history_not_carried", file=str(path), reason="it ran another skins file")
        return 0
    args: list[bytes | str] = [encoded(entries[-1].overrides)]
    for entry in entries:
        args += [entry.id, entry.version, msgspec.json.encode(entry)]
    carried = await or_unavailable(
        redis.eval(CARRY, 3, keys.CONFIG_HISTORY, keys.CONFIG_VERSIONS, keys.CONFIG_OVERRIDES, *args)
    )
    if carried:
        log.info("config.history_carried_over", file=str(path), entries=len(entries))
    return len(entries) if carried else 0


class CarriedVersions(RedisVersions):
    """`RedisVersions` that first carries the file mode's history over (`carry_history`), once."""

    def __init__(self, redis: Redis, path: Path | None, file_now: Callable[[], str]) -> None:
        super().__init__(redis)
        self._path = path
        self._file_now = file_now
        """The version of the skins file the gateway runs (read at the first call, after it loaded)."""
        self._carrying = asyncio.Lock()

    async def _carry(self) -> None:
        if self._path is None:
            return
        async with self._carrying:
            if self._path is not None:
                await carry_history(self.redis, self._path, self._file_now())  # refused by the store: next time
                self._path = None

    async def overrides(self) -> Overrides | None:
        await self._carry()
        return await super().overrides()

    async def commit(self, expected: Overrides, entry: HistoryEntry) -> str | None:
        await self._carry()
        return await super().commit(expected, entry)

    async def note(self, entry: HistoryEntry) -> None:
        await self._carry()
        await super().note(entry)

    async def page(self, limit: int, before: str | None) -> list[HistoryEntry]:
        await self._carry()
        return await super().page(limit, before)

    async def find(self, version: str) -> HistoryEntry | None:
        await self._carry()
        return await super().find(version)


def versions(redis: Redis | None, path: Path | None, file_now: Callable[[], str]) -> Versions:
    """The cluster's history in Redis (the file's carried over first), else the file's."""
    return CarriedVersions(redis, path, file_now) if redis is not None else FileVersions(path)

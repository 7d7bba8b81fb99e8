"""The skins configuration, live: re-read when the file changes or on SIGHUP, changed by
operators (the console, the admin API), and kept the same on every instance through Redis.

A configuration is the skins file (or the built-in skins) plus the operators' upstream overrides.
Each has a version: a hash of both. A new one is validated (and its changed upstreams probed)
before one atomic swap of `LiveConfig.current`; a bad one keeps the last good configuration and is
reported in the log, the metrics and the admin status. Requests take their `Skin` once, at the
start, so a call in flight finishes on the upstream it started on while every later request sees the new one.

An operator's change (`commit`) names the version it was made from: it is refused as a conflict
when a skin it touches moved on meanwhile (each skin has its own version, `history.skin_versions`),
on whichever instance that happened; changes to different skins never conflict. Every version is
kept with who made it and why (`gateway.config.history`). With Redis, the overrides live under one
key, written with their history entry by one compare-and-set script that also announces them on
a channel: each instance re-reads the key (or its file, or purges its local cache) within a second.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any, Literal

import msgspec
import structlog
from redis.asyncio import Redis

from gateway.config import history, skins
from gateway.config.allowed_hosts import AllowedHosts
from gateway.config.history import Action, Author, Change, HistoryEntry, Overrides, Snapshot, Versions
from gateway.config.probe import Probe, Unreachable, probe_origins, said
from gateway.config.skins import Skins, SkinsFileError, changed_upstreams
from gateway.store import StoreUnavailable, keys

SYSTEM = "system"
"""Who made the versions nobody asked for: the file changed, the gateway started."""
ChangeResult = Literal["applied", "unchanged", "rejected"]
"""What became of a configuration change (`gateway.state.outcome.Outcome` is a platform call's)."""
COMMIT_TRIES = 3  # compare-and-set rounds while other skins' changes keep landing first

log = structlog.get_logger("gateway.config")


@dataclass(frozen=True)
class Config:
    skins: Skins
    version: str
    data: dict[str, Any]
    """The skins as read (file or built-in), before overrides."""
    overrides: Overrides

    @property
    def file(self) -> str:
        """The version of the file alone."""
        return history.version_of(self.data, {})

    @cached_property
    def file_bases(self) -> Snapshot:
        """The upstreams the file alone gives (no overrides)."""
        return skins.compose(self.data, {}, "file").bases()

    @property
    def point(self) -> tuple[str, Snapshot]:
        """Its version and upstreams: what a history entry follows."""
        return self.version, self.skins.state()

    def entry(self, action: Action, author: Author, before: tuple[str, Snapshot] | None) -> HistoryEntry:
        skins_now = history.skin_versions(self.data, self.overrides)
        return history.entry(
            action, author, self.version, before, self.skins.state(), self.overrides, self.file, skins_now
        )


@dataclass(frozen=True)
class Result:
    result: ChangeResult
    version: str
    error: str | None = None

    def describe(self) -> dict[str, object]:
        return {"outcome": self.result, "version": self.version, "error": self.error}


@dataclass(frozen=True)
class Commit:
    """What became of an operator's change."""

    result: Literal["applied", "unchanged", "conflict", "invalid", "unreachable"]
    version: str
    """The version running now: the new one once applied."""
    previous: str
    changes: list[Change] = field(default_factory=list)
    error: str | None = None
    unreachable: list[Unreachable] = field(default_factory=list)
    moved: list[str] = field(default_factory=list)
    """A conflict's skins: touched by the change and changed since its base."""


class LiveConfig:
    def __init__(
        self,
        skins_file: Path | None,
        builtin: Callable[[], Skins],
        *,
        probe: Probe | None = None,
        on_swap: Callable[[Config, Config], None] | None = None,
        on_reject: Callable[[str], None] | None = None,
        redis: Redis | None = None,
        on_purge: Callable[[str], Awaitable[None]] | None = None,
        versions: Versions | None = None,
        allowed: AllowedHosts | None = None,
        sandbox_url: str = skins.LOCAL_SANDBOX,
    ) -> None:
        self.skins_file, self.allowed = skins_file, allowed or AllowedHosts()  # the environment's allowed hosts
        self.probe, self.sandbox_url = probe, sandbox_url  # what `{sandbox}` in the skins file stands for
        self.on_swap = on_swap
        self.on_reject = on_reject
        self.redis = redis
        self.on_purge = on_purge
        self.versions: Versions = versions if versions is not None else history.FileVersions(None)
        self.error: str | None = None
        self.error_at: float | None = None
        self.changed_at = time.time()
        self._lock = asyncio.Lock()
        self._stamp: tuple[int, int, int] | None = None
        if skins_file is not None:
            self._stamp = skins.stamp(skins_file)
            data = skins.read(skins_file, sandbox_url)
        else:
            built = builtin()
            data = {"skins": [msgspec.to_builtins(skin) for skin in built.all]}
        # A bad file at start stops the start (SkinsFileError names the field).
        self.current = Config(skins.compose(data, {}, self.source), history.version_of(data, {}), data, {})

    @property
    def source(self) -> str:
        return str(self.skins_file) if self.skins_file is not None else "built-in"

    @property
    def skins(self) -> Skins:
        return self.current.skins

    @property
    def version(self) -> str:
        return self.current.version

    # --- versions ------------------------------------------------------------------

    async def start(self) -> None:
        """Takes up the overrides the cluster (or, alone, the last run) kept, and writes this
        version into the history when it is not the newest there."""
        try:
            async with self._lock:
                kept = await self.versions.overrides()
                if kept is not None and kept != self.current.overrides:
                    await self._apply(self.current.data, kept, "kept overrides", probe=False)
                newest = await self.versions.newest()
                before = (newest.version, newest.upstreams) if newest else None
                await self.versions.note(self.current.entry("start", Author(SYSTEM, "start"), before))
        except StoreUnavailable as exc:  # Redis away at start: `listen` takes the overrides up later
            log.warning("config.history_unavailable", error=str(exc))

    async def commit(
        self,
        change: Callable[[Overrides], Overrides],
        *,
        base: str | None,
        author: Author,
        action: Action = "change",
        probe: bool = True,
    ) -> Commit:
        """Applies `change` to the overrides, on every instance, if no skin it touches changed since
        version `base` (None: whatever it is) and the result is valid and answers."""
        async with self._lock:
            for _ in range(COMMIT_TRIES):
                await self._catch_up()
                current = self.current
                overrides = change(copy.deepcopy(current.overrides))
                moved = await self.moved_skins(base, history.touched_skins(current.overrides, overrides))
                if moved is None or moved:
                    return Commit("conflict", current.version, current.version, moved=moved or [])
                new = await self._check(current.data, overrides, probe)
                if isinstance(new, Commit):
                    return new
                if refused := sorted(set(new.unapplied) - set(current.skins.unapplied)):  # a host not allowed
                    return Commit("invalid", current.version, current.version, error="; ".join(refused))
                after = Config(new, history.version_of(current.data, overrides), current.data, overrides)
                made = after.entry(action, author, current.point)
                if await self.versions.commit(current.overrides, made) is not None:  # else: another came first
                    self._swap(after, f"{action} by {author.who}")
                    return Commit("applied", after.version, current.version, made.changes)
            return Commit("conflict", self.version, self.version)

    async def moved_skins(self, base: str | None, skins: list[str]) -> list[str] | None:
        """Which of `skins` changed since version `base` (None: no such version is known)."""
        current = self.current
        if base is None or base == current.version or not skins:
            return []
        entry = await self.versions.find(base)
        now = history.skin_versions(current.data, current.overrides)
        return None if entry is None else history.moved_skins(entry, current.data, now, skins)

    async def _check(self, data: dict[str, Any], overrides: Overrides, probe: bool) -> Skins | Commit:
        """The skins of `data` and `overrides`, validated (and their new upstreams probed), or why
        they cannot replace the running ones."""
        version, running = history.version_of(data, overrides), self.version
        if version == running:
            return Commit("unchanged", version, version)
        try:
            new = skins.compose(data, overrides, self.source, self.allowed)
        except SkinsFileError as exc:
            return Commit("invalid", running, running, error=str(exc))
        if probe and self.probe is not None:
            unreachable = await probe_origins(self.probe, changed_upstreams(self.skins, new))
            if unreachable:
                return Commit("unreachable", running, running, error=said(unreachable), unreachable=unreachable)
        return new

    async def _catch_up(self) -> None:
        """The overrides another instance may just have set, before comparing versions."""
        if self.versions.shared:
            kept = await self.versions.overrides()
            if (kept or {}) != self.current.overrides:
                await self._apply(self.current.data, kept or {}, "admin (another instance)", probe=False)

    # --- changes -------------------------------------------------------------------

    async def reload(self, reason: str, author: Author | None = None) -> Result:
        """Re-reads the skins file (the built-in skins never change)."""
        if self.skins_file is None:
            return Result("unchanged", self.version)
        async with self._lock:
            self._stamp = skins.stamp(self.skins_file)
            try:
                data = skins.read(self.skins_file, self.sandbox_url)
            except SkinsFileError as exc:
                return self._reject(str(exc), reason)
            before = self.current
            result = await self._apply(data, self.current.overrides, reason, probe=True)
            if result.result == "applied":
                with contextlib.suppress(StoreUnavailable):  # the history misses it; the change stands
                    made_by = author or Author(SYSTEM, "file", reason)
                    await self.versions.note(self.current.entry("file", made_by, before.point))
            return result

    async def broadcast_reload(self, author: Author) -> Result:
        result = await self.reload(author.reason or "admin", author)
        await self._announce("reload")
        return result

    async def broadcast_purge(self, skin_id: str) -> None:
        await self._announce("purge", skin_id.encode())

    async def _apply(self, data: dict[str, Any], overrides: Overrides, reason: str, *, probe: bool) -> Result:
        new = await self._check(data, overrides, probe)
        if isinstance(new, Commit):
            if new.result == "unchanged":
                self.error = "; ".join(self.current.skins.unapplied) or None
                return Result("unchanged", new.version)
            return self._reject(new.error or new.result, reason)
        version = history.version_of(data, overrides)
        self._swap(Config(new, version, data, overrides), reason)
        return Result("applied", version)

    def _swap(self, new: Config, reason: str) -> None:
        old, self.current, self.changed_at = self.current, new, time.time()
        self.error = "; ".join(new.skins.unapplied) or None  # an override whose host is not allowed
        self.error_at = self.changed_at if self.error else None
        changed = [f"{s}.{n}={u}" for s, n, u in changed_upstreams(old.skins, new.skins)]
        log.info("config.applied", reason=reason, version=new.version, previous=old.version, changed=changed)
        if self.error:
            log.error("config.override_not_applied", reason=reason, error=self.error, version=new.version)
        if self.on_swap is not None:
            self.on_swap(old, new)

    def _reject(self, error: str, reason: str) -> Result:
        self.error, self.error_at = error, time.time()
        log.error("config.rejected", reason=reason, error=error, kept=self.version)
        if self.on_reject is not None:
            self.on_reject(error)
        return Result("rejected", self.version, error)

    # --- watching ------------------------------------------------------------------

    async def watch(self, every_s: float) -> None:
        """Polls the file's stat: cheap, and unlike inotify it follows the symlink swap
        Kubernetes does when a ConfigMap changes."""
        if self.skins_file is None:
            return
        while True:
            await asyncio.sleep(every_s)
            if skins.stamp(self.skins_file) != self._stamp:
                await self.reload("file changed")

    async def listen(self) -> None:
        """Follows the other instances' changes (Redis pub/sub), reconnecting as needed."""
        if self.redis is None:
            return
        while True:
            try:
                await self._sync_overrides()
                pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
                async with pubsub:
                    await pubsub.subscribe(keys.CONFIG_CHANNEL)
                    while True:
                        message = await pubsub.get_message(timeout=1.0)
                        if message is not None:
                            await self._on_message(bytes(message["data"]))
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # Redis away: keep the configuration, try again
                log.warning("config.sync_lost", error=type(exc).__name__)
                await asyncio.sleep(1.0)

    async def _on_message(self, raw: bytes) -> None:
        kind, _, payload = raw.partition(b" ")
        if kind == b"overrides":
            await self._sync_overrides()
        elif kind == b"reload":
            await self.reload("admin (another instance)")
        elif kind == b"purge" and self.on_purge is not None:
            await self.on_purge(payload.decode())

    async def _sync_overrides(self) -> None:
        async with self._lock:
            await self._catch_up()

    async def _announce(self, kind: str, payload: bytes = b"") -> None:
        if self.redis is None:
            return
        try:
            await self.redis.publish(keys.CONFIG_CHANNEL, kind.encode() + (b" " + payload if kind == "purge" else b""))
        except Exception as exc:
            log.error("config.announce_failed", kind=kind, error=type(exc).__name__)

    def describe(self) -> dict[str, object]:
        return {
            "version": self.version,
            "source": self.source,
            "changedAt": history.iso(self.changed_at),
            "error": self.error,
            "errorAt": history.iso(self.error_at) if self.error_at else None,
            "overrides": self.current.overrides,
        }

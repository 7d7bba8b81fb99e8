"""The skins configuration, live: re-read when the file changes or on SIGHUP, changed by
the admin API, and kept the same on every instance through Redis.

A configuration is the skins file (or the built-in skins) plus the operators' upstream
overrides. Each has a version: a hash of both. A new one is validated (and its changed
upstreams probed) before one atomic swap of `LiveConfig.current`; a bad one keeps the last
good configuration and is reported in the log, the metrics and the admin status.
Requests take their `Skin` once, at the start, so a call in flight finishes on the
upstream it started on while every later request sees the new one.

With Redis, the overrides live under one key and every change is announced on a channel:
each instance re-reads the key (or its file, or purges its local cache) within a second.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import hashlib
import time
import tomllib
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import msgspec
import structlog
from redis.asyncio import Redis

from contracts.catalogue import Upstream
from gateway.config import skins
from gateway.config.skins import Skins, SkinsFileError
from gateway.shared import keys

UPSTREAM_NAMES: tuple[Upstream, ...] = ("api", "capi", "sbapi", "rest")
Outcome = Literal["applied", "unchanged", "rejected"]
Probe = Callable[[str], Awaitable[tuple[bool, Any]]]
Overrides = dict[str, dict[str, str]]
"""skin id -> upstream name -> base URL."""

log = structlog.get_logger("gateway.config")


@dataclass(frozen=True)
class Config:
    skins: Skins
    version: str
    data: dict[str, Any]
    """The skins as read (file or built-in), before overrides."""
    overrides: Overrides


@dataclass(frozen=True)
class Result:
    outcome: Outcome
    version: str
    error: str | None = None

    def describe(self) -> dict[str, object]:
        return {"outcome": self.outcome, "version": self.version, "error": self.error}


def version_of(data: dict[str, Any], overrides: Overrides) -> str:
    digest = hashlib.sha256(msgspec.json.encode([data, overrides], order="sorted"))
    return digest.hexdigest()[:12]


def compose(data: dict[str, Any], overrides: Overrides, source: str) -> Skins:
    """The skins of `data` with the overrides applied, validated as a whole."""
    merged = copy.deepcopy(data)
    known = {skin.get("id"): skin for skin in merged.get("skins", []) if isinstance(skin, dict)}
    for skin_id, upstreams in overrides.items():
        skin = known.get(skin_id)
        if skin is None:
            continue  # the skin left the file: its override no longer applies
        target = skin.setdefault("upstreams", {})
        if isinstance(target, dict):
            target.update(upstreams)
    return skins.parse(merged, source)


def _origin(url: str) -> str:
    scheme, _, rest = url.partition("://")
    return f"{scheme}://{rest.split('/', 1)[0]}"


def changed_upstreams(old: Skins, new: Skins) -> list[tuple[str, str, str]]:
    """(skin id, upstream name, new base URL) for every base URL that is new or different."""
    before = {skin.id: skin for skin in old.all}
    changes: list[tuple[str, str, str]] = []
    for skin in new.all:
        previous = before.get(skin.id)
        for name in UPSTREAM_NAMES:
            url = skin.upstreams.base(name)
            if previous is None or previous.upstreams.base(name) != url:
                changes.append((skin.id, name, url))
        if skin.sports_feed and (previous is None or previous.sports_feed != skin.sports_feed):
            changes.append((skin.id, "sports_feed", skin.sports_feed.rstrip("/")))
    return changes


class LiveConfig:
    def __init__(
        self,
        skins_file: Path | None,
        builtin: Callable[[], Skins],
        *,
        probe: Probe | None = None,
        on_swap: Callable[[Config, Config], None] | None = None,
        redis: Redis | None = None,
        on_purge: Callable[[str], Awaitable[None]] | None = None,
    ) -> None:
        self.skins_file = skins_file
        self.probe = probe
        self.on_swap = on_swap
        self.redis = redis
        self.on_purge = on_purge
        self.error: str | None = None
        self.error_at: float | None = None
        self.changed_at = time.time()
        self._lock = asyncio.Lock()
        self._stamp: tuple[int, int, int] | None = None
        if skins_file is not None:
            self._stamp = _stamp(skins_file)
            data = _read(skins_file)
        else:
            built = builtin()
            data = {"skins": [msgspec.to_builtins(skin) for skin in built.all]}
        # A bad file at start stops the start (SkinsFileError names the field).
        self.current = Config(compose(data, {}, self.source), version_of(data, {}), data, {})

    @property
    def source(self) -> str:
        return str(self.skins_file) if self.skins_file is not None else "built-in"

    @property
    def skins(self) -> Skins:
        return self.current.skins

    @property
    def version(self) -> str:
        return self.current.version

    # --- changes -------------------------------------------------------------------

    async def reload(self, reason: str) -> Result:
        """Re-reads the skins file (the built-in skins never change)."""
        if self.skins_file is None:
            return Result("unchanged", self.version)
        async with self._lock:
            self._stamp = _stamp(self.skins_file)
            try:
                data = _read(self.skins_file)
            except SkinsFileError as exc:
                return self._reject(str(exc), reason)
            return await self._apply(data, self.current.overrides, reason, probe=True)

    async def set_upstream(self, skin_id: str, name: str, url: str | None, *, probe: bool = True) -> Result:
        """Points one skin's upstream at `url` (None: back to the file's value), on every instance."""
        async with self._lock:
            overrides = copy.deepcopy(self.current.overrides)
            if url is None:
                overrides.get(skin_id, {}).pop(name, None)
                if not overrides.get(skin_id):
                    overrides.pop(skin_id, None)
            else:
                overrides.setdefault(skin_id, {})[name] = url
            result = await self._apply(self.current.data, overrides, f"admin: {skin_id}.{name}", probe=probe)
        if result.outcome == "applied":
            await self._announce("overrides", msgspec.json.encode(overrides))
        return result

    async def broadcast_reload(self) -> Result:
        result = await self.reload("admin")
        await self._announce("reload")
        return result

    async def broadcast_purge(self, skin_id: str) -> None:
        await self._announce("purge", skin_id.encode())

    async def _apply(self, data: dict[str, Any], overrides: Overrides, reason: str, *, probe: bool) -> Result:
        version = version_of(data, overrides)
        if version == self.version:
            self.error = None
            return Result("unchanged", version)
        try:
            new = compose(data, overrides, self.source)
        except SkinsFileError as exc:
            return self._reject(str(exc), reason)
        if probe and self.probe is not None:
            failures = await self._probe(changed_upstreams(self.skins, new))
            if failures:
                return self._reject("; ".join(failures), reason)
        old, self.current = self.current, Config(new, version, data, overrides)
        self.error, self.error_at, self.changed_at = None, None, time.time()
        log.info("config.applied", reason=reason, version=version, previous=old.version,
                 changed=[f"{s}.{n}={u}" for s, n, u in changed_upstreams(old.skins, new)])  # fmt: skip
        if self.on_swap is not None:
            self.on_swap(old, self.current)
        return Result("applied", version)

    async def _probe(self, changes: list[tuple[str, str, str]]) -> list[str]:
        assert self.probe is not None
        origins = sorted({_origin(url) for _, _, url in changes})
        answers = await asyncio.gather(*(self.probe(origin) for origin in origins))
        down = {origin: detail for origin, (ok, detail) in zip(origins, answers, strict=True) if not ok}
        return [f"skins[{s}].upstreams.{n}: {u} does not answer ({down[_origin(u)]})"
                for s, n, u in changes if _origin(u) in down]  # fmt: skip

    def _reject(self, error: str, reason: str) -> Result:
        self.error, self.error_at = error, time.time()
        log.error("config.rejected", reason=reason, error=error, kept=self.version)
        return Result("rejected", self.version, error)

    # --- watching ------------------------------------------------------------------

    async def watch(self, every_s: float) -> None:
        """Polls the file's stat: cheap, and unlike inotify it follows the symlink swap
        Kubernetes does when a ConfigMap changes."""
        if self.skins_file is None:
            return
        while True:
            await asyncio.sleep(every_s)
            if _stamp(self.skins_file) != self._stamp:
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
        assert self.redis is not None
        raw = await self.redis.get(keys.CONFIG_OVERRIDES)
        overrides: Overrides = msgspec.json.decode(raw, type=Overrides) if raw else {}
        if overrides != self.current.overrides:
            async with self._lock:
                await self._apply(self.current.data, overrides, "admin (another instance)", probe=False)

    async def _announce(self, kind: str, payload: bytes = b"") -> None:
        if self.redis is None:
            return
        try:
            if kind == "overrides":
                await self.redis.set(keys.CONFIG_OVERRIDES, payload)
            await self.redis.publish(keys.CONFIG_CHANNEL, kind.encode() + (b" " + payload if kind == "purge" else b""))
        except Exception as exc:
            log.error("config.announce_failed", kind=kind, error=type(exc).__name__)

    def describe(self) -> dict[str, object]:
        return {
            "version": self.version,
            "source": self.source,
            "changedAt": _iso(self.changed_at),
            "error": self.error,
            "errorAt": _iso(self.error_at) if self.error_at else None,
            "overrides": self.current.overrides,
        }


def _iso(t: float) -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(t))


def _stamp(path: Path) -> tuple[int, int, int] | None:
    with contextlib.suppress(OSError):
        st = path.stat()
        return st.st_ino, st.st_mtime_ns, st.st_size
    return None


def _read(path: Path) -> dict[str, Any]:
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise SkinsFileError(f"{path}: cannot read ({exc.strerror})") from None
    try:
        return tomllib.loads(raw.decode())
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise SkinsFileError(f"{path}: not valid TOML ({exc})") from None

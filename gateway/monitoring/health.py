"""Whether this instance can serve: readiness for balancers (`/bff/ready`), the admin status, and
each upstream's last probe for the console's overview and `/metrics`."""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from typing import Any

from gateway.config.live import LiveConfig
from gateway.runtime.lifecycle import Lifecycle
from gateway.shared.session import Sessions
from gateway.store import Shared, StoreUnavailable
from gateway.upstream.pools import UpstreamClients


@dataclass(frozen=True)
class Probe:
    up: bool
    detail: Any
    """The HTTP status it answered, or why it did not (an exception's name)."""
    latency_ms: float
    checked_at: float


@dataclass
class Health:
    lifecycle: Lifecycle
    shared: Shared
    sessions: Sessions
    config: LiveConfig
    clients: UpstreamClients
    _probes: dict[str, Probe] = field(default_factory=dict)
    _probing: asyncio.Future[None] | None = None

    async def store(self) -> str | None:
        """None when the store answers (reads and writes), else why not."""
        try:
            await self.shared.ping()
            await self.sessions.store.set("ready-probe", b"1", expires_in=5)
        except StoreUnavailable as exc:
            return f"unavailable ({exc})"
        return None

    async def upstreams(self) -> list[tuple[str, bool, Any]]:
        """Each upstream origin of the skins, probed now: (origin, answers, detail)."""
        probes = await self.probed(max_age_s=0.0)
        return [(origin, probe.up, probe.detail) for origin, probe in sorted(probes.items())]

    async def probed(self, max_age_s: float) -> dict[str, Probe]:
        """Each upstream origin's last probe, made again when older than `max_age_s` (the
        overview's refreshes and Prometheus's scrapes: those at once share one round)."""
        origins = self.config.skins.upstream_origins()
        oldest = time.time() - max_age_s
        if any(o not in self._probes or self._probes[o].checked_at < oldest for o in origins):
            if self._probing is None or self._probing.done():
                self._probing = asyncio.ensure_future(self._probe(sorted(origins)))
            await asyncio.shield(self._probing)
        return {o: self._probes[o] for o in origins if o in self._probes}

    async def _probe(self, origins: list[str]) -> None:
        async def one(origin: str) -> None:
            started = time.perf_counter()
            up, detail = await self.clients.reachable(origin)
            latency = round((time.perf_counter() - started) * 1000, 1)
            self._probes[origin] = Probe(up, detail, latency, time.time())

        await asyncio.gather(*(one(origin) for origin in origins))
        for gone in self._probes.keys() - set(origins):
            del self._probes[gone]

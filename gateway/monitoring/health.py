"""Whether this instance can serve: readiness for balancers (`/bff/ready`), the admin status, and
each skin's upstreams' health for the console's overview and `/metrics`.

Readiness asks only that each upstream origin answers HTTP (`UpstreamClients.reachable`): a
balancer that took every instance out because the platform's content broke its contract would
turn one broken call into an outage. The overview's health asks more: each skin's upstream is
checked the way the skins file says (`[skins.health]`), by default with one documented call held
to its contract (`gateway.config.conformity.healthy`), so a base URL answering 404 or an HTML page
is down, with why.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from typing import Any

from contracts.catalogue import UPSTREAMS, Upstream
from gateway.config.conformity import client, healthy
from gateway.config.health_checks import HealthCheck
from gateway.config.live import LiveConfig
from gateway.config.skins import Skin
from gateway.runtime.lifecycle import Lifecycle
from gateway.state.session import Sessions
from gateway.store import Shared, StoreUnavailable
from gateway.upstream.pools import UpstreamClients

CHECK_WITHIN_S = 2.0
"""Each health check's call, at most (the overview waits for the round)."""
Target = tuple[str, str, HealthCheck | None, Upstream]
"""(base URL, site id, the configured check, upstream): skins that share all four share one check."""


@dataclass(frozen=True)
class Probe:
    up: bool
    detail: str
    """What it answered (`HTTP 200 (headerLinks)`), or why it is down (`headerLinks: HTTP 404 (text/html)`)."""
    latency_ms: float
    checked_at: float


@dataclass
class Health:
    lifecycle: Lifecycle
    shared: Shared
    sessions: Sessions
    config: LiveConfig
    clients: UpstreamClients
    _probes: dict[Target, Probe] = field(default_factory=dict)
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
        """Each upstream origin of the skins, asked now whether it answers HTTP: (origin, answers, detail)."""
        origins = sorted(self.config.skins.upstream_origins())
        answers = await asyncio.gather(*(self.clients.reachable(origin) for origin in origins))
        return [(origin, up, detail) for origin, (up, detail) in zip(origins, answers, strict=True)]

    async def probe_stale(self, max_age_s: float) -> dict[tuple[str, str], Probe]:
        """Each skin's upstreams' last health check, `(skin id, upstream)` -> probe, made again when
        older than `max_age_s` (the overview's refreshes and Prometheus's scrapes: those at once
        share one round)."""
        wanted = self._targets()
        oldest = time.time() - max_age_s
        if any(t not in self._probes or self._probes[t].checked_at < oldest for t in wanted.values()):
            if self._probing is None or self._probing.done():
                self._probing = asyncio.ensure_future(self._probe(set(wanted.values())))
            await asyncio.shield(self._probing)
        return {key: self._probes[t] for key, t in wanted.items() if t in self._probes}

    def known(self) -> dict[tuple[str, str], Probe]:
        """Each skin's upstreams' last health check, however old, without checking again."""
        wanted = self._targets()
        return {key: self._probes[t] for key, t in wanted.items() if t in self._probes}

    def _targets(self) -> dict[tuple[str, str], Target]:
        return {(skin.id, name): target(skin, name) for skin in self.config.skins.all for name in UPSTREAMS}

    async def _probe(self, targets: set[Target]) -> None:
        async with client(CHECK_WITHIN_S) as http:

            async def one(target: Target) -> None:
                base, site_id, check, upstream = target
                started = time.perf_counter()
                called = await healthy(http, base, upstream, site_id, check, CHECK_WITHIN_S)
                latency = round((time.perf_counter() - started) * 1000, 1)
                detail = f"HTTP {called.status} ({called.name})" if called.ok else f"{called.name}: {called.why}"
                self._probes[target] = Probe(called.ok, detail, latency, time.time())

            await asyncio.gather(*(one(target) for target in targets))
        for gone in self._probes.keys() - targets:
            del self._probes[gone]


def target(skin: Skin, upstream: Upstream) -> Target:
    return skin.upstreams.base(upstream), skin.site_id, skin.health.of(upstream), upstream

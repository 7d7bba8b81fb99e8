"""Whether this instance can serve: readiness for balancers (`/bff/ready`) and the admin status."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any

from gateway.config.live import LiveConfig
from gateway.operations.lifecycle import Lifecycle
from gateway.shared.session import Sessions
from gateway.shared.store import Shared, StoreUnavailable
from gateway.upstream.pools import UpstreamClients


@dataclass
class Health:
    lifecycle: Lifecycle
    shared: Shared
    sessions: Sessions
    config: LiveConfig
    clients: UpstreamClients

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
        origins = sorted(self.config.skins.upstream_origins())
        answers = await asyncio.gather(*(self.clients.reachable(origin) for origin in origins))
        return [(origin, ok, detail) for origin, (ok, detail) in zip(origins, answers, strict=True)]

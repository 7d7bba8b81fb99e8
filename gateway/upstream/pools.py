"""Upstream connections: one pool per upstream origin (`gateway.upstream.transport`), opened lazily and
retired when no skin uses its origin any more."""

from __future__ import annotations

import asyncio
import ssl
from collections.abc import Callable, Iterable
from typing import Any

from gateway.upstream.transport import Pool, Timeouts

MAX_CONNECTIONS = 256
"""Per origin; calls beyond them wait their turn (up to the connect timeout)."""
KEEPALIVE_S = 30.0
"""An idle connection is closed after this long."""


class UpstreamClients:
    """Connection pools keyed by origin (`scheme://host:port`)."""

    def __init__(
        self,
        max_connections: int = MAX_CONNECTIONS,
        keepalive_s: float = KEEPALIVE_S,
        ssl_context: ssl.SSLContext | None = None,
    ) -> None:
        self.max_connections = max_connections
        self.keepalive_s = keepalive_s
        self.ssl_context = ssl_context or ssl.create_default_context()
        """What `https` origins are verified against (`config.trust`); the console's probe uses it too."""
        self._pools: dict[str, Pool] = {}

    def open(self, origins: Iterable[str]) -> None:
        for origin in origins:
            self.upstream(origin)

    def upstream(self, origin: str) -> Pool:
        found = self._pools.get(origin)
        if found is None:
            found = self._pools[origin] = Pool(origin, self.max_connections, self.keepalive_s, self.ssl_context)
        return found

    async def retire(self, in_use: Callable[[], set[str]], after_s: float) -> None:
        """Closes, once calls started before a configuration change have had `after_s` to
        finish, the connections to origins no skin uses any more."""
        await asyncio.sleep(after_s)
        keep = in_use()
        for origin in [o for o in self._pools if o not in keep]:
            await self._pools.pop(origin).aclose()

    async def aclose(self) -> None:
        pools, self._pools = self._pools, {}
        for pool in pools.values():
            await pool.aclose()

    def origins(self) -> list[str]:
        return sorted(self._pools)

    async def reachable(self, origin: str, within: float = 1.0) -> tuple[bool, Any]:
        """Any HTTP answer from the origin counts: it is up and speaking HTTP."""
        try:
            async with asyncio.timeout(within):
                answer = await self.upstream(origin).request("GET", "/", {}, None, Timeouts(within, within))
        except Exception as exc:  # a health probe reports any failure, it never raises
            return False, type(exc).__name__
        return True, answer.status

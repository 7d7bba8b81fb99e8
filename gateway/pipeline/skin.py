"""1. skin: the `Host` header picks the white-label site; unknown hosts are 404."""

from __future__ import annotations

from dataclasses import dataclass

from gateway.config.live import LiveConfig
from gateway.http.asgi import Outgoing
from gateway.http.errors import error
from gateway.pipeline.exchange import Exchange


@dataclass
class SkinStage:
    config: LiveConfig

    async def run(self, x: Exchange) -> Outgoing | None:
        # Taken once per request: a call in flight keeps its upstream through a live swap.
        skin = self.config.skins.for_host(x.incoming.headers.get("host"))
        if skin is None:
            return error(404, "UNKNOWN_SITE", "This site is not configured here", x.ctx)
        x.skin = skin
        x.ctx.skin = skin.id
        return None

"""1. skin: the `Host` header picks the white-label site; unknown hosts are 404."""

from __future__ import annotations

from gateway.asgi import Outgoing
from gateway.errors import error
from gateway.live import LiveConfig
from gateway.pipeline.exchange import Exchange


class SkinStage:
    def __init__(self, config: LiveConfig) -> None:
        self.config = config

    async def run(self, x: Exchange) -> Outgoing | None:
        # Taken once per request: a call in flight keeps its upstream through a live swap.
        skin = self.config.skins.for_host(x.incoming.headers.get("host"))
        if skin is None:
            return error(404, "UNKNOWN_SITE", "This site is not configured here", x.ctx)
        x.skin = skin
        x.ctx.skin = skin.id
        return None

"""3. session: the browser's opaque cookie -> the player's server-side session. Content is
anonymous and reads none."""

from __future__ import annotations

from dataclasses import dataclass

from gateway.http.asgi import Outgoing
from gateway.http.errors import store_unavailable
from gateway.pipeline.exchange import Exchange
from gateway.state.session import Sessions
from gateway.store import StoreUnavailable


@dataclass
class SessionStage:
    sessions: Sessions
    cookie: str

    async def run(self, x: Exchange) -> Outgoing | None:
        skin, route = x.site()
        if route.policy == "content":
            return None
        try:
            x.session = await self.sessions.load(skin.id, x.incoming.cookie(self.cookie))
        except StoreUnavailable:
            return store_unavailable(x.ctx)
        return None

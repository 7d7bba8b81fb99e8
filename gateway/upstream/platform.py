"""The platform as the gateway's own endpoints (`/bff/*`) ask it: one call with the player's
session, the same headers, attempts, breaker and deadline as a proxied call, but never joined to
another and without touching the session beyond the platform's cookies for it."""

from __future__ import annotations

from dataclasses import dataclass

from contracts.catalogue import ROUTES_BY_NAME
from gateway.config.skins import Skin
from gateway.http.asgi import Incoming, RequestContext
from gateway.pipeline.attempts import Attempts
from gateway.pipeline.exchange import Exchange
from gateway.pipeline.forward import Forward
from gateway.shared.session import Session
from gateway.upstream.outcome import Outcome


@dataclass
class Platform:
    forward: Forward
    attempts: Attempts

    async def ask(
        self, incoming: Incoming, ctx: RequestContext, skin: Skin, route: str, session: Session, body: bytes
    ) -> Outcome:
        x = Exchange(incoming, ctx, skin=skin, route=ROUTES_BY_NAME[route], session=session, body=body)
        return await self.attempts.call(x, self.forward.prepare(x))

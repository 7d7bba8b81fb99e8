"""The platform as the gateway's own endpoints (`/bff/*`) ask it: one call with the player's
session, the same headers, attempts, breaker and deadline as a proxied call, but never joined to
another and without touching the session beyond the platform's cookies for it."""

from __future__ import annotations

from dataclasses import dataclass

from contracts.catalogue import Route
from gateway.config.skins import Skin
from gateway.http.asgi import Incoming, RequestContext
from gateway.shared.outcome import Outcome
from gateway.shared.session import Session
from gateway.upstream.call import Calls
from gateway.upstream.caller import Caller


@dataclass
class Platform:
    calls: Calls
    caller: Caller

    async def ask(
        self, incoming: Incoming, ctx: RequestContext, skin: Skin, route: Route, session: Session, body: bytes
    ) -> Outcome:
        if not route.gateway_reads:  # a reader the catalogue does not know of: say so in its entry
            raise ValueError(f"{route.name} is read by the gateway: its catalogue entry must say gateway_reads")
        return await self.caller.run(self.calls.build(incoming, ctx, skin, route, session, body=body))

"""The platform as the gateway's own endpoints (`/bff/*`) ask it: one call with the player's
session, the same headers, attempts, breaker and deadline as a proxied call, but never joined to
another and without touching the session beyond the platform's cookies for it. A player's call
goes to the side of a canary their session is on (`sides`: `gateway.canary.routing`)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from contracts.catalogue import Route, Upstream
from gateway.config.skins import Skin
from gateway.http.asgi import Incoming, RequestContext
from gateway.state.outcome import Outcome
from gateway.state.session import Session
from gateway.upstream.call import Calls
from gateway.upstream.caller import Caller

Sides = Callable[[Skin, Session, Upstream, RequestContext], Skin]
"""The skin as a session's calls see it: a canary's side's base URL in place of the skin's (and
the side noted on the call's context)."""


@dataclass
class Platform:
    calls: Calls
    caller: Caller
    sides: Sides | None = None

    async def ask(
        self, incoming: Incoming, ctx: RequestContext, skin: Skin, route: Route, session: Session, body: bytes
    ) -> Outcome:
        if not route.gateway_reads:  # a reader the catalogue does not know of: say so in its entry
            raise ValueError(f"{route.name} is read by the gateway: its catalogue entry must say gateway_reads")
        if self.sides is not None:
            skin = self.sides(skin, session, route.upstream, ctx)
        return await self.caller.call(self.calls.build(incoming, ctx, skin, route, session, body=body))

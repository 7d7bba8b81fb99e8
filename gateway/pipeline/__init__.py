"""The proxied path (`/api`, `/capi`, `/sbapi`, `/rest`): one request through the stages of
docs/architecture.md, in order, one module each, passing one `Exchange` along:

1. skin     (`skin.py`)     the `Host` header picks the white-label site
2. guard    (`guard.py`)    catalogue routes only, sane paths and bodies, XSRF, rate limits
   maintenance (`maintenance.py`) a skin in maintenance refuses its money calls and sign-ins
3. session  (`session.py`)  the browser's opaque cookie -> the server-side session, then
                            the skin's canary, if one runs (`gateway.canary.routing`): the
                            side the session is pinned to, or the visitor's by their browser
4. plan     (`plan.py`)     a session where one is needed, the visitors' budget, then a plan:
                            the content cache (`caching.py`), an `Idempotency-Key`
                            (`keyed.py`), or a join to an identical call in flight
                            (`joining.py`); a flight's call is one `UpstreamCall`, run by
5. the upstream caller (`gateway.upstream.caller`: breaker, deadline, attempts, the pool)
6. observe  (`observe.py`)  once per call, what the answer does to the session; once per
                            request, what the player is sent (`encoding.py`: `private,
                            no-store`, compressed as sent; `as_data`: never a document
                            of the site, whatever the platform sent)

The first stage that answers (a refusal, a cached copy, a replay) ends the request.
"""

from __future__ import annotations

from typing import Protocol

from gateway.http.outgoing import Outgoing
from gateway.pipeline.encoding import as_data, personal
from gateway.pipeline.exchange import Exchange
from gateway.pipeline.observe import Observe
from gateway.pipeline.plan import Plan


class Stage(Protocol):
    async def run(self, x: Exchange) -> Outgoing | None: ...


class Pipeline:
    def __init__(
        self, skin: Stage, guard: Stage, maintenance: Stage, session: Stage, canary: Stage, plan: Plan, observe: Observe
    ) -> None:
        self.before = (skin, guard, maintenance, session, canary)
        self.plan = plan
        self.observe = observe

    async def run(self, x: Exchange) -> Outgoing:
        for stage in self.before:
            refused = await stage.run(x)
            if refused is not None:
                return as_data(x, await self.observe.finish(x, refused))
        return as_data(x, personal(x, await self.observe.finish(x, await self.plan.run(x))))

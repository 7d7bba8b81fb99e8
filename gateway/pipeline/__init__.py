"""The proxied path (`/api`, `/capi`, `/sbapi`, `/rest`): one request through the stages of
ARCHITECTURE.md, in order, one module each, passing one `Exchange` along:

1. skin     (`skin.py`)     the `Host` header picks the white-label site
2. guard    (`guard.py`)    catalogue routes only, sane paths and bodies, XSRF, rate limits
3. session  (`session.py`)  the browser's opaque cookie -> the server-side session
4. policy   (`policy.py`)   a session where one is needed, the visitors' budget, then a plan:
                            the content cache (`caching.py`), an `Idempotency-Key`
                            (`keyed.py`), or a join to an identical call in flight
                            (`joining.py`); the call is the policy's attempts (`attempts.py`:
                            deadline, retries, breaker) over
5. forward  (`forward.py`)  the call as the platform gets it, through the upstream pool
6. observe  (`observe.py`)  what the answer does to the session, and what the player is sent
                            (`encoding.py`: `private, no-store`, compressed as sent)

The first stage that answers (a refusal, a cached copy, a replay) ends the request.
"""

from __future__ import annotations

from typing import Protocol

from gateway.http.asgi import Outgoing
from gateway.pipeline.encoding import personal
from gateway.pipeline.exchange import Exchange
from gateway.pipeline.observe import Observe, answer
from gateway.pipeline.policy import Policy


class Stage(Protocol):
    async def run(self, x: Exchange) -> Outgoing | None: ...


class Pipeline:
    def __init__(self, skin: Stage, guard: Stage, session: Stage, policy: Policy, observe: Observe) -> None:
        self.before = (skin, guard, session)
        self.policy = policy
        self.observe = observe

    async def run(self, x: Exchange) -> Outgoing:
        for stage in self.before:
            refused = await stage.run(x)
            if refused is not None:
                return await self.observe.finish(x, refused)
        planned = await self.policy.run(x)
        if isinstance(planned, Outgoing):
            return personal(x, await self.observe.finish(x, planned))
        return personal(x, await self.observe.finish(x, answer(x, planned), planned))

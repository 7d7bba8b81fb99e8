"""4. policy: what the route asks for before and around its call.

A session for authenticated routes (else the platform's own `SESSION_EXPIRED` answer, without a
call); a per-address budget for visitors; then one plan per kind of route: content from the
cache (`caching`); binary answers and uploads streamed through (below); a money or account call
under its `Idempotency-Key` (`keyed`); any other call joined to an identical one in flight
(`joining`). The call itself (`call`) is the policy's attempts over forward (`attempts`), and
what observe makes of the answer.
"""

from __future__ import annotations

import time
from collections.abc import Hashable

import httpx
import msgspec

from contracts.base import SESSION_EXPIRED
from contracts.catalogue import Policy as RouteClass
from gateway.http.asgi import BodyTooLarge, Outgoing
from gateway.http.errors import error, in_progress, no_answer, rate_limited
from gateway.pipeline.attempts import Attempts
from gateway.pipeline.caching import ContentPlan
from gateway.pipeline.exchange import Exchange
from gateway.pipeline.forward import Forward, Target
from gateway.pipeline.joining import Flights
from gateway.pipeline.keyed import KeyedCalls
from gateway.pipeline.observe import Observe, answer, streamed
from gateway.shared.ratelimit import Throttle
from gateway.upstream.outcome import Outcome, failure_of
from gateway.upstream.resilience import Breakers, CallPolicy

_EXPIRED = msgspec.json.encode({"success": False, "code": SESSION_EXPIRED, "description": "Session expired"})


class Policy:
    def __init__(
        self,
        forward: Forward,
        attempts: Attempts,
        observe: Observe,
        plans: tuple[ContentPlan, KeyedCalls, Flights],
        visitors: Throttle,
        breakers: Breakers,
        policies: dict[RouteClass, CallPolicy],
    ) -> None:
        self.forward = forward
        self.attempts = attempts
        self.observe = observe
        self.content, self.keyed, self.flights = plans
        self.visitors = visitors
        self.breakers = breakers
        self.policies = policies
        self._streaming: set[Hashable] = set()

    async def run(self, x: Exchange) -> Outgoing | Outcome:
        """An answer of the policy's own (a refusal, a cached copy, a replay), or the call's outcome."""
        _, route = x.site()
        if route.policy != "content" and not x.session.data.logged_in:
            if route.auth:
                return answer(x, Outcome(200, {"content-type": "application/json"}, _EXPIRED))
            if (wait := self.visitors.wait(x.address)) is not None:
                return rate_limited(wait, x.ctx)

        async def call() -> Outcome:
            return await self.call(x, self.forward.prepare(x))

        if route.policy == "content":
            return await self.content.serve(x, call)
        if route.binary or route.multipart:
            return await self.streamed(x, self.forward.prepare(x))
        key = x.incoming.headers.get("idempotency-key")
        if key is not None and route.policy == "exclusive":
            return await self.keyed.run(x, key, call)
        return await self.flights.join(x, call)

    async def call(self, x: Exchange, target: Target) -> Outcome:
        """Once per flight: the platform's answer, and what it does to the session."""
        return await self.observe.call(x, await self.attempts.call(x, target))

    async def streamed(self, x: Exchange, target: Target) -> Outgoing:
        """Binary answers (captcha) and uploads pass through without being held. An upload takes
        as long as the player's line needs (no deadline; the connect and read timeouts hold) and
        is never retried (its body is gone); one exclusive upload per session and route at once."""
        skin, route = x.site()
        slot = (skin.id, x.session.id, route.name) if x.exclusive else None
        if slot is not None and slot in self._streaming:
            return in_progress(x.ctx)
        breaker = self.breakers.get(skin.id, target.upstream)
        if not breaker.allow():
            return no_answer(Outcome.failed("open", breaker.retry_after()), x.exclusive, x.ctx)
        if slot is not None:
            self._streaming.add(slot)
        started = time.perf_counter()
        try:
            body = x.upload if x.upload is not None else x.body
            upstream = await self.forward.stream(x, target, self.policies[route.policy].timeouts, body)
        except BodyTooLarge:
            breaker.abandon()
            return error(413, "TOO_LARGE", "Request body too large", x.ctx)
        except httpx.TransportError as exc:
            breaker.failure(type(exc).__name__)
            return no_answer(Outcome.failed(failure_of(exc)), x.exclusive, x.ctx)
        except BaseException:
            breaker.abandon()
            raise
        finally:
            x.ctx.upstream_ms += (time.perf_counter() - started) * 1000
            if slot is not None:
                self._streaming.discard(slot)
        self.attempts.judge(breaker, upstream.status)
        x.ctx.upstream_status = upstream.status
        if upstream.status >= 500 and upstream.status != 501:
            await upstream.aclose()
            return no_answer(Outcome(upstream.status, {}, b""), x.exclusive, x.ctx)
        await self.observe.streamed_call(x, target.origin, upstream)
        return streamed(upstream)

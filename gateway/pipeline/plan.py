"""4. plan: what the route asks for before and around its call.

A session for authenticated routes (else the platform's own `SESSION_EXPIRED` answer, without a
call); a per-address budget for visitors; then one plan per kind of route: content from the
cache (`caching`); binary answers and uploads streamed through (below); a money or account call
under its `Idempotency-Key` (`keyed`); any other call joined to an identical one in flight
(`joining`). A flight's call is built once (`gateway.upstream.call`), run by the caller
(`gateway.upstream.caller`: breaker, deadline, attempts), and what it did to the session is
observe's, once per call.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Hashable, Mapping

from contracts.conformance import media_breach
from gateway.http.asgi import BodyTooLarge
from gateway.http.errors import FieldError, error, in_progress, invalid, no_answer, rate_limited
from gateway.http.outgoing import Outgoing
from gateway.http.uploads import FILE_FIELD, inspected
from gateway.pipeline.caching import ContentPlan
from gateway.pipeline.exchange import Exchange
from gateway.pipeline.joining import Flights
from gateway.pipeline.keyed import KeyedCalls
from gateway.pipeline.links import ContentLinks
from gateway.pipeline.observe import Observe, passed_through, session_expired
from gateway.state.outcome import Outcome
from gateway.state.ratelimit import Throttle
from gateway.upstream.call import Calls, UpstreamCall
from gateway.upstream.caller import Caller

Call = Callable[[], Awaitable[Outcome]]


class Plan:
    def __init__(
        self,
        calls: Calls,
        caller: Caller,
        observe: Observe,
        plans: tuple[ContentPlan, KeyedCalls, Flights],
        visitors: Throttle,
        links: ContentLinks,
    ) -> None:
        self.calls = calls
        self.caller = caller
        self.observe = observe
        self.content, self.keyed, self.flights = plans
        self.visitors = visitors
        self.links = links
        self._streaming: set[Hashable] = set()

    async def run(self, x: Exchange) -> Outgoing | Outcome:
        """A reply of the plan's own (a refusal, a cached copy, a replay), or the call's outcome."""
        _, route = x.site()
        if route.policy != "content" and not x.session.data.logged_in:
            if route.auth:
                return session_expired(x)
            if (wait := self.visitors.wait(x.address)) is not None:
                return rate_limited(wait, x.ctx)
        if route.policy == "content":
            return await self.content.serve(x, lambda conditions: self.flight(x, conditions))
        if route.binary or route.body == "upload":
            return await self.stream(x)
        key = x.incoming.headers.get("idempotency-key")
        if key is not None and route.exclusive:
            return await self.keyed.serve(x, key, self.flight(x))
        return await self.flights.join(x, self.flight(x))

    def flight(self, x: Exchange, conditions: Mapping[str, str] | None = None) -> Call:
        """One flight's call: built when the flight starts (a cached copy or a joined request
        never pays for it), run, then what the platform's answer does to the session (content: its links checked)."""

        async def fly() -> Outcome:
            call = self.build(x)
            outcome = await self.caller.call(call.asking(conditions) if conditions else call)
            if call.route.policy == "content":  # before it is kept or served: its links checked
                return self.links.checked(call.skin, call.route, outcome)
            return await self.observe.after_call(x, outcome)

        return fly

    def build(self, x: Exchange) -> UpstreamCall:
        skin, route = x.site()
        return self.calls.build(x.incoming, x.ctx, skin, route, x.session, x.params, x.body, x.upload)

    async def stream(self, x: Exchange) -> Outgoing:
        """Binary answers (captcha, media) and uploads pass through without being held; one
        exclusive upload per session and route at once. An upload's file is checked first
        (`gateway.http.uploads`), and an answer of a type its route may not have never passes."""
        skin, route = x.site()
        slot = (skin.id, x.session.id, route.name) if route.exclusive else None
        if slot is not None and slot in self._streaming:
            return in_progress(x.ctx)
        if slot is not None:
            self._streaming.add(slot)
        try:
            if x.upload is not None and route.upload_types:
                x.upload, refused = await inspected(
                    x.upload, x.incoming.headers.get("content-type"), route.upload_types
                )
                if refused is not None:
                    return invalid(x.ctx, [FieldError(FILE_FIELD, refused.code, refused.message)], refused.message)
            call = self.build(x)
            answer, jar_changed = await self.caller.stream(call)
        except BodyTooLarge:
            return error(413, "TOO_LARGE", "Request body too large", x.ctx)
        finally:
            if slot is not None:
                self._streaming.discard(slot)
        if isinstance(answer, Outcome):
            return no_answer(answer, route.exclusive, x.ctx)
        if answer.status >= 500 and answer.status != 501:
            await answer.aclose()
            return no_answer(Outcome(answer.status, {}, b""), route.exclusive, x.ctx)
        if answer.status < 300 and (why := media_breach(route, answer.header("content-type"))) is not None:
            await answer.aclose()
            return no_answer(self.caller.broke(call, why), route.exclusive, x.ctx)
        await self.observe.after_stream(x, jar_changed)
        return passed_through(answer)

"""Runs an `UpstreamCall` over the pool: the one place with the breaker, the deadline, the
attempts and streaming.

`run`: the answer read whole. The route's deadline class covers all its attempts; a failed
attempt goes again only as the route's `retries` allow and the retry budget has room. A
visitor's first unsafe call meets the platform's own XSRF check before it has a token: refused
unprocessed with one issued, it is sent once more. `stream`: one attempt whose answer (a binary
answer, an upload's reply) passes through as it arrives; an upload takes as long as the player's
line needs (no deadline; the connect and read timeouts hold) and is never retried (its body is
gone). Either way the skin's breaker for that upstream (a canary's new side: its own) counts
calls (all their attempts), not attempts, and refuses at once while open; and the platform's
cookies go to the session's jar for that origin, never to the browser (content is anonymous: it
keeps none).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Mapping
from http.cookies import SimpleCookie

import httpx
import structlog

from contracts.catalogue import RouteClass
from contracts.conformance import breach
from gateway.config.timings import CallTiming
from gateway.http.security import XSRF_COOKIE
from gateway.runtime.metrics import Metrics
from gateway.runtime.tracing import Tracing
from gateway.shared.outcome import Failure, Outcome
from gateway.shared.session import Session
from gateway.upstream.call import UpstreamCall
from gateway.upstream.resilience import RETRYABLE_STATUS, Breaker, Breakers, RetryBudget, backoff, may_retry
from gateway.upstream.transport import Answer, StaleConnection, Timeouts

RETURNED_RESPONSE_HEADERS = frozenset(
    {
        "content-type",
        "cache-control",
        "etag",
        "last-modified",
        "expires",
        "content-disposition",
        "content-language",
        "retry-after",
        "vary",
        "age",
    }
)
UPSTREAM_XSRF_HEADER = "X-XSRF-TOKEN"
MAX_COOKIES, MAX_COOKIE_BYTES = 32, 4096
"""A platform's cookies kept per origin, and the largest value kept (a browser's own limits)."""
log = structlog.get_logger("gateway.upstream")


def failure_of(exc: BaseException) -> Failure:
    """The one place the transport's exceptions become failures."""
    if isinstance(exc, (httpx.ConnectError, httpx.ConnectTimeout, httpx.PoolTimeout)):
        return "unreachable"
    if isinstance(exc, StaleConnection):
        return "stale"
    if isinstance(exc, (httpx.TimeoutException, TimeoutError)):
        return "timeout"
    return "broken"


class Caller:
    def __init__(
        self, breakers: Breakers, timings: Mapping[RouteClass, CallTiming], metrics: Metrics, tracing: Tracing
    ) -> None:
        self.breakers = breakers
        self.timings = timings
        self.timeouts = {klass: Timeouts(t.connect_s, t.read_s, t.reuse_idle_s) for klass, t in timings.items()}
        """The transport's timeouts for each route class's timing."""
        self.metrics = metrics
        self.tracing = tracing
        self.new_sides = Breakers(breakers.config, clock=breakers.clock)
        """A canary's new side's own breakers, by skin and origin (`gateway.canary.routing`): a new
        platform that fails opens its own and fails fast, never the skin's, whose old side's players
        go on; the canary's judge, not the console's breakers, tells of it."""

    def breaker(self, call: UpstreamCall) -> Breaker:
        """The breaker a call counts in: the skin's for the upstream, or its canary's new side's."""
        side = call.ctx.canary
        if side is not None and side[1] == "new":
            return self.new_sides.get(call.skin.id, call.target.origin)
        return self.breakers.get(call.skin.id, call.target.upstream)

    async def run(self, call: UpstreamCall) -> Outcome:
        """The platform's answer (the headers a browser may see), or why there was none."""
        breaker = self.breaker(call)
        if not breaker.allow():
            return Outcome.failed("open", breaker.retry_after())
        timing = self.timings[call.route.deadline]
        try:
            async with asyncio.timeout(timing.deadline_s):
                answer = await self._attempts(call, timing)
        except (httpx.TransportError, TimeoutError) as exc:
            return self._failed(call, breaker, exc)
        except BaseException:  # cancelled: the player went away
            breaker.abandon()
            raise
        self._answered(call, breaker, answer.status)
        outcome = returned(answer)
        why = breach(call.route, outcome.status, outcome.headers.get("content-type"), outcome.body)
        return outcome if why is None else self.broke(call, why)

    async def stream(self, call: UpstreamCall) -> tuple[Answer | Outcome, bool]:
        """The platform's answer as it arrives, or why there was none; and whether the session's
        jar changed. A body over its cap raises `BodyTooLarge` (the breaker not counting it)."""
        breaker = self.breaker(call)
        if not breaker.allow():
            return Outcome.failed("open", breaker.retry_after()), False
        route, sent = call.route, self._with_jar(call)
        if call.encoding is not None:
            sent["accept-encoding"] = call.encoding
        body = call.upload if call.upload is not None else call.body
        started = time.perf_counter()
        try:
            with self.tracing.upstream(route.name, route.method, call.target.upstream, sent, call.ctx.request_id):
                timeouts = self.timeouts[route.deadline]
                answer = await call.target.transport.stream(
                    route.method, call.target.path, sent, body, timeouts, call.length
                )
        except httpx.TransportError as exc:
            return self._failed(call, breaker, exc), False
        except BaseException:  # cancelled, or a body over its cap (`BodyTooLarge`)
            breaker.abandon()
            raise
        finally:
            call.ctx.upstream_ms += (time.perf_counter() - started) * 1000
        self._answered(call, breaker, answer.status)
        failing = answer.status >= 500 and answer.status != 501
        return answer, route.policy != "content" and not failing and keep_cookies(
            call.session, call.target.origin, answer
        )

    async def _attempts(self, call: UpstreamCall, timing: CallTiming) -> Answer:
        route = call.route
        budget = self.breakers.budget(call.skin.id, call.target.upstream)
        budget.deposit()
        attempt, resent_for_xsrf = 0, False
        while True:
            started = time.perf_counter()
            try:
                answer = await self._send(call)
            except httpx.TransportError as exc:
                if not self._may_go_again(call, timing, attempt, budget, failure_of(exc)):
                    raise
            else:
                jar_changed = route.policy != "content" and keep_cookies(call.session, call.target.origin, answer)
                if answer.status == 403 and jar_changed and route.method != "GET" and not resent_for_xsrf:
                    resent_for_xsrf = True
                    continue
                retryable = answer.status in RETRYABLE_STATUS
                if not retryable or not self._may_go_again(call, timing, attempt, budget, "status"):
                    return answer
            finally:
                call.ctx.upstream_ms += (time.perf_counter() - started) * 1000
            attempt += 1
            await asyncio.sleep(backoff(attempt))

    async def _send(self, call: UpstreamCall) -> Answer:
        """One attempt, its answer read whole and inflated (a passed-through read's gzip kept
        beside: `UpstreamCall.keep_gzip`)."""
        route, target, sent = call.route, call.target, self._with_jar(call)
        keep, timeouts = call.keep_gzip, self.timeouts[route.deadline]
        if not self.tracing.enabled:
            return await target.transport.request(route.method, target.path, sent, call.body, timeouts, keep)
        with self.tracing.upstream(route.name, route.method, target.upstream, sent, call.ctx.request_id) as span:
            answer = await target.transport.request(route.method, target.path, sent, call.body, timeouts, keep)
            self.tracing.status(span, answer.status)
            return answer

    def _may_go_again(
        self, call: UpstreamCall, timing: CallTiming, attempt: int, budget: RetryBudget, reason: str
    ) -> bool:
        if not may_retry(call.route.retries, reason) or attempt >= timing.retries:
            return False
        if not budget.withdraw():
            self.metrics.retries_refused.labels(call.skin.id).inc()
            return False
        self.metrics.retries.labels(call.skin.id, call.route.policy, reason).inc()
        return True

    @staticmethod
    def _answered(call: UpstreamCall, breaker: Breaker, status: int) -> None:
        """A platform answering 5xx (not 501) is failing; any other answer is a success."""
        if status >= 500 and status != 501:
            breaker.failure(f"status {status}")
        else:
            breaker.success()
        call.ctx.upstream_status = status

    def broke(self, call: UpstreamCall, why: str) -> Outcome:
        """The platform answered, but not as its contract says: a 502 for this call only (the
        breaker counted an answer), counted per route and logged with what broke, never a value."""
        self.metrics.contract_breaches.labels(call.skin.id, call.route.name).inc()
        log.warning(
            "upstream.contract_breach", skin=call.skin.id, route=call.route.name, upstream=call.target.upstream, why=why
        )
        return Outcome.failed("contract")

    @staticmethod
    def _failed(call: UpstreamCall, breaker: Breaker, exc: BaseException) -> Outcome:
        """No answer: the breaker counts it, and operators read why (the exception's kind and our
        own words, never a URL)."""
        failure: Failure = failure_of(exc)
        breaker.failure("deadline" if isinstance(exc, TimeoutError) else type(exc).__name__)
        detail = str(exc) if isinstance(exc, httpx.TransportError) and "://" not in str(exc) else ""
        log.warning(
            "upstream.call_failed",
            skin=call.ctx.skin,
            route=call.ctx.route,
            failure=failure,
            error=type(exc).__name__,
            detail=detail[:120],
        )
        return Outcome.failed(failure)

    @staticmethod
    def _with_jar(call: UpstreamCall) -> dict[str, str]:
        headers = dict(call.headers)
        jar = call.session.data.jars.get(call.target.origin)
        if jar:
            headers["cookie"] = "; ".join(f"{name}={value}" for name, value in jar.items())
            if token := jar.get(XSRF_COOKIE):
                headers[UPSTREAM_XSRF_HEADER] = token
        return headers


def returned(answer: Answer) -> Outcome:
    """The platform's answer, with the headers a browser may see: its body always as the platform
    meant it (inflated, whatever it was sent in), and a passed-through read's gzip beside it."""
    headers: dict[str, str] = {}
    for name, value in answer.headers:
        if name in RETURNED_RESPONSE_HEADERS and name not in headers:
            headers[name] = value
    return Outcome(answer.status, headers, answer.body, gzip=answer.gzip)


def keep_cookies(session: Session, origin: str, answer: Answer) -> bool:
    """The platform's cookies go to the session's jar for that origin (whether it changed)."""
    set_cookies = answer.header_values("set-cookie")
    if not set_cookies:
        return False
    before = session.data.jars.get(origin, {})
    jar = dict(before)
    for header in set_cookies:
        for name, morsel in _parse_cookie(header).items():
            if morsel["max-age"] == "0" or morsel.value in {"", "null"}:
                jar.pop(name, None)
            elif len(morsel.value) <= MAX_COOKIE_BYTES and (name in jar or len(jar) < MAX_COOKIES):
                jar[name] = morsel.value
    if jar == before:
        return False
    session.data.jars = {**session.data.jars, origin: jar}
    return True


def _parse_cookie(header: str) -> SimpleCookie:
    parsed: SimpleCookie = SimpleCookie()
    try:
        parsed.load(header)
    except Exception:  # an unparsable cookie is the platform's problem, not the player's
        return SimpleCookie()
    return parsed

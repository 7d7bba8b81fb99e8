"""Runs an `UpstreamCall` over the pool: the deadline, the attempts and streaming, under the
breaker and retry budget of `gateway.upstream.resilience` (asked once before a call, told once
after, asked again only when an attempt failed).

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
from gateway.state.outcome import Failure, Outcome
from gateway.state.session import Session
from gateway.upstream.call import UpstreamCall
from gateway.upstream.resilience import RETRYABLE_STATUS, Attempts, Breakers, Resilience
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
        self.resilience = Resilience(breakers)
        """Asked once before each call, told once after (`gateway.upstream.resilience`)."""
        self.timings = timings
        self.timeouts = {klass: Timeouts(t.connect_s, t.read_s, t.reuse_idle_s) for klass, t in timings.items()}
        """The transport's timeouts for each route class's timing."""
        self.metrics = metrics
        self.tracing = tracing

    def admit(self, call: UpstreamCall, budgeted: bool) -> Attempts:
        """The call's `Attempts` under the breaker it counts in: the skin's for the upstream, or
        its canary's new side's."""
        side, timing = call.ctx.canary, self.timings[call.route.deadline]
        new_side = side is not None and side[1] == "new"
        target, retries = call.target, call.route.retries
        return self.resilience.admit(
            call.skin.id, target.upstream, target.origin, new_side, retries, timing.retries, budgeted
        )

    async def call(self, call: UpstreamCall) -> Outcome:
        """The platform's answer (the headers a browser may see), or why there was none."""
        attempts = self.admit(call, budgeted=True)
        if attempts.refused_for is not None:
            return Outcome.failed("open", attempts.refused_for)
        try:
            async with asyncio.timeout(self.timings[call.route.deadline].deadline_s):
                answer = await self._attempts(call, attempts)
        except (httpx.TransportError, TimeoutError) as exc:
            return self._fail(call, attempts, exc)
        except BaseException:  # cancelled: the player went away
            attempts.abandon()
            raise
        attempts.settle(answer.status)
        call.ctx.upstream_status = answer.status
        outcome = outcome_of(answer)
        why = breach(call.route, outcome.status, outcome.headers.get("content-type"), outcome.body)
        return outcome if why is None else self.broke(call, why)

    async def stream(self, call: UpstreamCall) -> tuple[Answer | Outcome, bool]:
        """The platform's answer as it arrives, or why there was none; and whether the session's
        jar changed. A body over its cap raises `BodyTooLarge` (the breaker not counting it)."""
        attempts = self.admit(call, budgeted=False)
        if attempts.refused_for is not None:
            return Outcome.failed("open", attempts.refused_for), False
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
            return self._fail(call, attempts, exc), False
        except BaseException:  # cancelled, or a body over its cap (`BodyTooLarge`)
            attempts.abandon()
            raise
        finally:
            call.ctx.upstream_ms += (time.perf_counter() - started) * 1000
        attempts.settle(answer.status)
        call.ctx.upstream_status = answer.status
        failing = answer.status >= 500 and answer.status != 501
        return answer, route.policy != "content" and not failing and keep_cookies(
            call.session, call.target.origin, answer
        )

    async def _attempts(self, call: UpstreamCall, attempts: Attempts) -> Answer:
        """The attempts within the deadline: a failure or a 502/503/504 goes again as `attempts`
        allow; a visitor's unsafe call refused for want of an XSRF token, once, with the one issued."""
        route, resent_for_xsrf = call.route, False
        while True:
            started = time.perf_counter()
            try:
                answer = await self._send(call)
            except httpx.TransportError as exc:
                if not self._may_go_again(call, attempts, failure_of(exc)):
                    raise
            else:
                jar_changed = route.policy != "content" and keep_cookies(call.session, call.target.origin, answer)
                if answer.status == 403 and jar_changed and route.method != "GET" and not resent_for_xsrf:
                    resent_for_xsrf = True
                    continue
                retryable = answer.status in RETRYABLE_STATUS
                if not retryable or not self._may_go_again(call, attempts, "status"):
                    return answer
            finally:
                call.ctx.upstream_ms += (time.perf_counter() - started) * 1000
            await asyncio.sleep(attempts.wait_s())

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

    def _may_go_again(self, call: UpstreamCall, attempts: Attempts, reason: str) -> bool:
        verdict = attempts.retry(reason)
        if verdict == "over budget":
            self.metrics.retries_refused.labels(call.skin.id).inc()
        elif verdict == "again":
            self.metrics.retries.labels(call.skin.id, call.route.policy, reason).inc()
        return verdict == "again"

    def broke(self, call: UpstreamCall, why: str) -> Outcome:
        """The platform answered, but not as its contract says: a 502 for this call only (the
        breaker counted an answer), counted per route and logged with what broke, never a value."""
        self.metrics.contract_breaches.labels(call.skin.id, call.route.name).inc()
        log.warning(
            "upstream.contract_breach", skin=call.skin.id, route=call.route.name, upstream=call.target.upstream, why=why
        )
        return Outcome.failed("contract")

    @staticmethod
    def _fail(call: UpstreamCall, attempts: Attempts, exc: BaseException) -> Outcome:
        """No answer: the breaker counts it, and operators read why (the exception's kind and our
        own words, never a URL)."""
        failure: Failure = failure_of(exc)
        attempts.settle(None, "deadline" if isinstance(exc, TimeoutError) else type(exc).__name__)
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


def outcome_of(answer: Answer) -> Outcome:
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

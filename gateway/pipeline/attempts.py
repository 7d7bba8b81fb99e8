"""Under policy: the attempts of one call. The route class's deadline covers all of them; a
failed attempt goes again only where `resilience.may_retry` allows and the retry budget has
room; the skin's breaker for that upstream counts calls (all their attempts), not attempts, and
refuses at once while open. A visitor's first unsafe call meets the platform's own XSRF check
before it has a token: refused unprocessed with one issued, it is sent once more."""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass

import httpx
import structlog

from contracts.catalogue import Policy as RouteClass
from gateway.operations.metrics import Metrics
from gateway.pipeline.exchange import Exchange
from gateway.pipeline.forward import Forward, Target
from gateway.pipeline.observe import keep_cookies, returned
from gateway.upstream.outcome import Failure, Outcome, failure_of
from gateway.upstream.resilience import RETRYABLE_STATUS, Breaker, Breakers, CallPolicy, RetryBudget, backoff, may_retry
from gateway.upstream.transport import Answer

log = structlog.get_logger("gateway.upstream")


@dataclass
class Attempts:
    forward: Forward
    breakers: Breakers
    policies: dict[RouteClass, CallPolicy]
    metrics: Metrics

    async def call(self, x: Exchange, target: Target) -> Outcome:
        """The platform's answer (headers a browser may see), or why there was none."""
        skin, route = x.site()
        policy = self.policies[route.policy]
        breaker = self.breakers.get(skin.id, target.upstream)
        if not breaker.allow():
            return Outcome.failed("open", breaker.retry_after())
        try:
            async with asyncio.timeout(policy.deadline_s):
                answer = await self._attempts(x, target, policy)
        except (httpx.TransportError, TimeoutError) as exc:
            failure = failure_of(exc)
            breaker.failure("deadline" if isinstance(exc, TimeoutError) else type(exc).__name__)
            self._failed(x, exc, failure)
            return Outcome.failed(failure)
        except BaseException:  # cancelled: the player went away
            breaker.abandon()
            raise
        self.judge(breaker, answer.status)
        x.ctx.upstream_status = answer.status
        return returned(answer)

    @staticmethod
    def judge(breaker: Breaker, status: int) -> None:
        """A platform answering 5xx (not 501) is failing; any other answer is a success."""
        if status >= 500 and status != 501:
            breaker.failure(f"status {status}")
        else:
            breaker.success()

    async def _attempts(self, x: Exchange, target: Target, policy: CallPolicy) -> Answer:
        skin, route = x.site()
        budget = self.breakers.budget(skin.id, target.upstream)
        budget.deposit()
        attempt, resent_for_xsrf = 0, False
        while True:
            started = time.perf_counter()
            try:
                answer = await self.forward.send(x, target, policy.timeouts)
            except httpx.TransportError as exc:
                if not self._may_go_again(x, policy, attempt, budget, failure_of(exc)):
                    raise
            else:
                jar_changed = route.policy != "content" and keep_cookies(x.session, target.origin, answer)
                if answer.status == 403 and jar_changed and route.method != "GET" and not resent_for_xsrf:
                    resent_for_xsrf = True
                    continue
                retryable = answer.status in RETRYABLE_STATUS
                if not retryable or not self._may_go_again(x, policy, attempt, budget, "status"):
                    return answer
            finally:
                x.ctx.upstream_ms += (time.perf_counter() - started) * 1000
            attempt += 1
            await asyncio.sleep(backoff(attempt))

    def _may_go_again(self, x: Exchange, policy: CallPolicy, attempt: int, budget: RetryBudget, reason: str) -> bool:
        skin, route = x.site()
        if not may_retry(route.policy, route.method, reason) or attempt >= policy.retries:
            return False
        if not budget.withdraw():
            self.metrics.retries_refused.labels(skin.id).inc()
            return False
        self.metrics.retries.labels(skin.id, route.policy, reason).inc()
        return True

    @staticmethod
    def _failed(x: Exchange, exc: BaseException, failure: Failure) -> None:
        """Why a call got no answer, for operators (the exception's kind and our own words, never a URL)."""
        detail = str(exc) if isinstance(exc, httpx.TransportError) and "://" not in str(exc) else ""
        log.warning("upstream.call_failed", skin=x.ctx.skin, route=x.ctx.route, failure=failure,
                    error=type(exc).__name__, detail=detail[:120])  # fmt: skip

"""Upstream resilience: per route class timeouts and deadline, retries with a budget, and a
circuit breaker per skin and upstream.

- Every call has a connect timeout, a read timeout and one end-to-end deadline that covers
  its retries (`gateway.config.timings.CallTiming`, per the route's deadline class).
- Retries, as the route's `retries` say (`contracts.catalogue.retries_of`): GETs on failures
  that say nothing about the request's effect (no connection, a timeout, 502/503/504); the
  platform's POST reads only when the connection failed before a byte was sent; money and
  account calls never. Backoff is jittered, and a `RetryBudget`
  caps retries at a fraction of the calls, so a failing upstream is not sent 3x its load.
- A `Breaker` opens after consecutive failures or a high failure rate; while open, calls
  fail at once (the caching stage, `gateway.pipeline.caching`, then serves a content copy
  within stale-if-error); after `open_s` one probe at a time is let through (half-open), and
  its success closes the breaker.

The caller (`gateway.upstream.caller`) asks `Resilience.admit` once before a call and tells the
`Attempts` it got once after (`settle`, or `abandon`); only a failed attempt asks again
(`Attempts.retry`). Hand-written because the rules are the gateway's own (route classes, the
retry budget, a canary's new side with breakers of its own) and the client is too
(`gateway.upstream.transport`): retry libraries (tenacity, aiohttp-retry) know none of them.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Literal

from contracts.catalogue import Retries
from gateway.config.timings import BreakerConfig

BreakerState = Literal["closed", "open", "half-open"]
RetryVerdict = Literal["again", "no", "over budget"]
"""Whether a failed attempt goes again: yes; no (the route, the failure or the attempts say
not); or not now, the retry budget being spent."""
RETRYABLE_STATUS = frozenset({502, 503, 504})


def may_retry(retries: Retries, failure: str) -> bool:
    """Whether a failed attempt of a route with these `retries` may be sent again. `failure`: one
    of `outcome.Failure` (`unreachable`: nothing was sent; `stale`: a kept-alive connection the
    platform had closed, it never read the call; `timeout`; `broken`: the connection failed after
    sending), or `status` (the platform answered 502/503/504)."""
    if retries == "never":
        return False
    if retries == "any":
        return True
    return failure in ("unreachable", "stale")


def backoff(attempt: int, base_s: float = 0.05, cap_s: float = 1.0) -> float:
    """Full jitter: a random wait up to `base * 2^attempt` (AWS architecture blog)."""
    return random.uniform(0, min(cap_s, base_s * 2**attempt))


class RetryBudget:
    """Retries may add at most `ratio` of the calls, plus a small reserve for quiet times."""

    def __init__(self, ratio: float = 0.2, reserve: float = 10.0) -> None:
        self.ratio = ratio
        self.reserve = reserve
        self.tokens = reserve

    def deposit(self) -> None:
        self.tokens = min(self.reserve * 10, self.tokens + self.ratio)

    def withdraw(self) -> bool:
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


@dataclass
class Breaker:
    skin: str
    upstream: str
    config: BreakerConfig
    clock: Callable[[], float] = time.monotonic
    on_change: Callable[[Breaker], None] | None = None
    state: BreakerState = "closed"
    consecutive: int = 0
    opened_at: float = 0.0
    probing: bool = False
    last_failure: str | None = None
    _buckets: dict[int, list[int]] = field(default_factory=dict)
    """Per-second [calls, failures] over the window."""

    def allow(self) -> bool:
        """Whether a call may go out now (a half-open breaker lets one probe through)."""
        if self.state == "closed":
            return True
        if self.state == "open":
            if self.clock() - self.opened_at < self.config.open_s:
                return False
            self._become("half-open")
        if self.probing:
            return False
        self.probing = True
        return True

    def retry_after(self) -> int:
        return max(1, round(self.config.open_s - (self.clock() - self.opened_at)))

    def success(self) -> None:
        self.consecutive = 0
        self._count(failed=False)
        if self.state != "closed":
            self.probing = False
            self._buckets.clear()
            self._become("closed")

    def failure(self, reason: str) -> None:
        self.consecutive += 1
        self.last_failure = reason
        calls, failures = self._count(failed=True)
        if self.state == "half-open":
            self.probing = False
            self._open()
        elif self.state == "closed" and (
            self.consecutive >= self.config.failures
            or (calls >= self.config.min_calls and failures / calls >= self.config.failure_rate)
        ):
            self._open()

    def abandon(self) -> None:
        """A probe that ended without an answer either way (the player went away)."""
        self.probing = False

    def _open(self) -> None:
        self.opened_at = self.clock()
        self._become("open")

    def _become(self, state: BreakerState) -> None:
        if state != self.state:
            self.state = state
            if self.on_change is not None:
                self.on_change(self)

    def _count(self, failed: bool) -> tuple[int, int]:
        now = int(self.clock())
        bucket = self._buckets.get(now)
        if bucket is None:
            horizon = now - self.config.window_s
            for second in [s for s in self._buckets if s <= horizon]:
                del self._buckets[second]
            bucket = self._buckets[now] = [0, 0]
        bucket[0] += 1
        bucket[1] += failed
        calls = sum(b[0] for b in self._buckets.values())
        failures = sum(b[1] for b in self._buckets.values())
        return calls, failures

    def describe(self) -> dict[str, object]:
        return {
            "skin": self.skin,
            "upstream": self.upstream,
            "state": self.state,
            "consecutiveFailures": self.consecutive,
            "lastFailure": self.last_failure,
            "retryAfterS": self.retry_after() if self.state == "open" else None,
        }


class Breakers:
    """One breaker and one retry budget per (skin, upstream name)."""

    def __init__(
        self,
        config: BreakerConfig | None = None,
        on_change: Callable[[Breaker], None] | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.config = config or BreakerConfig()
        self.on_change = on_change
        self.clock = clock
        self._breakers: dict[tuple[str, str], Breaker] = {}
        self._budgets: dict[tuple[str, str], RetryBudget] = {}

    def get(self, skin: str, upstream: str) -> Breaker:
        key = (skin, upstream)
        breaker = self._breakers.get(key)
        if breaker is None:
            breaker = self._breakers[key] = Breaker(skin, upstream, self.config, self.clock, self.on_change)
        return breaker

    def budget(self, skin: str, upstream: str) -> RetryBudget:
        key = (skin, upstream)
        budget = self._budgets.get(key)
        if budget is None:
            budget = self._budgets[key] = RetryBudget()
        return budget

    def reset(self, skin: str, upstream: str) -> None:
        """A new base URL starts with a closed breaker: the old one's failures are not its own."""
        self._breakers.pop((skin, upstream), None)
        self._budgets.pop((skin, upstream), None)

    def __iter__(self) -> Iterator[Breaker]:
        return iter(list(self._breakers.values()))

    def states(self) -> Mapping[tuple[str, str], BreakerState]:
        return {key: b.state for key, b in self._breakers.items()}


@dataclass(slots=True)
class Attempts:
    """One call's way through its breaker and retry budget (`Resilience.admit`): told once how
    the call ended (`settle`, `abandon`); asked again only when an attempt failed (`retry`)."""

    breaker: Breaker
    budget: RetryBudget | None
    """The skin's budget for the upstream; None for a call that is never retried (streamed)."""
    retries: Retries
    max_retries: int
    refused_for: int | None = None
    """While the breaker is open: the seconds until it lets a call through (no call goes out)."""
    attempt: int = 0
    """The retries made so far."""

    def retry(self, failure: str) -> RetryVerdict:
        """Whether an attempt that failed so (`may_retry`'s `failure`) goes again; a retry granted
        is counted, and `wait_s` is then its backoff."""
        if self.budget is None or not may_retry(self.retries, failure) or self.attempt >= self.max_retries:
            return "no"
        if not self.budget.withdraw():
            return "over budget"
        self.attempt += 1
        return "again"

    def wait_s(self) -> float:
        return backoff(self.attempt)

    def settle(self, status: int | None, failure: str = "") -> None:
        """How the call ended, for its breaker: the platform's status (5xx but 501 counts as a
        failure, any other as a success), or None and why there was no answer."""
        if status is None:
            self.breaker.failure(failure)
        elif status >= 500 and status != 501:
            self.breaker.failure(f"status {status}")
        else:
            self.breaker.success()

    def abandon(self) -> None:
        """The call ended without an answer either way (the player went away)."""
        self.breaker.abandon()


class Resilience:
    """The breakers and retry budgets of the skins' upstreams, and a canary's new sides' own
    breakers, by skin and origin (`gateway.canary.routing`): a new platform that fails opens its
    own and fails fast, never the skin's, whose old side's players go on; the canary's judge, not
    the console's breakers, tells of it."""

    def __init__(self, breakers: Breakers) -> None:
        self.breakers = breakers
        self.new_sides = Breakers(breakers.config, clock=breakers.clock)

    def admit(
        self, skin: str, upstream: str, origin: str, new_side: bool, retries: Retries, max_retries: int, budgeted: bool
    ) -> Attempts:
        """A call's `Attempts`: refused at once (`refused_for`) while its breaker is open; a
        `budgeted` call (read whole, it may be retried) adds its share to the retry budget."""
        breaker = self.new_sides.get(skin, origin) if new_side else self.breakers.get(skin, upstream)
        if not breaker.allow():
            return Attempts(breaker, None, retries, max_retries, breaker.retry_after())
        budget = None
        if budgeted:
            budget = self.breakers.budget(skin, upstream)
            budget.deposit()
        return Attempts(breaker, budget, retries, max_retries)

"""Rate limits on the calls worth guessing at (login, register, forgot-password, session
adoption) per client address and per login name or device; cashier calls per session; and a
per-address budget for visitors' calls. A route's limit class is the catalogue's
(`Route.limit`); the numbers of each class are here.

Litestar's RateLimitConfig keys on the client address alone, one bucket across routes, and
counts get-then-set; here each rule has its own key and counts atomically in the shared store.
Limits on failures (wrong passwords) reserve a place *before* the call goes out and give it back
when the call succeeds or never reached the platform: however many guesses arrive at once, on
however many instances and from however many addresses, the platform sees at most `count`
failing attempts per window. A browser that has logged in to the account before carries a device
cookie (`gateway.http.security.DeviceTokens`) and draws on its own allowance, so a guesser who spends
the account's does not lock its owner out (OWASP, "Slow down online guessing attacks with device
cookies"). When the store is down, a per-process limiter keeps working (each instance then
enforces the limit on its own share).
"""

from __future__ import annotations

import math
import time
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Literal

from gateway.store import Shared, StoreUnavailable, keys
from gateway.store.memory import MemoryShared

Subject = Literal["ip", "login", "device", "session"]
Who = dict[Subject, str | None]


@dataclass(frozen=True)
class Limit:
    by: Subject
    count: int
    window_s: int
    failures_only: bool = False
    """A place is taken before the call and given back when it succeeds (or was never sent): only
    failures count, so a player who logs in and out many times is never locked out, a guesser is."""


EVENTS_CONNECTS_PER_MINUTE = 120
"""`/bff/events` connects per client address and minute (`EVENTS_CONNECTS_PER_MINUTE`)."""


def _default_rules() -> dict[str, tuple[Limit, ...]]:
    """Per limit class (`contracts.catalogue.LimitClass`)."""
    return {
        # The account's shared allowance ("login": browsers it does not know) and each known
        # browser's own ("device"): a call draws on one of the two, never both.
        "login-like": (Limit("ip", 20, 60), Limit("login", 8, 300, True), Limit("device", 8, 300, True)),
        "registration": (Limit("ip", 10, 600),),
        "password-reset": (Limit("ip", 10, 600), Limit("login", 3, 600)),
        "adoption": (Limit("ip", 20, 60), Limit("ip", 5, 300, True)),
        "cashier": (Limit("session", 30, 60),),
        "events": (Limit("ip", EVENTS_CONNECTS_PER_MINUTE, 60),),
    }


@dataclass(frozen=True)
class RateLimitConfig:
    rules: dict[str, tuple[Limit, ...]] = field(default_factory=_default_rules)
    """The limits of each limit class."""
    visitor_rate: float = 50.0
    """A client address's calls per second while not logged in (per instance; content excluded)."""
    visitor_burst: int = 200

    def with_events_limit(self, per_minute: int) -> RateLimitConfig:
        """The same rules, with `/bff/events` connects per address and minute set."""
        rules = {**self.rules, "events": (Limit("ip", per_minute, 60),)}
        return RateLimitConfig(rules, self.visitor_rate, self.visitor_burst)


@dataclass
class Admission:
    wait: int | None = None
    """Seconds to wait when a limit is reached (the call must not go out)."""
    held: list[str] = field(default_factory=list)
    """The places this call holds in limits on failures."""


class RateLimiter:
    def __init__(self, shared: Shared, config: RateLimitConfig) -> None:
        self.shared = shared
        self.config = config
        self._local = MemoryShared()
        self.visitors = Throttle(config.visitor_rate, config.visitor_burst)

    def limits(self, limit: str | None) -> tuple[Limit, ...]:
        return self.config.rules.get(limit, ()) if limit is not None else ()

    async def admit(self, skin: str, limit: str, who: Who, bucket: str | None = None) -> Admission:
        """Counts this call against every limit of its class; on failure limits it holds a place.
        Each `bucket` (a route's name; the class's own by default) counts on its own."""
        admission = Admission()
        for rule in self.limits(limit):
            subject = who.get(rule.by)
            if not subject:
                continue
            by = rule.by + (":f" if rule.failures_only else "")
            key = keys.of_skin(skin, keys.RATE_LIMITS, bucket or limit, by, subject.lower())
            window_ms = rule.window_s * 1000
            if rule.failures_only:
                taken, left_ms = await self._reserve(key, rule.count, window_ms)
                if taken:
                    admission.held.append(key)
                    continue
            else:
                count, left_ms = await self._hit(key, window_ms)
                if count <= rule.count:
                    continue
            await self.settle(admission, give_back=True)
            admission.wait = max(1, math.ceil(left_ms / 1000))
            return admission
        return admission

    async def settle(self, admission: Admission, give_back: bool) -> None:
        """After the call: a success (or a call the platform never saw) gives its places back."""
        held, admission.held = admission.held, []
        if not give_back:
            return
        for key in held:
            try:
                await self.shared.give_back(key)
            except StoreUnavailable:
                await self._local.give_back(key)

    async def _hit(self, key: str, window_ms: int) -> tuple[int, int]:
        try:
            return await self.shared.hit(key, window_ms)
        except StoreUnavailable:
            return await self._local.hit(key, window_ms)

    async def _reserve(self, key: str, limit: int, window_ms: int) -> tuple[bool, int]:
        try:
            return await self.shared.reserve(key, limit, window_ms)
        except StoreUnavailable:
            return await self._local.reserve(key, limit, window_ms)


class Throttle:
    """A token bucket per client address, in this process: cheap enough for every visitor's call
    (no store round trip), and bounded (the least recently seen addresses are forgotten)."""

    def __init__(self, rate: float, burst: int, max_addresses: int = 100_000) -> None:
        self.rate = rate
        self.burst = float(burst)
        self.max_addresses = max_addresses
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()

    def wait(self, address: str, now: float | None = None) -> int | None:
        """None when the call may go now (it is counted); else seconds until it may."""
        now = time.monotonic() if now is None else now
        tokens, at = self._buckets.pop(address, (self.burst, now))
        tokens = min(self.burst, tokens + (now - at) * self.rate)
        if tokens < 1.0:
            self._buckets[address] = (tokens, now)
            return max(1, math.ceil((1.0 - tokens) / self.rate))
        self._buckets[address] = (tokens - 1.0, now)
        if len(self._buckets) > self.max_addresses:
            self._buckets.popitem(last=False)
        return None

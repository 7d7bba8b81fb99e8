"""Rate limits on the calls worth guessing at: login, register and forgot-password per
IP + skin and per login name; cashier calls per session.

Litestar's RateLimitConfig keys on the client address alone, one bucket across routes, and
counts get-then-set; here each rule has its own key (IP, login name, session) and counts
with one atomic INCR in the shared store. When the store is down, a per-process limiter
keeps working (each instance then enforces the limit on its own share).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from gateway.shared import MemoryShared, Shared, StoreUnavailable


@dataclass(frozen=True)
class Limit:
    by: str  # "ip", "login" or "session"
    count: int
    window_s: int
    failures_only: bool = False
    """Counts only calls that failed (wrong passwords), not every attempt: a player who logs
    in and out many times is never locked out, a guesser is."""


CASHIER_ROUTES = (
    "buy",
    "Mbuy",
    "cashout",
    "cashout12",
    "mercadoCashout",
    "interKassaCashout",
    "cancelWithdrawRequest",
    "addBankAccount",
    "deleteBankAccounts",
    "depositCallBack",
    "exchange",
)


def _default_rules() -> dict[str, tuple[Limit, ...]]:
    cashier = (Limit("session", 30, 60),)
    return {
        "login": (Limit("ip", 20, 60), Limit("login", 8, 300, failures_only=True)),
        "register": (Limit("ip", 10, 600),),
        "forgotPassword": (Limit("ip", 10, 600), Limit("login", 3, 600)),
        **dict.fromkeys(CASHIER_ROUTES, cashier),
    }


@dataclass(frozen=True)
class RateLimitConfig:
    rules: dict[str, tuple[Limit, ...]] = field(default_factory=_default_rules)


class RateLimiter:
    def __init__(self, shared: Shared, config: RateLimitConfig) -> None:
        self.shared = shared
        self.config = config
        self._local = MemoryShared()

    def limits(self, route: str) -> tuple[Limit, ...]:
        return self.config.rules.get(route, ())

    def counts_failures(self, route: str) -> bool:
        return any(limit.failures_only for limit in self.limits(route))

    async def check(self, skin: str, route: str, who: dict[str, str | None]) -> int | None:
        """Seconds to wait when a limit is reached, else None. Counts this call, except for
        limits on failures, which only look (`failed` counts those)."""
        for limit in self.limits(route):
            key = self._key(skin, route, limit, who)
            if key is None:
                continue
            if limit.failures_only:
                if await self._count(key) >= limit.count:
                    return limit.window_s
                continue
            count, left_ms = await self._hit(key, limit.window_s * 1000)
            if count > limit.count:
                return max(1, math.ceil(left_ms / 1000))
        return None

    async def failed(self, skin: str, route: str, who: dict[str, str | None]) -> None:
        """Counts a failed call against the limits on failures."""
        for limit in self.limits(route):
            key = self._key(skin, route, limit, who)
            if limit.failures_only and key is not None:
                await self._hit(key, limit.window_s * 1000)

    @staticmethod
    def _key(skin: str, route: str, limit: Limit, who: dict[str, str | None]) -> str | None:
        subject = who.get(limit.by)
        return f"bff:{skin}:rl:{route}:{limit.by}:{subject.lower()}" if subject else None

    async def _hit(self, key: str, window_ms: int) -> tuple[int, int]:
        try:
            return await self.shared.hit(key, window_ms)
        except StoreUnavailable:
            return await self._local.hit(key, window_ms)

    async def _count(self, key: str) -> int:
        try:
            raw = await self.shared.get(key)
        except StoreUnavailable:
            raw = await self._local.get(key)
        return int(raw) if raw is not None and raw.isdigit() else 0

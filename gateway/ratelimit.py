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
        "login": (Limit("ip", 20, 60), Limit("login", 8, 300)),
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

    async def check(self, skin: str, route: str, who: dict[str, str | None]) -> int | None:
        """Seconds to wait when a limit is reached, else None."""
        for limit in self.limits(route):
            subject = who.get(limit.by)
            if not subject:
                continue
            key = f"bff:{skin}:rl:{route}:{limit.by}:{subject.lower()}"
            window_ms = limit.window_s * 1000
            try:
                count, left_ms = await self.shared.hit(key, window_ms)
            except StoreUnavailable:
                count, left_ms = await self._local.hit(key, window_ms)
            if count > limit.count:
                return max(1, math.ceil(left_ms / 1000))
        return None

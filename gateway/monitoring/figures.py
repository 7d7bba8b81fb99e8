"""What the charts' counts (`gateway.monitoring.series`) read as: their layout per step, the two
resolutions they are kept at, and the figures of a range (rates, shares, the p95)."""

from __future__ import annotations

from dataclasses import dataclass

import msgspec

REQUESTS, ERRORS, CONTENT, HITS, FIRST_BUCKET = range(5)
BOUNDS_S = tuple(0.00025 * 1.25**k for k in range(59))
"""Upper bounds of the latency buckets (the last one, beyond 104 s, has none)."""
REFUSED = FIRST_BUCKET + len(BOUNDS_S) + 1
"""Answers the platform refused (`success: false`), then those refused as `SESSION_EXPIRED`."""
EXPIRED = REFUSED + 1
WIDTH = EXPIRED + 1

Counts = dict[tuple[str, int], list[int]]
"""(skin, step) -> [requests, 5xx, content answers, cache hits, latency buckets..., refused, expired]."""


@dataclass(frozen=True)
class Resolution:
    step_s: int
    steps: int
    """How many steps are kept, and what one Redis key holds."""
    keep_s: int
    """How long a key lives: it is read until the end of the next one's span."""
    prefix: tuple[str, ...]
    """Its keys' parts before the span's number."""

    def of(self, at: float) -> int:
        """The step of the time `at` (epoch seconds)."""
        return int(at) // self.step_s


FINE = Resolution(10, 360, 2 * 3600 + 60, ())
"""Every 10 s of the last hour (an hour a key)."""
COARSE = Resolution(120, 720, 2 * 86400 + 120, ("2m",))
"""Every 2 minutes of the last day (a day a key)."""


@dataclass(frozen=True)
class Recent:
    """A skin's answers and the platform's refusals among them, over a few recent steps."""

    answers: int
    refused: int
    expired: int
    """Refused as `SESSION_EXPIRED`."""

    @property
    def share(self) -> float:
        return self.refused / self.answers if self.answers else 0.0

    @property
    def expired_share(self) -> float:
        return self.expired / self.answers if self.answers else 0.0


class SkinFigures(msgspec.Struct, rename="camel"):
    """One skin's charts: per step, its start (epoch seconds) and figures (None: nothing to share)."""

    t: list[int]
    requests: list[int]
    rps: list[float]
    error_rate: list[float | None]
    platform_error_rate: list[float | None]
    """Answers the platform refused (HTTP 200 `success: false`) over all answers."""
    session_expired_rate: list[float | None]
    """Those refused as `SESSION_EXPIRED` over all answers."""
    p95_ms: list[float | None]
    cache_hit_ratio: list[float | None]


def figures(counts: Counts, skin: str, span: tuple[int, int], resolution: Resolution, now: float) -> SkinFigures:
    """The skin's figures for every step from `span`'s first to its last (the one under way)."""
    first, last = span
    out = SkinFigures([], [], [], [], [], [], [], [])
    step_s = resolution.step_s
    for step in range(first, last + 1):
        values = counts.get((skin, step)) or [0] * WIDTH
        n = values[REQUESTS]
        seconds = step_s if step < last else max(1.0, now - step * step_s)  # the step under way, so far
        out.t.append(step * step_s)
        out.requests.append(n)
        out.rps.append(round(n / seconds, 2))
        out.error_rate.append(_share(values[ERRORS], n))
        out.platform_error_rate.append(_share(values[REFUSED], n))
        out.session_expired_rate.append(_share(values[EXPIRED], n))
        out.p95_ms.append(p95_ms(values[FIRST_BUCKET:REFUSED]) if n else None)
        out.cache_hit_ratio.append(_share(values[HITS], values[CONTENT]))
    return out


def _share(part: int, whole: int) -> float | None:
    return round(part / whole, 4) if whole else None


def p95_ms(buckets: list[int]) -> float:
    """The 95th percentile of a latency histogram, interpolated within its bucket."""
    return round(quantile_s(buckets, 0.95) * 1000, 1)


def quantile_s(buckets: list[int], q: float) -> float:
    """The `q` quantile (0..1) of a latency histogram in seconds, interpolated within its bucket
    (beyond the last bound: that bound)."""
    target, seen = q * sum(buckets), 0
    for i, n in enumerate(buckets):
        if n and seen + n >= target:
            lower = BOUNDS_S[i - 1] if i > 0 else 0.0
            upper = BOUNDS_S[i] if i < len(BOUNDS_S) else lower
            return lower + (upper - lower) * (target - seen) / n
        seen += n
    return 0.0

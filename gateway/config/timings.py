"""How long a call to the platform may take, per route class (`UPSTREAM_TIMEOUTS`), and when a
skin's breaker for an upstream opens (`BREAKER`): values the settings read once from the
environment (`gateway.config.settings`), kept by the upstream caller and its breakers
(`gateway.upstream.caller`, `gateway.upstream.resilience`)."""

from __future__ import annotations

from dataclasses import dataclass

from contracts.catalogue import RouteClass


@dataclass(frozen=True)
class CallTiming:
    connect_s: float
    read_s: float
    deadline_s: float
    """The whole call, retries and backoff included."""
    retries: int
    """Extra attempts, when the failure allows one."""
    reuse_idle_s: float | None = None
    """Only connections idle for less than this carry the call (the transport's `Timeouts.reuse_idle`)."""


DEFAULT_TIMINGS: dict[RouteClass, CallTiming] = {
    "content": CallTiming(connect_s=1.0, read_s=5.0, deadline_s=8.0, retries=2),
    "read": CallTiming(connect_s=1.0, read_s=10.0, deadline_s=12.0, retries=2),
    # Never retried, so never sent on a connection the platform may just have dropped for idleness.
    "exclusive": CallTiming(connect_s=2.0, read_s=30.0, deadline_s=35.0, retries=0, reuse_idle_s=1.0),
}


def parse_timings(text: str) -> dict[RouteClass, CallTiming]:
    """`content=1/5/8,read=1/10/12,exclusive=2/30/35` (connect/read/deadline seconds);
    classes left out keep their defaults."""
    timings = dict(DEFAULT_TIMINGS)
    for part in filter(None, (p.strip() for p in text.split(","))):
        name, _, values = part.partition("=")
        if name not in timings:
            raise ValueError(f"UPSTREAM_TIMEOUTS: unknown route class {name!r} (content, read, exclusive)")
        try:
            connect, read, deadline = (float(v) for v in values.split("/"))
        except ValueError:
            raise ValueError(f"UPSTREAM_TIMEOUTS: {part!r} is not class=connect/read/deadline") from None
        if min(connect, read, deadline) <= 0 or deadline < connect:
            raise ValueError(f"UPSTREAM_TIMEOUTS: {part!r} needs positive values and deadline >= connect")
        klass: RouteClass = name
        base = timings[klass]
        timings[klass] = CallTiming(connect, read, deadline, base.retries, base.reuse_idle_s)
    return timings


@dataclass(frozen=True)
class BreakerConfig:
    failures: int = 5
    """Consecutive failures that open the breaker."""
    failure_rate: float = 0.5
    """...or this share of failed calls over the window,"""
    min_calls: int = 20
    """...once the window holds at least this many calls."""
    window_s: int = 10
    open_s: float = 5.0
    """How long an open breaker refuses before letting a probe through."""

    @classmethod
    def parse(cls, text: str) -> BreakerConfig:
        """`failures=5,rate=0.5,min_calls=20,window=10,open=5`."""
        names = {
            "failures": "failures",
            "rate": "failure_rate",
            "min_calls": "min_calls",
            "window": "window_s",
            "open": "open_s",
        }
        values: dict[str, float] = {}
        for part in filter(None, (p.strip() for p in text.split(","))):
            key, _, value = part.partition("=")
            if key not in names:
                raise ValueError(f"BREAKER: unknown setting {key!r} ({', '.join(names)})")
            try:
                values[names[key]] = float(value)
            except ValueError:
                raise ValueError(f"BREAKER: {part!r} is not a number") from None
        base = cls()
        return cls(
            failures=int(values.get("failures", base.failures)),
            failure_rate=values.get("failure_rate", base.failure_rate),
            min_calls=int(values.get("min_calls", base.min_calls)),
            window_s=int(values.get("window_s", base.window_s)),
            open_s=values.get("open_s", base.open_s),
        )

"""Prometheus metrics, served on the admin listener.

prometheus-client with a registry per app (not its process-global default registry, so
two apps in one process, as in the tests, do not share counters). Litestar's Prometheus
middleware is not used: it labels by path (one series per game id and date range) and
serves `/metrics` on the public app, where the skins' players would see it.

With `--workers N` each worker's values live in files (prometheus-client's multiprocess mode,
`PROMETHEUS_MULTIPROC_DIR`, set by the supervisor) and the supervisor's admin listener serves
their aggregate (`aggregate`): counters and histograms summed over every worker that ever
served, gauges as each says (`multiprocess_mode`, over the live workers). One process keeps the
in-memory values.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Protocol

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest, values
from prometheus_client.exposition import CONTENT_TYPE_LATEST
from prometheus_client.mmap_dict import MmapedDict
from prometheus_client.multiprocess import MultiProcessCollector

CONTENT_TYPE = CONTENT_TYPE_LATEST
BREAKER_VALUES = {"closed": 0, "half-open": 1, "open": 2}
LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)


class BreakerView(Protocol):
    """What the metrics read of a breaker (`gateway.upstream.resilience.Breaker`)."""

    @property
    def skin(self) -> str: ...
    @property
    def upstream(self) -> str: ...
    @property
    def state(self) -> str: ...


class Metrics:
    def __init__(self) -> None:
        self.registry = registry = CollectorRegistry()
        self.requests = Counter(
            "bff_requests",
            "Requests answered, by skin, route class and status",
            ["skin", "route_class", "status"],
            registry=registry,
        )
        self.duration = Histogram(
            "bff_request_duration_seconds",
            "Time to answer, by route class",
            ["route_class"],
            buckets=LATENCY_BUCKETS,
            registry=registry,
        )
        self.upstream_duration = Histogram(
            "bff_upstream_duration_seconds",
            "Time spent on upstream calls per request, by skin and route class",
            ["skin", "route_class"],
            buckets=LATENCY_BUCKETS,
            registry=registry,
        )
        self.dedup = Counter(
            "bff_dedup",
            "Proxied calls by their part in a joined flight (leader, follower, replayed)",
            ["role"],
            registry=registry,
        )
        self.cache = Counter(
            "bff_cache", "Content cache answers (HIT, STALE, MISS)", ["skin", "state"], registry=registry
        )
        self._breaker_metrics(registry)
        self.retries = Counter(
            "bff_upstream_retries",
            "Upstream attempts sent again, by skin, route class and reason",
            ["skin", "route_class", "reason"],
            registry=registry,
        )
        self.retries_refused = Counter(
            "bff_upstream_retries_refused", "Retries the retry budget refused", ["skin"], registry=registry
        )
        self.rate_limited = Counter(
            "bff_rate_limited", "Requests refused by a rate limit", ["skin", "route"], registry=registry
        )
        self._platform_metrics(registry)
        self._config_metrics(registry)
        self._measured_metrics()
        self._version: str | None = None
        self._in_files = values.ValueClass is not values.MutexValue  # multiprocess mode
        # `labels()` validates and hashes its arguments on every call: the per-request
        # series are looked up here instead (their label values are few: skins x classes).
        self._series: dict[tuple[Any, ...], Any] = {}

    def _platform_metrics(self, registry: CollectorRegistry) -> None:
        """What the platform sent that the gateway refused: answers off their contract, links off the site."""
        self.contract_breaches = Counter(
            "bff_upstream_contract_breaches",
            "Platform answers refused as breaking their route's contract (a 502 for that call), by skin and route",
            ["skin", "route"],
            registry=registry,
        )
        self.refusals = Counter(
            "bff_platform_errors",
            "Platform answers below 5xx saying `success: false`, by skin, route class and code (a known code, "
            "`other` or `none`)",
            ["skin", "route_class", "code"],
            registry=registry,
        )
        self.sign_ins = Counter(
            "bff_sign_ins",
            "Sign-in answers by skin and outcome: accepted, refused (the platform's `success: false`), failed "
            "(any other 4xx or 5xx)",
            ["skin", "outcome"],
            registry=registry,
        )
        self.links_refused = Counter(
            "bff_content_links_refused",
            "Links in content answers the link rule refused, blanked before being served or kept, by skin and route",
            ["skin", "route"],
            registry=registry,
        )

    def _breaker_metrics(self, registry: CollectorRegistry) -> None:
        self.breaker_state = Gauge(
            "bff_breaker_state",
            "Circuit breaker per skin and upstream: 0 closed, 1 half-open, 2 open",
            ["skin", "upstream"],
            registry=registry,
            multiprocess_mode="livemax",
        )
        # Across workers each has its own breakers: the worst live one is what an alert wants.
        self.breaker_opened = Counter(
            "bff_breaker_opened", "Times a breaker opened", ["skin", "upstream"], registry=registry
        )

    def _config_metrics(self, registry: CollectorRegistry) -> None:
        """The configuration in use, its changes and its errors."""
        self.config_info = Gauge(
            "bff_config_info",
            "The configuration in use (value 1), by version hash",
            ["version"],
            registry=registry,
            multiprocess_mode="livemax",
        )
        # Across workers: a version is 1 while any live worker runs it (two at 1: not yet converged).
        self.config_reloads = Counter(
            "bff_config_reloads",
            "Configuration changes tried, by outcome (applied, unchanged, rejected)",
            ["outcome"],
            registry=registry,
        )
        self.config_error = Gauge(
            "bff_config_error",
            "1 while the last configuration read was rejected (the last good one runs)",
            registry=registry,
            multiprocess_mode="livemax",
        )

    def _measured_metrics(self) -> None:
        # Measured when asked, by the process serving /metrics (with --workers, the supervisor).
        self.measured = measured = CollectorRegistry()
        self.upstream_up = Gauge(
            "bff_upstream_up",
            "1 when the upstream's last health check passed (by default a documented call keeping its contract)",
            ["skin", "upstream"],
            registry=measured,
        )
        self.upstream_latency = Gauge(
            "bff_upstream_probe_seconds",
            "How long the upstream's last probe took, by skin and upstream",
            ["skin", "upstream"],
            registry=measured,
        )
        self.instances = Gauge(
            "bff_instances",
            "Live gateway instances (the whole cluster with Redis) by the configuration version they run",
            ["config_version"],
            registry=measured,
        )

    def count_request(
        self,
        skin: str | None,
        route_class: str,
        status: int,
        seconds: float,
        upstream_s: float | None,
        cache: str | None,
        dedup: str | None,
        refusal: str | None,
    ) -> None:
        """One request answered, as its access line tells it (`gateway.monitoring.observability`):
        its upstream time (a skin's call's), how the cache and the flights served it, and the
        platform's refusal."""
        self.request(skin, route_class, status, seconds)
        if upstream_s is not None and skin is not None:
            self.upstream(skin, route_class, upstream_s)
        if cache is not None:
            self.cache_answer(skin, cache)
        if dedup in ("leader", "follower", "replayed"):
            self.dedup_role(dedup)
        if skin is not None and refusal is not None:
            self.count_refusal(skin, route_class, refusal)

    def request(self, skin: str | None, route_class: str, status: int, seconds: float) -> None:
        self._labelled(self.requests, skin or "none", route_class, str(status)).inc()
        self._labelled(self.duration, route_class).observe(seconds)

    def count_refusal(self, skin: str, route_class: str, code: str) -> None:
        """A platform refusal (`code`: a label of a bounded set, `gateway.pipeline.observe.refusal`)."""
        self._labelled(self.refusals, skin, route_class, code).inc()

    def sign_in(self, skin: str, outcome: str) -> None:
        self._labelled(self.sign_ins, skin, outcome).inc()

    def cache_answer(self, skin: str | None, state: str) -> None:
        self._labelled(self.cache, skin or "none", state).inc()

    def dedup_role(self, role: str) -> None:
        self._labelled(self.dedup, role).inc()

    def upstream(self, skin: str, route_class: str, seconds: float) -> None:
        self._labelled(self.upstream_duration, skin, route_class).observe(seconds)

    def _labelled(self, metric: Any, *values: str) -> Any:
        key = (metric, *values)
        series = self._series.get(key)
        if series is None:
            series = self._series[key] = metric.labels(*values)
        return series

    def on_breaker_change(self, breaker: BreakerView) -> None:
        self.breaker_state.labels(breaker.skin, breaker.upstream).set(BREAKER_VALUES[breaker.state])
        if breaker.state == "open":
            self.breaker_opened.labels(breaker.skin, breaker.upstream).inc()

    def config_version(self, version: str) -> None:
        if self._version is not None and self._version != version:
            if self._in_files:  # a file keeps every series it was given: the old one goes to 0
                self.config_info.labels(self._version).set(0)
            else:
                self.config_info.remove(self._version)
        self._version = version
        self.config_info.labels(version).set(1)

    def render(self) -> bytes:
        return generate_latest(self.registry)

    def render_measured(self) -> bytes:
        return generate_latest(self.measured)


def aggregate(directory: Path) -> bytes:
    """Prometheus text of every worker's values in `directory` (multiprocess mode)."""
    registry = CollectorRegistry()
    MultiProcessCollector(registry, path=str(directory))  # type: ignore[no-untyped-call]
    return generate_latest(registry)


def count_answered(directory: Path, pid: int) -> int:
    """How many requests the worker `pid` answered (its `bff_requests_total`), from its file."""
    path = directory / f"counter_{pid}.db"
    if not path.exists():
        return 0
    total = 0.0
    for key, value, _, _ in MmapedDict.read_all_values_from_file(str(path)):  # type: ignore[no-untyped-call]
        if json.loads(key)[1] == "bff_requests_total":
            total += value
    return int(total)

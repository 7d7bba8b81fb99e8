"""Gateway settings, parsed once from the environment and passed down.

Nothing else reads `os.environ`: `create_app(settings)` receives everything it needs.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from contracts.catalogue import RouteClass
from gateway.config.allowed_hosts import AllowedHosts
from gateway.config.timings import DEFAULT_TIMINGS, BreakerConfig, CallTiming, parse_timings
from gateway.store.address import SharedRedis

ROOT = Path(__file__).resolve().parents[2]


@dataclass(frozen=True)
class ListenerLimits:
    max_head_bytes: int = 32 * 1024
    """Request line plus headers (nginx's default large_client_header_buffers is 4 x 8 KB)."""
    head_timeout_s: float = 10.0
    """From the first byte of a request (or the connection) to the end of its headers."""
    body_idle_timeout_s: float = 15.0
    """Longest pause between two pieces of a request body."""


@dataclass(frozen=True)
class EventsSettings:
    """`/bff/events`: the balance pushed to every tab (`gateway.balance.feed`)."""

    interval_s: float = 10.0
    """How often a player's balance is asked of the platform (the spec's header poll)."""
    heartbeat_s: float = 15.0
    """A comment line this often keeps idle streams (and the proxies in front) open."""
    per_session: int = 4
    """Streams one session may hold on one instance; past it 429 `TOO_MANY_STREAMS`."""
    per_instance: int = 10_000
    """Streams one process holds at most; past it 503 `STREAMS_FULL` (0: the stream is off)."""
    connects_per_minute: int = 120
    """Stream connects a client address may make a minute (the shared rate limiter)."""
    queue: int = 16
    """Events waiting for a slow reader; past it the stream is dropped."""
    write_timeout_s: float = 10.0
    """A write the client does not take within this drops the stream (a client that never reads)."""
    retry_ms: int = 3000
    """The `retry:` hint: how long a browser waits before it reconnects a closed stream."""

    @classmethod
    def from_env(cls, env: Mapping[str, str]) -> EventsSettings:
        d = cls()
        return cls(
            interval_s=float(env.get("EVENTS_INTERVAL_S", d.interval_s)),
            heartbeat_s=float(env.get("EVENTS_HEARTBEAT_S", d.heartbeat_s)),
            per_session=int(env.get("EVENTS_PER_SESSION", d.per_session)),
            per_instance=int(env.get("EVENTS_MAX_STREAMS", d.per_instance)),
            connects_per_minute=int(env.get("EVENTS_CONNECTS_PER_MINUTE", d.connects_per_minute)),
            queue=int(env.get("EVENTS_QUEUE", d.queue)),
            write_timeout_s=float(env.get("EVENTS_WRITE_TIMEOUT_S", d.write_timeout_s)),
            retry_ms=int(env.get("EVENTS_RETRY_MS", d.retry_ms)),
        )


@dataclass(frozen=True)
class Settings:
    skins_file: Path | None = None
    """TOML skins file; None: the two built-in skins (`aurora`, `pampa`) on the local sandbox."""
    shared_redis: SharedRedis | None = None
    """Shared state for many instances (`REDIS_URL` or Sentinel); None: in-process memory."""
    secret_key: str = field(default_factory=lambda: secrets.token_urlsafe(32), repr=False)
    """Signs XSRF tokens. Set `SECRET_KEY` so all instances (and restarts) agree."""
    production: bool = False
    """Secure and `__Host-` cookies, HSTS. Off only for local http development."""
    spa_dist: Path = ROOT / "spa" / "dist"
    console_dist: Path = ROOT / "spa" / "dist-console"
    """The operators' console build, served on the admin listener only."""
    sandbox_url: str = "http://127.0.0.1:8001"
    """Upstream of the built-in skins."""
    upstream_ca_file: Path | None = None
    """A PEM bundle of the CAs an operator's platform is served under (a private or staging CA),
    trusted for `https` upstreams besides the system's own (`UPSTREAM_CA_FILE`)."""
    log_format: str = "auto"
    """`json`, `console`, or `auto` (console on a terminal, JSON otherwise)."""
    log_level: str = "info"
    max_json_body: int = 1024 * 1024
    """Largest JSON request the gateway reads (login, cashier...); uploads stream."""
    max_upload_body: int = 32 * 1024 * 1024
    trusted_proxies: tuple[str, ...] = ("127.0.0.1", "::1")
    """Addresses or CIDR ranges of the balancers whose X-Forwarded-For is believed."""
    admin_token: str | None = field(default=None, repr=False)
    """An `admin` bearer token named `ADMIN_TOKEN`; it or `operators_file` turns the admin listener on."""
    operators_file: Path | None = None
    """TOML file of the operators (argon2id password hashes, roles) and automation's bearer tokens."""
    audit_file: Path = Path("var/audit.jsonl")
    """The audit trail without Redis: append-only JSON lines (relative: to the working directory)."""
    console_idle_s: float = 1800.0
    """A console session ends after this long without a request from its operator."""
    console_max_s: float = 12 * 3600.0
    """A console session ends this long after its sign-in, however active."""
    admin_host: str = "127.0.0.1"
    admin_port: int = 9100
    allowed_hosts: AllowedHosts = field(default_factory=AllowedHosts)
    """Hosts operators may point upstreams at beside each skin's own and the skins file's
    `allowed_hosts` (`BFF_ALLOWED_HOSTS`, `aurora=*.platform.example;*=10.0.0.5:8443`; docs/allowed-hosts.md)."""
    probe_upstreams: bool = True
    """A new configuration's changed upstreams must answer HTTP before it is applied."""
    config_history: Path | None = None
    """Where the configuration's versions are kept without Redis (`CONFIG_HISTORY_FILE`, default
    `var/config-history.jsonl`); None (settings made in code): this process's memory only."""
    skins_poll_s: float = 1.0
    """How often the skins file is checked for changes."""
    drain_delay_s: float = 0.0
    """After SIGTERM: how long to keep accepting (not ready) so balancers stop sending."""
    drain_timeout_s: float = 30.0
    """After SIGTERM: how long requests in flight may take before the process exits."""
    timings: dict[RouteClass, CallTiming] = field(default_factory=lambda: dict(DEFAULT_TIMINGS))
    """Connect/read timeouts and deadline per route class."""
    breaker: BreakerConfig = field(default_factory=BreakerConfig)
    cache_ttl_s: float = 30.0
    """How long CMS content is served from the cache before it is refreshed."""
    otel: bool = False
    """OpenTelemetry spans (needs the `otel` extra)."""
    listener: ListenerLimits = field(default_factory=ListenerLimits)
    """Request head size cap, head deadline and body idle timeout of the public listener."""
    visitor_rate: float = 50.0
    """Calls per second a client address may make while not logged in (per instance; content excluded)."""
    visitor_burst: int = 200
    sign_in_block_s: int = 900
    """After an operator ends a player's sessions, how long that login's sign-ins on the skin are refused (0: not)."""
    events: EventsSettings = field(default_factory=EventsSettings)
    """The balance stream's interval, heartbeat and bounds (`EVENTS_*`)."""

    def __post_init__(self) -> None:
        if not 0 < self.console_idle_s <= self.console_max_s:
            raise ValueError("CONSOLE_IDLE_S must be above 0 and at most CONSOLE_MAX_S")
        if self.upstream_ca_file is not None and not self.upstream_ca_file.is_file():
            raise ValueError(f"UPSTREAM_CA_FILE: no file at {self.upstream_ca_file}")

    @property
    def admin_listener(self) -> bool:
        """The admin listener runs: someone can sign in to it or call it with a token."""
        return bool(self.admin_token) or self.operators_file is not None

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Settings:
        env = os.environ if env is None else env
        defaults = cls()
        skins, operators, ca_file = env.get("SKINS_FILE"), env.get("OPERATORS_FILE"), env.get("UPSTREAM_CA_FILE")
        return cls(
            skins_file=Path(skins) if skins else None,
            shared_redis=SharedRedis.from_env(env),
            secret_key=env.get("SECRET_KEY") or defaults.secret_key,
            production=env.get("GATEWAY_ENV", "production").lower() not in {"development", "dev", "local"},
            spa_dist=Path(env.get("SPA_DIST", str(defaults.spa_dist))),
            console_dist=Path(env.get("CONSOLE_DIST", str(defaults.console_dist))),
            sandbox_url=env.get("SANDBOX_URL", defaults.sandbox_url),
            upstream_ca_file=Path(ca_file) if ca_file else None,
            log_format=env.get("LOG_FORMAT", defaults.log_format),
            log_level=env.get("LOG_LEVEL", defaults.log_level),
            trusted_proxies=tuple(
                p.strip()
                for p in env.get("TRUSTED_PROXIES", ",".join(defaults.trusted_proxies)).split(",")
                if p.strip()
            ),
            admin_token=env.get("ADMIN_TOKEN") or None,
            operators_file=Path(operators) if operators else None,
            audit_file=Path(env.get("AUDIT_FILE") or defaults.audit_file),
            console_idle_s=float(env.get("CONSOLE_IDLE_S", defaults.console_idle_s)),
            console_max_s=float(env.get("CONSOLE_MAX_S", defaults.console_max_s)),
            admin_host=env.get("ADMIN_HOST", defaults.admin_host),
            admin_port=int(env.get("ADMIN_PORT", defaults.admin_port)),
            allowed_hosts=AllowedHosts.parse(env.get("BFF_ALLOWED_HOSTS", "")),
            probe_upstreams=_flag(env.get("PROBE_UPSTREAMS"), defaults.probe_upstreams),
            config_history=Path(env.get("CONFIG_HISTORY_FILE") or "var/config-history.jsonl"),
            skins_poll_s=float(env.get("SKINS_POLL_S", defaults.skins_poll_s)),
            drain_delay_s=float(env.get("DRAIN_DELAY_S", defaults.drain_delay_s)),
            drain_timeout_s=float(env.get("DRAIN_TIMEOUT_S", defaults.drain_timeout_s)),
            timings=parse_timings(env.get("UPSTREAM_TIMEOUTS", "")),
            breaker=BreakerConfig.parse(env.get("BREAKER", "")),
            cache_ttl_s=float(env.get("CACHE_TTL_S", defaults.cache_ttl_s)),
            otel=_flag(env.get("OTEL_ENABLED"), defaults.otel),
            visitor_rate=float(env.get("VISITOR_RATE", defaults.visitor_rate)),
            visitor_burst=int(env.get("VISITOR_BURST", defaults.visitor_burst)),
            sign_in_block_s=int(env.get("SIGN_IN_BLOCK_S", defaults.sign_in_block_s)),
            listener=ListenerLimits(
                max_head_bytes=int(env.get("MAX_REQUEST_HEAD_BYTES", defaults.listener.max_head_bytes)),
                head_timeout_s=float(env.get("HEADER_TIMEOUT_S", defaults.listener.head_timeout_s)),
                body_idle_timeout_s=float(env.get("BODY_IDLE_TIMEOUT_S", defaults.listener.body_idle_timeout_s)),
            ),
            events=EventsSettings.from_env(env),
        )


def _flag(value: str | None, default: bool) -> bool:
    if value is None or not value.strip():
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}

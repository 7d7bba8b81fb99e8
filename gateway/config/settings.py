"""Gateway settings, parsed once from the environment and passed down.

Nothing else reads `os.environ`: `create_app(settings)` receives everything it needs.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

from contracts.catalogue import RouteClass
from gateway.upstream.resilience import DEFAULT_TIMINGS, BreakerConfig, CallTiming, parse_timings

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
class SharedRedis:
    """The Redis the instances share: one address, or the primary its Sentinels name (followed
    across failovers)."""

    url: str | None = field(default=None, repr=False)
    """`REDIS_URL`. With sentinels only its user, password, database and TLS (`rediss://`) count."""
    sentinels: tuple[tuple[str, int], ...] = ()
    """`REDIS_SENTINELS`: where to ask which server is the primary."""
    master: str | None = None
    """`REDIS_SENTINEL_MASTER`: the service name the sentinels monitor."""
    sentinel_password: str | None = field(default=None, repr=False)
    wait_replicas: int = 0
    """`REDIS_WAIT_REPLICAS`: replicas that must hold a money call's claim before the call goes out."""

    def __post_init__(self) -> None:
        if self.sentinels and not self.master:
            raise ValueError("REDIS_SENTINELS needs REDIS_SENTINEL_MASTER (the service name the sentinels monitor)")
        if self.master and not self.sentinels:
            raise ValueError("REDIS_SENTINEL_MASTER needs REDIS_SENTINELS (comma-separated host:port)")
        if self.sentinel_password and not self.sentinels:
            raise ValueError("REDIS_SENTINEL_PASSWORD is set but REDIS_SENTINELS is not")
        if not self.sentinels and not self.url:
            raise ValueError("a shared Redis needs REDIS_URL or REDIS_SENTINELS")
        if self.wait_replicas < 0:
            raise ValueError(f"REDIS_WAIT_REPLICAS must be 0 or more, not {self.wait_replicas}")

    def describe(self) -> str:
        """Where the store is, for logs: no password."""
        if self.sentinels:
            return f"sentinel:{self.master}@" + ",".join(f"{host}:{port}" for host, port in self.sentinels)
        url = urlsplit(self.url or "")
        return f"{url.scheme}://{url.hostname}:{url.port or 6379}{url.path}"

    @classmethod
    def from_env(cls, env: Mapping[str, str]) -> SharedRedis | None:
        url, sentinels = env.get("REDIS_URL") or None, env.get("REDIS_SENTINELS", "").strip()
        wait = env.get("REDIS_WAIT_REPLICAS", "").strip() or "0"
        if not wait.isdigit():
            raise ValueError(f"REDIS_WAIT_REPLICAS must be a whole number, not {wait!r}")
        if url is None and not sentinels:
            for name in ("REDIS_SENTINEL_MASTER", "REDIS_SENTINEL_PASSWORD"):
                if env.get(name):
                    raise ValueError(f"{name} is set but REDIS_SENTINELS is not")
            if int(wait):
                raise ValueError("REDIS_WAIT_REPLICAS needs REDIS_URL or REDIS_SENTINELS")
            return None
        return cls(
            url=url,
            sentinels=tuple(_address(part) for part in sentinels.split(",") if part.strip()),
            master=env.get("REDIS_SENTINEL_MASTER", "").strip() or None,
            sentinel_password=env.get("REDIS_SENTINEL_PASSWORD") or None,
            wait_replicas=int(wait),
        )


def _address(text: str) -> tuple[str, int]:
    host, _, port = text.strip().rpartition(":")
    if not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise ValueError(f"REDIS_SENTINELS: {text.strip()!r} is not host:port")
    return host.strip("[]"), int(port)


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

    def __post_init__(self) -> None:
        if not 0 < self.console_idle_s <= self.console_max_s:
            raise ValueError("CONSOLE_IDLE_S must be above 0 and at most CONSOLE_MAX_S")

    @property
    def admin_listener(self) -> bool:
        """The admin listener runs: someone can sign in to it or call it with a token."""
        return bool(self.admin_token) or self.operators_file is not None

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Settings:
        env = os.environ if env is None else env
        defaults = cls()
        skins, operators = env.get("SKINS_FILE"), env.get("OPERATORS_FILE")
        return cls(
            skins_file=Path(skins) if skins else None,
            shared_redis=SharedRedis.from_env(env),
            secret_key=env.get("SECRET_KEY") or defaults.secret_key,
            production=env.get("GATEWAY_ENV", "production").lower() not in {"development", "dev", "local"},
            spa_dist=Path(env.get("SPA_DIST", str(defaults.spa_dist))),
            console_dist=Path(env.get("CONSOLE_DIST", str(defaults.console_dist))),
            sandbox_url=env.get("SANDBOX_URL", defaults.sandbox_url),
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
            listener=ListenerLimits(
                max_head_bytes=int(env.get("MAX_REQUEST_HEAD_BYTES", defaults.listener.max_head_bytes)),
                head_timeout_s=float(env.get("HEADER_TIMEOUT_S", defaults.listener.head_timeout_s)),
                body_idle_timeout_s=float(env.get("BODY_IDLE_TIMEOUT_S", defaults.listener.body_idle_timeout_s)),
            ),
        )


def _flag(value: str | None, default: bool) -> bool:
    if value is None or not value.strip():
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}

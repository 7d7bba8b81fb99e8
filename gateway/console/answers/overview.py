"""The overview's answers (`gateway.console.overview`): every skin with its upstreams, each one's
last probe and breaker, the counts of its refused answers; every instance; a purge, a revocation."""

from __future__ import annotations

from typing import Literal

import msgspec

from gateway.monitoring.instances import InstanceView


class UpstreamHealth(msgspec.Struct, rename="camel"):
    """An upstream's last probe (`unknown`: none yet)."""

    status: Literal["up", "down", "unknown"]
    latency_ms: float | None = None
    checked_at: str | None = None
    detail: str | None = None


class BreakerState(msgspec.Struct):
    """The worst state any live instance reports of an upstream's breaker, and since when (ISO 8601)."""

    state: Literal["closed", "half-open", "open"]
    since: str | None


class UpstreamView(msgspec.Struct, rename="camel"):
    name: str
    url: str
    overridden: bool
    file_url: str | None
    """The skins file's base URL (an operator's change may override it)."""
    health: UpstreamHealth
    breaker: BreakerState


class ContractBreach(msgspec.Struct):
    """Platform answers refused (a 502 for that call) as breaking their route's contract."""

    route: str
    count: int


class PlatformError(msgspec.Struct, rename="camel"):
    """The platform's refusals (`success: false`) of one route class with one code."""

    route_class: str
    code: str
    """A code the contracts know, `other` or `none`."""
    count: int


class SkinView(msgspec.Struct, rename="camel"):
    id: str
    name: str
    site_id: str
    hosts: list[str]
    upstreams: list[UpstreamView]
    allowed_hosts: list[str]
    """Hosts (`*.domain`, either with `:port`) its upstreams may point at: the deployment's, read only."""
    contract_breaches: list[ContractBreach]
    """Per route, most first; empty when none broke it."""
    platform_errors: list[PlatformError]
    """By route class and code, most first (this listener's counts)."""
    approval: bool
    """Its changes wait for a second operator's approval (the skins file's `approval = true`)."""
    reality_check_minutes: float | None
    """Every how many minutes of a session its players see a reality check; None: never."""


class ConfigState(msgspec.Struct, rename="camel"):
    version: str
    source: str
    changed_at: str | None
    error: str | None
    error_at: str | None


class FileState(msgspec.Struct, rename="camel"):
    """The operators file's last refusal (admins only; else none)."""

    error: str | None = None
    error_at: str | None = None


class StoreState(msgspec.Struct):
    kind: Literal["memory", "redis"]
    status: str


class BreachScope(msgspec.Struct):
    """Whose counts the skins' `contractBreaches` are: this process's, or its workers' summed."""

    scope: Literal["instance", "workers"]


class Overview(msgspec.Struct, rename="camel"):
    config: ConfigState
    operators_file: FileState
    store: StoreState
    contract_breaches: BreachScope
    skins: list[SkinView]


class InstanceList(msgspec.Struct):
    """Every live instance, and the configuration version now current."""

    current: str
    instances: list[InstanceView]


class PurgeCounts(msgspec.Struct):
    local: int
    shared: int


class Purged(msgspec.Struct):
    """A skin's cached content dropped: in this process (`local`) and in the shared store."""

    skin: str
    purged: PurgeCounts


class Revoked(msgspec.Struct, rename="camel"):
    skin: str
    login: str
    sessions_ended: int
    found: bool
    """False: the login had no live session (mistyped?); nothing was ended."""
    blocked_until: str | None
    """Until when the player's sign-ins on the skin are refused (None: `SIGN_IN_BLOCK_S` is 0)."""

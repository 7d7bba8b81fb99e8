"""What the composition root (`gateway.app`) makes: the shared stores, and the long-lived parts
the CLI, the admin listener and tests reach for. The pipeline's stages get only their own."""

from __future__ import annotations

from dataclasses import dataclass, field

from litestar.stores.base import Store
from redis.asyncio import Redis

from gateway.accounts.audit import Trail
from gateway.accounts.signin import Accounts
from gateway.balance.feed import BalanceFeed
from gateway.canary.parts import Canaries
from gateway.config.live import LiveConfig
from gateway.config.settings import Settings
from gateway.maintenance import Plans
from gateway.monitoring.health import Health
from gateway.monitoring.instances import Instances
from gateway.monitoring.series import Series
from gateway.monitoring.watch import Watch
from gateway.runtime.lifecycle import Lifecycle
from gateway.runtime.metrics import Metrics
from gateway.state.cache import ContentCache
from gateway.state.dedup import SharedFlights
from gateway.state.outcome import Outcome
from gateway.state.presence import Presence
from gateway.state.session import Sessions
from gateway.store import Shared
from gateway.upstream.pools import UpstreamClients
from gateway.upstream.resilience import Breakers


@dataclass(frozen=True)
class Stores:
    """Where the instances' shared state lives: Redis with `REDIS_URL`, else this process."""

    shared: Shared
    sessions: Store
    redis: Redis | None = None
    flights: SharedFlights[Outcome] | None = None
    presence: Presence | None = None


@dataclass(frozen=True)
class Gateway:
    """What the composition root made, for the CLI, the admin listener and tests."""

    settings: Settings
    lifecycle: Lifecycle
    metrics: Metrics
    stores: Stores
    config: LiveConfig
    clients: UpstreamClients
    breakers: Breakers
    sessions: Sessions
    cache: ContentCache
    health: Health
    instances: Instances
    """Every instance and the configuration version it runs."""
    series: Series
    """The console's charts: requests, errors, latency and cache hits per skin, per 10 s."""
    accounts: Accounts | None = None
    """Who may use the admin listener, and their console sessions (when it runs)."""
    audit: Trail | None = None
    """The audit trail (when the admin listener runs)."""
    feed: BalanceFeed | None = None
    """`/bff/events`' balance feed."""
    watch: Watch | None = None
    """The heartbeat, the status line and the event timeline (`gateway.monitoring.watch`)."""
    canaries: Canaries | None = None
    """Canary changes: their records, the board the routing reads, the controller (`gateway.canary`)."""
    plans: Plans = field(default_factory=lambda: Plans.open(None))
    """Maintenance windows, scheduled changes and approvals (`gateway.maintenance`)."""

    async def flush_counts(self) -> None:
        """At shutdown: the last quarter second of the charts' counts, and of a canary's figures."""
        await self.series.flush()
        if self.canaries is not None:
            await self.canaries.figures.flush()

    async def reread(self, reason: str) -> None:
        """The skins file and the operators file read again (SIGHUP)."""
        await self.config.reload(reason)
        if self.accounts is not None:
            self.accounts.operators.reload(reason)

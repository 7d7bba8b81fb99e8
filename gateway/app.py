"""The composition root: `create_app(settings)` builds the gateway, and nothing else does.

The parts are made in order, each from those before it: settings -> store -> skins (the live
configuration) -> upstreams -> the pipeline's stages -> the apps (Litestar for `/bff/*` and the
SPA, the front door in front of it; the admin listener with `ADMIN_TOKEN`, `admin_app`).
"""

from __future__ import annotations

import asyncio
import gc
import secrets
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager, suppress
from typing import Any

import structlog
from litestar import Litestar, Request
from litestar.di import Provide
from litestar.openapi import OpenAPIConfig

from contracts.catalogue import Catalogue
from gateway.accounts import carry_over
from gateway.accounts.audit import AuditEntry, Trail, file_event
from gateway.accounts.operators import OperatorsFile
from gateway.accounts.signin import Accounts
from gateway.balance.bus.memory import MemoryBus
from gateway.balance.bus.redis import RedisBus
from gateway.balance.feed import BalanceFeed
from gateway.canary.parts import make_canaries
from gateway.canary.routing import CanaryStage
from gateway.config import history_carry, skins
from gateway.config.live import Config, LiveConfig
from gateway.config.settings import Settings
from gateway.config.skins import Skin, changed_upstreams
from gateway.config.trust import upstream_trust
from gateway.console.admin import Workers, create_admin_app
from gateway.console.canaries.effects import start_canaries
from gateway.console.plans import runner
from gateway.edge import bff, events, reality
from gateway.edge.entry import FrontDoor
from gateway.edge.spa import spa_handlers
from gateway.http.asgi import Incoming
from gateway.http.clients import TrustedProxies
from gateway.http.compression import Packed
from gateway.http.cookies import BrowserCookies
from gateway.http.errors import EXCEPTION_HANDLERS
from gateway.http.security import DeviceTokens, XsrfTokens
from gateway.maintenance import Plans
from gateway.monitoring.events import Timeline
from gateway.monitoring.health import Health
from gateway.monitoring.instances import Instances
from gateway.monitoring.observability import Access, configure_logging
from gateway.monitoring.series import Series
from gateway.monitoring.watch import Watch
from gateway.parts import Gateway, Stores
from gateway.pipeline import Pipeline
from gateway.pipeline.caching import ContentPlan
from gateway.pipeline.guard import Guard
from gateway.pipeline.joining import Flights
from gateway.pipeline.keyed import KeyedCalls
from gateway.pipeline.links import ContentLinks
from gateway.pipeline.maintenance import MaintenanceStage
from gateway.pipeline.observe import Observe
from gateway.pipeline.plan import Plan
from gateway.pipeline.session import SessionStage
from gateway.pipeline.skin import SkinStage
from gateway.runtime.lifecycle import Lifecycle
from gateway.runtime.metrics import Metrics
from gateway.runtime.tracing import Tracing
from gateway.state.cache import CacheConfig, ContentCache
from gateway.state.idempotency import IdempotencyRecords
from gateway.state.ratelimit import RateLimitConfig, RateLimiter
from gateway.state.session import Sessions
from gateway.store import keys
from gateway.store.redis import FailFast
from gateway.store.sentinel import close, follow
from gateway.stores import open_stores
from gateway.upstream.call import Calls
from gateway.upstream.caller import Caller
from gateway.upstream.platform import Platform
from gateway.upstream.pools import UpstreamClients
from gateway.upstream.resilience import Breaker, Breakers

log = structlog.get_logger("gateway")


def create_app(settings: Settings | None = None, *, tracer_provider: Any = None) -> FrontDoor[Gateway]:
    settings = settings or Settings.from_env()
    configure_logging(settings)
    lifecycle, metrics, instance = Lifecycle(), Metrics(), secrets.token_hex(4)
    stores = open_stores(settings, instance, lifecycle)
    instances, series = Instances(instance, stores.redis, lifecycle), Series(stores.redis, lifecycle.spawn)
    cache = ContentCache(stores.shared, CacheConfig(ttl_s=settings.cache_ttl_s))
    clients = UpstreamClients(ssl_context=upstream_trust(settings.upstream_ca_file))
    breakers = Breakers(settings.breaker, on_change=lambda breaker: _on_breaker_change(metrics, instances, breaker))
    config = live_config(settings, stores, clients, breakers, cache, metrics, lifecycle, instances)
    instances.follow(config, breakers)
    sessions = Sessions(stores.sessions, stores.shared)
    proxies = TrustedProxies(settings.trusted_proxies)
    accounts, audit = open_console(settings, stores, lifecycle, proxies) if settings.admin_listener else (None, None)
    tracing = Tracing(settings.otel, tracer_provider)
    cookies = BrowserCookies(XsrfTokens(settings.secret_key), DeviceTokens(settings.secret_key), settings.production)
    limits = RateLimitConfig(visitor_rate=settings.visitor_rate, visitor_burst=settings.visitor_burst)
    limiter = RateLimiter(stores.shared, limits.with_events_limit(settings.events.connects_per_minute))
    calls, caller = Calls(clients, proxies), Caller(breakers, settings.timings, metrics, tracing)
    canaries = make_canaries(stores.shared, stores.redis, config, lifecycle.spawn)
    sides = CanaryStage(canaries.board, sessions, cookies.session, proxies)
    platform = Platform(calls, caller, sides.for_session)
    feed = balance_feed(settings, stores, sessions, platform, config, lifecycle, instance)
    gateway = Gateway(
        settings,
        lifecycle,
        metrics,
        stores,
        config,
        clients,
        breakers,
        sessions,
        cache,
        health := Health(lifecycle, stores.shared, sessions, config, clients),
        instances,
        series,
        accounts,
        audit,
        feed,
        Watch(instances, health, breakers, config, Timeline(instance, stores.redis), series.storm_share),
        canaries,
        ahead := Plans.open(stores.redis),
    )
    canaries.due_for = ahead.schedule.due_for  # a canary does not start over a change scheduled within it
    observe = Observe(sessions, cookies, limiter, tracing, feed)
    flights = Flights(stores.flights, settings.timings)
    plans = (
        ContentPlan(cache, flights, lifecycle),
        KeyedCalls(IdempotencyRecords(stores.shared, instance), flights, settings.timings, lifecycle),
        flights,
    )
    plan = Plan(calls, caller, observe, plans, limiter.visitors, ContentLinks(metrics))
    guard = Guard(Catalogue(), cookies, limiter, proxies, settings)
    stages = (SkinStage(config), guard, MaintenanceStage(ahead.maintenance), SessionStage(sessions, cookies.session))
    pipeline = Pipeline(*stages, sides, plan, observe)
    site = site_app(gateway, cookies, limiter, proxies, platform)
    return FrontDoor(site, pipeline, Access(metrics, settings, series, canaries.figures), gateway, tracing)


def balance_feed(
    settings: Settings,
    stores: Stores,
    sessions: Sessions,
    platform: Platform,
    config: LiveConfig,
    lifecycle: Lifecycle,
    instance: str,
) -> BalanceFeed:
    """`/bff/events`' feed: by Redis pub/sub across instances, else within this process; its
    streams close with a retry hint when the instance drains."""
    redis = stores.redis

    def bus(feed: BalanceFeed) -> MemoryBus | RedisBus:
        if redis is None:
            return MemoryBus(feed)
        return RedisBus(feed, redis, FailFast(), instance)

    feed = BalanceFeed(settings.events, sessions, platform, config, bus, lifecycle.spawn)
    lifecycle.on_drain.append(feed.drain)
    return feed


def open_console(
    settings: Settings, stores: Stores, lifecycle: Lifecycle, proxies: TrustedProxies
) -> tuple[Accounts, Trail]:
    """The admin listener's operators (the file, re-read live), their console sessions and sign-in
    limits in the shared store, and the audit trail (a Redis stream, else an append-only file)."""
    audit = carry_over.trail(stores.redis, lifecycle.spawn, settings.audit_file)

    def on_reject(error: str) -> None:
        entry = AuditEntry("operators-file-rejected", "(file)", "file", None, "failed", detail=error)
        # Every instance reads the file: one entry per file's content (and error) in the cluster.
        lifecycle.spawn(audit.record_once(entry, file_event(settings.operators_file, error)))

    operators = OperatorsFile(settings.operators_file, on_rejected=on_reject)
    accounts = Accounts.open(
        operators, stores.shared, proxies, settings.production, settings.console_idle_s, settings.console_max_s
    )
    return accounts, audit


def live_config(
    settings: Settings,
    stores: Stores,
    clients: UpstreamClients,
    breakers: Breakers,
    cache: ContentCache,
    metrics: Metrics,
    lifecycle: Lifecycle,
    instances: Instances,
) -> LiveConfig:
    """The skins, re-read live; a swap resets the changed upstreams' breakers, opens their
    connections and retires, once calls in flight had time to end, those no skin uses; the
    instance's record then says which version it runs."""
    longest = max(p.deadline_s for p in settings.timings.values()) + 5

    def on_swap(old: Config, new: Config) -> None:
        metrics.config_version(new.version)
        metrics.config_reloads.labels("applied").inc()
        metrics.config_error.set(0)
        for skin_id, name, _ in changed_upstreams(old.skins, new.skins):
            breakers.reset(skin_id, name)
            metrics.breaker_state.labels(skin_id, name).set(0)  # a new base URL starts closed
        clients.open(new.skins.upstream_origins())
        lifecycle.spawn(clients.retire(new.skins.upstream_origins, longest))
        instances.on_change()

    def on_reject(_: str) -> None:
        metrics.config_reloads.labels("rejected").inc()
        metrics.config_error.set(1)

    async def purge(skin_id: str) -> None:
        await cache.purge(keys.content_prefix(skin_id))

    config = LiveConfig(
        settings.skins_file,
        lambda: skins.builtin(settings.sandbox_url),
        probe=(lambda origin: clients.reachable(origin, within=2.0)) if settings.probe_upstreams else None,
        on_swap=on_swap,
        on_reject=on_reject,
        redis=stores.redis,
        on_purge=purge,
        versions=history_carry.versions(stores.redis, settings.config_history, lambda: config.current.file),
        allowed=settings.allowed_hosts,
        sandbox_url=settings.sandbox_url,
    )
    metrics.config_version(config.version)
    return config


def site_app(
    gateway: Gateway, cookies: BrowserCookies, limiter: RateLimiter, proxies: TrustedProxies, platform: Platform
) -> Litestar:
    """`/bff/*` and the SPA, on Litestar; their handlers get what they need injected."""
    config, settings = gateway.config, gateway.settings

    def skin(request: Request[Any, Any, Any]) -> Skin | None:
        return config.skins.for_host(Incoming.of(request.scope).headers.get("host"))

    given = {
        "sessions": gateway.sessions,
        "browser_cookies": cookies,
        "limiter": limiter,
        "proxies": proxies,
        "platform": platform,
        "health": gateway.health,
        "packed": Packed(),
        "feed": gateway.feed,
        "maintenance": gateway.plans.maintenance,
    }
    dependencies = {name: Provide(_constant(part), sync_to_thread=False) for name, part in given.items()}
    return Litestar(
        route_handlers=[
            *bff.route_handlers,
            *events.route_handlers,
            *reality.route_handlers,
            *spa_handlers(settings.spa_dist, settings.production),
        ],
        dependencies={**dependencies, "skin": Provide(skin, sync_to_thread=False)},
        lifespan=[lambda _: lifespan(gateway)],
        exception_handlers=EXCEPTION_HANDLERS,
        plugins=[bff.OutgoingSchema()],
        openapi_config=OpenAPIConfig(title="Casino BFF", version="1", path="/bff/schema"),
        request_max_body_size=settings.max_upload_body,
        logging_config=None,
    )


@asynccontextmanager
async def lifespan(gateway: Gateway) -> AsyncIterator[None]:
    config, stores, settings = gateway.config, gateway.stores, gateway.settings
    gateway.clients.open(config.skins.upstream_origins())
    # What exists now (modules, the app, routes, skins) lives as long as the process: out of
    # the collector's sight, a full collection walks only what requests left behind instead
    # of the whole heap (such walks were the gateway's p99: docs/decisions.md, "The startup heap").
    gc.collect()
    gc.freeze()
    store = settings.shared_redis.describe() if settings.shared_redis is not None else "memory"
    log.info(
        "gateway.started",
        config_version=config.version,
        config_source=config.source,
        skins=[s.id for s in config.skins.all],
        store=store,
    )
    watchers = [asyncio.ensure_future(config.watch(settings.skins_poll_s)), asyncio.ensure_future(config.listen())]
    if gateway.accounts is not None:
        watchers.append(asyncio.ensure_future(gateway.accounts.operators.watch(settings.skins_poll_s)))
    if stores.redis is not None:
        watchers.append(asyncio.ensure_future(follow(stores.redis)))
    await config.start()
    if gateway.feed is not None and isinstance(gateway.feed.bus, RedisBus):
        watchers.append(await gateway.feed.bus.start())
    if stores.presence is not None:  # listening before the first lease names this instance
        stores.presence.listeners.append(gateway.instances)  # its record is written once Redis hears it
        watchers.append(await stores.presence.start())
    gateway.lifecycle.on_drain.append(gateway.instances.on_change)
    if gateway.watch is not None:
        watchers.append(asyncio.ensure_future(gateway.watch.watch()))
    watchers += start_canaries(gateway)
    watchers += runner.start(gateway)  # maintenance, scheduled changes, approvals: `gateway.console.plans`
    try:
        yield
    finally:
        for task in watchers:
            task.cancel()
        for task in watchers:
            with suppress(asyncio.CancelledError):
                await task
        await gateway.flush_counts()
        await gateway.lifecycle.settle(within_s=min(5.0, settings.drain_timeout_s))
        await gateway.clients.aclose()
        if stores.redis is not None:
            await close(stores.redis)


def _constant(part: object) -> Callable[[], object]:
    return lambda: part


def admin_app(app: FrontDoor[Gateway], workers: Workers | None = None) -> Litestar:
    """The admin listener of an app built by `create_app` (needs `ADMIN_TOKEN` or `OPERATORS_FILE`); with `workers`,
    the supervisor's, whose metrics and status are those of the worker processes."""
    return create_admin_app(app.gateway, workers)


def _on_breaker_change(metrics: Metrics, instances: Instances, breaker: Breaker) -> None:
    metrics.on_breaker_change(breaker)
    instances.on_breaker_change(breaker)
    log.warning(
        "breaker." + breaker.state, skin=breaker.skin, upstream=breaker.upstream, last_failure=breaker.last_failure
    )

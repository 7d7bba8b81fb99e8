"""The composition root: `create_app(settings)` builds the gateway and nothing else does.

`create_app` returns the public app; with `ADMIN_TOKEN` set, `admin_app(app)` builds the
admin listener on the same `Gateway` (the CLI serves it on its own port).
"""

from __future__ import annotations

import asyncio
import gc
import secrets
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager, suppress
from typing import Any

import httpx
import structlog
from litestar import Litestar
from litestar.datastructures import State
from litestar.exceptions import HTTPException
from litestar.middleware.base import DefineMiddleware
from litestar.openapi import OpenAPIConfig
from litestar.stores.base import Store
from litestar.stores.redis import RedisStore
from litestar.types import ASGIApp

from gateway import bff, skins
from gateway.admin import create_admin_app
from gateway.cache import CacheConfig
from gateway.dedup import SharedFlights
from gateway.errors import (
    error_answer,
    http_exception_handler,
    internal_error_handler,
    shutdown_answer,
    store_unavailable_answer,
    store_unavailable_handler,
)
from gateway.exchange import ClientGone, Incoming
from gateway.live import Config, LiveConfig, changed_upstreams
from gateway.metrics import Metrics
from gateway.observability import Access, AccessLog, configure_logging
from gateway.presence import Presence
from gateway.proxy import decode_outcome, encode_outcome, proxy, shared_outcome
from gateway.ratelimit import RateLimitConfig
from gateway.resilience import Breaker, Breakers
from gateway.runtime import Gateway, RequestContext
from gateway.security import XsrfTokens, request_id
from gateway.session import STORE_NAMESPACE, Sessions
from gateway.settings import Settings
from gateway.shared import (
    FailFast,
    FailFastStore,
    MemoryShared,
    ProcessStore,
    RedisShared,
    Shared,
    StoreUnavailable,
    connect,
)
from gateway.spa import spa_handlers
from gateway.tracing import Tracing
from gateway.upstream import TransportFactory, UpstreamClients

log = structlog.get_logger("gateway")


def create_app(
    settings: Settings | None = None,
    *,
    transport: TransportFactory | None = None,
    store: Store | None = None,
    tracer_provider: Any = None,
) -> Litestar:
    settings = settings or Settings.from_env()
    configure_logging(settings)
    clients = UpstreamClients(transport)
    metrics = Metrics()
    redis = connect(settings.redis_url) if settings.redis_url else None

    def breaker_changed(breaker: Breaker) -> None:
        metrics.breaker_changed(breaker)
        log.warning("breaker." + breaker.state, skin=breaker.skin, upstream=breaker.upstream,
                    last_failure=breaker.last_failure)  # fmt: skip

    breakers = Breakers(settings.breaker, on_change=breaker_changed)
    holder: dict[str, Gateway] = {}

    def swapped(old: Config, new: Config) -> None:
        metrics.config_version(new.version)
        metrics.config_reloads.labels("applied").inc()
        for skin_id, name, _ in changed_upstreams(old.skins, new.skins):
            breakers.reset(skin_id, name)
        clients.open(new.skins.upstream_origins())
        longest = max(p.deadline_s for p in settings.policies.values()) + 5
        holder["gateway"].background(clients.retire(lambda: holder["gateway"].skins.upstream_origins(), longest))

    async def purge_local(skin_id: str) -> None:
        await holder["gateway"].cache.purge(f"bff:{skin_id}:cache:")

    config = LiveConfig(
        settings.skins_file,
        lambda: skins.builtin(settings.sandbox_url),
        probe=(lambda origin: clients.reachable(origin, within=2.0)) if settings.probe_upstreams else None,
        on_swap=swapped,
        redis=redis,
        on_purge=purge_local,
    )
    metrics.config_version(config.version)
    instance = secrets.token_hex(4)
    presence = Presence(redis, instance) if redis is not None else None
    if redis is not None:
        guard = FailFast()
        shared: Shared = RedisShared(redis, guard)
        sessions_store = store or FailFastStore(RedisStore(redis, namespace=STORE_NAMESPACE), guard)
        flights: SharedFlights[Any] | None = SharedFlights(
            shared, encode_outcome, decode_outcome, instance, shareable=shared_outcome
        )
    else:
        memory = MemoryShared()
        shared, sessions_store, flights = memory, store or ProcessStore(memory, STORE_NAMESPACE + ":"), None
    tracing = Tracing(settings.otel, tracer_provider)
    gateway = holder["gateway"] = Gateway(
        settings, config, clients, Sessions(sessions_store, shared, join_reads=redis is not None),
        XsrfTokens(settings.secret_key), shared, flights,
        policies=dict(settings.policies), metrics=metrics, breakers=breakers, tracing=tracing,
        cache_config=CacheConfig(ttl_s=settings.cache_ttl_s), instance=instance,
        rate_limits=RateLimitConfig(visitor_rate=settings.visitor_rate, visitor_burst=settings.visitor_burst),
    )  # fmt: skip

    @asynccontextmanager
    async def lifespan(_: Litestar) -> AsyncIterator[None]:
        clients.open(config.skins.upstream_origins())
        # What exists now (modules, the app, routes, skins) lives as long as the process: out of
        # the collector's sight, a full collection walks only what requests left behind instead
        # of the whole heap (such walks took ~40 ms each, the gateway's p99, bench/RESULTS.md).
        gc.collect()
        gc.freeze()
        log.info("gateway.started", config_version=config.version, config_source=config.source,
                 skins=[s.id for s in config.skins.all], store="redis" if redis is not None else "memory")  # fmt: skip
        watchers = [
            asyncio.ensure_future(config.watch(settings.skins_poll_s)),
            asyncio.ensure_future(config.listen()),
        ]
        if presence is not None:  # listening before the first lease names this instance
            watchers.append(await presence.start())
        try:
            yield
        finally:
            for task in watchers:
                task.cancel()
            for task in watchers:
                with suppress(asyncio.CancelledError):
                    await task
            await gateway.drain_background(within_s=min(5.0, settings.drain_timeout_s))
            await clients.aclose()
            if redis is not None:
                await redis.aclose()

    app = GatewayApp(
        route_handlers=[*bff.route_handlers, *spa_handlers(settings.spa_dist)],
        lifespan=[lifespan],
        middleware=[DefineMiddleware(AccessLog, gateway=gateway), *tracing.middleware()],
        exception_handlers={
            HTTPException: http_exception_handler,
            StoreUnavailable: store_unavailable_handler,
            Exception: internal_error_handler,
        },
        openapi_config=OpenAPIConfig(title="Casino BFF", version="1", path="/bff/schema"),
        request_max_body_size=settings.max_upload_body,
        state=State({"gateway": gateway}),
        logging_config=None,
    )
    proxied = proxied_app(gateway)
    # Spans come from Litestar's OpenTelemetry middleware, put around the proxied path too.
    app.proxied = tracing.middleware()[0](proxied) if tracing.enabled else proxied
    return app


class GatewayApp(Litestar):
    """Litestar, with the proxied prefixes answered by `proxied_app` before its router.

    Every player request and balance poll is a proxied call: routing a path the prefix already
    decides, Litestar's request and response objects and its per-route stack cost more per
    call than everything the proxy itself does (bench/throughput.py). Everything else (`/bff/*`,
    the SPA) is Litestar's as usual.
    """

    proxied: ASGIApp | None = None

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "http" and self.proxied is not None and scope["path"].startswith(PROXIED_PREFIXES):
            scope["app"] = scope["litestar_app"] = self
            await self.proxied(scope, receive, send)
            return
        await super().__call__(scope, receive, send)


PROXIED_PREFIXES = ("/api/", "/capi/", "/sbapi/", "/rest/")


def proxied_app(gateway: Gateway) -> ASGIApp:
    """The proxied prefixes as one ASGI app: `proxy()` on the raw exchange, its access line
    and metrics, `connection: close` while draining, and the common error JSON for anything
    that goes wrong on the way."""
    access = Access(gateway)

    async def proxied(scope: Any, receive: Any, send: Any) -> None:
        incoming = Incoming(scope, receive)
        ctx = RequestContext(request_id(incoming.headers.get("x-request-id")))
        status = 500
        try:
            try:
                outgoing = await proxy(gateway, incoming, ctx)
            except ClientGone:
                status = 499  # nginx's "client closed request": nobody is left to answer
                return
            except StoreUnavailable:
                outgoing = store_unavailable_answer(ctx)
            except asyncio.CancelledError:
                if not gateway.draining:
                    raise
                outgoing = shutdown_answer(ctx)  # the drain's time ran out while this one waited
            except Exception as exc:
                log.error("unhandled error", request_id=ctx.request_id, error=type(exc).__name__, exc_info=True)
                outgoing = error_answer(500, "INTERNAL", "Something went wrong", ctx)
            if gateway.draining:
                outgoing.headers.append((b"connection", b"close"))
            status = outgoing.status
            try:
                await outgoing.send(send)
            except httpx.TransportError as exc:  # the platform failed mid-stream: the player's copy is cut
                log.warning("upstream.stream_broken", request_id=ctx.request_id, error=type(exc).__name__)
        finally:
            access.record(incoming.method, incoming.path, status, ctx)

    return proxied


def admin_app(app: Litestar) -> Litestar:
    """The admin listener of a public app built by `create_app` (needs `ADMIN_TOKEN`)."""
    gateway: Gateway = app.state.gateway
    return create_admin_app(gateway)

"""The composition root: `create_app(settings)` builds the gateway and nothing else does."""

from __future__ import annotations

import secrets
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from litestar import Litestar, Request, Response, route
from litestar.datastructures import State
from litestar.exceptions import HTTPException
from litestar.openapi import OpenAPIConfig
from litestar.stores.base import Store
from litestar.stores.memory import MemoryStore
from litestar.stores.redis import RedisStore

from gateway import bff, skins
from gateway.dedup import SharedFlights
from gateway.errors import http_exception_handler, internal_error_handler
from gateway.observability import AccessLog, configure_logging
from gateway.proxy import decode_outcome, encode_outcome, proxy
from gateway.runtime import Gateway
from gateway.security import XsrfTokens
from gateway.session import Sessions
from gateway.settings import Settings
from gateway.shared import FailFast, FailFastStore, MemoryShared, RedisShared, Shared, connect
from gateway.spa import spa_handlers
from gateway.upstream import TransportFactory, UpstreamClients, aiohttp_transport

PROXIED = ["/api/{path:path}", "/capi/{path:path}", "/sbapi/{path:path}", "/rest/{path:path}"]


def create_app(
    settings: Settings | None = None,
    *,
    transport: TransportFactory | None = None,
    store: Store | None = None,
) -> Litestar:
    settings = settings or Settings.from_env()
    configure_logging(settings)
    configured = skins.load(settings.skins_file) if settings.skins_file else skins.builtin(settings.sandbox_url)
    clients = UpstreamClients(transport or aiohttp_transport)
    redis = connect(settings.redis_url) if settings.redis_url else None
    if redis is not None:
        guard = FailFast()
        shared: Shared = RedisShared(redis, guard)
        sessions_store = store or FailFastStore(RedisStore(redis, namespace="bff:sessions"), guard)
        flights: SharedFlights[Any] | None = SharedFlights(
            shared, encode_outcome, decode_outcome, instance=secrets.token_hex(4)
        )
    else:
        shared, sessions_store, flights = MemoryShared(), store or MemoryStore(), None
    gateway = Gateway(
        settings, configured, clients, Sessions(sessions_store), XsrfTokens(settings.secret_key), shared, flights
    )

    @asynccontextmanager
    async def lifespan(_: Litestar) -> AsyncIterator[None]:
        clients.open(configured.upstream_origins())
        try:
            yield
        finally:
            await gateway.drain_background()
            await clients.aclose()
            if redis is not None:
                await redis.aclose()

    @route(PROXIED, http_method=["GET", "POST", "PUT", "PATCH", "DELETE"], include_in_schema=False)
    async def forward(request: Request[Any, Any, Any]) -> Response[Any]:
        return await proxy(gateway, request)

    return Litestar(
        route_handlers=[forward, *bff.route_handlers, *spa_handlers(settings.spa_dist)],
        lifespan=[lifespan],
        middleware=[AccessLog],
        exception_handlers={HTTPException: http_exception_handler, Exception: internal_error_handler},
        openapi_config=OpenAPIConfig(title="Casino BFF", version="1", path="/bff/schema"),
        request_max_body_size=settings.max_upload_body,
        state=State({"gateway": gateway}),
        logging_config=None,
    )

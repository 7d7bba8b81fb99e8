"""The admin listener: JSON for operators, `/metrics` for Prometheus, the operators' console.

Served on its own address (`ADMIN_HOST:ADMIN_PORT`), never on a skin's public host, and
only when `ADMIN_TOKEN` is set; every call needs `Authorization: Bearer <ADMIN_TOKEN>` but the
console's page and assets (`console/pages.py`).
Changes are written to the log with who (`X-Admin-User`, else the caller's address), what
and when.
"""

from __future__ import annotations

import hmac
import time
from typing import Any, Protocol, runtime_checkable

import msgspec
import structlog
from litestar import Litestar, Request, delete, get, post, put
from litestar.connection import ASGIConnection
from litestar.di import NamedDependency, Provide
from litestar.exceptions import NotAuthorizedException
from litestar.handlers.base import BaseRouteHandler
from litestar.params import FromPath, JSONBody
from litestar.types import ASGIApp

from gateway.config.live import UPSTREAM_NAMES
from gateway.config.skins import Skin
from gateway.console.pages import console_pages
from gateway.http.asgi import Incoming, Outgoing, RequestContext
from gateway.http.errors import EXCEPTION_HANDLERS, error, store_unavailable
from gateway.operations.metrics import CONTENT_TYPE
from gateway.parts import Gateway
from gateway.shared import keys
from gateway.shared.store import StoreUnavailable

audit = structlog.get_logger("gateway.audit")


class UpstreamChange(msgspec.Struct, forbid_unknown_fields=True):
    url: str
    probe: bool = True
    """Refuse the change unless the new base URL answers HTTP."""


@runtime_checkable
class Workers(Protocol):
    """The worker processes of `--workers N`, when the supervisor serves this listener."""

    def metrics(self) -> bytes:
        """Every worker's metrics, aggregated."""
        ...

    def describe(self) -> dict[str, Any]: ...


class Bearer:
    """The guard of every admin call but the console's page: `Authorization: Bearer <ADMIN_TOKEN>`."""

    def __init__(self, token: str) -> None:
        self.token = token.encode()

    def __call__(self, connection: ASGIConnection[Any, Any, Any, Any], handler: BaseRouteHandler) -> None:
        if handler.opt.get("public"):
            return
        scheme, _, given = connection.headers.get("authorization", "").partition(" ")
        if scheme.lower() != "bearer" or not hmac.compare_digest(given.strip().encode(), self.token):
            raise NotAuthorizedException(
                "A valid admin bearer token is required", headers={"www-authenticate": "Bearer"}
            )


def who(request: Request[Any, Any, Any]) -> str:
    user = request.headers.get("x-admin-user", "").strip()[:80]
    peer = request.client.host if request.client else "?"
    return f"{user} ({peer})" if user else peer


def unknown_skin(gateway: Gateway, skin_id: str, ctx: RequestContext) -> Outgoing | None:
    if any(skin.id == skin_id for skin in gateway.config.skins.all):
        return None
    return error(404, "UNKNOWN_SKIN", f"No skin {skin_id}", ctx)


@get("/metrics", sync_to_thread=False)
def metrics(
    request: Request[Any, Any, Any], gateway: NamedDependency[Gateway], workers: NamedDependency[Workers | None]
) -> Outgoing:
    text = workers.metrics() if workers is not None else gateway.metrics.render()
    return Outgoing.page(200, text, CONTENT_TYPE, RequestContext.of(request.scope))


@get("/admin/status")
async def status(
    request: Request[Any, Any, Any], gateway: NamedDependency[Gateway], workers: NamedDependency[Workers | None]
) -> Outgoing:
    answer = await _status(gateway)
    if workers is not None:
        answer["workers"] = workers.describe()
        del answer["breakers"]  # the supervisor's own never see a call: the workers' are in /metrics
    return Outgoing.json(200, answer, RequestContext.of(request.scope))


@post("/admin/reload", status_code=200)
async def reload(request: Request[Any, Any, Any], gateway: NamedDependency[Gateway]) -> Outgoing:
    result = await gateway.config.broadcast_reload()
    audit.info("admin.reload", who=who(request), outcome=result.outcome, version=result.version, error=result.error)
    ctx = RequestContext.of(request.scope)
    return Outgoing.json(200 if result.outcome != "rejected" else 422, result.describe(), ctx)


@put("/admin/skins/{skin_id:str}/upstreams/{name:str}")
async def set_upstream(
    request: Request[Any, Any, Any],
    gateway: NamedDependency[Gateway],
    skin_id: FromPath[str],
    name: FromPath[str],
    data: JSONBody[UpstreamChange],
) -> Outgoing:
    return await _change_upstream(request, gateway, skin_id, name, data.url, data.probe)


@delete("/admin/skins/{skin_id:str}/upstreams/{name:str}", status_code=200)
async def clear_upstream(
    request: Request[Any, Any, Any], gateway: NamedDependency[Gateway], skin_id: FromPath[str], name: FromPath[str]
) -> Outgoing:
    return await _change_upstream(request, gateway, skin_id, name, None, True)


async def _change_upstream(
    request: Request[Any, Any, Any],
    gateway: NamedDependency[Gateway],
    skin_id: str,
    name: str,
    url: str | None,
    probe: bool,
) -> Outgoing:
    ctx = RequestContext.of(request.scope)
    if (missing := unknown_skin(gateway, skin_id, ctx)) is not None:
        return missing
    if name not in UPSTREAM_NAMES:
        return error(404, "UNKNOWN_UPSTREAM", f"Upstreams are {', '.join(UPSTREAM_NAMES)}", ctx)
    skin = next(s for s in gateway.config.skins.all if s.id == skin_id)
    before = skin.upstreams.base(name)
    result = await gateway.config.set_upstream(skin_id, name, url, probe=probe)
    audit.info(
        "admin.upstream", who=who(request), skin=skin_id, upstream=name, before=before,
        after=url if url is not None else "(the file's value)", outcome=result.outcome,
        version=result.version, error=result.error,
    )  # fmt: skip
    return Outgoing.json(422 if result.outcome == "rejected" else 200, result.describe(), ctx)


@post("/admin/skins/{skin_id:str}/cache/purge", status_code=200)
async def purge(request: Request[Any, Any, Any], gateway: NamedDependency[Gateway], skin_id: FromPath[str]) -> Outgoing:
    ctx = RequestContext.of(request.scope)
    if (missing := unknown_skin(gateway, skin_id, ctx)) is not None:
        return missing
    prefix = keys.content_prefix(skin_id)
    local = await gateway.cache.purge(prefix)
    try:
        shared = await gateway.stores.shared.delete_prefix(prefix)
    except StoreUnavailable:
        return store_unavailable(ctx)
    await gateway.config.broadcast_purge(skin_id)
    audit.info("admin.purge", who=who(request), skin=skin_id, local=local, shared=shared)
    return Outgoing.json(200, {"skin": skin_id, "purged": {"local": local, "shared": shared}}, ctx)


@post("/admin/skins/{skin_id:str}/players/{login:str}/revoke", status_code=200)
async def revoke(
    request: Request[Any, Any, Any], gateway: NamedDependency[Gateway], skin_id: FromPath[str], login: FromPath[str]
) -> Outgoing:
    ctx = RequestContext.of(request.scope)
    if (missing := unknown_skin(gateway, skin_id, ctx)) is not None:
        return missing
    try:
        ended = await gateway.sessions.revoke_player(skin_id, login)
    except StoreUnavailable:
        return store_unavailable(ctx)
    audit.info("admin.revoke", who=who(request), skin=skin_id, login=login, ended=ended)
    return Outgoing.json(200, {"skin": skin_id, "login": login, "sessionsEnded": ended}, ctx)


def create_admin_app(gateway: NamedDependency[Gateway], workers: Workers | None = None) -> Litestar:
    if not gateway.settings.admin_token:
        raise ValueError("the admin listener needs ADMIN_TOKEN")
    app = Litestar(
        route_handlers=[
            metrics,
            status,
            reload,
            set_upstream,
            clear_upstream,
            purge,
            revoke,
            *console_pages(gateway.settings.console_dist),
        ],
        dependencies={
            "gateway": Provide(lambda: gateway, sync_to_thread=False),
            "workers": Provide(lambda: workers, sync_to_thread=False),
        },
        guards=[Bearer(gateway.settings.admin_token)],
        exception_handlers=EXCEPTION_HANDLERS,
        openapi_config=None,
        logging_config=None,
    )
    # Entered before routing (not as middleware, which runs only for a path a handler takes), so
    # that a 404 or 405 of the router is answered with the request's context, not a 500.
    app.asgi_handler = _entered(app.asgi_handler)
    return app


def _entered(app: ASGIApp) -> ASGIApp:
    """The admin listener's requests get their context as the public ones do at the front door."""

    async def entered(scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "http":
            Incoming.enter(scope, receive)
        await app(scope, receive, send)

    return entered


async def _status(gateway: NamedDependency[Gateway]) -> dict[str, Any]:
    store = await gateway.health.store()
    return {
        "config": gateway.config.describe(),
        "draining": gateway.lifecycle.draining,
        "store": {"kind": "redis" if gateway.stores.shared.distributed else "memory", "status": store or "ok"},
        "skins": [_skin(s) for s in gateway.config.skins.all],
        "upstreams": [{"origin": o, "up": ok, "detail": detail} for o, ok, detail in await gateway.health.upstreams()],
        "breakers": [b.describe() for b in gateway.breakers],
        "time": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
    }


def _skin(skin: Skin) -> dict[str, Any]:
    upstreams = {name: skin.upstreams.base(name) for name in UPSTREAM_NAMES}
    return {"id": skin.id, "siteId": skin.site_id, "hosts": list(skin.hosts), "upstreams": upstreams,
            "sportsFeed": skin.sports_feed}  # fmt: skip

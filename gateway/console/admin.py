"""The admin listener: JSON for operators, `/metrics` for Prometheus, the operators' console
(its page and assets: `gateway.console.pages`).

Served on its own address (`ADMIN_HOST:ADMIN_PORT`), never on a skin's public host, and only
when `ADMIN_TOKEN` or `OPERATORS_FILE` is set. Every route goes through the console's guard
(`gateway.accounts.roles`): a bearer token or a console session whose role may do what the
route's `opt={"role": ...}` says. Changes go to the audit trail with the caller's name.
"""

from __future__ import annotations

import time
from typing import Any, Protocol, runtime_checkable

import msgspec
from litestar import Litestar, Request, delete, get, post, put
from litestar.di import NamedDependency, Provide
from litestar.params import FromPath, JSONBody
from litestar.types import ASGIApp

from contracts.catalogue import UPSTREAMS
from gateway.accounts import roles, signin
from gateway.accounts.audit import Action, Audit, AuditEntry, AuditResult
from gateway.accounts.caller import API_REASON, Actor
from gateway.accounts.caller import DEPENDENCIES as CALLER
from gateway.accounts.roles import AdminGuard, Operator
from gateway.accounts.scopes import SkinGuard
from gateway.config.history import Author
from gateway.config.live import Result
from gateway.config.skins import Skin
from gateway.console import canaries, changes, contract, history, operators, overview, trail
from gateway.console import status as status_line
from gateway.console.pages import console_pages
from gateway.console.plans import routes as plans
from gateway.console.settings import changes as skin_settings
from gateway.http.asgi import Incoming, Outgoing, RequestContext
from gateway.http.errors import EXCEPTION_HANDLERS
from gateway.parts import Gateway
from gateway.runtime.metrics import CONTENT_TYPE


class UpstreamChange(msgspec.Struct, forbid_unknown_fields=True):
    url: str
    probe: bool = True
    """Refuse the change unless the new base URL answers HTTP."""
    baseVersion: str | None = None
    """The version the change was made from (409 when it is not current); None: whatever is current."""
    reason: str | None = None
    override: contract.Override | None = None
    """Apply although the URL fails the platform's check (`{"reason"}`, audited)."""


@runtime_checkable
class Workers(Protocol):
    """The worker processes of `--workers N`, when the supervisor serves this listener."""

    def metrics(self) -> bytes:
        """Every worker's metrics, aggregated."""
        ...

    def describe(self) -> dict[str, Any]: ...


def _done(operator: Operator, action: Action, outcome: AuditResult, **fields: Any) -> AuditEntry:
    """An audit entry of this API's: its calls give no reason."""
    return AuditEntry(action, operator.name, operator.via, operator.address, outcome, reason=API_REASON, **fields)


def _outcome(result: Result) -> AuditResult:
    return "refused" if result.result == "rejected" else "ok"


@get("/metrics", opt={"role": "viewer"})
async def metrics(
    request: Request[Any, Any, Any], gateway: NamedDependency[Gateway], workers: NamedDependency[Workers | None]
) -> Outgoing:
    text = workers.metrics() if workers is not None else gateway.metrics.render()
    text += await overview.measure(gateway)  # the upstreams' probes and the instances, measured now
    return Outgoing.page(200, text, CONTENT_TYPE, RequestContext.of(request.scope))


@get("/admin/status", opt={"role": "viewer"})
async def status(
    request: Request[Any, Any, Any], gateway: NamedDependency[Gateway], workers: NamedDependency[Workers | None]
) -> Outgoing:
    answer = await _status(gateway)
    if workers is not None:
        answer["workers"] = workers.describe()
        del answer["breakers"]  # the supervisor's own never see a call: the workers' are in /metrics
    return Outgoing.json(200, answer, RequestContext.of(request.scope))


@post("/admin/reload", status_code=200, opt={"role": "operator", "skins": "every"})
async def reload(
    request: Request[Any, Any, Any],
    gateway: NamedDependency[Gateway],
    operator: NamedDependency[Operator],
    audit: NamedDependency[Audit],
) -> Outgoing:
    result = await gateway.config.broadcast_reload(Author(operator.name, operator.via, API_REASON))
    await audit.record(_done(operator, "reload", _outcome(result), detail=result.describe()))
    ctx = RequestContext.of(request.scope)
    return Outgoing.json(200 if result.result != "rejected" else 422, result.describe(), ctx)


@put("/admin/skins/{skin_id:str}/upstreams/{name:str}", opt={"role": "operator"})
async def set_upstream(
    request: Request[Any, Any, Any],
    gateway: NamedDependency[Gateway],
    caller: NamedDependency[Actor],
    skin_id: FromPath[str],
    name: FromPath[str],
    data: JSONBody[UpstreamChange],
) -> Outgoing:
    asked = changes.Asked(
        skin=skin_id,
        upstream=name,
        url=data.url,
        baseVersion=data.baseVersion,
        reason=data.reason,
        override=data.override,
    )
    return await changes.api_change(gateway, caller, asked, RequestContext.of(request.scope), data.probe)


@delete("/admin/skins/{skin_id:str}/upstreams/{name:str}", status_code=200, opt={"role": "operator"})
async def clear_upstream(
    request: Request[Any, Any, Any],
    gateway: NamedDependency[Gateway],
    caller: NamedDependency[Actor],
    skin_id: FromPath[str],
    name: FromPath[str],
) -> Outgoing:
    query = request.query_params
    given = query.get("overrideReason")
    asked = changes.Asked(
        skin=skin_id,
        upstream=name,
        url=None,
        baseVersion=query.get("baseVersion"),
        reason=query.get("reason"),
        override=contract.Override(given) if given is not None else None,
    )
    return await changes.api_change(gateway, caller, asked, RequestContext.of(request.scope), True)


def create_admin_app(gateway: NamedDependency[Gateway], workers: Workers | None = None) -> Litestar:
    accounts, audit = gateway.accounts, gateway.audit
    if accounts is None or audit is None:
        raise ValueError("the admin listener needs ADMIN_TOKEN or OPERATORS_FILE")
    given = {"gateway": gateway, "workers": workers, "accounts": accounts, "audit": audit}
    guard = AdminGuard(
        accounts.operators, accounts.sessions, audit, accounts.proxies, gateway.settings.admin_token, accounts.limiter
    )
    app = Litestar(
        route_handlers=[
            metrics,
            status,
            reload,
            set_upstream,
            clear_upstream,
            *console_pages(gateway.settings.console_dist),
            *signin.HANDLERS,
            *trail.HANDLERS,
            *changes.route_handlers,
            *skin_settings.route_handlers,
            *canaries.route_handlers,
            *history.route_handlers,
            *overview.route_handlers,
            *operators.route_handlers,
            *status_line.route_handlers,
            *plans.route_handlers,
        ],
        dependencies={
            **{name: Provide(_given(part), sync_to_thread=False) for name, part in given.items()},
            **roles.DEPENDENCIES,
            **CALLER,
            **operators.DEPENDENCIES,
        },
        guards=[guard, SkinGuard(audit)],
        exception_handlers={**EXCEPTION_HANDLERS, **roles.EXCEPTION_HANDLERS},
        request_max_body_size=64 * 1024,
        openapi_config=None,
        logging_config=None,
    )
    # Entered before routing (not as middleware, which runs only for a path a handler takes), so
    # that a 404 or 405 of the router is answered with the request's context, not a 500.
    app.asgi_handler = _entered(app.asgi_handler)
    return app


def _given(part: object) -> Any:
    return lambda: part


def _entered(app: ASGIApp) -> ASGIApp:
    """The admin listener's requests get their context as the public ones do at the front door,
    and the request as it came (`Incoming.of`: the guard reads its headers and cookies)."""

    async def enter(scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await app(scope, receive, send)
            return
        incoming, _ = Incoming.enter(scope, receive)
        with incoming.kept_in(scope):
            await app(scope, receive, send)

    return enter


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
    upstreams = {name: skin.upstreams.base(name) for name in UPSTREAMS}
    return {
        "id": skin.id,
        "siteId": skin.site_id,
        "hosts": list(skin.hosts),
        "upstreams": upstreams,
        "sportsFeed": skin.sports_feed,
    }
